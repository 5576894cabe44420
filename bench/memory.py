"""The server's memory through `run.py`'s session, phase by phase: where the peak RSS is reached.

`run.py` reports one figure, the server's `VmHWM` at the end. This runs the same session on a copy of a
vault whose index is built (warm-up reads, the server idle, reads, proposals with the server idle before
each, a burst back to back, editor saves) and prints after each phase the server's peak and current RSS,
split into anonymous memory and mapped files (`/proc/PID/status`), and its threads. Optional: extra
environment for the server (`--env MALLOC_ARENA_MAX=2`), another checkout's code (`--code`).

    python bench/memory.py 100000                  # one session on a copy of the 100k vault
    python bench/memory.py 10000 --code ../older   # the same with another checkout's personakit
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
from pathlib import Path

import anyio
import generate
from measure import Env, call, connect, wait_for_git, wait_idle
from phases import WARM_UP, Plan, session_phases

from personakit.core.naming import memory_id

FIELDS = ("VmHWM", "VmRSS", "RssAnon", "RssFile", "Threads")


def status(pid: int) -> dict[str, int]:
    out = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, value = line.partition(":")
        if key in FIELDS:
            out[key] = int(value.split()[0])
    return out


def shown(name: str, s: dict[str, int], started: float) -> str:
    mb = {k: s[k] / 1024 for k in FIELDS if k != "Threads"}
    return (f"{time.perf_counter() - started:6.1f} s  {name:<22} peak {mb['VmHWM']:6.1f}  now {mb['VmRSS']:6.1f}"
            f"  (anon {mb['RssAnon']:6.1f}, files {mb['RssFile']:5.1f})  threads {s['Threads']}")  # fmt: skip


async def session(env: Env, vault: Path, n: int, plan: Plan, log: Path) -> list[tuple[str, dict[str, int]]]:
    count = plan.reads + WARM_UP
    workloads = {"lookup": generate.questions(count), "conversational": generate.conversational(count)}
    ids = generate.vault_ids(n)
    idle = generate.proposals(plan.proposes, ids)
    burst = generate.proposals(plan.burst, ids | {memory_id(d.text) for d in idle}, seed=4)
    seen: list[tuple[str, dict[str, int]]] = []
    started = time.perf_counter()
    out: dict[str, float] = {}

    def quiet(_: str) -> None:
        pass

    async with connect(env.personakit(vault), log) as (s, pid), connect(env.floor(), log) as (floor, _):
        seen.append(("connected", status(pid)))
        print(shown(*seen[-1], started), flush=True)
        for questions in workloads.values():
            for q in questions[:WARM_UP]:
                await call(s, "personakit_read", {"question": q})
        seen.append(("warm-up reads", status(pid)))
        print(shown(*seen[-1], started), flush=True)
        await wait_idle(pid)
        seen.append(("idle after start", status(pid)))
        print(shown(*seen[-1], started), flush=True)
        for name, phase in session_phases(s, floor, pid, vault, plan, workloads, (idle, burst), out, quiet):
            await phase
            seen.append((name, status(pid)))
            print(shown(*seen[-1], started), flush=True)
            await wait_idle(pid)
            seen.append((name + ", idle", status(pid)))
            print(shown(*seen[-1], started), flush=True)
    await wait_for_git(vault)
    return seen


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("n", type=int)
    parser.add_argument("--code", type=Path)
    parser.add_argument("--env", action="append", default=[], help="NAME=VALUE for the server")
    parser.add_argument("--reads", type=int, default=600)
    args = parser.parse_args()
    root = Path(tempfile.mkdtemp(prefix="personakit-memory-"))
    try:
        env = Env(root, args.code)
        vault = root / "vault"
        generate.fresh_copy(args.n, vault)
        env.cli(vault, "reindex", log=root / "reindex.log")
        extra = dict(e.split("=", 1) for e in args.env)
        if extra:
            base = env.variables
            env.variables = lambda v=None: base(v) | extra  # type: ignore[method-assign]
        plan = Plan(sizes=[args.n], reads=args.reads)
        anyio.run(session, env, vault, args.n, plan, root / "server.log")
    finally:
        shutil.rmtree(root, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
