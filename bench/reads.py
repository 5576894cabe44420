"""Reads only, served over stdio next to the floor: every read workload on both vault shapes, quickly.

`run.py` measures reads among everything else; this measures only them, so a change to the read path
can be compared before and after (`--code`) in a few minutes. For each shape, a fresh copy of the cached
vault is served (its index built first by `reindex`), every workload is warmed up, then each read is
followed by one floor `echo` call over a second connection, as in `run.py`:

- `generated` (`generate.py`'s vault): lookup and conversational questions;
- `zipf` (`zipf.py`'s vault, after the independent benchmark): questions of 6 to 15 words from the
  vocabulary the memories are drawn from, whose common words thousands of memories share.

    python bench/reads.py 10000
    python bench/reads.py 10000 --shapes zipf --reads 400
    python bench/reads.py 10000 --code /path/to/older/checkout
    python bench/reads.py 10000 --sessions 2     # a second server on the same copy: what the first kept
    python bench/reads.py 10000 --idle 15        # 15 s with no call after the warm-up: masking ahead runs
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
from pathlib import Path

import anyio
import generate
import zipf
from measure import Env, call, connect, percentile
from phases import WARM_UP


def load() -> str:
    return ", ".join(f"{x:.1f}" for x in os.getloadavg())


async def shape(env: Env, name: str, n: int, reads: int, sessions: int, idle: float) -> list[str]:
    count = reads + WARM_UP
    if name == "zipf":
        source, workloads = zipf.cached_vault(n), {"zipf": zipf.questions(count)}
    else:
        source = generate.cached_vault(n)
        workloads = {"lookup": generate.questions(count), "conversational": generate.conversational(count)}
    vault = generate.copy_vault(source, env.root / f"vault-{name}")
    log = env.logs / f"{name}.log"
    env.cli(vault, "reindex", log=log)
    lines = []
    for run in range(1, sessions + 1):
        lines += await _session(env, vault, log, n, workloads, f" #{run}" if sessions > 1 else "", idle)
    shutil.rmtree(vault, ignore_errors=True)
    return lines


async def _session(
    env: Env, vault: Path, log: Path, n: int, workloads: dict[str, list[str]], run: str, idle: float
) -> list[str]:
    """One server's session: warm-up, `idle` seconds with no call (a host started with its app, reading
    when the user first asks), then every workload, each read next to a floor call."""
    lines = []
    async with connect(env.personakit(vault), log) as (session, _), connect(env.floor(), log) as (floor, _):
        for questions in workloads.values():
            for q in questions[:WARM_UP]:
                await call(session, "personakit_read", {"question": q})
                await call(floor, "echo", {"text": q})
        await anyio.sleep(idle)
        for workload, questions in workloads.items():
            ours, floors, returned = [], [], 0
            for q in questions[WARM_UP:]:
                elapsed, result = await call(session, "personakit_read", {"question": q})
                ours.append(elapsed)
                returned += len(result.get("memories", []))
                floors.append((await call(floor, "echo", {"text": q}))[0])
            p50, p99 = percentile(ours, 50), percentile(ours, 99)
            f50, f99 = percentile(floors, 50), percentile(floors, 99)
            lines.append(
                f"{n:,} {workload + run:<17} p50 {p50 * 1e3:6.2f} ms / {f50 * 1e3:5.2f} = {p50 / f50:4.2f}x   "
                f"p99 {p99 * 1e3:6.2f} ms / {f99 * 1e3:5.2f} = {p99 / f99:4.2f}x   "
                f"({returned / len(ours):.1f} memories a read; load {load()})"
            )
            print(lines[-1], file=sys.stderr, flush=True)
    return lines


async def run(args: argparse.Namespace) -> None:
    root = Path(tempfile.mkdtemp(prefix="personakit-reads-"))
    try:
        env = Env(root, args.code)
        lines = []
        for name in args.shapes:
            lines += await shape(env, name, args.size, args.reads, args.sessions, args.idle)
        print(
            f"code {args.code or 'this checkout'}, {args.reads} reads a workload, each next to a floor call"
        )
        print("\n".join(lines))
    finally:
        shutil.rmtree(root, ignore_errors=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("size", type=int)
    parser.add_argument("--shapes", nargs="*", default=["generated", "zipf"], choices=["generated", "zipf"])
    parser.add_argument("--reads", type=int, default=600)
    parser.add_argument("--sessions", type=int, default=1, help="servers started in turn on the same copy")
    parser.add_argument("--idle", type=float, default=0.0, help="seconds with no call after the warm-up")
    parser.add_argument("--code", type=Path, help="run the personakit of this checkout")
    anyio.run(run, parser.parse_args())
    return 0


if __name__ == "__main__":
    sys.exit(main())
