"""The owner's command line as a shell runs it (each call is `python -m personakit` in its own process):
forgiving input, add and undo, --json, honest history, plain messages, hand-made files keeping their id,
and questions in every script."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pexpect
import pytest
from owner import author, changed_lines, clean, cli_process, commit_all, git, propose, subjects, write_memory

from personakit.core.naming import memory_id
from personakit.vault.service import PersonaKit

DOCS = Path(__file__).resolve().parents[2] / "docs"


@pytest.fixture(autouse=True)
def vault_in_environment(vault: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PERSONAKIT_VAULT", str(vault))  # for commands run from inside the vault


def pk(vault: Path, *args: str, **options: object) -> subprocess.CompletedProcess[str]:
    """`personakit ARGS --vault VAULT` in a process of its own."""
    return cli_process(*args, "--vault", str(vault), **options)  # type: ignore[arg-type]


# -- 6. forgiving input -----------------------------------------------------------------------------------
def test_vault_goes_before_or_after_the_command_but_names_one_folder(vault: Path, tmp_path: Path) -> None:
    propose(vault, "Drinks green tea")
    before = cli_process("--vault", str(vault), "list")
    assert before.returncode == 0 and "Drinks green tea" in before.stdout
    both = cli_process("--vault", str(vault), "list", "--vault", str(vault / "memories" / ".."))
    assert both.returncode == 0 and "Drinks green tea" in both.stdout  # the same folder twice is fine
    two = cli_process("--vault", str(vault), "list", "--vault", str(tmp_path))
    assert two.returncode == 2 and "--vault names two folders" in two.stderr and two.stdout == ""


def test_a_memory_is_named_by_id_prefix_path_or_file_name_in_any_case(vault: Path) -> None:
    tea, coffee, vim, pen = propose(
        vault, "Drinks green tea", "Drinks black coffee", "Uses vim", "Uses a pen"
    )
    assert pk(vault, "approve", tea.upper()[:8]).returncode == 0  # M_ABC...: case does not matter
    inside = cli_process("approve", "./memories/drinks-black-coffee.md", cwd=vault)  # tab completion's form
    assert inside.returncode == 0, inside.stderr  # the vault from $PERSONAKIT_VAULT
    assert pk(vault, "reject", str(vault / "memories" / "uses-vim.md")).returncode == 0
    assert pk(vault, "restrict", "USES-A-PEN.MD").returncode == 0
    assert subjects(vault)[:3] == [
        f"restrict {pen}: Uses a pen",
        f"reject {vim}: Uses vim",
        f"approve {coffee}: Drinks black coffee",
    ]
    shown = pk(vault, "show", "memories/drinks-green-tea.md")
    assert shown.stdout.startswith(f"{tea}  approved  preferences")
    assert pk(vault, "show", "drinks-green-tea").stdout.startswith(tea)  # the name without .md
    outside = pk(vault, "show", str(vault / "README.md"))
    assert outside.returncode == 1 and "is not a file in the vault's memories folder" in outside.stderr


def test_several_ids_are_checked_first_and_one_bad_id_changes_nothing(vault: Path) -> None:
    tea, coffee = propose(vault, "Drinks green tea", "Drinks black coffee")
    before = subjects(vault)
    for verb in ("approve", "forget"):
        done = pk(vault, verb, tea, "zzzz", coffee[:7], "memories/nothing.md")
        assert done.returncode == 1 and done.stdout == ""
        [said] = done.stderr.splitlines()  # one sentence, no usage block: the command line was right
        assert said.startswith("personakit: no memory has an id starting with 'zzzz'")
        assert "there is no memories/nothing.md" in said and said.endswith("nothing was changed")
    assert subjects(vault) == before and clean(vault)
    twice = pk(vault, "approve", tea, tea[:6], "drinks-green-tea.md")
    assert twice.stdout.splitlines() == [f"{tea} approved: Drinks green tea"]  # one memory, named thrice


# -- 7. new commands ---------------------------------------------------------------------------------------
def test_add_is_the_owners_memory_approved_in_one_commit(vault: Path) -> None:
    n = len(subjects(vault))
    added = pk(vault, "add", "Prefers tea to coffee", "--category", "preferences", "--quote", "tea, always")
    mid = memory_id("Prefers tea to coffee")
    assert (added.returncode, added.stdout) == (0, f"added {mid}: Prefers tea to coffee\n")
    assert subjects(vault)[0] == f"add {mid}: Prefers tea to coffee" and len(subjects(vault)) == n + 1
    assert author(vault) == "Test Owner <owner@example.test>" and clean(vault)
    text = (vault / "memories" / "prefers-tea-to-coffee.md").read_text()
    assert "state: approved" in text and "proposed_by: owner" in text and "- tea, always" in text
    refused = pk(vault, "add", "My password is hunter2-Xk9#mPq2!")
    assert refused.returncode == 1 and "looks like a password" in refused.stderr
    assert len(subjects(vault)) == n + 1 and clean(vault)


def test_add_of_what_an_assistant_proposed_approves_it_and_never_unhides_it(vault: Path) -> None:
    tea, vim = propose(vault, "Drinks green tea", "Uses vim")
    again = pk(vault, "add", "drinks green tea.", "--quote", "matcha too")
    assert again.stdout == f"{tea} approved (an assistant had proposed it): Drinks green tea\n"
    assert subjects(vault)[0] == f"approve {tea}: Drinks green tea"
    assert changed_lines(vault)[1] == ["-state: unconfirmed", "+state: approved", "+  - matcha too"]
    assert pk(vault, "restrict", vim).returncode == 0
    hidden = pk(vault, "add", "Uses vim")
    assert (
        hidden.returncode == 1
        and "you restricted it" in hidden.stderr
        and "personakit approve" in hidden.stderr
    )
    assert subjects(vault)[0] == f"restrict {vim}: Uses vim"


def test_undo_reverts_the_owners_last_change_after_showing_it(vault: Path) -> None:
    tea, vim = propose(vault, "Drinks green tea", "Uses vim")
    pk(vault, "approve", tea)
    pk(vault, "forget", vim)
    propose(vault, "Drinks green tea", quote="matcha, please")  # an assistant's quote after the approval
    asked = pk(vault, "undo")  # no terminal: shows the change, refuses to act
    assert asked.returncode == 1 and "personakit undo --yes" in asked.stderr
    assert asked.stdout.startswith("Your last change:\n") and f"forget {vim}: Uses vim" in asked.stdout
    assert "    -Uses vim" in asked.stdout and subjects(vault)[0].startswith("evidence for")

    first = pk(vault, "undo", "--yes")
    assert first.returncode == 0, first.stderr
    assert (
        subjects(vault)[0].startswith(f"undo {vim}: Uses vim (reverts ") and ", forget)" in subjects(vault)[0]
    )
    assert (vault / "memories" / "uses-vim.md").exists() and clean(vault)
    second = pk(vault, "undo", "--yes")  # one step further back: the approval, not the undo
    assert f"approve {tea}: Drinks green tea" in second.stdout
    assert changed_lines(vault) == (
        ["memories/drinks-green-tea.md"],
        ["-state: approved", "+state: unconfirmed"],
    )
    assert (
        "matcha, please" in (vault / "memories" / "drinks-green-tea.md").read_text()
    )  # kept, like git revert
    found = json.loads(pk(vault, "search", "green tea", "--json").stdout)["memories"]
    assert [m["confirmed"] for m in found] == [False]  # the index is level with the files
    nothing = pk(vault, "undo", "--yes")  # proposals are the assistant's: nothing of the owner's is left
    assert nothing.returncode == 1 and "nothing to undo" in nothing.stderr


def test_undo_on_a_terminal_asks_first(vault: Path) -> None:
    (tea,) = propose(vault, "Drinks green tea")
    pk(vault, "approve", tea)
    before = subjects(vault)
    for answer, done in (
        ("n", "Nothing was changed."),
        ("y", f"Done: undo {tea}: Drinks green tea (reverts "),
    ):
        child = pexpect.spawn(
            sys.executable, ["-m", "personakit", "undo", "--vault", str(vault)],
            env=dict(os.environ), encoding="utf-8", timeout=30,
        )  # fmt: skip
        child.expect(r"Undo it\? \[y/N\] ")
        assert f"approve {tea}: Drinks green tea" in str(child.before)
        child.sendline(answer)
        child.expect(pexpect.EOF)
        child.close()
        assert child.exitstatus == 0 and done in str(child.before)
    assert subjects(vault)[1:] == before and subjects(vault)[0].startswith(f"undo {tea}")


def test_undo_refuses_a_change_that_clashes_and_changes_nothing(vault: Path) -> None:
    (tea,) = propose(vault, "Drinks green tea")
    pk(vault, "approve", tea)
    path = vault / "memories" / "drinks-green-tea.md"
    path.write_text(path.read_text().replace("state: approved", "state: rejected"))
    git(vault, "commit", "-qam", "my own commit")  # made with git: not PersonaKit's, passed over
    before = subjects(vault)
    refused = pk(vault, "undo", "--yes")
    assert refused.returncode == 1 and f"approve {tea}" in refused.stdout
    assert "changed since in the same lines" in refused.stderr
    assert subjects(vault) == before and clean(vault) and "state: rejected" in path.read_text()


# -- --json -------------------------------------------------------------------------------------------------
def test_json_for_scripts_on_list_show_search_and_log(vault: Path) -> None:
    (tea,) = propose(vault, "Drinks green tea", host="cursor")
    pk(vault, "approve", tea)
    kit = PersonaKit(vault)
    kit.start()
    kit.read("what tea?", host="claude-desktop")
    kit.close()
    listed = json.loads(pk(vault, "list", "--json").stdout)
    assert listed == [
        {
            "id": tea, "text": "Drinks green tea", "category": "preferences", "state": "approved",
            "file": "memories/drinks-green-tea.md", "created": listed[0]["created"], "proposed_by": "cursor",
            "evidence": ["I said: drinks green tea"], "pending_evidence": [], "problems": [],
            "about": [], "said": listed[0]["created"][:10], "until": None,
        }
    ]  # fmt: skip
    assert json.loads(pk(vault, "list", "--state", "rejected", "--json").stdout) == []
    shown = json.loads(pk(vault, "show", tea, "--json").stdout)
    assert [e["what"] for e in shown["history"]] == ["proposed", "approved"]
    assert shown["history"][1]["who"] == "Test Owner" and shown["last_read"]["host"] == "claude-desktop"
    log = json.loads(pk(vault, "log", "--json").stdout)
    assert set(log[0]) == {"at", "who", "email", "new_identity", "what", "memory", "subject", "commit"}
    assert (log[0]["what"], log[0]["memory"]) == ("approved", tea) and log[-1]["what"] == "commit"
    reads = json.loads(pk(vault, "log", "--reads", "--json").stdout)
    assert reads == [
        {
            "at": reads[0]["at"], "host": "claude-desktop", "question": "what tea?",
            "given": [{"id": tea, "text": "Drinks green tea"}], "withheld": 0,
        }
    ]  # fmt: skip
    assert json.loads(pk(vault, "search", "tea", "--json").stdout)["memories"][0]["id"] == tea


# -- 8. honest history --------------------------------------------------------------------------------------
def test_a_state_changed_by_hand_is_logged_as_the_decision(vault: Path) -> None:
    (tea,) = propose(vault, "Drinks green tea")
    path = vault / "memories" / "drinks-green-tea.md"
    path.write_text(path.read_text().replace("state: unconfirmed", "state: rejected"))
    log = pk(vault, "log").stdout.splitlines()
    assert log[0].endswith(f"reject {tea}: Drinks green tea (by hand)")
    path.write_text(path.read_text().replace("state: rejected", "state: aproved"))  # a typo is an edit
    assert pk(vault, "log").stdout.splitlines()[0].endswith(f"edit {tea}: Drinks green tea (by hand)")
    assert "rejected by hand" in pk(vault, "show", tea).stdout


def test_log_shows_commits_that_came_in_through_a_merge_and_reads_show_text(vault: Path) -> None:
    (tea,) = propose(vault, "Drinks green tea")
    git(vault, "checkout", "-qb", "laptop")
    # On another device, an hour earlier: were both approvals made in the same second, git would make the
    # very same commit twice and the merge would bring in nothing.
    earlier = {"GIT_AUTHOR_DATE": "2026-11-30T10:00:00Z", "GIT_COMMITTER_DATE": "2026-11-30T10:00:00Z"}
    pk(vault, "approve", tea, env=earlier)
    git(vault, "checkout", "-q", "main")
    pk(vault, "approve", tea)  # the same decision here too
    git(vault, "merge", "-q", "--no-edit", "laptop")
    approvals = [line for line in pk(vault, "log").stdout.splitlines() if f"approve {tea}" in line]
    assert len(approvals) == 2  # git's default simplification would show one
    kit = PersonaKit(vault)
    kit.start()
    kit.read("what tea?", host="cursor")
    kit.close()
    pk(vault, "restrict", tea)
    reads = pk(vault, "log", "--reads").stdout
    assert f"    given: {tea}  Drinks green tea\n" in reads  # the owner's eyes: text whatever its state


# -- 9. plain messages --------------------------------------------------------------------------------------
def test_odd_states_and_empty_lists_are_said_plainly(vault: Path) -> None:
    assert pk(vault, "list").stdout == "No memories.\n"
    write_memory(vault, "typo.md", "Coffee makes her anxious", "aproved")
    write_memory(vault, "none.md", "Likes jazz", "[approved]")
    commit_all(vault)
    listed = pk(vault, "list").stdout
    assert "restricted (state 'aproved' is not a state) preferences" in listed
    assert "restricted (state is a list, not a state)" in listed
    assert not re.search(r"None|\['|False", listed)
    assert pk(vault, "list", "--state", "unconfirmed").stdout == "No unconfirmed memories.\n"
    shown = pk(vault, "show", "typo.md").stdout
    assert shown.splitlines()[0].endswith("restricted (state 'aproved' is not a state)  preferences")


def test_the_top_level_help_speaks_to_the_owner() -> None:
    helped = cli_process("--help").stdout
    assert "memory files in a folder you own" in helped and "personakit demo" in helped
    assert "docs/" in helped and "cli.md" in helped
    commands = re.findall(r"^    (\w+) ", helped, re.M)
    assert commands[:4] == ["review", "approve", "reject", "restrict"] and commands.index("doctor") > 8


# -- 10. hand-made memory files keep their id ---------------------------------------------------------------
def test_a_hand_made_file_gets_its_id_written_in_and_keeps_it(vault: Path) -> None:
    path = vault / "memories" / "neovim.md"
    path.write_text("---\ncategory: tools\nstate: approved\n---\nUses Neovim for all editing\n")
    mid = memory_id("Uses Neovim for all editing")
    assert pk(vault, "list").returncode == 0
    assert (
        path.read_text()
        == f"---\nid: {mid}\ncategory: tools\nstate: approved\n---\nUses Neovim for all editing\n"
    )
    assert subjects(vault)[0] == f"edit {mid}: Uses Neovim for all editing (by hand)" and clean(vault)
    assert "wrote the memory's id" in git(vault, "log", "-1", "--format=%b")
    assert git(vault, "show", "HEAD:memories/neovim.md") == path.read_text()  # one commit, id and all
    path.write_text(path.read_text().replace("Uses Neovim for all editing", "Uses Helix now"))
    assert pk(vault, "show", mid).stdout.splitlines()[1] == "Uses Helix now"  # the id stayed
    assert subjects(vault)[0] == f"edit {mid}: Uses Helix now (by hand)"
    (vault / "memories" / "emacs.md").write_text("---\nstate: approved\ncategory: tools\n---\nUses Emacs\n")
    commit_all(vault)  # as git would bring it from another clone, before any PersonaKit took it in
    shutil.rmtree(vault / ".personakit" / "index")
    doctor = pk(vault, "doctor")
    assert doctor.returncode == 0, doctor.stdout  # a missing id is not a problem


def test_the_id_is_written_only_into_the_file_as_it_was_read(vault: Path) -> None:
    from personakit.core.memory import parse_memory
    from personakit.vault.intake import write_id

    path = vault / "memories" / "vim.md"
    read = "---\nstate: approved\n---\nUses vim\n"
    path.write_text(read.replace("vim", "vim, mostly"))  # an editor saved again after the read
    kit = PersonaKit(vault)
    kit.start()  # takes the file in: writes its id
    try:
        assert path.read_text().startswith("---\nid: ")
        path.write_text(read.replace("vim", "neovim"))  # the editor's next save, not yet taken in
        with kit.files.lock():
            assert write_id(kit, parse_memory(read, "vim.md"), read) is False
        assert path.read_text() == read.replace("vim", "neovim")  # the editor's save wins, untouched
    finally:
        kit.close()


# -- 11. text in every script --------------------------------------------------------------------------------
SCRIPTS = [  # a memory, a question it answers, and its file's name
    ("喜欢喝绿茶，不加糖", "他喜欢喝什么茶？", "喜欢喝绿茶-不加糖.md"),
    ("猫を二匹飼っている", "猫を飼っていますか？", "猫を二匹飼っている.md"),
    ("녹차를 좋아한다", "어떤 차를 좋아해요?", "녹차를-좋아한다.md"),
]


def test_questions_in_chinese_japanese_and_korean_find_their_memories(vault: Path) -> None:
    propose(vault, *(memory for memory, _, _ in SCRIPTS), "Drinks black coffee", "Lives in Zürich")
    for memory, question, name in SCRIPTS:
        found = json.loads(pk(vault, "search", question, "--json").stdout)["memories"]
        assert [m["text"] for m in found][:1] == [memory], question
        assert (vault / "memories" / name).is_file()
    assert (vault / "memories" / "lives-in-zurich.md").is_file()  # Latin names stay plain ASCII
    assert (
        pk(vault, "forget", "喜欢喝绿茶-不加糖.md").returncode == 0
    )  # a file name as tab completion gives it
    assert "\n  memories/喜欢喝绿茶-不加糖.md\n" in pk(vault, "undo").stdout  # shown as named, not git-quoted


# -- 12. small things ----------------------------------------------------------------------------------------
def test_the_diagram_numbers_use_no_css_font_shorthand() -> None:
    svg = (DOCS / "assets" / "read-flow.svg").read_text()
    assert not re.search(r"\bfont\s*:", svg)
    numbers = re.findall(r'<text class="num"[^>]*>', svg)
    assert len(numbers) == 8 and all('font-size="12"' in n and 'font-weight="700"' in n for n in numbers)


def test_connecting_md_shows_what_serve_prints(tmp_path: Path) -> None:
    shown = (DOCS / "connecting.md").read_text().split("personakit serve\n", 1)[1].split("```", 1)[0]
    expected = [line.removeprefix("# ") for line in shown.splitlines() if line.startswith("# ")]
    where = tmp_path / "fresh"
    said = cli_process("serve", "--vault", str(where)).stderr.splitlines()  # stdin closed: it stops
    assert said == [line.replace("/Users/sam/PersonaKit", str(where)) for line in expected]
    again = cli_process("serve", "--vault", str(where)).stderr.splitlines()
    assert again == [expected[0].replace("/Users/sam/PersonaKit", str(where))]
