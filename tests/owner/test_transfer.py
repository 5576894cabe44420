"""`personakit import` and `personakit export` on fixtures in the real shapes of each format
(tests/data/import/), through the command line as an owner runs it."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from owner import cli, cli_process, git, propose, subjects

from personakit.core.memory import parse_memory
from personakit.core.naming import memory_id
from personakit.owner.importing import parsers
from personakit.owner.importing.guess import guess
from personakit.owner.importing.storing import read_source

Capsys = pytest.CaptureFixture[str]
DATA = Path(__file__).resolve().parents[1] / "data" / "import"
TOKEN = "ghp_R8mKq2ZtW4vXy7Lp9NcBd3Hf6Js1Ga5Ue0Qo"  # a made-up token in chatgpt-saved-memories.txt

# fixture -> (format it is guessed as, texts it brings in, how many are skipped)
FIXTURES = {
    "chatgpt-saved-memories.txt": ("chatgpt", [
        "Prefers concise answers with the code first and the explanation after.",
        "Is a backend developer who works mostly in Go and Python.",
        "Prefers metric units and 24-hour times.",
        "Lives in Lisbon and works remotely for a company in Berlin.",
        "Has a standing rule of no meetings on Fridays.",
    ], 0),
    "chatgpt-model-set-context.txt": ("chatgpt", [
        "Loves dogs and has a border collie named Pixel.",
        "Prefers dark mode in every editor.",
        "User's preferred name is Sam.",
    ], 0),
    "claude-export.txt": ("claude", [
        "Prefers blunt, direct feedback on drafts; skip the praise sandwich.",
        "Works as a data engineer at a logistics company.",
        "Uses dbt, Airflow and DuckDB; writes SQL in lowercase.",
        "Never schedule anything before 10am.",
        "Is learning Portuguese and likes practice sentences in answers.",
    ], 0),
    "mcp-memory.jsonl": ("mcp-memory", [
        "Prefers morning meetings", "Speaks fluent Spanish", "Uses Neovim with a custom Lua config",
        "Works at Acme Corp",
    ], 4),
    "mem0-get-all.json": ("mem0", [
        "Is a vegetarian and allergic to peanuts",
        "Prefers TypeScript over JavaScript for new projects",
        "Email me the weekly summary at alex.rivera@example.com on Mondays",
    ], 0),
    "openmemory-memories.json": ("mem0", ["Prefers tabs over spaces", "Runs Fedora on a ThinkPad"], 1),
    "basic-memory": ("basic-memory", [
        "Likes answers as numbered steps", "Edits everything in Helix",
        "Grew up in Porto and moved to Copenhagen in 2019", "Reads papers on a reMarkable tablet",
        "Uses SQLite for the offline cache", "Must work without a network connection",
    ], 0),
    "plain-bullets.md": ("lines", [
        "Prefers British spelling", "Likes short emails, three paragraphs at most",
        "Uses a standing desk in the afternoon", "Takes calls only between 14:00 and 17:00 CET",
    ], 0),
}  # fmt: skip


def memories(vault: Path) -> dict[str, object]:
    """id -> the memory its file holds."""
    found = {}
    for path in (vault / "memories").glob("*.md"):
        memory = parse_memory(path.read_text(encoding="utf-8"), path.name)
        found[memory.id] = memory
    return found


@pytest.mark.parametrize("name", FIXTURES)
def test_each_format_is_guessed_and_read_in_its_real_shape(name: str) -> None:
    fmt, texts, skipped = FIXTURES[name]
    path = DATA / name
    assert guess(path, None if path.is_dir() else path.read_text(encoding="utf-8")) == fmt
    found, items = read_source(str(path), None)
    assert found == fmt
    kept: dict[str, str] = {}  # id -> the first text with it: duplicates count once
    for item in items:
        if not item.skip and len(item.text) <= 300 and TOKEN not in item.text:
            kept.setdefault(memory_id(item.text), item.text)
    assert list(kept.values()) == texts
    assert sum(1 for i in items if i.skip) == skipped


def test_categories_come_from_the_source_when_it_names_them() -> None:
    _, items = read_source(str(DATA / "basic-memory"), None)
    assert {i.text: i.category for i in items}["Edits everything in Helix"] == "tools"
    _, items = read_source(str(DATA / "openmemory-memories.json"), None)
    assert [i.category for i in items[:2]] == ["preferences", "tools"]
    assert (
        parsers()["mem0"](json.dumps({"results": [{"memory": "x", "categories": ["user_preferences"]}]}))[
            0
        ].category
        == "preferences"
    )


def test_a_dry_run_shows_what_would_be_stored_and_refused_and_writes_nothing(
    vault: Path, capsys: Capsys
) -> None:
    before = git(vault, "rev-parse", "HEAD")
    code, out, err = cli(
        capsys, "import", str(DATA / "chatgpt-saved-memories.txt"), "--dry-run", "--vault", str(vault)
    )
    assert code == 0, err
    assert out.count("  new      m_") == 5
    assert "  known    m_" in out and "(again, line 15)" in out
    assert "refused  line 17  credential_shape" in out and TOKEN not in out
    assert "refused  line 19  too_long" in out
    assert (
        "Would import from chatgpt-saved-memories.txt (read as chatgpt): 5 new, 1 already known, 2 refused."
        in out
    )
    assert git(vault, "rev-parse", "HEAD") == before
    assert list((vault / "memories").glob("*.md")) == []


def test_an_import_is_one_commit_of_unconfirmed_proposals_and_duplicates_stay_single(
    vault: Path, capsys: Capsys
) -> None:
    (known,) = propose(vault, "Prefers metric units and 24-hour times", host="cursor")
    cli(capsys, "approve", known, "--vault", str(vault))
    before = len(subjects(vault))
    code, out, err = cli(capsys, "import", str(DATA / "chatgpt-saved-memories.txt"), "--vault", str(vault))
    assert code == 0, err
    assert (
        f"  known    {known}  preferences   Prefers metric units and 24-hour times (already approved)" in out
    )
    assert (
        "Imported from chatgpt-saved-memories.txt (read as chatgpt): 4 new, 2 already known, 2 refused" in out
    )
    assert "personakit review" in out
    assert len(subjects(vault)) == before + 1  # one commit for the whole import
    message = git(vault, "log", "-1", "--format=%B")
    assert message.startswith(
        "import from chatgpt (chatgpt-saved-memories.txt): 4 new, 2 already known, 2 refused"
    )
    assert f"{known}" not in message  # a known memory is left as it is
    stored = memories(vault)
    assert len(stored) == 5
    lisbon = stored[memory_id("Lives in Lisbon and works remotely for a company in Berlin.")]
    assert lisbon.state == "unconfirmed" and lisbon.proposed_by == "import:chatgpt"  # type: ignore[attr-defined]
    assert lisbon.evidence == ()  # type: ignore[attr-defined]  # a copy of the text is no evidence
    assert lisbon.text == "Lives in Lisbon and works remotely for a company in Berlin"  # type: ignore[attr-defined]
    metric = stored[known]
    assert metric.state == "approved"  # type: ignore[attr-defined]
    assert metric.evidence == ("I said: prefers metric units and 24-hour times",)  # type: ignore[attr-defined]
    assert TOKEN not in git(vault, "log", "-p", "--all") and "bakery" not in git(vault, "log", "-p")
    # The index knows them: an assistant's read finds an imported memory at once.
    code, out, _ = cli(capsys, "search", "Lisbon", "--json", "--vault", str(vault))
    assert json.loads(out)["memories"][0]["text"].startswith("Lives in Lisbon")
    code, out, _ = cli(capsys, "show", lisbon.id, "--vault", str(vault))  # type: ignore[attr-defined]
    assert "import from chatgpt" in out

    code, out, _ = cli(capsys, "import", str(DATA / "chatgpt-saved-memories.txt"), "--vault", str(vault))
    assert code == 0 and "Nothing new to import" in out and "0 new, 6 already known, 2 refused" in out
    assert len(subjects(vault)) == before + 1


def test_every_fixture_imports_through_a_real_process(vault: Path) -> None:
    total = set()
    for name, (fmt, texts, _) in FIXTURES.items():
        done = cli_process("import", str(DATA / name), "--vault", str(vault))
        assert done.returncode == 0, done.stderr
        assert f"(read as {fmt})" in done.stdout
        total |= {memory_id(t) for t in texts}
    assert set(memories(vault)) == total
    assert {m.proposed_by for m in memories(vault).values()} == {  # type: ignore[attr-defined]
        f"import:{fmt}" for fmt, _, _ in FIXTURES.values()
    }
    assert git(vault, "status", "--porcelain") == ""


def test_import_errors_are_sentences(vault: Path, tmp_path: Path, capsys: Capsys) -> None:
    empty = tmp_path / "empty.txt"
    empty.write_text("\n\n# just a heading\n")
    code, _, err = cli(capsys, "import", str(empty), "--vault", str(vault))
    [said] = err.splitlines()
    assert code == 1 and said.startswith("personakit: found nothing to import in empty.txt read as lines")
    code, _, err = cli(capsys, "import", str(tmp_path / "missing.txt"), "--vault", str(vault))
    assert code == 1 and "there is no file" in err
    other = tmp_path / "settings.json"
    other.write_text('{"theme": "dark"}')
    code, _, err = cli(capsys, "import", str(other), "--vault", str(vault))
    assert code == 1 and "this is JSON, but not in a shape PersonaKit imports" in err
    broken = tmp_path / "broken.json"
    broken.write_text('{"type": "entity", "name": "x"}\nnot json\n')
    code, _, err = cli(capsys, "import", str(broken), "--from", "mcp-memory", "--vault", str(vault))
    assert code == 1 and "line 2 is not JSON" in err and "Traceback" not in err


def test_export_is_approved_by_default_masked_and_private_only_when_asked(
    vault: Path, tmp_path: Path, capsys: Capsys
) -> None:
    tools, feedback, _, secret, dropped = propose(
        vault, "Works in Go and Python", "Prefers blunt feedback", "Drinks oolong tea", "Sees a therapist",
        "Hates mornings", quote="mail me at sam@example.com",
    )  # fmt: skip
    cli(capsys, "approve", tools, feedback, "--vault", str(vault))
    cli(capsys, "restrict", secret, "--vault", str(vault))
    cli(capsys, "reject", dropped, "--vault", str(vault))
    cli(capsys, "import", str(DATA / "mem0-get-all.json"), "--vault", str(vault))
    cli(
        capsys,
        "approve",
        memory_id("Email me the weekly summary at alex.rivera@example.com on Mondays"),
        "--vault",
        str(vault),
    )

    code, out, err = cli(capsys, "export", "--vault", str(vault))
    assert code == 0
    # The imported "Email me the weekly summary ..." came with no category: its words chose communication.
    assert re.findall(r"(?m)^## .+$", out) == ["## Communication", "## Preferences"]
    assert "- Works in Go and Python" in out and "- Prefers blunt feedback" in out
    assert "alex.rivera@example.com" not in out and "[email]" in out
    for private in ("oolong", "therapist", "mornings", "vegetarian"):
        assert private not in out
    assert "3 memories" in err and f"{len(out):,} characters" in err

    code, out, _ = cli(capsys, "export", "--format", "json", "--vault", str(vault))
    records = json.loads(out)
    assert {r["id"] for r in records} == {tools, feedback, records[0]["id"]}
    assert set(records[0]) == {
        "id", "text", "category", "state", "evidence", "created", "proposed_by", "about", "said", "until",
    }  # fmt: skip
    by_id = {r["id"]: r for r in records}
    assert by_id[tools]["evidence"] == ["mail me at [email]"] and by_id[tools]["state"] == "approved"

    code, out, err = cli(capsys, "export", "--format", "jsonl", "--state", "visible", "--vault", str(vault))
    states = [json.loads(line)["state"] for line in out.splitlines()]
    assert sorted(set(states)) == ["approved", "unconfirmed"] and len(states) == 6
    assert "include-private" not in err

    target = tmp_path / "all.md"
    code, out, err = cli(capsys, "export", "--include-private", "-o", str(target), "--vault", str(vault))
    assert code == 0 and out == ""
    assert "restricted and rejected memories are in this export" in err
    written = target.read_text()
    assert "Sees a therapist (restricted)" in written and "Hates mornings (rejected)" in written
    assert "oolong" not in written  # unconfirmed: not asked for
