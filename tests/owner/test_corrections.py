"""Corrections, near-duplicates and clashes end to end: `replaces` over stdio through the real server, the
owner's approval retiring the old memory in the same commit (one diff, both files), show and log, the
commands similar, clashes and edit, and every bad input the issue lists, each with a clear answer and
nothing lost."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from owner import changed_lines, clean, cli, cli_process, commit_all, git, subjects

from personakit.core.memory import Memory, parse_memory, render_memory
from personakit.core.naming import memory_id
from personakit.core.relations.pairs import near_duplicates
from personakit.errors import PersonaKitError
from personakit.mcp.server import INSTRUCTIONS
from personakit.owner.corrections import merge
from personakit.owner.decisions import decide
from personakit.vault.linking import similar_to
from personakit.vault.service import PersonaKit

from conftest import call, call_error, connect

Capsys = pytest.CaptureFixture[str]


@pytest.fixture
def kit(vault: Path) -> Iterator[PersonaKit]:
    kit = PersonaKit(vault, create=False)
    kit.start()
    yield kit
    kit.close()


def stored(kit: PersonaKit, text: str, replaces: object = None, quote: str = "") -> str:
    result = kit.propose(text, quote or f"I said: {text.lower()}", "background", "claude-desktop", replaces)
    assert result["stored"] and result["new"], result
    return result["id"]


def file_of(vault: Path, mid: str) -> tuple[Path, str]:
    for path in (vault / "memories").glob("*.md"):
        text = path.read_text()
        if f"id: {mid}\n" in text:
            return path, text
    raise AssertionError(f"no file has {mid}")


def front(vault: Path, mid: str) -> dict[str, object]:
    memory = parse_memory(file_of(vault, mid)[1])
    return {"state": memory.state, "replaces": memory.replaces, "replaced_by": memory.replaced_by}


@pytest.mark.anyio
async def test_replaces_over_stdio_links_a_correction_and_nothing_else_changes_the_answer(
    vault: Path,
) -> None:
    kit = PersonaKit(vault, create=False)
    kit.start()
    hidden = stored(kit, "Sees a therapist on Tuesdays")
    dropped = stored(kit, "Lives in Faro")
    decide(kit, hidden, "restricted")
    decide(kit, dropped, "rejected")
    kit.close()
    async with connect(vault) as session:
        tools = {t.name: t for t in (await session.list_tools()).tools}
        schema = tools["personakit_propose"].input_schema
        assert "replaces" in schema["properties"] and "replaces" not in schema["required"]
        assert "replaces" in (tools["personakit_propose"].description or "") and "replaces" in INSTRUCTIONS
        lisbon = await call(session, "personakit_propose", text="Lives in Lisbon", quote="I live in Lisbon", category="background")  # fmt: skip
        read = await call(session, "personakit_read", question="Where does the user live?")
        assert [m["id"] for m in read["memories"]] == [lisbon["id"]]
        porto = await call(
            session, "personakit_propose", text="Lives in Porto", quote="we moved to Porto last month",
            category="background", replaces=lisbon["id"],
        )  # fmt: skip
        assert porto == {
            "stored": True,
            "id": memory_id("Lives in Porto"),
            "new": True,
            "state": "unconfirmed",
        }
        own = memory_id("Lives in Braga")
        bad = {"empty": "", "huge": "m_" + "a" * 200_000, "not an id": "Lives in Lisbon", "unknown": "m_000000000000",
               "restricted": hidden, "rejected": dropped, "its own id": own}  # fmt: skip
        answers = {}
        for n, (what, replaces) in enumerate(bad.items()):
            text = "Lives in Braga" if what == "its own id" else f"Lives in Braga, flat {n}"
            answers[what] = await call(
                session,
                "personakit_propose",
                text=text,
                quote="now Braga",
                category="background",
                replaces=replaces,
            )
        typed = await call_error(session, "personakit_propose", text="Lives in Evora", quote="q", category="background", replaces=42)  # fmt: skip
        assert "replaces" in typed  # a value that is not a string fails the schema, like any argument
    for what, answer in answers.items():
        assert answer == {"stored": True, "id": answer["id"], "new": True, "state": "unconfirmed"}, what
        assert front(vault, answer["id"])["replaces"] == "", what  # stored as a plain proposal
    assert answers["its own id"]["id"] == own
    _, porto_file = file_of(vault, porto["id"])
    assert f"replaces: {lisbon['id']}\n" in porto_file
    assert subjects(vault)[len(bad)] == f"propose {porto['id']}: Lives in Porto"  # one commit, as ever
    assert front(vault, lisbon["id"])["state"] == "unconfirmed"  # nothing happens until the owner decides


def test_approving_a_correction_retires_the_old_one_in_the_same_commit(
    vault: Path, kit: PersonaKit, capsys: Capsys
) -> None:
    old = stored(kit, "Lives in Lisbon")
    decide(kit, old, "approved")
    new = stored(kit, "Lives in Porto", replaces=old)
    before = len(subjects(vault))
    code, out, _ = cli(capsys, "approve", new[:8], "--vault", str(vault))
    assert code == 0
    assert out.splitlines() == [
        f"{new} approved: Lives in Porto",
        f"  {old} is retired (rejected, replaced by {new}): Lives in Lisbon",
    ]
    assert len(subjects(vault)) == before + 1
    assert subjects(vault)[0] == f"replace {old} with {new}: Lives in Porto"
    files, lines = changed_lines(vault)
    assert files == ["memories/lives-in-lisbon.md", "memories/lives-in-porto.md"]
    assert lines == [
        "-state: approved", "+state: rejected", f"+replaced_by: {new}", "-state: unconfirmed", "+state: approved"
    ]  # fmt: skip
    assert clean(vault)
    read = kit.read("where do they live")
    assert [m["id"] for m in read["memories"]] == [new]
    code, out, _ = cli(capsys, "show", old, "--vault", str(vault))
    assert f"replaced by: {new} (approved): Lives in Porto" in out and f"Test Owner (by {new})" in out
    code, out, _ = cli(capsys, "show", new, "--vault", str(vault))
    assert f"replaces:    {old} (rejected): Lives in Lisbon" in out and f"Test Owner (replacing {old})" in out
    code, out, _ = cli(capsys, "log", "--vault", str(vault))
    assert f"replace {old} with {new}: Lives in Porto" in out.splitlines()[0]
    code, out, _ = cli(capsys, "approve", new, "--vault", str(vault))
    assert out.strip() == f"{new} was already approved"


def test_rejecting_a_correction_leaves_the_old_memory_as_it_was(vault: Path, kit: PersonaKit) -> None:
    old = stored(kit, "Works at Acme")
    new = stored(kit, "Works at Globex", replaces=old)
    path, before = file_of(vault, old)
    decide(kit, new, "rejected")
    assert path.read_text() == before
    assert changed_lines(vault)[0] == [f"memories/{file_of(vault, new)[0].name}"]


def test_a_chain_of_corrections_each_retires_the_one_before(
    vault: Path, kit: PersonaKit, capsys: Capsys
) -> None:
    a = stored(kit, "Has two cats")
    b = stored(kit, "Has three cats", replaces=a)
    decide(kit, b, "approved")
    c = stored(kit, "Has four cats", replaces=b)
    late = stored(kit, "Has five cats", replaces=a)  # a is rejected now: a plain proposal
    assert front(vault, late)["replaces"] == ""
    notes: list[str] = []
    decide(kit, c, "approved", notes.append)
    assert notes == [f"{b} is retired (rejected, replaced by {c}): Has three cats"]
    assert front(vault, a) == {"state": "rejected", "replaces": "", "replaced_by": b}
    assert front(vault, b) == {"state": "rejected", "replaces": a, "replaced_by": c}
    assert front(vault, c) == {"state": "approved", "replaces": b, "replaced_by": ""}
    out = cli(capsys, "show", b, "--vault", str(vault))[1]
    assert f"replaces:    {a} (rejected)" in out and f"replaced by: {c} (approved)" in out


def test_two_corrections_of_one_memory(vault: Path, kit: PersonaKit, capsys: Capsys) -> None:
    old = stored(kit, "Wakes up at 6am")
    first = stored(kit, "Wakes up at 7am", replaces=old)
    second = stored(kit, "Wakes up at 8am", replaces=old)
    out = cli(capsys, "show", old, "--vault", str(vault))[1]
    assert f"correction:  {first} (unconfirmed)" in out and f"correction:  {second} (unconfirmed)" in out
    decide(kit, first, "approved")
    path, before = file_of(vault, old)
    _, out, _ = cli(capsys, "approve", second, "--vault", str(vault))
    assert out.splitlines() == [
        f"{second} approved: Wakes up at 8am",
        f"  {old} was already replaced by {first}; {second} is approved on its own. If only one of the two "
        "corrections is true, reject the other",
    ]
    assert path.read_text() == before
    assert subjects(vault)[0] == f"approve {second}: Wakes up at 8am"


def test_the_old_memory_forgotten_or_edited_by_hand_meanwhile(
    vault: Path, kit: PersonaKit, capsys: Capsys
) -> None:
    gone = stored(kit, "Drives a Toyota Corolla")
    instead = stored(kit, "Drives a Honda Civic", replaces=gone)
    assert cli(capsys, "forget", gone, "--vault", str(vault))[0] == 0
    notes: list[str] = []
    decide(kit, instead, "approved", notes.append)
    assert notes == [f"{gone}, which {instead} replaces, no longer exists (forgotten?), so {instead} is approved on its own"]  # fmt: skip
    assert subjects(vault)[0] == f"approve {instead}: Drives a Honda Civic"

    old = stored(kit, "Works as a nurse")
    new = stored(kit, "Works as a midwife", replaces=old)
    path, raw = file_of(vault, old)
    path.write_text(raw.replace("Works as a nurse\n", "Works as a nurse at night\n"))
    assert cli(capsys, "list", "--vault", str(vault))[0] == 0  # the next command commits the hand edit
    assert subjects(vault)[0] == f"edit {old}: Works as a nurse at night (by hand)"
    _, out, _ = cli(capsys, "approve", new, "--vault", str(vault))
    assert "it was edited by hand after the correction was proposed; it is retired as it is now" in out
    assert front(vault, old) == {"state": "rejected", "replaces": "", "replaced_by": new}
    assert parse_memory(path.read_text()).text == "Works as a nurse at night"

    restricted = stored(kit, "Lives in Leeds")
    correction = stored(kit, "Lives in York", replaces=restricted)
    decide(kit, restricted, "restricted")
    notes = []
    decide(kit, correction, "approved", notes.append)
    assert notes == [f"{restricted} is restricted now, so it is left as it is and {correction} is approved on its own"]  # fmt: skip
    assert front(vault, restricted)["state"] == "restricted"


def test_a_failed_commit_puts_both_files_back(vault: Path, kit: PersonaKit) -> None:
    old = stored(kit, "Lives in Lisbon")
    new = stored(kit, "Lives in Porto", replaces=old)
    before = {p.name: p.read_text() for p in (vault / "memories").glob("*.md")}
    blob = fed(vault, "x", "hash-object", "-w", "--stdin")
    fed(vault, f"100644 {blob.strip()} 1\tunmerged.txt\n", "update-index", "--index-info")  # a real conflict
    with pytest.raises(PersonaKitError, match="middle of a merge"):
        decide(kit, new, "approved")
    git(vault, "update-index", "--force-remove", "unmerged.txt")
    assert {p.name: p.read_text() for p in (vault / "memories").glob("*.md")} == before
    assert clean(vault)
    assert [h.memory.state for h in kit.index.by_id(old)] == ["unconfirmed"]  # the index follows the files


def test_near_duplicates_are_marked_listed_and_merged(vault: Path, kit: PersonaKit, capsys: Capsys) -> None:
    older = stored(kit, "Prefers blunt feedback", quote="give it to me straight")
    hidden = stored(kit, "Sees a therapist on Tuesdays")
    decide(kit, hidden, "restricted")
    plain = kit.propose("Works at Acme", "acme", "background", "claude-desktop")
    again = kit.propose(
        "Sees a therapist each Tuesday", "therapy on tuesdays", "background", "claude-desktop"
    )
    assert (
        set(again) == set(plain) and again["state"] == plain["state"] == "unconfirmed"
    )  # the answer is plain
    assert parse_memory(file_of(vault, again["id"])[1]).similar == (hidden,)  # for the owner's eyes only
    newer = stored(kit, "Likes blunt, direct feedback", quote="just be direct")
    assert parse_memory(file_of(vault, newer)[1]).similar == (older,)
    code, out, _ = cli(capsys, "similar", "--json", "--vault", str(vault))
    assert code == 0
    groups = json.loads(out)
    assert {frozenset(m["id"] for m in g) for g in groups} == {
        frozenset((older, newer)),
        frozenset((hidden, again["id"])),
    }
    _, out, _ = cli(capsys, "similar", "--vault", str(vault))
    assert "2 groups of near-duplicates" in out and f"{older}  unconfirmed Prefers blunt feedback" in out

    with pytest.raises(
        PersonaKitError, match=f"{older} was approved when shown and is unconfirmed now; nothing"
    ):
        merge(kit, parse_memory(file_of(vault, newer)[1], file_of(vault, newer)[0].name), older, "approved")
    newer_path = file_of(vault, newer)[0]
    merged = merge(kit, parse_memory(newer_path.read_text(), newer_path.name), older, "unconfirmed")
    assert merged.evidence == ("give it to me straight", "just be direct")
    assert not newer_path.exists()
    assert subjects(vault)[0] == f"merge {newer} into {older}: Prefers blunt feedback"
    files, lines = changed_lines(vault)
    assert files == ["memories/likes-blunt-direct-feedback.md", "memories/prefers-blunt-feedback.md"]
    assert "+  - just be direct" in lines and clean(vault)
    out = cli(capsys, "show", older, "--vault", str(vault))[1]
    assert f"({newer} merged in)" in out
    with pytest.raises(PersonaKitError, match="gone or unreadable now; nothing was merged"):
        merge(kit, parse_memory(file_of(vault, older)[1], newer_path.name), older)


def test_clashes_are_listed_with_reasons_and_doctor_notes_them(
    vault: Path, kit: PersonaKit, capsys: Capsys
) -> None:
    lisbon = stored(kit, "Lives in Lisbon")
    porto = stored(kit, "Lives in Porto")
    coffee = stored(kit, "Drinks coffee")
    no_coffee = stored(kit, "Doesn't drink coffee")
    hidden = stored(kit, "Lives in Faro")
    decide(kit, hidden, "restricted")  # restricted memories are not listed
    code, out, _ = cli(capsys, "clashes", "--json", "--vault", str(vault))
    assert code == 0
    found = {frozenset((c["a"], c["b"])): c["reason"] for c in json.loads(out)}  # proposed in one second:
    assert found == {  # which is older is not known to the second, so the order is not tested here
        frozenset((lisbon, porto)): "different value for 'lives in': Lisbon / Porto",
        frozenset((coffee, no_coffee)): "negation: one says not 'drink coffee'",
    }
    code, out, _ = cli(capsys, "clashes", "--vault", str(vault))
    assert (
        f"{lisbon}  unconfirmed Lives in Lisbon" in out
        and "\n  negation: one says not 'drink coffee'\n" in out
    )
    assert "2 likely clashes" in out
    code, out, _ = cli(capsys, "doctor", "--vault", str(vault))
    assert code == 0 and "note: 2 pairs of memories likely disagree; 'personakit clashes' lists them" in out


def test_edit_opens_the_editor_commits_keeps_the_id_and_show_says_was_and_now(
    vault: Path, kit: PersonaKit, tmp_path: Path
) -> None:
    mid = stored(kit, "Drinks green tea")
    script = tmp_path / "editor.py"
    script.write_text(
        "import sys, re\nfrom pathlib import Path\np = Path(sys.argv[1])\n"
        "t = p.read_text().replace('Drinks green tea', 'Drinks green tea, no sugar')\n"
        "p.write_text(re.sub(r'id: m_[0-9a-f]+\\n', '', t))\n"  # removes the id line, too
    )
    env = {"EDITOR": f"{sys.executable} {script}"}
    done = run_cli(env, "edit", mid[:6], "--vault", str(vault))
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        f"The id stays {mid}: the id line is put back as it was.",
        f"{mid} edited (committed as your edit): Drinks green tea, no sugar",
        "  was: Drinks green tea",
        "  now: Drinks green tea, no sugar",
    ]
    assert subjects(vault)[0] == f"edit {mid}: Drinks green tea, no sugar (by hand)"
    assert changed_lines(vault)[1] == ["-Drinks green tea", "+Drinks green tea, no sugar"]
    shown = cli_process("show", mid, "--vault", str(vault)).stdout
    assert "      was: Drinks green tea\n      now: Drinks green tea, no sugar" in shown
    failed = run_cli({"EDITOR": "false"}, "edit", mid, "--vault", str(vault))
    assert failed.returncode == 1 and "personakit: The editor 'false' failed" in failed.stderr
    nobody = run_cli({}, "edit", mid, "--vault", str(vault))
    assert nobody.returncode == 1 and "No editor: neither $VISUAL nor $EDITOR is set" in nobody.stderr
    assert clean(vault)


def test_edit_holding_a_token_keeps_the_old_text_and_says_why(
    vault: Path, kit: PersonaKit, tmp_path: Path
) -> None:
    mid = stored(kit, "Drinks green tea")
    path, before = file_of(vault, mid)
    token = "ghp_" + "Zq8RtY2pWx4Lm6NbKk3Jd9QvTg7HsXc1UaB0"  # fake, GitHub's shape
    script = tmp_path / "editor.py"
    script.write_text(
        "import sys\nfrom pathlib import Path\np = Path(sys.argv[1])\n"
        f"p.write_text(p.read_text().replace('Drinks green tea', 'Deploy token {token}'))\n"
    )
    done = run_cli({"EDITOR": f"{sys.executable} {script}"}, "edit", mid, "--vault", str(vault))
    assert done.returncode == 1
    assert "not kept: it holds something shaped like a password or key" in done.stderr
    assert "keeps its old text" in done.stderr
    assert path.read_text() == before  # the token is not left in the file
    assert token not in "".join(p.read_text() for p in (vault / "memories").glob("*.md"))
    assert clean(vault) and subjects(vault)[0] != f"edit {mid}"


def fed(vault: Path, stdin: str, *args: str) -> str:
    """git ARGS in the vault, with stdin."""
    return subprocess.run(
        ["git", "-C", str(vault), *args], input=stdin, capture_output=True, text=True, check=True
    ).stdout


def run_cli(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    """`python -m personakit ARGS` with env as the only editor settings."""
    environment = {k: v for k, v in os.environ.items() if k not in ("EDITOR", "VISUAL")} | env
    return subprocess.run(
        [sys.executable, "-m", "personakit", *args],
        capture_output=True, text=True, env=environment, timeout=60, check=False, stdin=subprocess.DEVNULL,
    )  # fmt: skip


def test_marking_asks_the_index_and_finds_what_comparing_every_memory_finds(vault: Path) -> None:
    """The candidates for `similar` come from the index (the rarest words, text only); on the labeled
    pairs' texts, that finds every near-duplicate that comparing a text with every memory finds."""
    texts = sorted(
        {t for part in ("tuning", "held_out") for line in (Path(__file__).parents[1] / "data" / "relations" / f"{part}.tsv").read_text().splitlines() if line and not line.startswith("#") for t in line.split("\t")[1:]}
    )  # fmt: skip
    for n, text in enumerate(texts):
        mid = memory_id(text)
        quote = "unrelated words: tea, Lisbon, cats, feedback"  # quotes must not make candidates
        memory = Memory(mid, text, "other", "approved", (quote,), "test", "2026-01-01T00:00:00Z", f"m{n}.md")
        (vault / "memories" / memory.name).write_text(render_memory(memory))
    commit_all(vault)
    kit = PersonaKit(vault, create=False)
    kit.start()
    try:
        every = [(memory_id(t), t) for t in texts]
        found = 0
        for text in texts:
            own = memory_id(text)
            expected = near_duplicates(text, [(m, t) for m, t in every if m != own])
            assert sorted(similar_to(kit, text, {own})) == sorted(expected), text
            found += bool(expected)
        assert found > 150
    finally:
        kit.close()


def test_a_correction_approved_by_hand_retires_the_old_one_when_approved_again(
    vault: Path, kit: PersonaKit, capsys: Capsys
) -> None:
    old = stored(kit, "Uses Windows at work")
    new = stored(kit, "Uses a Mac at work", replaces=old)
    path, raw = file_of(vault, new)
    path.write_text(raw.replace("state: unconfirmed", "state: approved"))  # in Obsidian, say
    assert cli(capsys, "list", "--vault", str(vault))[0] == 0  # committed as the owner's edit
    assert front(vault, old)["state"] == "unconfirmed"  # a hand edit retires nothing
    code, out, _ = cli(capsys, "approve", new, "--vault", str(vault))
    assert code == 0 and f"{old} is retired (rejected, replaced by {new})" in out
    assert subjects(vault)[0] == f"replace {old} with {new}: Uses a Mac at work"
    assert changed_lines(vault)[0] == [f"memories/{file_of(vault, old)[0].name}"]  # only the old file changed
