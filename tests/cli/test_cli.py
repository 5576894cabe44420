"""The owner's scripted commands end to end on a real vault with real git: each decision is one commit
whose diff is exactly that decision, ids may be prefixes, and every command is documented."""

from __future__ import annotations

import json
import re
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

from personakit.cli import COMMANDS
from personakit.core.memory import set_category
from personakit.core.naming import memory_id
from personakit.vault.service import PersonaKit

from rawclient import RawServer

Capsys = pytest.CaptureFixture[str]
DOCS = Path(__file__).resolve().parents[2] / "docs"


@pytest.mark.parametrize(
    ("verb", "state"), [("approve", "approved"), ("reject", "rejected"), ("restrict", "restricted")]
)
def test_each_decision_is_one_commit_whose_diff_is_the_decision(
    vault: Path, capsys: Capsys, verb: str, state: str
) -> None:
    tea, coffee = propose(vault, "Drinks green tea", "Drinks black coffee")
    before = len(subjects(vault))
    code, out, _ = cli(capsys, verb, tea, coffee[:6], "--vault", str(vault))
    assert code == 0
    assert out.splitlines() == [f"{tea} {state}: Drinks green tea", f"{coffee} {state}: Drinks black coffee"]
    assert len(subjects(vault)) == before + 2
    assert subjects(vault)[:2] == [f"{verb} {coffee}: Drinks black coffee", f"{verb} {tea}: Drinks green tea"]
    for rev, name in (("HEAD", "drinks-black-coffee.md"), ("HEAD~1", "drinks-green-tea.md")):
        files, lines = changed_lines(vault, rev)
        assert files == [f"memories/{name}"]
        assert lines == ["-state: unconfirmed", f"+state: {state}"]
        assert author(vault, rev) == "Test Owner <owner@example.test>"
    assert clean(vault)
    code, out, _ = cli(capsys, verb, tea, "--vault", str(vault))
    assert (code, out.strip()) == (0, f"{tea} was already {state}")
    assert len(subjects(vault)) == before + 2  # deciding again changes nothing


def test_decisions_keep_what_a_person_added_to_the_file(vault: Path, capsys: Capsys) -> None:
    path = vault / "memories" / "tea.md"
    original = (
        "---\n# reviewed on the train\nid: {id}\ncategory:   preferences   # or tools?\n"
        'state: unconfirmed\n\nevidence:\n    - "green tea, always"\n'
        "proposed_by: cursor\ncreated: 2026-01-01T00:00:00Z\nmood: cheerful\ntags: [a, b]\n---\n"
        "Drinks green tea\n\nA second paragraph I wrote myself.\n"
    ).format(id=memory_id("Drinks green tea"))
    path.write_text(original)
    commit_all(vault)
    assert cli(capsys, "approve", "tea.md", "--vault", str(vault))[0] == 0
    lines = ["-state: unconfirmed", "+state: approved"]
    assert changed_lines(vault) == (["memories/tea.md"], lines)
    assert path.read_text() == original.replace("state: unconfirmed", "state: approved")
    propose(vault, "Drinks green tea")  # the same memory again, with a new quote: it waits for the owner
    files, lines = changed_lines(vault)
    assert files == ["memories/tea.md"] and lines == ["+pending_evidence:", "+  - 'I said: drinks green tea'"]
    assert "mood: cheerful" in path.read_text() and "# reviewed on the train" in path.read_text()


def test_set_category_touches_one_line_and_keeps_its_comment() -> None:
    raw = "---\nid: m_0123456789ab\ncategory: preferences  # hmm\nstate: approved\n---\nUses vim\n"
    assert set_category(raw, "tools") == raw.replace("category: preferences", "category: tools")
    assert (
        set_category("---\nstate: approved\n---\nx\n", "tools")
        == "---\nstate: approved\ncategory: tools\n---\nx\n"
    )
    with pytest.raises(ValueError):
        set_category(raw, "hobbies")


def test_ids_may_be_unique_prefixes_and_bad_ones_say_what_to_do(vault: Path, capsys: Capsys) -> None:
    texts = [f"Owns {n} bicycles" for n in range(17)]  # 17 ids: two must share their first hex digit
    for n, text in enumerate(texts):
        write_memory(vault, f"bikes-{n}.md", text)
    commit_all(vault)
    ids = [memory_id(t) for t in texts]
    first = ids[0]
    code, out, _ = cli(capsys, "approve", first[2:7], "--vault", str(vault))
    assert code == 0 and out.startswith(first)
    code, _, err = cli(capsys, "approve", "zzzz", "--vault", str(vault))
    assert code == 1 and "no memory has an id starting with 'zzzz'" in err and "personakit list" in err
    shared = next(a[:3] for a in ids for b in ids if a != b and a[:3] == b[:3])
    before = subjects(vault)
    code, _, err = cli(capsys, "restrict", shared, "--vault", str(vault))
    assert code == 1 and "give more of the id" in err
    assert subjects(vault) == before and clean(vault)


def test_forget_removes_everywhere_and_a_new_proposal_is_new_again(vault: Path, capsys: Capsys) -> None:
    (tea,) = propose(vault, "Drinks green tea")
    cli(capsys, "approve", tea, "--vault", str(vault))
    code, out, _ = cli(capsys, "forget", tea[:8], "--vault", str(vault))
    assert (code, out.strip()) == (0, f"forgot {tea}: Drinks green tea")
    assert subjects(vault)[0] == f"forget {tea}: Drinks green tea"
    files, lines = changed_lines(vault)
    assert files == ["memories/drinks-green-tea.md"] and all(line.startswith("-") for line in lines)
    assert not (vault / "memories" / "drinks-green-tea.md").exists() and clean(vault)
    assert cli(capsys, "list", "--vault", str(vault))[1] == "No memories.\n"
    assert json.loads(cli(capsys, "search", "tea", "--json", "--vault", str(vault))[1])["memories"] == []
    assert cli(capsys, "show", tea, "--vault", str(vault))[0] == 1
    kit = PersonaKit(vault)
    kit.start()
    again = kit.propose("Drinks green tea", "tea again", "preferences", host="cursor")
    kit.close()
    assert again == {"stored": True, "id": tea, "new": True, "state": "unconfirmed"}


def test_list_filters_by_state_and_category(vault: Path, capsys: Capsys) -> None:
    tea, _ = propose(vault, "Drinks green tea", "Uses vim", category="tools")
    cli(capsys, "approve", tea, "--vault", str(vault))
    rows = cli(capsys, "list", "--vault", str(vault))[1].splitlines()
    assert len(rows) == 2
    approved = cli(capsys, "list", "--state", "approved", "--vault", str(vault))[1].splitlines()
    assert [r.split()[:3] for r in approved] == [[tea, "approved", "tools"]]
    empty = cli(capsys, "list", "--state", "rejected", "--category", "communication", "--vault", str(vault))[
        1
    ]
    assert empty == "No rejected memories in the category communication.\n"


def test_show_tells_the_whole_story(vault: Path, capsys: Capsys) -> None:
    (tea,) = propose(vault, "Drinks green tea", host="claude-desktop")
    propose(
        vault, "drinks GREEN tea.", host="cursor", quote="matcha counts too"
    )  # new evidence, another host
    cli(capsys, "approve", tea, "--vault", str(vault))
    path = vault / "memories" / "drinks-green-tea.md"
    path.write_text(path.read_text().replace("Drinks green tea", "Drinks green tea, no sugar"))
    kit = PersonaKit(vault)
    kit.start()  # takes the hand edit in, as the next command or a running server does
    kit.read("what tea does she drink?", host="claude-desktop")
    kit.close()
    code, out, _ = cli(capsys, "show", tea[:6], "--vault", str(vault))
    assert code == 0
    assert out.startswith(f"{tea}  approved  preferences\nDrinks green tea, no sugar\n")
    assert "proposed:  by claude-desktop" in out and "I said: drinks green tea" in out
    history = out.split("history (git, oldest first):\n")[1].splitlines()
    steps = [re.sub(r"^\s*\S+ \S+\s+", "", line) for line in history[:4]]
    assert [s.split("  ")[0].strip() for s in steps] == [
        "proposed", "added evidence", "approved", "edited by hand"
    ]  # fmt: skip
    assert "claude-desktop (assistant)" in history[0] and "cursor (assistant)" in history[1]
    assert "Test Owner" in history[2] and "Test Owner" in history[3]
    assert "last read:" in out and "by claude-desktop, asking 'what tea does she drink?'" in out


def test_show_follows_a_file_renamed_by_hand(vault: Path, capsys: Capsys) -> None:
    (tea,) = propose(vault, "Drinks green tea", host="claude-desktop")
    cli(capsys, "approve", tea, "--vault", str(vault))
    (vault / "memories" / "drinks-green-tea.md").rename(vault / "memories" / "tea.md")
    code, out, _ = cli(capsys, "show", tea, "--vault", str(vault))  # commits the rename first
    assert code == 0 and "file:      memories/tea.md" in out and clean(vault)
    history = out.split("history (git, oldest first):\n")[1].splitlines()[:-1]
    steps = [re.sub(r"^\s*\S+ \S+\s+", "", line).split("  ")[0].strip() for line in history]
    assert steps[:2] == ["proposed", "approved"] and steps[-1] in ("renamed by hand", "edited by hand")
    assert "claude-desktop (assistant)" in history[0]


def test_search_shows_the_assistants_answer_then_what_was_withheld_and_why(
    vault: Path, capsys: Capsys
) -> None:
    write_memory(vault, "a.md", "Drinks black coffee every morning", "approved")
    write_memory(vault, "b.md", "Drinks coffee", "unconfirmed")
    write_memory(vault, "c.md", "Coffee after lunch gives headaches", "restricted")
    write_memory(vault, "d.md", "Likes strong coffee", "rejected")
    write_memory(vault, "e.md", "Coffee makes her anxious", "aproved")  # a typo: treated as restricted
    write_memory(vault, "f.md", "Lives in Lisbon", "approved")
    commit_all(vault)
    question = "What coffee does she drink in the morning?"
    code, out, _ = cli(capsys, "search", question, "--vault", str(vault))
    assert code == 0
    answer, owner_part = out.split("\nFor your eyes only", 1)
    kit = PersonaKit(vault)
    kit.start()
    assert json.loads(answer) == kit.read(question, record=False)  # exactly what an assistant gets
    kit.close()
    assert json.loads(answer)["withheld"] == 2
    ids = {
        t: memory_id(t) for t in ("Drinks black coffee every morning", "Coffee after lunch gives headaches")
    }
    assert f"{ids['Drinks black coffee every morning']}  shares: coffee, drink, morning" in owner_part
    assert "withheld (2; counted, never shown):" in owner_part
    assert (
        f"{ids['Coffee after lunch gives headaches']}  restricted: 'Coffee after lunch gives headaches'"
        in owner_part
    )
    assert "state 'aproved' is not a state" in owner_part and "Coffee makes her anxious" in owner_part
    assert "rejected, so never returned: 'Likes strong coffee'" in owner_part
    assert f"{memory_id('Lives in Lisbon')}  fill: " in owner_part  # shares no word: an approved one filling
    assert not (
        vault / ".personakit" / "reads.jsonl"
    ).exists()  # the owner's search is not an assistant's read
    only = cli(capsys, "search", question, "--json", "--vault", str(vault))[1]
    assert json.loads(only) == json.loads(answer)


def test_log_is_the_trail_newest_first_and_reads_is_the_ledger(vault: Path, capsys: Capsys) -> None:
    tea, vim = propose(vault, "Drinks green tea", "Uses vim")
    cli(capsys, "approve", tea, "--vault", str(vault))
    path = vault / "memories" / "uses-vim.md"
    path.write_text(path.read_text().replace("Uses vim", "Uses neovim"))
    cli(capsys, "forget", vim, "--vault", str(vault))  # the command first commits the hand edit
    code, out, _ = cli(capsys, "log", "--vault", str(vault))
    assert code == 0
    trail = [re.sub(r"^\S+ \S+\s+", "", line) for line in out.splitlines()]
    assert trail[:5] == [
        f"Test Owner                   forget {vim}: Uses neovim",
        f"Test Owner                   edit {vim}: Uses neovim (by hand)",
        f"Test Owner                   approve {tea}: Drinks green tea",
        f"claude-desktop (assistant)   propose {vim}: Uses vim",
        f"claude-desktop (assistant)   propose {tea}: Drinks green tea",
    ]
    assert cli(capsys, "log", "--reads", "--vault", str(vault))[1].strip() == "No reads recorded."

    kit = PersonaKit(vault)
    kit.start()
    kit.read("tea?", host="claude-desktop")
    kit.read("anything about vim?", host="cursor")
    kit.close()
    ledger = vault / ".personakit" / "reads.jsonl"
    old = {"at": "2020-01-01T00:00:00Z", "host": "old-host", "question": "long ago", "ids": [], "withheld": 0}
    ledger.write_text(json.dumps(old) + "\n" + ledger.read_text() + "{not json\n")
    out = cli(capsys, "log", "--reads", "--vault", str(vault))[1]
    assert out.index("cursor asked 'anything about vim?'") < out.index("claude-desktop asked 'tea?'")
    assert f"given: {tea}" in out and "old-host" in out
    week = cli(capsys, "log", "--reads", "--since", "7d", "--vault", str(vault))[1]
    assert "old-host" not in week and "cursor" in week
    assert cli(capsys, "log", "--since", "yesterday-ish", "--vault", str(vault))[0] == 1
    assert git(vault, "ls-files", ".personakit") == "" and clean(vault)  # the ledger is never in git


def test_the_ledger_stays_bounded_and_log_reads_both_halves(vault: Path, capsys: Capsys) -> None:
    (tea,) = propose(vault, "Drinks green tea")
    state = vault / ".personakit"
    entry = {"at": "2026-01-01T00:00:00Z", "host": "old-host", "question": "q", "ids": [], "withheld": 0}
    line = json.dumps(entry) + "\n"
    (state / "reads.jsonl").write_text(line * (5_000_000 // len(line) + 1))  # just over 5 MB
    kit = PersonaKit(vault)
    kit.start()
    kit.read("tea", host="cursor")
    kit.close()
    assert (state / "reads.1.jsonl").stat().st_size > 5_000_000
    assert (state / "reads.jsonl").stat().st_size < 1_000  # a new ledger began
    out = cli(capsys, "log", "--reads", "--limit", "2", "--vault", str(vault))[1].splitlines()
    assert "cursor asked 'tea'" in out[0] and f"given: {tea}" in out[1]
    assert "old-host" in cli(capsys, "log", "--reads", "--limit", "3", "--vault", str(vault))[1]


def test_reindex_rebuilds_from_the_files(vault: Path, capsys: Capsys) -> None:
    propose(vault, "Drinks green tea", "Uses vim")
    code, out, _ = cli(capsys, "reindex", "--vault", str(vault))
    assert (code, out.strip()) == (0, "indexed 2 memories")


def test_reindex_writes_the_common_words_a_served_read_then_finds_the_same(
    vault: Path, capsys: Capsys
) -> None:
    """`reindex` writes a big segment's common words and the words it has beside it (`store.postings.Written`):
    a server started on the index answers from them as it answers without them."""
    drinks = ("tea", "coffee", "cocoa", "water")
    for n in range(1100):  # one segment past SEGMENT_FROM: its postings are kept, its common words written
        write_memory(vault, f"m{n}.md", f"Drinks {drinks[n % 4]} at {n} o'clock", state="approved")
    commit_all(vault)
    assert cli(capsys, "reindex", "--vault", str(vault))[:2] == (0, "indexed 1100 memories\n")
    index = vault / ".personakit" / "index"
    written = [*index.glob("*.pkwords"), *index.glob("*.pkterms")]
    assert len(written) == 2
    answers = []
    for files in (written, []):  # the second server reads Whoosh's postings only
        for path in set(written) - set(files):
            path.unlink(missing_ok=True)
        server = RawServer(vault)
        try:
            reads = [
                server.call("personakit_read", question=f"{d} at {n} o'clock on the veranda?")
                for d in drinks
                for n in (7, 70)
            ]
        finally:
            assert server.close() == 0
        answers.append([[m["text"] for m in r["structuredContent"]["memories"]] for r in reads])
    assert answers[0] == answers[1]
    asked = [(d, n) for d in drinks for n in (7, 70)]
    for texts, (d, n) in zip(answers[0], asked, strict=True):  # the hour's memory, then the drink's
        assert texts[0] == f"Drinks {drinks[n % 4]} at {n} o'clock" and len(texts) == 7
        assert all(text.startswith(f"Drinks {d} at ") for text in texts[1:]), texts


def test_every_command_has_help_with_an_example(capsys: Capsys) -> None:
    for name, (_, doc, example) in COMMANDS.items():
        with pytest.raises(SystemExit) as done:
            cli(capsys, name, "--help")
        assert done.value.code == 0
        out = capsys.readouterr().out
        assert doc.splitlines()[0] in out.replace("\n", " ") or doc.splitlines()[0][:40] in out
        assert f"example:\n  {example}" in out and example.startswith(f"personakit {name}")
        assert "--vault" in out


def test_docs_cli_describes_every_command() -> None:
    text = (DOCS / "cli.md").read_text()
    missing = [name for name in COMMANDS if f"## personakit {name}" not in text]
    assert not missing, f"docs/cli.md does not describe: {', '.join(missing)}"
    review = (DOCS / "review.md").read_text()
    for must in ("Obsidian", "git log -p", "git revert", "filter-repo"):
        assert must in review


def test_a_missing_vault_says_how_to_make_one(tmp_path: Path, capsys: Capsys) -> None:
    code, _, err = cli(capsys, "list", "--vault", str(tmp_path / "nowhere"))
    assert code == 1 and "personakit init" in err
    assert not (tmp_path / "nowhere").exists()


def test_vault_from_the_environment_like_serve(
    vault: Path, capsys: Capsys, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PERSONAKIT_VAULT", str(vault))
    (tea,) = propose(vault, "Drinks green tea")
    assert cli(capsys, "approve", tea)[0] == 0
    assert subjects(vault)[0].startswith("approve ")


def test_through_a_real_process_and_review_refuses_without_a_terminal(vault: Path) -> None:
    (tea,) = propose(vault, "Drinks green tea")
    refused = cli_process("review", "--vault", str(vault))
    assert refused.returncode == 1
    assert "review needs a terminal" in refused.stderr and "personakit approve" in refused.stderr
    done = cli_process("approve", tea[:6], "--vault", str(vault))
    assert done.returncode == 0, done.stderr
    assert subjects(vault)[0] == f"approve {tea}: Drinks green tea"
    listed = cli_process("list", "--vault", str(vault))
    assert listed.stdout.split()[:2] == [tea, "approved"]
