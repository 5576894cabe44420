"""PersonaKit's performance benchmark: a real stdio MCP client against `personakit serve`, next to a floor.

For each vault size (default 1k, 10k and 100k generated memories, see `generate.py`) it measures:

- cold start: spawn -> initialize -> tools/list reply, with the index built from scratch (no
  `.personakit/`) and with the index already there (median of a few runs);
- first index build: wall time of `python -m personakit reindex --vault V` (a whole process: interpreter
  start, imports, building the Whoosh index from every file, and git status);
- `personakit_read` latency p50/p95/p99 over varied questions (some matching nothing);
- `personakit_propose` latency p50/p99 over new distinct memories (file, commit, index), one at a time
  with the server idle in between;
- editor save -> visible in a read: rewrite a memory file with a new unique word (temp file, then
  os.replace) and poll `personakit_read` for that word until it comes back;
- the server's peak RSS (VmHWM) at the end of the session.

The floor is `floor_server.py`, one trivial tool on the same SDK, timed by the same client in the same
run. Every figure is also shown as a ratio to the floor's matching figure; compare ratios, not absolute
times, across machines or runs. Results go to stdout, `bench/out/results.md` and `bench/out/results.json`.

The benchmark never touches ~/PersonaKit: servers get `--vault`, PERSONAKIT_VAULT, a temporary HOME and
a temporary GIT_CONFIG_GLOBAL with a bench identity.

    python bench/run.py                        # 1k, 10k, 100k (100k takes a while; see README.md)
    python bench/run.py --sizes 1000 10000
    python bench/run.py --smoke                # 1k, few samples, under a minute; no timing assertions
    python bench/run.py --sizes 10000 --py-spy bench/out/profiles   # also sample the server per phase
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import random
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

import anyio
import generate
from mcp import ClientSession
from mcp.client.stdio import StdioServerParameters, get_default_environment, stdio_client

from personakit.core.memory import VISIBLE_STATES, InvalidMemory, parse_memory
from personakit.core.words import words

BENCH = Path(__file__).resolve().parent
OUT = BENCH / "out"
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
Say = Callable[[str], None]  # progress lines, to stderr
SAVE_TIMEOUT = 10.0  # seconds an editor's save may take to show in a read before it counts as lost
CONSONANTS = "bcdfghjkmnpqrtvwxz"  # no vowels, s or y: words of these mostly pass the stemmer unchanged


@dataclass
class Plan:
    """How many samples of each kind to take."""

    sizes: list[int]
    cold_runs: int = 5
    scratch_runs: int = 3
    reads: int = 600
    proposes: int = 100
    saves: int = 30
    floor_calls: int = 600
    smoke: bool = False
    py_spy: Path | None = None


@dataclass
class Env:
    """Where servers run: a temporary home, git config, logs and vault copies."""

    root: Path
    home: Path = field(init=False)
    gitconfig: Path = field(init=False)
    logs: Path = field(init=False)

    def __post_init__(self) -> None:
        self.home = self.root / "home"
        self.logs = self.root / "logs"
        self.gitconfig = self.root / "gitconfig"
        self.home.mkdir(parents=True)
        self.logs.mkdir()
        self.gitconfig.write_text("[user]\n\tname = bench-owner\n\temail = owner@example.invalid\n")

    def variables(self, vault: Path | None = None) -> dict[str, str]:
        extra = {"HOME": str(self.home), "GIT_CONFIG_GLOBAL": str(self.gitconfig), "GIT_CONFIG_NOSYSTEM": "1"}
        if vault is not None:
            extra["PERSONAKIT_VAULT"] = str(vault)
        return extra

    def personakit(self, vault: Path) -> StdioServerParameters:
        args = ["-m", "personakit", "serve", "--vault", str(vault)]
        return StdioServerParameters(command=sys.executable, args=args, env=self.variables(vault))

    def floor(self) -> StdioServerParameters:
        args = [str(BENCH / "floor_server.py")]
        return StdioServerParameters(command=sys.executable, args=args, env=self.variables())


# -- small measuring helpers ---------------------------------------------------------------------------
def percentile(values: Sequence[float], p: float) -> float:
    """The p-th percentile (0-100) with linear interpolation; nan for no values."""
    if not values:
        return math.nan
    ordered = sorted(values)
    rank = (len(ordered) - 1) * p / 100
    low, high = math.floor(rank), math.ceil(rank)
    return ordered[low] + (ordered[high] - ordered[low]) * (rank - low)


def children(pid: int) -> list[int]:
    found = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            found += [int(c) for c in (task / "children").read_text().split()]
        except OSError:
            continue
    return found


def server_pid(args: Sequence[str]) -> int:
    """The PID of the server this client spawned: its child whose command line ends with args."""
    for pid in sorted(children(os.getpid()), reverse=True):
        try:
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if [a.decode() for a in cmdline if a][-len(args) :] == list(args):
            return pid
    raise RuntimeError(f"cannot find the server process among the children of {os.getpid()}")


def cpu_ticks(pid: int) -> int:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])  # utime + stime, all threads


async def wait_idle(pid: int, quiet: float = 0.2, most: float = 300.0) -> float:
    """Wait until the server has used no CPU for `quiet` seconds (its background work is done)."""
    start = time.perf_counter()
    last, since = cpu_ticks(pid), time.perf_counter()
    while time.perf_counter() - start < most:
        await anyio.sleep(0.02)
        now_ticks = cpu_ticks(pid)
        if now_ticks != last:
            last, since = now_ticks, time.perf_counter()
        elif time.perf_counter() - since >= quiet:
            break
    return time.perf_counter() - start


def peak_rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return math.nan


@asynccontextmanager
async def connect(params: StdioServerParameters, log: Path) -> AsyncIterator[tuple[ClientSession, int]]:
    """A session with an initialized server, and the server's PID."""
    with open(log, "a", encoding="utf-8") as errlog:
        async with (
            stdio_client(params, errlog=errlog) as (read, write),
            ClientSession(read, write) as session,
        ):
            await session.initialize()
            yield session, server_pid([params.command, *params.args][1:])


async def cold_start(params: StdioServerParameters, log: Path) -> float:
    """Seconds from spawn to the tools/list reply (closing the server afterwards is not counted)."""
    with open(log, "a", encoding="utf-8") as errlog:
        start = time.perf_counter()
        async with (
            stdio_client(params, errlog=errlog) as (read, write),
            ClientSession(read, write) as session,
        ):
            await session.initialize()
            tools = await session.list_tools()
            elapsed = time.perf_counter() - start
    if not tools.tools:
        raise RuntimeError("tools/list came back empty")
    return elapsed


async def call(session: ClientSession, tool: str, arguments: dict[str, Any]) -> tuple[float, dict[str, Any]]:
    start = time.perf_counter()
    result = await session.call_tool(tool, arguments)
    elapsed = time.perf_counter() - start
    if result.is_error:
        text = " ".join(getattr(block, "text", "") for block in result.content)
        raise RuntimeError(f"{tool} answered isError: {text}")
    return elapsed, result.structured_content or {}


class Profiler:
    """py-spy sampling the server during one phase (only with --py-spy), as collapsed stacks."""

    def __init__(self, folder: Path | None, pid: int, name: str) -> None:
        self.process: subprocess.Popen[bytes] | None = None
        spy = shutil.which("py-spy") or shutil.which("py-spy", path=str(Path(sys.executable).parent))
        if folder is not None:
            if spy is None:
                raise SystemExit("--py-spy needs py-spy (pip install py-spy)")
            folder.mkdir(parents=True, exist_ok=True)
            command = [spy, "record", "--pid", str(pid), "--rate", "250", "--threads", "--idle",
                       "--format", "raw", "--output", str(folder / f"{name}.txt")]  # fmt: skip
            self.process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            time.sleep(0.5)  # let it attach

    def stop(self) -> None:
        if self.process is not None:
            self.process.send_signal(signal.SIGINT)
            self.process.wait(timeout=60)


# -- the floor -----------------------------------------------------------------------------------------
async def measure_floor(env: Env, plan: Plan, questions: list[str]) -> dict[str, float]:
    out: dict[str, float] = {}
    log = env.logs / "floor.log"
    starts = [await cold_start(env.floor(), log) for _ in range(plan.cold_runs)]
    out["cold"] = statistics.median(starts)
    async with connect(env.floor(), log) as (session, pid):
        for q in questions[:20]:
            await call(session, "echo", {"text": q})
        times = [(await call(session, "echo", {"text": q}))[0] for q in questions[: plan.floor_calls]]
        out["rss"] = peak_rss_mb(pid)
    for p in (50, 95, 99):
        out[f"call p{p}"] = percentile(times, p)
    return out


# -- PersonaKit at one size ----------------------------------------------------------------------------
def editor_word(rng: random.Random) -> str:
    """A new word that the word rules keep as it is (so a read with it finds exactly the edited memory)."""
    while True:
        word = "zq" + "".join(rng.choice(CONSONANTS) for _ in range(8))
        if words(word) == [word]:
            return word


def visible_files(vault: Path, count: int, rng: random.Random) -> list[str]:
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


def shares_a_word(question: str, memory: dict[str, Any]) -> bool:
    """Does a returned memory match the question (rather than fill an empty place)?"""
    return bool(set(words(question)) & set(words(" ".join([memory["text"], *memory["evidence"]]))))


def save_like_an_editor(path: Path, word: str) -> None:
    """Append word to the memory's text: write a temporary file beside it, then rename it over the file."""
    raw = path.read_text(encoding="utf-8")
    new = raw.rstrip("\n") + f" {word}\n"
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(new, encoding="utf-8")
    os.replace(tmp, path)


async def measure_size(env: Env, plan: Plan, n: int, questions: list[str], say: Say) -> dict[str, float]:
    """Every PersonaKit figure at one vault size, on a fresh copy of the cached vault."""
    out: dict[str, float] = {}
    vault = env.root / f"vault-{n}"
    log = env.logs / f"personakit-{n}.log"
    t0 = time.perf_counter()
    generate.pristine_copy(n, vault)
    say(f"copied the {n:,} vault in {time.perf_counter() - t0:.1f} s")

    # first index build, through the CLI
    run_env = get_default_environment() | env.variables(vault)
    t0 = time.perf_counter()
    with open(log, "a") as errlog:
        subprocess.run([sys.executable, "-m", "personakit", "reindex", "--vault", str(vault)], env=run_env,
                       check=True, stdout=subprocess.DEVNULL, stderr=errlog)  # fmt: skip
    out["index build"] = time.perf_counter() - t0
    say(f"reindex {out['index build']:.2f} s")

    # cold starts: index built from scratch, then with the index there
    scratch = []
    for _ in range(plan.scratch_runs if n < 100_000 else 1):
        shutil.rmtree(vault / ".personakit", ignore_errors=True)
        scratch.append(await cold_start(env.personakit(vault), log))
    out["cold scratch"] = statistics.median(scratch)
    say(f"cold start, no index: {', '.join(f'{s:.2f}' for s in scratch)} s")
    existing = [await cold_start(env.personakit(vault), log) for _ in range(plan.cold_runs)]
    out["cold existing"] = statistics.median(existing)
    say(f"cold start, index there: {', '.join(f'{s:.2f}' for s in existing)} s")

    async with connect(env.personakit(vault), log) as (session, pid):
        for q in questions[:20]:
            await call(session, "personakit_read", {"question": q})
        await wait_idle(pid)
        out["rss after start"] = peak_rss_mb(pid)
        phases: list[tuple[str, str, Callable[[], Awaitable[None]]]] = [
            ("read", "reads", lambda: measure_reads(session, pid, questions[: plan.reads], out, say)),
            ("propose", "proposals", lambda: measure_proposals(session, pid, n, plan.proposes, out, say)),
            ("save", "saves", lambda: measure_saves(session, pid, vault, plan.saves, out, say)),
        ]
        for name, label, phase in phases:
            profiler = Profiler(plan.py_spy, pid, f"{n}-{name}")
            await phase()
            profiler.stop()
            await wait_idle(pid)
            out[f"rss after {label}"] = peak_rss_mb(pid)
        out["rss"] = out["rss after saves"]
        steps = ", ".join(
            f"after {p} {out['rss after ' + p]:.0f}" for p in ("start", "reads", "proposals", "saves")
        )
        say(f"server peak RSS (MB): {steps}")
    return out


async def measure_reads(session: ClientSession, pid: int, questions: list[str], out: dict[str, float],
                        say: Say) -> None:  # fmt: skip
    """Read latency over the questions, one call at a time."""
    times, unmatched = [], 0
    for q in questions:
        elapsed, result = await call(session, "personakit_read", {"question": q})
        times.append(elapsed)
        unmatched += not any(shares_a_word(q, m) for m in result.get("memories", []))
    for p in (50, 95, 99):
        out[f"read p{p}"] = percentile(times, p)
    out["read unmatched"] = unmatched / len(times)
    say(f"{len(times)} reads ({unmatched} matched nothing): p50 {out['read p50'] * 1e3:.1f} ms")


async def measure_proposals(session: ClientSession, pid: int, n: int, count: int, out: dict[str, float],
                            say: Say) -> None:  # fmt: skip
    """Propose latency of new, distinct memories, one at a time with the server idle before each."""
    times = []
    for draft in generate.proposals(count, generate.vault_ids(n)):
        await wait_idle(pid)
        args = {"text": draft.text, "quote": draft.quote, "category": draft.category}
        elapsed, result = await call(session, "personakit_propose", args)
        if not (result.get("stored") and result.get("new")):
            raise RuntimeError(f"proposal not stored as new: {draft} -> {result}")
        times.append(elapsed)
    out["propose p50"], out["propose p99"] = percentile(times, 50), percentile(times, 99)
    say(f"{len(times)} proposals: p50 {out['propose p50'] * 1e3:.1f} ms")


async def measure_saves(session: ClientSession, pid: int, vault: Path, count: int, out: dict[str, float],
                        say: Say) -> None:  # fmt: skip
    """From an editor's save of a memory file to the first read that returns the new text."""
    rng = random.Random(count)
    times, lost = [], 0
    for name in visible_files(vault, count, rng):
        await wait_idle(pid)
        word = editor_word(rng)
        save_like_an_editor(vault / "memories" / name, word)
        start = time.perf_counter()
        while time.perf_counter() - start < SAVE_TIMEOUT:
            _, result = await call(session, "personakit_read", {"question": word, "limit": 3})
            if any(word in m["text"] for m in result.get("memories", [])):
                times.append(time.perf_counter() - start)
                break
        else:
            lost += 1
            times.append(math.inf)
    out["save p50"], out["save p99"] = percentile(times, 50), percentile(times, 99)
    out["save lost"] = lost
    say(f"{len(times)} editor saves ({lost} not visible in {SAVE_TIMEOUT:.0f} s): "
        f"p50 {out['save p50'] * 1e3:.0f} ms")  # fmt: skip


# -- the table -----------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Row:
    key: str
    label: str
    floor: str  # the floor's matching figure
    unit: str  # "ms", "s" or "MB"


ROWS = [
    Row("cold scratch", "cold start to tools/list, no index", "cold", "s"),
    Row("cold existing", "cold start to tools/list, index there", "cold", "s"),
    Row("index build", "first index build (reindex CLI, wall)", "cold", "s"),
    Row("read p50", "read p50", "call p50", "ms"),
    Row("read p95", "read p95", "call p95", "ms"),
    Row("read p99", "read p99", "call p99", "ms"),
    Row("propose p50", "propose p50", "call p50", "ms"),
    Row("propose p99", "propose p99", "call p99", "ms"),
    Row("save p50", "editor save -> visible p50", "call p50", "ms"),
    Row("save p99", "editor save -> visible p99", "call p99", "ms"),
    Row("rss", "server peak RSS (VmHWM)", "rss", "MB"),
]
# (size, key) -> (shown target, is it met given value and ratio)
TARGETS: dict[tuple[int, str], tuple[str, Callable[[float, float], bool]]] = {
    (10_000, "read p50"): ("<= 3x floor", lambda v, r: r <= 3),
    (10_000, "read p99"): ("<= 15 ms", lambda v, r: v <= 0.015),
    (10_000, "cold existing"): ("<= 1.3x floor", lambda v, r: r <= 1.3),
    (10_000, "index build"): ("<= 10 s", lambda v, r: v <= 10),
    (10_000, "save p50"): ("<= 300 ms", lambda v, r: v <= 0.300),
    (10_000, "propose p50"): ("<= 40 ms", lambda v, r: v <= 0.040),
    (100_000, "read p99"): ("<= 40 ms", lambda v, r: v <= 0.040),
    (100_000, "rss"): ("<= 300 MB", lambda v, r: v <= 300),
}


def shown(value: float, unit: str) -> str:
    if math.isnan(value):
        return "-"
    if math.isinf(value):
        return "lost"
    if unit == "ms":
        return f"{value * 1e3:.1f} ms" if value < 1 else f"{value:.2f} s"
    if unit == "s":
        return f"{value:.2f} s"
    return f"{value:.0f} MB"


def table(floor: dict[str, float], sizes: dict[int, dict[str, float]]) -> list[list[str]]:
    rows = [["size", "metric", "value", "floor", "ratio", "target", "met?"]]
    rows.append(["floor", "cold start to tools/list", shown(floor["cold"], "s"), "", "", "", ""])
    for p in (50, 95, 99):
        rows.append(["floor", f"echo call p{p}", shown(floor[f"call p{p}"], "ms"), "", "", "", ""])
    rows.append(["floor", "server peak RSS (VmHWM)", shown(floor["rss"], "MB"), "", "", "", ""])
    for n, figures in sizes.items():
        for row in ROWS:
            value, base = figures.get(row.key, math.nan), floor[row.floor]
            ratio = value / base if base else math.nan
            target, met = "", ""
            if (n, row.key) in TARGETS:
                target, test = TARGETS[(n, row.key)]
                met = "yes" if test(value, ratio) else "NO"
            ratio_text = "-" if math.isnan(ratio) else "inf" if math.isinf(ratio) else f"{ratio:.1f}x"
            rows.append(
                [f"{n:,}", row.label, shown(value, row.unit), shown(base, row.unit), ratio_text, target, met]
            )
    return rows


def plain(rows: list[list[str]]) -> str:
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    lines = ["  ".join(c.ljust(w) if i < 2 else c.rjust(w) for i, (c, w) in enumerate(zip(r, widths, strict=True)))
             for r in rows]  # fmt: skip
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(line.rstrip() for line in lines)


def markdown(rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(rows[0]) + " |", "|" + "|".join(["---", "---"] + ["---:"] * 5) + "|"]
    lines += ["| " + " | ".join(r) + " |" for r in rows[1:]]
    return "\n".join(lines)


def machine() -> str:
    """When, which code, and on what: the header of a result (the load average shows other work)."""
    try:
        git = ["git", "-C", str(BENCH.parent)]
        commit = subprocess.run([*git, "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout
        dirty = subprocess.run(
            [*git, "status", "--porcelain", "--", "personakit"], capture_output=True
        ).stdout
        commit = commit.strip() + ("+changes" if dirty.strip() else "")
    except OSError:
        commit = "?"
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    return (f"{time.strftime('%Y-%m-%d %H:%M')}, commit {commit}, {platform.machine()}, {os.cpu_count()} cores, "
            f"Python {platform.python_version()}, load average {load}")  # fmt: skip


# -- main ----------------------------------------------------------------------------------------------
async def run(plan: Plan, say: Say, stream: TextIO) -> int:
    for n in plan.sizes:  # build missing vaults first, so generation never counts in a measurement
        generate.cached_vault(n)
    questions = generate.questions(max(plan.reads, plan.floor_calls) + 20)
    where = machine()
    root = Path(tempfile.mkdtemp(prefix="personakit-bench-"))
    try:
        env = Env(root)
        say("floor ...")
        floor = await measure_floor(env, plan, questions)
        say(f"floor: cold start {floor['cold']:.2f} s, echo p50 {floor['call p50'] * 1e3:.2f} ms")
        sizes: dict[int, dict[str, float]] = {}
        for n in plan.sizes:
            say(f"PersonaKit with {n:,} memories ...")
            t0 = time.perf_counter()
            sizes[n] = await measure_size(env, plan, n, questions, say)
            say(f"{n:,} done in {time.perf_counter() - t0:.0f} s")
            shutil.rmtree(env.root / f"vault-{n}", ignore_errors=True)
    except BaseException:
        print(f"server logs kept in {root / 'logs'}", file=sys.stderr)
        raise
    shutil.rmtree(root, ignore_errors=True)

    rows = table(floor, sizes)
    header = f"PersonaKit benchmark, {where}"
    samples = (f"samples: {plan.reads} reads, {plan.proposes} proposals, {plan.saves} editor saves, "
               f"{plan.cold_runs} cold starts (median), {plan.floor_calls} floor calls")  # fmt: skip
    print(f"\n{header}\n{samples}\n\n{plain(rows)}", file=stream)
    OUT.mkdir(parents=True, exist_ok=True)
    # A smoke run, or one slowed down by py-spy, keeps its figures out of the results files.
    stem = "results-smoke" if plan.smoke else "results-profiled" if plan.py_spy else "results"
    if stem == "results":
        (OUT / "results.md").write_text(f"# {header}\n\n{samples}\n\n{markdown(rows)}\n")
    (OUT / f"{stem}.json").write_text(
        json.dumps({"machine": where, "floor": floor, "sizes": sizes}, indent=1) + "\n"
    )
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000, 100000])
    parser.add_argument("--smoke", action="store_true", help="1k only, few samples, under a minute")
    parser.add_argument("--reads", type=int, default=600)
    parser.add_argument("--proposes", type=int, default=100)
    parser.add_argument("--saves", type=int, default=30)
    parser.add_argument("--cold-runs", type=int, default=5)
    parser.add_argument("--py-spy", type=Path, help="folder for py-spy profiles of the server, per phase")
    args = parser.parse_args(argv)
    plan = Plan(sizes=args.sizes, reads=args.reads, proposes=args.proposes, saves=args.saves,
                cold_runs=args.cold_runs, floor_calls=max(args.reads, 100), py_spy=args.py_spy)  # fmt: skip
    if args.smoke:
        plan = Plan(sizes=[1000], cold_runs=2, scratch_runs=1, reads=100, proposes=10, saves=5,
                    floor_calls=100, smoke=True)  # fmt: skip
    started = time.perf_counter()

    def say(text: str) -> None:
        print(f"[{time.perf_counter() - started:6.1f} s] {text}", file=sys.stderr, flush=True)

    code = anyio.run(run, plan, say, sys.stdout)
    say("finished")
    return code


if __name__ == "__main__":
    sys.exit(main())
