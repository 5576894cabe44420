"""The MCP contract end to end: `personakit serve` as a subprocess, driven by the SDK's stdio client."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import unicodedata
from pathlib import Path

import anyio
import jsonschema
import pytest
from git import Repo
from mcp.shared.exceptions import MCPError

from personakit.core.naming import memory_id
from personakit.core.reading import EMPTY_NOTE, FILL_NOTE, NOTE

from conftest import call, call_error, connect, server_command, server_env

pytestmark = pytest.mark.anyio

READ, PROPOSE = "personakit_read", "personakit_propose"


def commits(vault: Path) -> list[str]:
    return [c.message.strip() for c in Repo(vault).iter_commits()]


def write_memory(vault: Path, name: str, text: str, state: str | None = "approved", **front: str) -> Path:
    lines = ["---", f"id: {memory_id(text)}", "category: preferences"]
    if state is not None:
        lines.append(f"state: {state}")
    lines += [f"{k}: {v}" for k, v in front.items()]
    if "evidence" not in front:
        lines += ["evidence:", f"  - I said {text.lower()}"]
    path = vault / "memories" / name
    path.write_text("\n".join([*lines, "---", text, ""]), encoding="utf-8")
    return path


def commit_all(vault: Path) -> None:
    repo = Repo(vault)
    repo.git.add("-A")
    repo.git.commit("-qm", "test setup")


async def eventually(session, question: str, check, seconds: float = 1.0) -> dict:  # type: ignore[no-untyped-def]
    """Read until check(result) holds; fails if it does not within `seconds` (the watcher's promise)."""
    deadline = time.monotonic() + seconds
    while True:
        result = await call(session, READ, question=question)
        if check(result) or time.monotonic() > deadline:
            assert check(result), result
            return result
        await anyio.sleep(0.05)


def ids(result: dict) -> list[str]:
    return [m["id"] for m in result["memories"]]


def texts(result: dict) -> list[str]:
    return [m["text"] for m in result["memories"]]


# -- item 3: serve ---------------------------------------------------------------------------------------


async def test_default_vault_is_created_on_first_use(tmp_path: Path) -> None:
    default = Path(os.environ["PERSONAKIT_VAULT"])
    assert not default.exists()
    async with connect(None) as session:
        stored = await call(session, PROPOSE, text="Likes rain", quote="I love rainy days", category="other")
    assert stored["stored"] is True
    assert (default / ".git").is_dir() and (default / "README.md").is_file()
    assert commits(default)[0].startswith("propose ")


async def test_home_default_when_no_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PERSONAKIT_VAULT")
    async with connect(None) as session:
        await call(session, READ, question="anything")
    assert (Path(os.environ["HOME"]) / "PersonaKit" / "memories").is_dir()


async def test_stdout_is_protocol_only_and_logs_go_to_stderr(vault: Path, tmp_path: Path) -> None:
    (vault / "memories" / "broken.md").write_text("---\nstate: [\n---\nx\n")
    log = tmp_path / "stderr.log"
    async with connect(vault, stderr=log) as session:  # a stray print on stdout would break the session
        await call(session, READ, question="x")
    assert "broken.md" in log.read_text()


def _initialize_raw(proc: subprocess.Popen[bytes]) -> None:
    hello = {
        "jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "raw", "version": "1"}},
    }  # fmt: skip
    assert proc.stdin and proc.stdout
    proc.stdin.write((json.dumps(hello) + "\n").encode())
    proc.stdin.flush()
    line = proc.stdout.readline()
    assert json.loads(line)["id"] == 1


def _children(pid: int) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(entry))
    return found


@pytest.mark.parametrize(("how", "status"), [("stdin closes", 0), ("SIGTERM", 0), ("SIGINT", 130)])
def test_exits_within_a_second(vault: Path, how: str, status: int) -> None:
    with subprocess.Popen(
        [sys.executable, *server_command(vault)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL, env=server_env(),
    ) as proc:  # fmt: skip
        took, code = _stop(proc, how)
    assert took < 1.0, f"took {took:.2f} s to exit"
    assert code == status
    assert _children(proc.pid) == []


def _stop(proc: subprocess.Popen[bytes], how: str) -> tuple[float, int]:
    try:
        _initialize_raw(proc)
        time.sleep(0.3)  # let the watcher and the start-up sync run
        started = time.monotonic()
        if how.startswith("SIG"):
            proc.send_signal(getattr(signal, how))
        else:
            assert proc.stdin
            proc.stdin.close()
        code = proc.wait(timeout=5)
        return time.monotonic() - started, code
    finally:
        proc.kill()


# -- item 4: personakit_propose --------------------------------------------------------------------------


async def test_propose_writes_commits_indexes_and_records_the_host(vault: Path) -> None:
    async with connect(vault, host="claude-desktop") as session:
        result = await call(
            session, PROPOSE, text="Prefers direct, practical feedback",
            quote="give me blunt feedback, skip the padding", category="preferences",
        )  # fmt: skip
        mid = memory_id("Prefers direct, practical feedback")
        assert result == {"stored": True, "id": mid, "new": True, "state": "unconfirmed"}
        # committed before the reply, and indexed before the reply
        assert commits(vault)[0] == f"propose {mid}: Prefers direct, practical feedback"
        read = await call(session, READ, question="what feedback does she like?")
        assert ids(read) == [mid]
    files = list((vault / "memories").glob("*.md"))
    assert [f.name for f in files] == ["prefers-direct-practical-feedback.md"]
    text = files[0].read_text()
    assert "state: unconfirmed" in text and "proposed_by: claude-desktop" in text
    assert "  - give me blunt feedback, skip the padding" in text
    head = Repo(vault).head.commit
    assert head.author.name == "claude-desktop (assistant)"
    assert list(head.stats.files) == ["memories/prefers-direct-practical-feedback.md"]
    assert not Repo(vault).is_dirty(untracked_files=True)


async def test_each_proposal_is_exactly_one_commit(vault: Path) -> None:
    before = len(commits(vault))
    async with connect(vault) as session:
        for i in range(5):
            await call(
                session, PROPOSE, text=f"Owns {i} bikes", quote=f"I have {i} bikes", category="background"
            )
    assert len(commits(vault)) == before + 5
    assert not Repo(vault).is_dirty(untracked_files=True)


@pytest.mark.parametrize(
    ("text", "quote", "reason"),
    [
        ("", "q", "empty_text"),
        ("   \n\t ", "q", "empty_text"),
        ("", "", "empty_text"),
        ("x" * 301, "", "too_long"),
        ("x" * 301, "sk-proj-" + "A1b2C3d4E5f6G7h8" * 3, "too_long"),
        ("a" * 900_000, "q", "too_long"),  # a message takes at most 1,000,000
        ("My key is sk-proj-" + "A1b2C3d4E5f6G7h8" * 3, "", "credential_shape"),
        ("Uses GitHub", "token ghp_" + "a1B2c3D4e5F6g7H8i9J0" * 2, "credential_shape"),
        ("Uses GitHub", "", "empty_quote"),
        ("Uses GitHub", "  \n ", "empty_quote"),
    ],
)
async def test_refusals_in_the_contract_order(vault: Path, text: str, quote: str, reason: str) -> None:
    async with connect(vault) as session:
        result = await call(session, PROPOSE, text=text, quote=quote, category="tools")
    assert result == {"stored": False, "reason": reason}
    assert list((vault / "memories").glob("*.md")) == []
    assert len(commits(vault)) == 1


async def test_exactly_300_characters_is_accepted(vault: Path) -> None:
    async with connect(vault) as session:
        result = await call(session, PROPOSE, text="y" * 299 + ".", quote="q", category="tools")
    assert result["stored"] is True


async def test_same_memory_again_keeps_state_and_adds_new_quotes_only(vault: Path) -> None:
    async with connect(vault) as session:
        first = await call(
            session, PROPOSE, text="Drinks oat milk", quote="oat milk, always", category="preferences"
        )
        path = next((vault / "memories").glob("*.md"))
        path.write_text(path.read_text().replace("state: unconfirmed", "state: approved"))
        await anyio.sleep(0.4)  # the hand edit is committed by the watcher
        n = len(commits(vault))
        again = await call(
            session, PROPOSE, text="  drinks OAT milk. ", quote="oat milk, always", category="tools"
        )
        assert again == {"stored": True, "id": first["id"], "new": False, "state": "approved"}
        assert len(commits(vault)) == n  # the same quote changes nothing
        more = await call(
            session, PROPOSE, text="Drinks oat milk!", quote="no cow milk for me", category="other"
        )
        assert more == again
        assert len(commits(vault)) == n + 1
        assert commits(vault)[0].startswith(f"evidence for {first['id']}")
    text = path.read_text()
    assert "category: preferences" in text and "state: approved" in text
    assert text.count("  - ") == 2 and "no cow milk for me" in text


async def test_rejected_memory_proposed_again_stays_rejected(vault: Path) -> None:
    write_memory(vault, "hates-jazz.md", "Hates jazz", state="rejected")
    commit_all(vault)
    async with connect(vault) as session:
        again = await call(session, PROPOSE, text="hates jazz", quote="jazz is noise", category="preferences")
        assert again["new"] is False and again["state"] == "rejected"
        assert (await call(session, READ, question="jazz"))["memories"] == []


async def test_unknown_category_becomes_other(vault: Path) -> None:
    async with connect(vault) as session:
        await call(session, PROPOSE, text="Collects stamps", quote="my stamps!", category="hobbies")
        result = await call(session, READ, question="stamps")
    assert result["memories"][0]["category"] == "other"


@pytest.mark.parametrize(
    "text",
    [
        "../../etc/passwd",
        "a/b/../c",
        "nul\0byte",
        "🎉 loves parties 🎉",
        "يحب القهوة العربية",
        "\u202eevil override",
    ],
)
async def test_strange_texts_stay_inside_memories(vault: Path, text: str) -> None:
    async with connect(vault) as session:
        result = await call(session, PROPOSE, text=text, quote="said so", category="other")
        assert result["stored"] is True
        listed = sorted(p.relative_to(vault).as_posix() for p in vault.rglob("*") if ".git" not in p.parts)
    memories = [p for p in listed if p.startswith("memories/") and p.endswith(".md")]
    stem = memories[0].removeprefix("memories/").removesuffix(".md") if len(memories) == 1 else ""
    assert stem and all(c == "-" or unicodedata.category(c)[0] in "LMN" for c in stem), memories  # letters
    assert not [p for p in listed if not p.startswith(("memories", ".personakit", "README.md", ".git"))]
    assert "\0" not in (vault / memories[0]).read_text()


# -- item 5: personakit_read -----------------------------------------------------------------------------


async def test_ranking_fill_limit_withheld_and_note(vault: Path) -> None:
    write_memory(vault, "a.md", "Drinks black coffee every morning", "approved")
    write_memory(vault, "b.md", "Drinks coffee", "unconfirmed")
    write_memory(vault, "c.md", "Coffee after lunch gives headaches", "restricted")
    write_memory(vault, "d.md", "Likes strong coffee in the morning", "rejected")
    write_memory(vault, "e.md", "Works in Go", "approved", created="2026-01-01T00:00:00Z")
    write_memory(vault, "f.md", "Lives in Lisbon", "approved", created="2026-02-01T00:00:00Z")
    commit_all(vault)
    async with connect(vault) as session:
        both = await call(session, READ, question="What coffee does the owner drink in the morning?")
        assert [m["text"] for m in both["memories"]] == [
            "Drinks black coffee every morning", "Drinks coffee", "Lives in Lisbon",
        ]  # fmt: skip
        assert both["withheld"] == 1 and both["note"] == NOTE
        assert [m["confirmed"] for m in both["memories"]] == [True, False, True]
        one = await call(session, READ, question="coffee", limit=1)
        assert len(one["memories"]) == 1 and one["withheld"] == 1
        nothing = await call(session, READ, question="zebra crossing")
        assert [m["text"] for m in nothing["memories"]] == [
            "Lives in Lisbon", "Works in Go", "Drinks black coffee every morning",
        ]  # fmt: skip
        assert nothing["withheld"] == 0 and nothing["note"] == FILL_NOTE  # only fill: said, with a hint


async def test_empty_vault_reads_an_empty_list(vault: Path) -> None:
    async with connect(vault) as session:
        empty = {"memories": [], "withheld": 0, "note": EMPTY_NOTE}
        assert await call(session, READ, question="anything at all") == empty
        assert await call(session, READ, question="") == empty


@pytest.mark.parametrize(("limit", "count"), [(0, 1), (-3, 1), (1, 1), (25, 20), (10**12, 20)])
async def test_limit_is_clamped_to_1_to_20(vault: Path, limit: int, count: int) -> None:
    for i in range(25):
        write_memory(vault, f"m{i}.md", f"Memory number {i} about tea", "approved")
    commit_all(vault)
    async with connect(vault) as session:
        assert len((await call(session, READ, question="tea", limit=limit))["memories"]) == count
        assert len((await call(session, READ, question="tea"))["memories"]) == 7


async def test_evidence_two_quotes_240_chars_emails_masked(vault: Path) -> None:
    async with connect(vault) as session:
        await call(
            session,
            PROPOSE,
            text="Reads mail early",
            quote="write me at ana.silva@example.org first",
            category="communication",
        )
        await call(session, PROPOSE, text="Reads mail early", quote="long " * 200, category="communication")
        await call(session, PROPOSE, text="Reads mail early", quote="a third quote", category="communication")
        result = await call(session, READ, question="mail")
    evidence = result["memories"][0]["evidence"]
    assert len(evidence) == 2
    assert evidence[0] == "write me at [email] first"
    assert all(len(q) <= 240 for q in evidence)
    assert "@" not in json.dumps(result)


async def test_owner_decisions_on_disk_apply_at_once(vault: Path) -> None:
    path = write_memory(vault, "tea.md", "Drinks green tea", "approved")
    commit_all(vault)
    async with connect(vault) as session:
        assert len(ids(await call(session, READ, question="tea"))) == 1
        path.write_text(path.read_text().replace("state: approved", "state: restricted"))
        restricted = await call(session, READ, question="tea")  # no waiting: files are checked at read time
        assert restricted["memories"] == [] and restricted["withheld"] == 1
        path.write_text(path.read_text().replace("state: restricted", "state: unconfirmed"))
        back = await eventually(session, "tea", lambda r: len(r["memories"]) == 1)
        assert back["memories"][0]["confirmed"] is False


@pytest.mark.parametrize("state_line", ["", "state: aproved", "state: yes", "state:"])
async def test_missing_or_unknown_state_is_restricted(vault: Path, state_line: str) -> None:
    path = vault / "memories" / "typo.md"
    path.write_text(f"---\ncategory: tools\n{state_line}\nevidence:\n  - I use vim\n---\nUses vim daily\n")
    async with connect(vault) as session:
        result = await call(session, READ, question="vim")
    assert result == {"memories": [], "withheld": 1, "note": EMPTY_NOTE}


async def test_a_hostile_memories_folder_is_skipped_and_logged(vault: Path, tmp_path: Path) -> None:
    mem = vault / "memories"
    (mem / "yaml-error.md").write_text("---\nstate: approved\n  bad: [indent\n---\nBroken coffee\n")
    (mem / "binary.md").write_bytes(b"\x00\xff\xfe coffee \x89PNG")
    (mem / "empty.md").write_text("")
    (mem / "no-front-matter.md").write_text("Just coffee text\n")
    write_memory(mem.parent, "dup-1.md", "Drinks decaf coffee", "approved")
    write_memory(mem.parent, "dup-2.md", "Drinks decaf coffee", "approved")
    write_memory(mem.parent, "fine.md", "Roasts coffee beans at home", "approved")
    (mem / "notes.txt").write_text("not a memory")
    log = tmp_path / "stderr.log"
    async with connect(vault, stderr=log) as session:
        result = await call(session, READ, question="coffee")
    assert sorted(m["text"] for m in result["memories"]) == [
        "Drinks decaf coffee",
        "Roasts coffee beans at home",
    ]
    said = log.read_text()
    for name in ("yaml-error.md:3", "binary.md"):
        assert name in said
    for draft in ("empty.md", "no-front-matter.md"):  # drafts (a new note in Obsidian): skipped quietly
        assert draft not in said


async def test_huge_and_wrong_arguments_get_clear_errors(vault: Path) -> None:
    async with connect(vault) as session:
        too_big = await call_error(session, READ, question="why " * 225_000)
        assert "2,000" in too_big
        assert await call_error(session, READ, question=5)
        assert await call_error(session, READ, question="tea", limit="many")
        assert await call_error(session, READ)
        assert await call_error(session, PROPOSE, text=["list"], quote="q", category="tools")
        assert await call_error(session, PROPOSE, text="Likes tea")
        huge_quote = await call(
            session, PROPOSE, text="Likes tea", quote="tea " * 225_000, category="preferences"
        )
        assert huge_quote["stored"] is True  # the quote is kept, shortened to 1,000 characters
        assert len(next((vault / "memories").glob("*.md")).read_text()) < 1_400
        assert (await call(session, READ, question="tea"))["memories"][0]["text"] == "Likes tea"


# -- item 6: index ---------------------------------------------------------------------------------------


async def test_index_lives_in_state_folder_and_is_rebuilt_when_damaged(vault: Path) -> None:
    write_memory(vault, "tea.md", "Drinks green tea", "approved")
    commit_all(vault)
    async with connect(vault) as session:
        assert len(ids(await call(session, READ, question="tea"))) == 1
    index = vault / ".personakit" / "index"
    assert any(index.iterdir())
    for f in index.iterdir():
        f.write_bytes(b"garbage")
    async with connect(vault) as session:
        assert len(ids(await call(session, READ, question="tea"))) == 1
    import shutil

    shutil.rmtree(vault / ".personakit")
    async with connect(vault) as session:
        assert len(ids(await call(session, READ, question="tea"))) == 1


async def test_index_deleted_or_truncated_while_serving(vault: Path) -> None:
    import shutil

    write_memory(vault, "tea.md", "Drinks green tea", "approved")
    commit_all(vault)
    async with connect(vault) as session:
        assert len(ids(await call(session, READ, question="tea"))) == 1
        shutil.rmtree(vault / ".personakit" / "index")
        await call(session, PROPOSE, text="Drinks tea at night", quote="night tea", category="preferences")
        result = await eventually(session, "tea", lambda r: len(r["memories"]) == 2, seconds=2)
        assert len(result["memories"]) == 2
        for f in (vault / ".personakit" / "index").iterdir():
            with open(f, "r+b") as handle:
                handle.truncate(3)
        await call(session, PROPOSE, text="Drinks tea in bed", quote="bed tea", category="preferences")
        result = await eventually(session, "tea", lambda r: len(r["memories"]) == 3, seconds=2)
    assert len(commits(vault)) == 4


async def test_a_read_right_after_the_index_is_cut_short_is_answered(vault: Path) -> None:
    """The words a read needs are kept in memory, so the first thing read from the damaged files may be a
    memory's stored fields: from a mapped file cut short that is SIGBUS, which ends the process. The
    index's files are read, not mapped (store/index.py `Folder`): the read raises, and the index is
    repaired from the memory files."""
    write_memory(vault, "tea.md", "Drinks green tea", "approved")
    commit_all(vault)
    async with connect(vault) as session:
        await call(session, PROPOSE, text="Drinks tea at night", quote="night tea", category="preferences")
        assert len((await call(session, READ, question="tea"))["memories"]) == 2
        for f in (vault / ".personakit" / "index").iterdir():
            with open(f, "r+b") as handle:
                handle.truncate(3)
        result = await eventually(session, "tea", lambda r: len(r["memories"]) == 2, seconds=2)
        assert sorted(texts(result)) == ["Drinks green tea", "Drinks tea at night"]


@pytest.mark.parametrize("how", ["in place", "temp then rename", "new file", "delete", "rename"])
async def test_editor_saves_are_visible_within_a_second(vault: Path, how: str) -> None:
    path = write_memory(vault, "tea.md", "Drinks green tea", "approved")
    commit_all(vault)
    async with connect(vault) as session:
        assert len(ids(await call(session, READ, question="tea"))) == 1
        if how == "in place":
            path.write_text(path.read_text().replace("green tea", "green tea and matcha"))
            await eventually(session, "matcha", lambda r: texts(r) == ["Drinks green tea and matcha"])
        elif how == "temp then rename":
            tmp = path.with_name(".tea.md.swp")
            tmp.write_text(path.read_text().replace("green tea", "green tea and matcha"))
            os.replace(tmp, path)
            await eventually(session, "matcha", lambda r: texts(r) == ["Drinks green tea and matcha"])
        elif how == "new file":
            write_memory(vault, "rooibos.md", "Drinks rooibos tea", "approved")
            await eventually(session, "rooibos", lambda r: texts(r)[:1] == ["Drinks rooibos tea"])
        elif how == "delete":
            path.unlink()
            await eventually(session, "tea", lambda r: r["memories"] == [])
        else:
            os.rename(path, path.with_name("renamed.md"))
            await eventually(session, "tea", lambda r: len(r["memories"]) == 1)
        await anyio.sleep(0.4)
    assert not Repo(vault).is_dirty(untracked_files=True)  # the hand edit was committed as the owner's
    made = commits(vault)
    assert made[1] == "test setup"  # exactly one commit for the save
    expected = {
        "delete": "forget",
        "rename": "rename",
        "new file": "edit",
        "in place": "edit",
        "temp then rename": "edit",
    }
    assert made[0].startswith(expected[how]) and "by hand" in made[0]


# -- item 7: results, schemas, annotations, instructions -------------------------------------------------


async def test_tools_schemas_annotations_and_instructions(vault: Path) -> None:
    async with connect(vault) as session:
        init = await session.initialize()
        tools = {t.name: t for t in (await session.list_tools()).tools}
        assert set(tools) == {READ, PROPOSE}
        read, propose = tools[READ], tools[PROPOSE]
        assert read.annotations and read.annotations.read_only_hint is True
        assert propose.annotations and propose.annotations.read_only_hint is False
        assert propose.annotations.destructive_hint is False and propose.annotations.idempotent_hint is True
        assert read.input_schema["required"] == ["question"]
        assert set(propose.input_schema["required"]) == {"text", "quote", "category"}
        stored = await call(session, PROPOSE, text="Likes tea", quote="tea!", category="preferences")
        refused = await call(session, PROPOSE, text="", quote="", category="x")
        result = await call(session, READ, question="tea")
        assert propose.output_schema and read.output_schema
        # written out in place: a client checks every result, and resolving `$ref`s cost it 1 ms a read
        assert "$ref" not in json.dumps([read.output_schema, propose.output_schema])
        memory = read.output_schema["properties"]["memories"]["items"]
        assert memory["required"] == ["id", "text", "category", "confirmed", "evidence"]
        for value, schema in (
            (stored, propose.output_schema),
            (refused, propose.output_schema),
            (result, read.output_schema),
        ):
            jsonschema.validate(value, schema)
    instructions = init.instructions or ""
    for phrase in ("personakit_read", "personakit_propose", "quote", "passwords"):
        assert phrase in instructions


async def test_read_only_offers_only_read(vault: Path) -> None:
    async with connect(vault, "--read-only") as session:
        tools = [t.name for t in (await session.list_tools()).tools]
        assert tools == [READ]
        with pytest.raises(MCPError) as unknown:  # the spec's answer for a tool the server does not have
            await session.call_tool(PROPOSE, {"text": "x", "quote": "y", "category": "tools"})
        assert unknown.value.code == -32602
    assert list((vault / "memories").glob("*.md")) == []


async def test_modern_stateless_client(vault: Path) -> None:
    """The 2026-07-28 protocol, as `mcp.Client` speaks it by default."""
    from mcp import Client, StdioServerParameters

    params = StdioServerParameters(command=sys.executable, args=server_command(vault), env=server_env())
    async with Client(params) as client:
        names = [t.name for t in (await client.list_tools()).tools]
        assert sorted(names) == sorted([READ, PROPOSE])
        stored = await client.call_tool(
            PROPOSE, {"text": "Likes tea", "quote": "tea!", "category": "preferences"}
        )
        assert stored.structured_content and stored.structured_content["stored"] is True
        read = await client.call_tool(READ, {"question": "tea"})
        assert read.structured_content and read.structured_content["memories"][0]["text"] == "Likes tea"


async def test_a_tie_at_the_cut_is_broken_by_state_and_age_not_index_order(vault: Path) -> None:
    # 30 memories share exactly the same words with the question; the approved, newest ones must win.
    for i in range(30):
        state = "approved" if i in (3, 17) else "unconfirmed"
        write_memory(
            vault,
            f"t{i:02d}.md",
            f"Tie memory zebra {chr(97 + i % 26)}{i}",
            state,
            created=f"2026-01-{i + 1:02d}T00:00:00Z",
            evidence="[]",
        )
    commit_all(vault)
    async with connect(vault) as session:
        result = await call(session, READ, question="zebra", limit=3)
    assert [m["text"].split()[-1] for m in result["memories"]] == ["r17", "d3", "d29"]
