"""`personakit doctor` finds every problem without fixing any; and the vault's git in odd states: a merge
left unfinished, a detached HEAD, a machine with no git identity."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from owner import (
    author,
    changed_lines,
    clean,
    cli,
    cli_process,
    commit_all,
    git,
    propose,
    subjects,
    write_memory,
)

from personakit.store.objects.commits import NO_IDENTITY
from personakit.vault.service import init_vault

Capsys = pytest.CaptureFixture[str]


def snapshot(vault: Path) -> tuple[str, str, dict[str, bytes]]:
    files = {p.name: p.read_bytes() for p in (vault / "memories").iterdir() if not p.is_symlink()}
    return git(vault, "rev-parse", "HEAD"), git(vault, "status", "--porcelain"), files


def test_a_clean_vault_has_no_problems(vault: Path, capsys: Capsys) -> None:
    propose(vault, "Drinks green tea", "Uses vim")
    code, out, _ = cli(capsys, "doctor", "--vault", str(vault))
    assert (code, out.strip()) == (0, f"No problems in {vault} (2 memories)")


def test_doctor_finds_every_problem_with_file_and_line_and_changes_nothing(
    vault: Path, capsys: Capsys, tmp_path: Path
) -> None:
    propose(vault, "Drinks green tea", "Uses vim")  # committed and indexed
    mem = vault / "memories"
    (mem / "broken.md").write_text("---\nstate: approved\n  bad: [indent\n---\nBroken\n")
    write_memory(vault, "typo.md", "Likes jazz", state="aproved")
    write_memory(vault, "pets.md", "Has a cat", category="pets")
    (mem / "copy.md").write_bytes((mem / "uses-vim.md").read_bytes())
    write_memory(vault, "long.md", "Talks " + "at length " * 40)
    write_memory(vault, "secret.md", "Uses a password manager")
    secret = mem / "secret.md"
    secret.write_text(secret.read_text().replace("evidence:\n", "evidence:\n  - my password is hunter2!x9\n"))
    outside = tmp_path / "outside.md"
    outside.write_text("---\nstate: approved\n---\nOutside\n")
    (mem / "link.md").symlink_to(outside)
    commit_all(vault)  # everything above is committed, so the problems below are the only changes
    cli(capsys, "list", "--vault", str(vault))  # and indexed
    tea = mem / "drinks-green-tea.md"
    tea.write_text(tea.read_text().replace("Drinks green tea", "Drinks green tea, hot"))
    before = snapshot(vault)

    code, out, _ = cli(capsys, "doctor", "--vault", str(vault))
    assert code == 1
    expected = [
        "memories/broken.md:3: the front matter is not valid YAML",
        "memories/typo.md:4: state 'aproved' is not a state",
        "memories/pets.md:3: category 'pets' is not one of the seven",
        "memories/copy.md and memories/uses-vim.md have the same id",
        "memories/long.md:10: the text is 405 characters, over the 300",
        "memories/secret.md:6: an evidence quote looks like a password, key or token",
        "memories/link.md: is a symbolic link",
        "memories/drinks-green-tea.md: has changes not committed to git",
        "index: is out of step with 1 file(s) (memories/drinks-green-tea.md)",
    ]
    for line in expected:
        assert line in out, f"{line!r} missing from:\n{out}"
    assert out.strip().splitlines()[-1] == f"{len(expected)} problems in {vault} (7 memories)"
    assert snapshot(vault) == before  # it looked; it fixed nothing


def test_a_hand_edit_with_a_secret_is_not_committed_and_doctor_says_so(
    vault: Path, capsys: Capsys, caplog: pytest.LogCaptureFixture
) -> None:
    propose(vault, "Uses a password manager")
    path = vault / "memories" / "uses-a-password-manager.md"
    path.write_text(path.read_text().replace("evidence:\n", "evidence:\n  - password is hunter2!x9\n"))
    before = subjects(vault)
    assert cli(capsys, "list", "--vault", str(vault))[0] == 0  # the next command takes hand edits in
    assert subjects(vault) == before and not clean(vault)
    assert "holds something shaped like a password or key: not committed" in caplog.text
    out = cli(capsys, "doctor", "--vault", str(vault))[1]
    assert "memories/uses-a-password-manager.md:6: an evidence quote looks like a password" in out
    assert "memories/uses-a-password-manager.md: is not committed to git, and will not be while" in out


def _conflict(vault: Path) -> None:
    write_memory(vault, "tea.md", "Drinks green tea", state="unconfirmed")
    write_memory(vault, "vim.md", "Uses vim", state="unconfirmed")
    commit_all(vault)
    tea = vault / "memories" / "tea.md"
    git(vault, "checkout", "-q", "-b", "laptop")
    tea.write_text(tea.read_text().replace("Drinks green tea", "Drinks green tea with lemon"))
    commit_all(vault, "on the laptop")
    git(vault, "checkout", "-q", "main")
    tea.write_text(tea.read_text().replace("Drinks green tea", "Drinks green tea with honey"))
    commit_all(vault, "on the desktop")
    # git's own text merge (the vault's merge driver would keep both texts, without a conflict)
    text_merge = "merge.personakit.driver=git merge-file -L ours -L base -L theirs %A %O %B"
    merged = subprocess.run(
        ["git", "-C", str(vault), "-c", text_merge, "merge", "-q", "laptop"], capture_output=True, check=False
    )
    assert merged.returncode != 0 and "<<<<<<<" in tea.read_text()


def test_mid_merge_decisions_refuse_with_a_sentence_and_reading_still_works(
    vault: Path, capsys: Capsys
) -> None:
    _conflict(vault)
    before = snapshot(vault)
    for args in (["approve", "vim.md"], ["forget", "vim.md"], ["review"]):
        code, _, err = cli(capsys, *args, "--vault", str(vault))
        assert code == 1
        if args[0] != "review":  # review refuses first for want of a terminal
            assert (
                "in the middle of a merge" in err and "merge --abort" in err and "Nothing was changed" in err
            )
    code, out, err = cli(capsys, "list", "--vault", str(vault))
    assert code == 0 and "Uses vim" in out and "in the middle of a merge" in err
    assert snapshot(vault) == before  # nothing committed, nothing written
    code, out, _ = cli(capsys, "doctor", "--vault", str(vault))
    assert code == 1 and "git: the vault's git repository is in the middle of a merge" in out


def test_on_a_detached_head_decisions_are_still_committed(vault: Path, capsys: Capsys) -> None:
    (tea,) = propose(vault, "Drinks green tea")
    git(vault, "checkout", "-q", "--detach")
    assert cli(capsys, "approve", tea, "--vault", str(vault))[0] == 0
    assert subjects(vault)[0] == f"approve {tea}: Drinks green tea"
    assert changed_lines(vault)[1] == ["-state: unconfirmed", "+state: approved"]
    code, out, _ = cli(capsys, "doctor", "--vault", str(vault))
    assert code == 1 and "git: HEAD is detached" in out and "switch -c" in out


def test_no_git_identity_falls_back_to_personakit_and_says_so_once_per_vault(
    vault: Path, tmp_path: Path, capsys: Capsys, monkeypatch: pytest.MonkeyPatch
) -> None:
    tea, coffee = propose(vault, "Drinks green tea", "Drinks coffee")  # made while there was an identity
    empty = tmp_path / "empty-gitconfig"
    empty.write_text("")
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(empty))
    assert (
        NO_IDENTITY not in cli(capsys, "list", "--vault", str(vault))[2]
    )  # not on a command that only reads
    code, _, err = cli(capsys, "approve", tea, "--vault", str(vault))
    assert code == 0 and err == f"personakit: {NO_IDENTITY}\n"
    assert (
        "git config --global user.name" in NO_IDENTITY and "PersonaKit <personakit@localhost>" in NO_IDENTITY
    )
    assert author(vault) == "PersonaKit <personakit@localhost>"
    assert cli(capsys, "approve", coffee, "--vault", str(vault))[2] == ""  # said once per vault
    assert NO_IDENTITY in cli(capsys, "doctor", "--vault", str(vault))[1]  # doctor lists it, as a note

    code, out, err = cli(capsys, "init", str(tmp_path / "new"))
    assert code == 0 and NO_IDENTITY in err and NO_IDENTITY not in out
    assert author(tmp_path / "new") == "PersonaKit <personakit@localhost>"
    (other,) = propose(tmp_path / "new", "Drinks black tea")
    assert NO_IDENTITY not in cli(capsys, "approve", other, "--vault", str(tmp_path / "new"))[2]

    # The fallback is never written into the vault: an identity set later takes over at once.
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(tmp_path / "home" / ".gitconfig"))
    assert cli(capsys, "reject", other, "--vault", str(tmp_path / "new"))[0] == 0
    assert author(tmp_path / "new") == "Test Owner <owner@example.test>"


def test_an_identity_in_the_environment_counts(vault: Path, tmp_path: Path, capsys: Capsys) -> None:
    (tea,) = propose(vault, "Drinks green tea")
    empty = tmp_path / "empty-gitconfig"
    empty.write_text("")
    env = {
        "GIT_CONFIG_GLOBAL": str(empty),
        "GIT_AUTHOR_NAME": "Env Owner",
        "GIT_AUTHOR_EMAIL": "env@example.test",
    }
    env |= {"GIT_COMMITTER_NAME": "Env Owner", "GIT_COMMITTER_EMAIL": "env@example.test"}
    done = cli_process("approve", tea, "--vault", str(vault), env=env)
    assert done.returncode == 0 and done.stderr == ""
    assert author(vault) == "Env Owner <env@example.test>"
    assert "no name and email" not in cli_process("doctor", "--vault", str(vault), env=env).stdout


def test_a_gitignore_that_lets_the_ledger_in_is_a_problem(vault: Path, capsys: Capsys) -> None:
    (vault / ".gitignore").write_text("*.swp\n")
    commit_all(vault)
    code, out, _ = cli(capsys, "doctor", "--vault", str(vault))
    assert code == 1 and ".gitignore: no longer ignores .personakit/" in out


def test_doctor_on_a_fresh_vault_and_on_no_vault(tmp_path: Path, capsys: Capsys) -> None:
    root = tmp_path / "fresh"
    init_vault(root)
    code, out, _ = cli(capsys, "doctor", "--vault", str(root))
    assert code == 0 and "No problems" in out
    assert not (root / ".personakit" / "index").exists()
    code, _, err = cli(capsys, "doctor", "--vault", str(tmp_path / "nothing"))
    assert code == 1 and "personakit init" in err
    assert not os.path.exists(tmp_path / "nothing")
