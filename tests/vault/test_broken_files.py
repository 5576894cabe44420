"""Files that cannot break the server or the owner's decisions (issue 10, items 4, 6 and 7): a broken file
never lets a decided memory back in; any front matter a typo can produce is a skipped file or a sane
reading; YAML aliases are refused before they expand."""

from __future__ import annotations

import os
import resource
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from owner import cli, commit_all, propose, subjects

from personakit.core.memory import Memory, render_memory
from personakit.core.naming import memory_id
from personakit.errors import PersonaKitError
from personakit.owner.doctor import examine
from personakit.vault.service import PersonaKit, init_vault

from conftest import call, call_error, connect
from rawclient import RawServer

pytestmark = pytest.mark.anyio
Capsys = pytest.CaptureFixture[str]
FULL = os.environ.get("PERSONAKIT_FULL") == "1"


# -- item 4: a broken file cannot bring a decided memory back ----------------------------------------


@pytest.mark.parametrize("name", ["drinks-green-tea.md", "my own name for it.md"])
async def test_a_broken_file_blocks_a_proposal_of_its_memory(vault: Path, capsys: Capsys, name: str) -> None:
    [tea] = propose(vault, "Drinks green tea")
    cli(capsys, "reject", tea, "--vault", str(vault))
    mem = vault / "memories"
    (mem / "drinks-green-tea.md").rename(mem / name)
    path = mem / name
    path.write_text(path.read_text().replace("state: rejected", "state: [rejected"))  # a typo
    commit_all(vault)
    n = len(subjects(vault))
    async with connect(vault) as session:
        said = await call_error(
            session, "personakit_propose", text="Drinks green tea", quote="green tea again", category="other"
        )
        assert f"memories/{name} may hold this memory but cannot be read" in said
        assert "nothing was stored" in said
        read = await call(session, "personakit_read", question="green tea")
        assert read["memories"] == []
    assert sorted(p.name for p in mem.glob("*.md")) == [name]  # nothing new was written
    assert len(subjects(vault)) == n


async def test_a_broken_file_where_a_proposal_would_write_blocks_it(vault: Path) -> None:
    (vault / "memories" / "drinks-green-tea.md").write_text(
        "---\nstate: [rejected\n---\nGreen tea, somehow\n"
    )
    commit_all(vault)
    async with connect(vault) as session:
        said = await call_error(
            session, "personakit_propose", text="Drinks green tea", quote="tea", category="other"
        )
    assert "memories/drinks-green-tea.md may hold this memory but cannot be read" in said
    assert [p.name for p in (vault / "memories").glob("*.md")] == ["drinks-green-tea.md"]


# -- item 7: YAML aliases ------------------------------------------------------------------------------


def billion_laughs() -> str:
    lines = [
        "---",
        "id: m_0123456789ab",
        "state: approved",
        "a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]",
    ]
    for previous, name in zip("abcdefgh", "bcdefghi", strict=True):
        lines.append(f"{name}: &{name} [{', '.join(['*' + previous] * 9)}]")
    return "\n".join([*lines, "evidence: *i", "proposed_by: *i", "---", "Laughs a billion times", ""])


def limited_memory() -> None:  # in the server's process, before it runs: a failure, not a swapped machine
    resource.setrlimit(resource.RLIMIT_AS, (3 << 30, 3 << 30))


def test_a_billion_laughs_file_is_refused_before_it_expands(vault: Path, tmp_path: Path) -> None:
    laughs = billion_laughs()
    assert len(laughs) < 600  # a few hundred bytes
    (vault / "memories" / "laughs.md").write_text(laughs)
    (vault / "memories" / "tea.md").write_text(
        render_memory(
            Memory(memory_id("Drinks green tea"), "Drinks green tea", "other", "approved", ("tea",))
        )
    )
    commit_all(vault)
    log = tmp_path / "stderr.log"
    for _start in range(2):  # at every start, with the index built and without
        server = RawServer(vault, stderr=log, preexec_fn=limited_memory)
        try:
            read = server.call("personakit_read", timeout=30, question="green tea laughs")
            assert [m["text"] for m in read["structuredContent"]["memories"]] == ["Drinks green tea"]
        finally:
            assert server.close() == 0
    assert "skipped memories/laughs.md:4: the front matter uses a YAML alias" in log.read_text()
    problems = [str(p) for p in examine(str(vault)).problems]
    assert any(p.startswith("memories/laughs.md:4: the front matter uses a YAML alias") for p in problems)


# -- item 6: any front matter a typo can produce -----------------------------------------------------------

KEYS = ["id", "state", "category", "evidence", "proposed_by", "created", "mood", "1", "null", "true"]
scalar = st.one_of(
    st.sampled_from([
        "approved", "restricted", "no", "yes", "~", "null", "2026-02-30", "2026-13-01T25:61:61Z", "0042",
        "0x" + "f" * 4000, "9" * 5000, "1e999", "-.inf", ".nan", "m_0123456789ab", "[approved", "{a: 1",
        "'unclosed", "!!binary AAAA", "!!python/object:os.system ls", "!custom x", "&anchor approved",
        "*alias", "<<: {state: approved}", "|\n  block\n  text", ">-\n  folded", '"\\x00\\ud800"',
    ]),
    st.text(max_size=30),
    st.integers(),
    st.floats(allow_nan=True),
)  # fmt: skip
value = st.recursive(scalar, lambda inner: st.one_of(
    st.lists(inner, max_size=3).map(lambda xs: "[" + ", ".join(map(str, xs)) + "]"),
    st.dictionaries(st.sampled_from(KEYS), inner, max_size=3).map(
        lambda d: "{" + ", ".join(f"{k}: {v}" for k, v in d.items()) + "}"
    ),
), max_leaves=6)  # fmt: skip
front_matter = st.lists(st.tuples(st.sampled_from(KEYS), value), max_size=8).map(
    lambda pairs: "\n".join(f"{k}: {v}" for k, v in pairs)
)
GOOD = ["Drinks green tea every morning", "Uses vim for all editing", "Walks the dog before breakfast"]


def vault_with(odd: list[str]) -> Path:
    root = Path(tempfile.mkdtemp(prefix="pk-typo-")) / "vault"
    init_vault(root)
    for text in GOOD:
        memory = Memory(
            memory_id(text), text, "other", "approved", ("I said so",), "p", "2026-01-01T00:00:00Z"
        )
        (root / "memories" / f"{memory.id}.md").write_text(render_memory(memory))
    for n, front in enumerate(odd):
        (root / "memories" / f"odd-{n}.md").write_text(f"---\n{front}\n---\nOdd memory number {n}\n")
    return root


@settings(max_examples=200 if FULL else 25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(odd=st.lists(front_matter, min_size=1, max_size=4))
def test_any_typo_in_front_matter_is_skipped_or_read_sanely(odd: list[str]) -> None:
    root = vault_with(odd)
    kit = PersonaKit(root, create=False)
    kit.start()  # start-up indexing
    try:
        for text in GOOD:
            result = kit.read(text, record=False)
            assert result["memories"][0]["text"] == text  # the rest of the vault is served
        kit.read("odd memory number", record=False)  # and the odd files never raise
        try:
            kit.propose("Odd memory number 0", "hello", "other")
        except PersonaKitError as error:  # the file that may hold it cannot be read
            assert "cannot be read" in str(error)
    finally:
        kit.close()
    examine(str(root))  # nor does the doctor


def test_the_server_keeps_answering_beside_files_full_of_typos(tmp_path: Path) -> None:
    odd = [
        "id: m_0123456789ab\nstate: no\ncreated: 2026-02-30\nevidence: {nested: {map: 1}}",
        "? [a, b]\n: c\nstate: approved",
        "state: approved\ncreated: " + "9" * 5000 + "\nproposed_by: [a, b]\ncategory: {x: y}",
        "id: 0x" + "f" * 5000 + "\nstate: approved\nevidence: [2026-13-45, 1e999, ~]",
    ]
    root = vault_with(odd)
    server = RawServer(root, stderr=tmp_path / "stderr.log")
    try:
        for text in GOOD:
            read = server.call("personakit_read", question=text)["structuredContent"]
            assert read["memories"][0]["text"] == text
        read = server.call("personakit_read", question="odd memory number", limit=20)["structuredContent"]
        served = {m["text"] for m in read["memories"]}
        assert "Odd memory number 0" not in served  # `state: no` reads as restricted
        assert "Odd memory number 2" in served and "Odd memory number 3" in served  # sane readings
    finally:
        assert server.close() == 0
    log = (tmp_path / "stderr.log").read_text()
    assert "skipped memories/odd-1.md" in log and "Traceback" not in log
