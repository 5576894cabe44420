"""PersonaKit's performance benchmark: a real stdio MCP client against `personakit serve`, next to a floor.

For each vault size (default 1k, 10k and 100k generated memories, see `generate.py`):

- start-up: the first index (`personakit reindex`, a whole process), a cold start with no index, and
  cold starts with the index there, alternating with the floor's cold starts;
- reads, two workloads: short lookup questions, and conversational questions (6-15 words, some long,
  made of everyday words that thousands of memories share); each read is followed by one floor call;
- proposals: one at a time with the server idle before each, and 50 back to back (a burst), against the
  owner's own `git add` + `git commit` of one file in the same vault;
- an editor's save until a read returns it; the server's peak RSS against the floor's; `.git` on disk;

and a vault with years of history (10k memories, 100k commits, a full read ledger, see `longhistory.py`)
against the same memories with a fresh history: `show`, `log`, `log --reads`, `doctor`, a cold start,
and the size of `.git` after a burst of proposals.

The floor is `floor_server.py`, one trivial tool on the same SDK, timed by the same client in the same
minutes. Compare ratios, not absolute times, across machines or runs. Results go to stdout,
`bench/out/results.md` and `bench/out/results.json`.

The benchmark never touches ~/PersonaKit: servers get `--vault`, PERSONAKIT_VAULT, a temporary HOME and
a temporary GIT_CONFIG_GLOBAL with a bench identity.

    python bench/run.py                        # everything: 1k, 10k, 100k and the long history
    python bench/run.py --sizes 1000 10000 --no-history
    python bench/run.py --smoke                # 1k and a small history, few samples, under a minute
    python bench/run.py --sizes 10000 --py-spy bench/out/profiles   # also sample the server per phase
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import TextIO

import anyio
import generate
import longhistory
import report
from measure import BENCH, Env
from phases import Figures, Plan, Say, measure_history, measure_size

OUT = BENCH / "out"


def machine(code: Path | None = None) -> str:
    """When, which code, and on what: the header of a result (the load average shows other work)."""
    try:
        git = ["git", "-C", str(code or BENCH.parent)]
        commit = subprocess.run([*git, "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout
        dirty = subprocess.run(
            [*git, "status", "--porcelain", "--", "personakit"], capture_output=True
        ).stdout
        commit = commit.strip() + ("+changes" if dirty.strip() else "")
    except OSError:
        commit = "?"
    return (f"{time.strftime('%Y-%m-%d %H:%M')}, commit {commit}, {platform.machine()}, {os.cpu_count()} cores, "
            f"Python {platform.python_version()}")  # fmt: skip


def load() -> str:
    return ", ".join(f"{x:.1f}" for x in os.getloadavg())


async def run(plan: Plan, say: Say, stream: TextIO) -> int:
    for n in plan.sizes:  # build missing vaults first, so generation never counts in a measurement
        generate.cached_vault(n)
    if plan.history:
        longhistory.cached_pair(*plan.history)
    count = plan.reads + 20
    workloads = {"lookup": generate.questions(count), "conversational": generate.conversational(count)}
    where, loads = machine(plan.code), [load()]
    root = Path(tempfile.mkdtemp(prefix="personakit-bench-"))
    sizes: dict[int, Figures] = {}
    history: dict[str, Figures] = {}
    try:
        env = Env(root, plan.code)
        for n in plan.sizes:
            say(f"PersonaKit with {n:,} memories (load average {load()}) ...")
            t0 = time.perf_counter()
            sizes[n] = await measure_size(env, plan, n, workloads, say)
            say(f"{n:,} done in {time.perf_counter() - t0:.0f} s")
            loads.append(load())
            shutil.rmtree(env.root / f"vault-{n}", ignore_errors=True)
        if plan.history:
            n, commits = plan.history
            say(
                f"{n:,} memories with {commits:,} commits, against a fresh history (load average {load()}) ..."
            )
            t0 = time.perf_counter()
            history[f"{n:,} / {commits:,} commits"] = await measure_history(env, plan, n, commits, say)
            say(f"history done in {time.perf_counter() - t0:.0f} s")
            loads.append(load())
    except BaseException:
        print(f"server logs kept in {root / 'logs'}", file=sys.stderr)
        raise
    shutil.rmtree(root, ignore_errors=True)

    rows = report.table(sizes, history)
    header = f"PersonaKit benchmark, {where}"
    samples = (f"load average (1, 5, 15 min) at the start and after each part: {'; '.join(loads)}\n"
               f"samples: {plan.reads} reads per workload (each next to a floor call), {plan.proposes} proposals "
               f"idle, {plan.burst} back to back, {plan.baseline} git commits by hand, {plan.saves} editor saves, "
               f"{plan.cold_runs} cold starts (median, alternating with the floor's)")  # fmt: skip
    refs = report.floors(sizes)
    print(f"\n{header}\n{samples}\n\n{report.plain(rows)}\n\nreferences:\n{report.plain(refs)}", file=stream)
    OUT.mkdir(parents=True, exist_ok=True)
    # A smoke run, or one slowed down by py-spy, keeps its figures out of the results files.
    stem = "results-smoke" if plan.smoke else "results-profiled" if plan.py_spy else "results"
    if plan.code is not None:
        stem += "-" + plan.code.name
    if not plan.smoke and not plan.py_spy:
        text = (
            f"# {header}\n\n{samples}\n\n{report.markdown(rows)}\n\nReferences:\n\n{report.markdown(refs)}\n"
        )
        (OUT / f"{stem}.md").write_text(text)
    figures = {"machine": where, "loads": loads, "sizes": sizes, "history": history}
    (OUT / f"{stem}.json").write_text(json.dumps(figures, indent=1) + "\n")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument(
        "--sizes", type=int, nargs="*", default=[1000, 10000, 100000], help="none: only the history"
    )
    parser.add_argument(
        "--smoke", action="store_true", help="1k and a small history, few samples, under a minute"
    )
    parser.add_argument("--no-history", action="store_true", help="leave out the long-history vault")
    parser.add_argument(
        "--history", type=int, nargs=2, default=[10_000, 100_000], metavar=("MEMORIES", "COMMITS")
    )
    parser.add_argument("--reads", type=int, default=600)
    parser.add_argument("--cold-runs", type=int, default=5)
    parser.add_argument(
        "--history-runs", type=int, default=3, help="runs of each command on the long history"
    )
    parser.add_argument("--py-spy", type=Path, help="folder for py-spy profiles of the server, per phase")
    parser.add_argument(
        "--code", type=Path, help="run the personakit of this checkout (e.g. an older commit's)"
    )
    args = parser.parse_args(argv)
    plan = Plan(sizes=args.sizes, reads=args.reads, cold_runs=args.cold_runs, py_spy=args.py_spy, code=args.code,
                history_runs=args.history_runs,
                history=None if args.no_history else (args.history[0], args.history[1]))  # fmt: skip
    if args.smoke:
        plan = Plan(sizes=[1000], cold_runs=2, scratch_runs=1, index_runs=1, reads=60, proposes=5, burst=10,
                    baseline=3, saves=5, history=(500, 1500), history_runs=1, history_burst=10, smoke=True)  # fmt: skip
    started = time.perf_counter()

    def say(text: str) -> None:
        print(f"[{time.perf_counter() - started:6.1f} s] {text}", file=sys.stderr, flush=True)

    code = anyio.run(run, plan, say, sys.stdout)
    say("finished")
    return code


if __name__ == "__main__":
    sys.exit(main())
