"""The benchmark's phases: every figure at one vault size, and the long-history vault against its twin.

Each figure is measured next to its reference, in the same minutes, so a ratio survives a noisy machine:
reads alternate one PersonaKit read with one `echo` call to the floor over a second connection; cold
starts alternate a PersonaKit start with a floor start; proposals are compared with the owner's own
`git add` + `git commit` in the same vault; the long-history vault's commands alternate with the same
command on its fresh-history twin.
"""

from __future__ import annotations

import random
import shutil
import statistics
import subprocess
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import generate
import longhistory
from mcp import ClientSession
from measure import (
    Env,
    Profiler,
    call,
    cold_start,
    connect,
    disk_usage_mb,
    first_read,
    packer_cpu,
    peak_rss_mb,
    percentile,
    wait_for_git,
    wait_for_packer,
    wait_idle,
)

from personakit.core.memory import VISIBLE_STATES, InvalidMemory, Memory, parse_memory, render_memory
from personakit.core.naming import memory_id
from personakit.core.words import words

Say = Callable[[str], None]  # progress lines, to stderr
Figures = dict[str, float]
SAVE_TIMEOUT = 10.0  # seconds an editor's save may take to show in a read before it counts as lost
CONSONANTS = "bcdfghjkmnpqrtvwxz"  # no vowels, s or y: words of these mostly pass the stemmer unchanged
WARM_UP = 20  # reads of each workload before any is timed


@dataclass
class Plan:
    """How many samples of each kind to take."""

    sizes: list[int]
    cold_runs: int = 5
    scratch_runs: int = 3
    index_runs: int = 3
    reads: int = 600
    proposes: int = 30
    burst: int = 50
    baseline: int = 10
    saves: int = 30
    history: tuple[int, int] | None = (10_000, 100_000)  # memories, commits
    history_runs: int = 3
    history_burst: int = 200
    smoke: bool = False
    py_spy: Path | None = None
    code: Path | None = None


# -- one size --------------------------------------------------------------------------------------------
async def measure_size(env: Env, plan: Plan, n: int, workloads: dict[str, list[str]], say: Say) -> Figures:
    """Every figure at one vault size, on a fresh copy of the cached vault."""
    out: Figures = {}
    vault = env.root / f"vault-{n}"
    log, floor_log = env.logs / f"personakit-{n}.log", env.logs / "floor.log"
    t0 = time.perf_counter()
    generate.fresh_copy(n, vault)
    say(f"copied the {n:,} vault in {time.perf_counter() - t0:.1f} s")

    # start-up: the first index (reindex CLI), a start with no index, starts with the index there
    builds = [env.cli(vault, "reindex", log=log) for _ in range(plan.index_runs if n < 100_000 else 1)]
    out["index build"] = statistics.median(builds)
    say(f"first index: {', '.join(f'{s:.2f}' for s in builds)} s")
    scratch, scratch_listed = [], []
    for _ in range(plan.scratch_runs if n < 100_000 else 1):
        shutil.rmtree(vault / ".personakit", ignore_errors=True)
        listed, answered = await first_read(env.personakit(vault), log, workloads["lookup"][0])
        scratch.append(answered)
        scratch_listed.append(listed)
    out["cold scratch"] = statistics.median(scratch)
    out["cold scratch listed"] = statistics.median(scratch_listed)
    floors, existing = [], []
    for _ in range(plan.cold_runs):
        floors.append(await cold_start(env.floor(), floor_log))
        existing.append(await cold_start(env.personakit(vault), log))
    out["cold"], out["cold existing"] = statistics.median(floors), statistics.median(existing)
    say(f"cold start: no index, to the first read {', '.join(f'{s:.2f}' for s in scratch)} s; index there "
        f"{', '.join(f'{s:.2f}' for s in existing)} s; floor {', '.join(f'{s:.2f}' for s in floors)} s")  # fmt: skip

    ids = generate.vault_ids(n)
    idle_drafts = generate.proposals(plan.proposes, ids)
    burst_drafts = generate.proposals(plan.burst, ids | {memory_id(d.text) for d in idle_drafts}, seed=4)
    async with (
        connect(env.personakit(vault), log) as (session, pid),
        connect(env.floor(), floor_log) as (floor, floor_pid),
    ):
        for questions in workloads.values():
            for q in questions[:WARM_UP]:
                await call(session, "personakit_read", {"question": q})
                await call(floor, "echo", {"text": q})
        await wait_idle(pid)
        out["rss after start"] = peak_rss_mb(pid)
        phases = session_phases(
            session, floor, pid, vault, plan, workloads, (idle_drafts, burst_drafts), out, say
        )
        for name, phase in phases:
            profiler = Profiler(plan.py_spy, pid, f"{n}-{name}")
            await phase
            profiler.stop()
            await wait_idle(pid)
            out[f"rss after {name}"] = peak_rss_mb(pid)
        out["rss"] = peak_rss_mb(pid)
        out["floor rss"] = peak_rss_mb(floor_pid)
    say(
        f"server peak RSS {out['rss']:.0f} MB (after start {out['rss after start']:.0f}); floor {out['floor rss']:.0f}"
    )
    baseline = git_baseline(env, vault, plan.baseline)
    out["git baseline p50"] = percentile(baseline, 50)
    say(f"git add + commit by hand: p50 {out['git baseline p50'] * 1e3:.0f} ms")
    await wait_for_git(vault)
    out["git size"], out["memories size"] = disk_usage_mb(vault / ".git"), disk_usage_mb(vault / "memories")
    return out


def session_phases(
    session: ClientSession, floor: ClientSession, pid: int, vault: Path, plan: Plan, workloads: dict[str, list[str]],
    drafts: tuple[list[generate.Draft], list[generate.Draft]], out: Figures, say: Say,
) -> list[tuple[str, Any]]:  # fmt: skip
    """The session's timed phases after the warm-up, in order, not yet awaited (`bench/memory.py` walks
    the same): each workload's reads, proposals with the server idle before each, then back to back
    (drafts: those two lists), editor saves."""
    return [
        *((f"read-{name}", _reads(session, floor, name, questions[WARM_UP : WARM_UP + plan.reads], out, say))
          for name, questions in workloads.items()),
        ("propose", _proposals(session, pid, vault, drafts[0], out, say)),
        ("burst", _burst(session, pid, drafts[1], out, say)),
        ("save", _saves(session, pid, vault, plan.saves, out, say)),
    ]  # fmt: skip


async def _reads(session: ClientSession, floor: ClientSession, name: str, questions: list[str], out: Figures,
                 say: Say) -> None:  # fmt: skip
    """Read latency over the questions, one call at a time, each followed by one floor call."""
    times, floor_times, unmatched = [], [], 0
    for q in questions:
        elapsed, result = await call(session, "personakit_read", {"question": q})
        times.append(elapsed)
        floor_times.append((await call(floor, "echo", {"text": q}))[0])
        unmatched += not any(_shares_a_word(q, m) for m in result.get("memories", []))
    for p in (50, 95, 99):
        out[f"read {name} p{p}"] = percentile(times, p)
        out[f"call {name} p{p}"] = percentile(floor_times, p)
    out[f"read {name} unmatched"] = unmatched / len(times)
    say(f"{len(times)} {name} reads ({unmatched} matched nothing): p50 {out[f'read {name} p50'] * 1e3:.2f} ms, "
        f"p99 {out[f'read {name} p99'] * 1e3:.2f} ms; floor p50 {out[f'call {name} p50'] * 1e3:.2f} ms, "
        f"p99 {out[f'call {name} p99'] * 1e3:.2f} ms")  # fmt: skip


def _shares_a_word(question: str, memory: dict[str, Any]) -> bool:
    """Does a returned memory match the question (rather than fill an empty place)?"""
    return bool(set(words(question)) & set(words(" ".join([memory["text"], *memory["evidence"]]))))


async def _propose(session: ClientSession, draft: generate.Draft) -> float:
    args = {"text": draft.text, "quote": draft.quote, "category": draft.category}
    elapsed, result = await call(session, "personakit_propose", args)
    if not (result.get("stored") and result.get("new")):
        raise RuntimeError(f"proposal not stored as new: {draft} -> {result}")
    return elapsed


async def _proposals(session: ClientSession, pid: int, vault: Path, drafts: list[generate.Draft], out: Figures,
                     say: Say) -> None:  # fmt: skip
    """Propose latency of new, distinct memories, one at a time with the server idle before each."""
    times = []
    for draft in drafts:
        await wait_idle(pid)
        await wait_for_git(vault)
        times.append(await _propose(session, draft))
    out["propose p50"], out["propose p99"] = percentile(times, 50), percentile(times, 99)
    say(f"{len(times)} proposals, idle before each: p50 {out['propose p50'] * 1e3:.1f} ms")


async def _burst(
    session: ClientSession, pid: int, drafts: list[generate.Draft], out: Figures, say: Say
) -> None:
    """Proposals back to back, as an assistant proposing a list does: no wait between them."""
    await wait_idle(pid)
    start = time.perf_counter()
    times = [await _propose(session, draft) for draft in drafts]
    out["burst total"] = time.perf_counter() - start
    out["burst p50"], out["burst p99"] = percentile(times, 50), percentile(times, 99)
    say(f"{len(times)} proposals back to back in {out['burst total']:.2f} s: p50 {out['burst p50'] * 1e3:.1f} ms, "
        f"p99 {out['burst p99'] * 1e3:.1f} ms")  # fmt: skip


def git_baseline(env: Env, vault: Path, count: int) -> list[float]:
    """The owner committing one new memory file by hand, `git add` then `git commit`, count times (wall)."""
    times = []
    for i in range(count):
        text = f"Wrote this note by hand, number {i} of the baseline"
        memory = Memory(id=memory_id(text), text=text, category="other", state="approved",
                        evidence=("my own note",), proposed_by="owner", created="2026-01-01T00:00:00Z")  # fmt: skip
        name = f"baseline-by-hand-{i}.md"
        (vault / "memories" / name).write_text(render_memory(memory), encoding="utf-8")
        start = time.perf_counter()
        for args in (["add", "--", f"memories/{name}"], ["commit", "-q", "-m", f"Add {name} by hand"]):
            subprocess.run(["git", *args], cwd=vault, env=env.process_env(vault), check=True)
        times.append(time.perf_counter() - start)
    return times


def _editor_word(rng: random.Random) -> str:
    """A new word that the word rules keep as it is (so a read with it finds exactly the edited memory)."""
    while True:
        word = "zq" + "".join(rng.choice(CONSONANTS) for _ in range(8))
        if words(word) == [word]:
            return word


def _visible_files(vault: Path, count: int, rng: random.Random) -> list[str]:
    """Names of `count` memory files in a state a read returns."""
    names = sorted(p.name for p in (vault / "memories").glob("*.md"))
    rng.shuffle(names)
    chosen = []
    for name in names:
        try:
            memory = parse_memory((vault / "memories" / name).read_text(encoding="utf-8"), name)
        except (InvalidMemory, OSError):
            continue
        if memory.state in VISIBLE_STATES:
            chosen.append(name)
            if len(chosen) == count:
                break
    return chosen


def _save_like_an_editor(path: Path, word: str) -> None:
    """Append word to the memory's text: write a temporary file beside it, then rename it over the file."""
    raw = path.read_text(encoding="utf-8")
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(raw.rstrip("\n") + f" {word}\n", encoding="utf-8")
    tmp.replace(path)


async def _saves(session: ClientSession, pid: int, vault: Path, count: int, out: Figures, say: Say) -> None:
    """From an editor's save of a memory file to the first read that returns the new text."""
    rng = random.Random(count)
    times, lost = [], 0
    for name in _visible_files(vault, count, rng):
        await wait_idle(pid)
        await wait_for_git(vault)  # the last save's commit: git works in child processes
        word = _editor_word(rng)
        _save_like_an_editor(vault / "memories" / name, word)
        start = time.perf_counter()
        while time.perf_counter() - start < SAVE_TIMEOUT:
            _, result = await call(session, "personakit_read", {"question": word, "limit": 3})
            if any(word in m["text"] for m in result.get("memories", [])):
                times.append(time.perf_counter() - start)
                break
        else:
            lost += 1
            times.append(float("inf"))
    out["save p50"], out["save p99"] = percentile(times, 50), percentile(times, 99)
    out["save lost"] = lost
    say(
        f"{len(times)} editor saves ({lost} not visible in {SAVE_TIMEOUT:.0f} s): p50 {out['save p50'] * 1e3:.0f} ms"
    )


# -- years of history ------------------------------------------------------------------------------------
async def measure_history(env: Env, plan: Plan, n: int, commits: int, say: Say) -> Figures:
    """The owner's commands and a cold start on the long-history vault, each next to the same on its twin."""
    out: Figures = {}
    long_source, fresh_source = longhistory.cached_pair(n, commits)
    long, fresh = env.root / "history-long", env.root / "history-fresh"
    t0 = time.perf_counter()
    generate.copy_vault(long_source, long)
    generate.copy_vault(fresh_source, fresh)
    # As generated (git's own gc, window 10, depth 50), before any PersonaKit command: opening the vault
    # starts PersonaKit's packer, which may repack it meanwhile.
    out["memories size"] = disk_usage_mb(long / "memories")
    out["git size"] = disk_usage_mb(long / ".git")
    log = env.logs / "history.log"
    for vault in (long, fresh):
        env.cli(vault, "reindex", log=log)  # the index is there, as in a vault in use
    say(f"copied and indexed the history pair in {time.perf_counter() - t0:.1f} s")
    mid = _recent_id(long)
    commands = {"show": ["show", mid], "log": ["log", "--limit", "50"],
                "log reads": ["log", "--reads", "--limit", "50"], "doctor": ["doctor"]}  # fmt: skip
    for key, args in commands.items():
        runs: dict[str, list[float]] = {"long": [], "fresh": []}
        for _ in range(plan.history_runs):
            for which, vault in (("long", long), ("fresh", fresh)):
                runs[which].append(env.cli(vault, *args, log=log))
        out[key], out[f"fresh {key}"] = statistics.median(runs["long"]), statistics.median(runs["fresh"])
        say(f"{' '.join(args)}: {out[key]:.2f} s with {commits:,} commits, {out[f'fresh {key}']:.2f} s fresh")
    starts: dict[str, list[float]] = {"long": [], "fresh": []}
    for _ in range(plan.cold_runs):
        for which, vault in (("long", long), ("fresh", fresh)):
            starts[which].append(await cold_start(env.personakit(vault), log))
    out["cold existing"] = statistics.median(starts["long"])
    out["fresh cold existing"] = statistics.median(starts["fresh"])
    say(
        f"cold start: {out['cold existing']:.2f} s with {commits:,} commits, {out['fresh cold existing']:.2f} s fresh"
    )
    known = {line.removeprefix("id: ") for line in longhistory._ids(long)}  # each draft a new memory there
    drafts = generate.proposals(plan.history_burst, known, seed=6)
    async with connect(env.personakit(long), log) as (session, pid):
        await wait_idle(pid)
        times = [await _propose(session, draft) for draft in drafts]
        out["history burst p50"] = percentile(times, 50)
    waited = await wait_for_packer(long)
    out["git size after burst"] = disk_usage_mb(long / ".git")
    out["packer cpu"], runs = packer_cpu(long)
    say(f".git {out['git size']:.0f} MB, then {out['git size after burst']:.0f} MB after {len(drafts)} proposals "
        f"(p50 {out['history burst p50'] * 1e3:.0f} ms; waited {waited:.1f} s for the packer); "
        f"memories/ {out['memories size']:.0f} MB; the packer's CPU {out['packer cpu']:.1f} s in "
        f"{len(runs)} runs: {_runs(runs)}")  # fmt: skip
    return out


def _runs(runs: list[dict[str, Any]]) -> str:
    """The packer's runs as "deep 412.3 s, loose 0.4 s": what each did and its CPU."""
    return ", ".join(f"{run.get('kind')} {run.get('cpu', 0):.1f} s" for run in runs) or "none recorded"


def _recent_id(vault: Path) -> str:
    """The id of the memory that most recently gained evidence (one with a long history, still there), or
    else of the newest proposal."""
    for pattern in ("^evidence for m_", "^propose m_"):
        subject = subprocess.run(["git", "log", "-1", "--format=%s", f"--grep={pattern}"], cwd=vault,
                                 capture_output=True, text=True, check=True).stdout  # fmt: skip
        found = [word.rstrip(":") for word in subject.split() if word.startswith("m_")]
        if found:
            return found[0]
    raise RuntimeError(f"{vault} has no commit naming a memory")
