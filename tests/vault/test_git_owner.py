"""Git that stays out of the owner's way: commits hold exactly their memory files, the owner's staged work
stays staged, no owner hook runs, commits are signed when the owner asks, a worktree is a vault like
any other, and Obsidian's folder is neither committed nor a problem."""

from __future__ import annotations

import os
import shlex
import stat
import subprocess
from pathlib import Path

import pytest
from owner import changed_lines, clean, cli, cli_process, commit_all, git, propose, subjects, write_memory

from personakit.vault.service import PersonaKit, init_vault

from conftest import call, connect

Capsys = pytest.CaptureFixture[str]


def staged(vault: Path) -> list[str]:
    return git(vault, "diff", "--cached", "--name-only").split()


@pytest.mark.anyio
async def test_a_commit_holds_exactly_its_memory_and_what_the_owner_staged_stays_staged(
    vault: Path, capsys: Capsys
) -> None:
    (vault / "notes.txt").write_text("my own notes, not ready to commit\n")
    (vault / "README.md").write_text((vault / "README.md").read_text() + "A line of my own.\n")
    git(vault, "add", "notes.txt", "README.md")
    mine = staged(vault)
    assert mine == ["README.md", "notes.txt"]

    async with connect(vault) as session:  # an assistant's proposal, through the real server
        tea = (
            await call(session, "personakit_propose", text="Drinks green tea", quote="tea!", category="tools")
        )["id"]
    assert changed_lines(vault)[0] == ["memories/drinks-green-tea.md"]
    assert cli(capsys, "approve", tea, "--vault", str(vault))[0] == 0  # the owner's decision
    assert changed_lines(vault)[0] == ["memories/drinks-green-tea.md"]
    write_memory(vault, "walks.md", "Walks to work")  # a hand edit, taken in by the next command
    assert cli(capsys, "list", "--vault", str(vault))[0] == 0
    assert changed_lines(vault)[0] == ["memories/walks.md"]
    assert cli(capsys, "forget", tea, "--vault", str(vault))[0] == 0
    assert changed_lines(vault)[0] == ["memories/drinks-green-tea.md"]

    assert staged(vault) == mine  # still staged, still uncommitted
    touched = set(git(vault, "log", "--format=", "--name-only", "HEAD~4..HEAD").split())
    assert touched == {"memories/drinks-green-tea.md", "memories/walks.md"}
    status = git(vault, "status", "--porcelain", "--untracked-files=all").splitlines()
    assert status == ["M  README.md", "A  notes.txt"]  # and git's index agrees with every commit


def test_a_commit_made_by_hand_between_two_proposals_is_built_on_not_undone(vault: Path) -> None:
    kit = PersonaKit(vault)
    kit.start()
    try:
        assert kit.propose("Drinks green tea", "tea", "tools")["stored"]
        path = vault / "memories" / "drinks-green-tea.md"
        path.write_text(path.read_text().replace("tools", "preferences"))
        (vault / "notes.txt").write_text("mine\n")
        git(vault, "add", "notes.txt", str(path))
        git(vault, "commit", "-qm", "my own commit")  # HEAD moves behind PersonaKit's back
        assert kit.propose("Walks to work", "walk", "other")["stored"]
    finally:
        kit.close()
    assert subjects(vault)[1] == "my own commit"
    assert changed_lines(vault)[0] == ["memories/walks-to-work.md"]
    assert "category: preferences" in git(vault, "show", "HEAD:memories/drinks-green-tea.md")
    assert git(vault, "show", "HEAD:notes.txt") == "mine\n"
    assert clean(vault)


HOOKS = (
    "pre-commit", "prepare-commit-msg", "commit-msg", "post-commit", "post-index-change",
    "reference-transaction", "post-checkout", "post-merge", "pre-auto-gc", "post-rewrite",
)  # fmt: skip


def install_hooks(folder: Path, marks: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for hook in HOOKS:
        script = folder / hook
        script.write_text(f"#!/bin/sh\ntouch {shlex.quote(str(marks / hook))}\n")
        script.chmod(0o755)


def test_no_owner_hook_runs_for_any_personakit_change(vault: Path, tmp_path: Path, capsys: Capsys) -> None:
    marks = tmp_path / "marks"
    marks.mkdir()
    install_hooks(vault / ".git" / "hooks", marks)
    (vault / "scratch").write_text("x")
    git(vault, "add", "scratch")  # the hooks are live: git itself runs them
    assert "post-index-change" in os.listdir(marks)
    git(vault, "rm", "-q", "--cached", "scratch")
    (vault / "scratch").unlink()
    for mark in marks.iterdir():
        mark.unlink()

    (tea,) = propose(vault, "Drinks green tea")
    assert cli(capsys, "approve", tea, "--vault", str(vault))[0] == 0
    write_memory(vault, "walks.md", "Walks to work")
    assert cli(capsys, "list", "--vault", str(vault))[0] == 0
    install_hooks(tmp_path / "hooks", marks)  # hooks the owner keeps elsewhere count too
    git(vault, "config", "core.hooksPath", str(tmp_path / "hooks"))
    assert cli(capsys, "forget", tea, "--vault", str(vault))[0] == 0
    with open(os.environ["GIT_CONFIG_GLOBAL"], "a") as config:  # and hooks set for every repository
        config.write(f"[core]\n\thooksPath = {tmp_path / 'hooks'}\n")
    assert cli(capsys, "init", str(tmp_path / "second"))[0] == 0
    assert sorted(os.listdir(marks)) == []
    assert subjects(vault)[0].startswith("forget")


def signing_key(tmp_path: Path) -> Path:
    key = tmp_path / "signing-key"
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "owner", "-f", str(key)], check=True)
    return key


@pytest.mark.skipif(not os.path.exists("/usr/bin/ssh-keygen"), reason="needs ssh-keygen")
def test_commits_are_signed_when_the_owners_config_asks(vault: Path, tmp_path: Path, capsys: Capsys) -> None:
    key = signing_key(tmp_path)
    allowed = tmp_path / "allowed-signers"
    allowed.write_text(f'owner@example.test namespaces="git" {key.with_suffix(".pub").read_text()}')
    for name, value in (
        ("gpg.format", "ssh"), ("user.signingKey", str(key)), ("commit.gpgSign", "true"),
        ("gpg.ssh.allowedSignersFile", str(allowed)),
    ):  # fmt: skip
        git(vault, "config", name, value)
    (tea,) = propose(vault, "Drinks green tea")
    git(vault, "verify-commit", "HEAD")  # raises unless a good signature
    code, _, err = cli(capsys, "approve", tea, "--vault", str(vault))
    assert code == 0 and "unsigned" not in err
    git(vault, "verify-commit", "HEAD")
    assert subjects(vault)[0].startswith("approve")


@pytest.mark.anyio
async def test_when_signing_fails_commits_still_land_and_it_is_said_once(vault: Path, tmp_path: Path) -> None:
    git(vault, "config", "commit.gpgSign", "true")
    git(vault, "config", "gpg.program", "false")  # a gpg that always fails
    tea, coffee = propose(vault, "Drinks green tea", "Drinks black coffee")
    done = cli_process("approve", tea, coffee, "--vault", str(vault))
    assert done.returncode == 0, done.stderr
    said = [line for line in done.stderr.splitlines() if "unsigned" in line]
    assert len(said) == 1 and "commit.gpgSign" in said[0] and "gpg" in said[0]
    for rev in ("HEAD", "HEAD~1"):
        assert "gpgsig" not in git(vault, "cat-file", "commit", rev)
    assert subjects(vault)[:2] == [
        f"approve {coffee}: Drinks black coffee",
        f"approve {tea}: Drinks green tea",
    ]

    log = tmp_path / "server.log"
    async with connect(vault, stderr=log) as session:
        for text in ("Likes rain", "Likes snow", "Likes wind"):
            assert (await call(session, "personakit_propose", text=text, quote=text, category="other"))[
                "stored"
            ]
    assert log.read_text().count("unsigned") == 1
    assert subjects(vault)[0] == "propose m_" + subjects(vault)[0].split("m_")[1]


def test_a_vault_in_a_git_worktree_commits_on_its_own_branch(tmp_path: Path, capsys: Capsys) -> None:
    main_vault = tmp_path / "main"
    init_vault(main_vault)
    worktree = tmp_path / "worktree"
    git(main_vault, "worktree", "add", "-q", "-b", "elsewhere", str(worktree))
    assert (worktree / ".git").is_file()
    git_dir = Path(git(worktree, "rev-parse", "--absolute-git-dir").strip())
    (git_dir / "index.lock").write_text("")  # a killed git's lock, long ago, in the worktree's git folder
    os.utime(git_dir / "index.lock", (1, 1))

    (tea,) = propose(worktree, "Drinks green tea")
    assert cli(capsys, "approve", tea, "--vault", str(worktree))[0] == 0
    assert subjects(worktree)[:2] == [f"approve {tea}: Drinks green tea", f"propose {tea}: Drinks green tea"]
    assert subjects(main_vault) == ["Create the PersonaKit vault"]  # the main branch is untouched
    assert not (git_dir / "index.lock").exists()
    assert clean(worktree) and clean(main_vault)
    # HEAD moved in the worktree's own folder, the branch in the shared one, each with its reflog line
    for ref in ("HEAD", "elsewhere"):
        said = git(worktree, "reflog", "--format=%gs", "-2", ref).split("\n")
        assert said[:2] == [
            f"commit: approve {tea}: Drinks green tea",
            f"commit: propose {tea}: Drinks green tea",
        ]
    assert (
        git(main_vault, "reflog", "--format=%gs", "-1", "HEAD").strip()
        == "commit: Create the PersonaKit vault"
    )


def test_a_git_file_that_points_nowhere_is_refused_with_a_sentence(tmp_path: Path) -> None:
    vault = tmp_path / "vault"
    (vault / "memories").mkdir(parents=True)
    (vault / ".git").write_text("gitdir: /nowhere/at/all\n")
    for args in (["list"], ["doctor"], ["serve"]):
        done = cli_process(*args, "--vault", str(vault))
        assert done.returncode == 1
        *first, said = done.stderr.splitlines()  # no usage block: the command line was right
        serving = "personakit: serving "  # serve says so at once
        assert all(line.startswith(serving) for line in first), done.stderr
        assert said.startswith(f"personakit: {vault}/.git should be a file pointing to a repository")


def test_init_in_an_obsidian_vault_commits_only_the_template(tmp_path: Path, capsys: Capsys) -> None:
    folder = tmp_path / "Obsidian Vault"
    (folder / ".obsidian").mkdir(parents=True)
    (folder / ".obsidian" / "app.json").write_text('{"promptDelete": false}')
    (folder / ".obsidian" / "workspace.json").write_text("{}")
    assert cli(capsys, "init", str(folder))[0] == 0
    assert sorted(git(folder, "ls-files").split()) == [
        ".gitattributes",
        ".gitignore",
        "README.md",
        "memories/.gitkeep",
    ]
    assert clean(folder)
    (folder / ".obsidian" / "app.json").write_text('{"promptDelete": true}')  # Obsidian saves its settings
    code, out, _ = cli(capsys, "doctor", "--vault", str(folder))
    assert code == 0 and ".obsidian" not in out, out


def test_an_older_vault_learns_to_ignore_obsidian_once(vault: Path, capsys: Capsys) -> None:
    old = (vault / ".gitignore").read_text().replace(".obsidian/\n", ".obsidian/workspace*.json\n")
    (vault / ".gitignore").write_text(old)
    (vault / ".obsidian").mkdir()
    (vault / ".obsidian" / "app.json").write_text("{}")
    git(vault, "add", ".gitignore", ".obsidian")  # as 0.1's init did in an Obsidian vault
    git(vault, "commit", "-qm", "a 0.1 vault")
    (vault / ".obsidian" / "app.json").write_text('{"theme": "dark"}')
    (vault / ".obsidian" / "graph.json").write_text("{}")
    assert cli(capsys, "list", "--vault", str(vault))[0] == 0
    assert subjects(vault)[0].startswith("Ignore .obsidian/")
    assert changed_lines(vault) == (
        [".gitignore"], ["-.obsidian/workspace*.json", "+.obsidian/"]
    )  # fmt: skip
    assert git(vault, "show", "-s", "--format=%an", "HEAD").strip() == "PersonaKit"

    code, out, _ = cli(capsys, "doctor", "--vault", str(vault))  # tracked settings that changed: a note
    assert code == 0, out
    command = next(line for line in out.splitlines() if "stop tracking" in line).split(
        "them (the files stay): "
    )[1]
    subprocess.run(command, shell=True, check=True, capture_output=True)  # the advice works
    assert clean(vault)
    assert (vault / ".obsidian" / "app.json").exists()

    (vault / ".gitignore").write_text("# mine\n.personakit/\n")  # an owner who dropped the line keeps it so
    commit_all(vault)
    before = len(subjects(vault))
    assert cli(capsys, "list", "--vault", str(vault))[0] == 0
    assert len(subjects(vault)) == before


def test_doctors_advice_for_other_changes_is_a_command_that_works(vault: Path, capsys: Capsys) -> None:
    (vault / "notes.txt").write_text("mine\n")
    (vault / "README.md").unlink()
    (vault / "staged.txt").write_text("staged, not to be swept in\n")
    git(vault, "add", "staged.txt")
    code, out, _ = cli(capsys, "doctor", "--vault", str(vault))
    assert code == 0  # the owner's files beside the memories are theirs: a note, not a problem
    line = next(
        line for line in out.splitlines() if line.startswith("note: README.md, notes.txt, staged.txt")
    )
    subprocess.run(line.split("on every device: ")[1], shell=True, check=True, capture_output=True)
    assert git(vault, "status", "--porcelain") == ""
    assert git(vault, "show", "--format=%s", "--name-status", "HEAD").split() == [
        "My",
        "notes",
        "D",
        "README.md",
        "A",
        "notes.txt",
        "A",
        "staged.txt",
    ]
    assert stat.S_ISREG(os.lstat(vault / "notes.txt").st_mode)
