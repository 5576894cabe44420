"""Start-up and the first minute after it, next to the floor, at several vault sizes.

- cold start with the index there: spawn -> `initialize` -> `tools/list` reply, alternating with the
  floor's own cold start (`floor_server.py`), `--runs` times each; medians and their ratio. A small vault
  (30 memories, as a new user has) is measured beside the big ones. The same starts also time a read
  asked right after tools/list (the vault opens while the handshake is answered: that read waits for it).
- the first minute: a host that starts the server and reads at once. Conversational reads, each followed
  by a floor call on a second connection, from the first moment for `--minute` seconds; p50 and p99 over
  the first 10 seconds and over the rest, against the floor's over the same seconds. What runs beside
  them in those seconds (the check of every file against the index, reading ahead the common words, the
  packer) is what this shows.

    python bench/start.py                         # 30 and 10,000 memories, 7 starts, one minute
    python bench/start.py --sizes 100000 --runs 3
    python bench/start.py --code /path/to/older/checkout     # the same, with another checkout's code
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

import anyio

sys.path.insert(0, str(Path(__file__).resolve().parent))
import generate
from measure import Env, call, cold_start, connect, first_read, percentile


async def first_minute(env: Env, vault: Path, log: Path, seconds: float) -> dict[str, float]:
    questions = generate.conversational(2000)
    out: dict[str, list[float]] = {"early": [], "early floor": [], "late": [], "late floor": []}
    async with connect(env.floor(), env.logs / "floor.log") as (floor, _):
        started = time.perf_counter()
        async with connect(env.personakit(vault), log) as (session, _):
            at = 0
            while (now := time.perf_counter() - started) < seconds:
                part = "early" if now < 10 else "late"
                question = questions[at % len(questions)]
                at += 1
                out[part].append((await call(session, "personakit_read", {"question": question}))[0])
                out[f"{part} floor"].append((await call(floor, "echo", {"text": question}))[0])
    figures = {}
    for part, times in out.items():
        figures[f"{part} p50"], figures[f"{part} p99"] = percentile(times, 50), percentile(times, 99)
        figures[f"{part} n"] = len(times)
    return figures


async def measure(sizes: list[int], runs: int, minute: float, code: Path | None) -> None:
    with tempfile.TemporaryDirectory(prefix="pk-start-") as tmp:
        env = Env(Path(tmp), code)
        print(f"load average at the start: {', '.join(f'{x:.1f}' for x in os.getloadavg())}")
        for n in sizes:
            vault = env.root / f"vault-{n}"
            generate.fresh_copy(n, vault)
            log = env.logs / f"personakit-{n}.log"
            env.cli(vault, "reindex", log=log)
            floors, ours, reads = [], [], []
            question = generate.conversational(1)[0]
            for _ in range(runs):
                floors.append(await cold_start(env.floor(), env.logs / "floor.log"))
                listed, answered = await first_read(env.personakit(vault), log, question)
                ours.append(listed)
                reads.append(answered)
            floor, mine, read = statistics.median(floors), statistics.median(ours), statistics.median(reads)
            # Each start next to the floor's just before it: on a machine whose load moves within a minute,
            # the median of these ratios says more than the ratio of the two medians.
            paired = statistics.median(o / f for o, f in zip(ours, floors, strict=True))
            print(f"{n:>7,}  cold start, index there: {mine:.2f} s, floor {floor:.2f} s: {mine / floor:.2f}x; "
                  f"start by start {paired:.2f}x "
                  f"(runs {', '.join(f'{s:.2f}' for s in ours)}; floor {', '.join(f'{s:.2f}' for s in floors)})")  # fmt: skip
            print(f"{n:>7,}  the first read, asked right after tools/list, answered at {read:.2f} s: "
                  f"{read / floor:.2f}x the floor's start (runs {', '.join(f'{s:.2f}' for s in reads)})")  # fmt: skip
            if minute > 0:
                f = await first_minute(env, vault, log, minute)
                for part, label in (("early", "first 10 s"), ("late", f"10-{minute:.0f} s")):
                    print(f"{n:>7,}  reads, {label} ({f[f'{part} n']:.0f}): p50 {f[f'{part} p50'] * 1e3:.1f} ms "
                          f"({f[f'{part} p50'] / f[f'{part} floor p50']:.2f}x floor), p99 "
                          f"{f[f'{part} p99'] * 1e3:.1f} ms ({f[f'{part} p99'] / f[f'{part} floor p99']:.2f}x floor)")  # fmt: skip
            print(f"         load average now: {', '.join(f'{x:.1f}' for x in os.getloadavg())}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--sizes", type=int, nargs="+", default=[30, 10_000])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--minute", type=float, default=60.0, help="seconds of reads after a start; 0: none")
    parser.add_argument(
        "--code", type=Path, help="run the personakit of this checkout (e.g. an older commit's)"
    )
    args = parser.parse_args()
    anyio.run(measure, args.sizes, args.runs, args.minute, args.code)


if __name__ == "__main__":
    main()
