"""A half-set git identity: what git has is used, and the sentence says exactly what is missing."""

from __future__ import annotations

from pathlib import Path

from owner import author, cli_process, propose


def config(tmp_path: Path, text: str) -> dict[str, str]:
    path = tmp_path / "half-gitconfig"
    path.write_text(text)
    return {"GIT_CONFIG_GLOBAL": str(path)}


def test_an_email_without_a_name_is_used_and_the_name_is_asked_for(vault: Path, tmp_path: Path) -> None:
    tea, coffee = propose(vault, "Drinks green tea", "Drinks coffee")
    env = config(tmp_path, "[user]\n\temail = sam@example.com\n")
    done = cli_process("approve", tea, "--vault", str(vault), env=env)
    assert done.returncode == 0, done.stderr
    assert done.stderr == (
        "personakit: git has your email (sam@example.com) but no name on this machine, so your commits are "
        "signed 'sam <sam@example.com>'; to add your name, run: git config --global user.name 'Your Name'\n"
    )
    assert author(vault) == "sam <sam@example.com>"
    assert cli_process("approve", coffee, "--vault", str(vault), env=env).stderr == ""  # said once
    doctor = cli_process("doctor", "--vault", str(vault), env=env)
    assert (
        doctor.returncode == 0 and "note: git has your email (sam@example.com) but no name" in doctor.stdout
    )


def test_a_name_without_an_email_is_used_and_the_email_is_asked_for(vault: Path, tmp_path: Path) -> None:
    (tea,) = propose(vault, "Drinks green tea")
    env = config(tmp_path, "[user]\n\tname = Sam Rivera\n")
    done = cli_process("reject", tea, "--vault", str(vault), env=env)
    assert done.returncode == 0, done.stderr
    assert "git has your name (Sam Rivera) but no email" in done.stderr
    assert "git config --global user.email you@example.com" in done.stderr and "user.name" not in done.stderr
    assert author(vault) == "Sam Rivera <personakit@localhost>"
