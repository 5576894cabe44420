"""Text edits saved in a row, as an owner in an editor saves them: no wait for the last save's commit.

`run.py` waits for each save's commit before the next save. Here each round saves `--in-a-row` memory
files one after the other (each as editors save: a temporary file renamed over the memory, changing
its text), `--gap` seconds apart, then reads until every new word comes back; a save's figure is the
time from its own rename to the first read that returns its text. Served over stdio, as a host reads.

    python bench/edits.py 10000                         # 10 rounds of 5 saves in a row
    python bench/edits.py 10000 --in-a-row 10 --gap 0.05
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
import time
from pathlib import Path

import anyio

sys.path.insert(0, str(Path(__file__).resolve().parent))
import generate
from measure import Env, call, connect, percentile, wait_for_git, wait_idle
from phases import _editor_word, _save_like_an_editor, _visible_files

TIMEOUT = 10.0


async def measure(size: int, rounds: int, in_a_row: int, gap: float, code: Path | None) -> None:
    with tempfile.TemporaryDirectory(prefix="pk-edits-") as tmp:
        env = Env(Path(tmp), code)
        vault = env.root / "vault"
        generate.fresh_copy(size, vault)
        env.cli(vault, "reindex", log=env.logs / "personakit.log")
        rng = random.Random(size)
        names = _visible_files(vault, rounds * in_a_row, rng)
        times: list[float] = []
        async with connect(env.personakit(vault), env.logs / "personakit.log") as (session, pid):
            for r in range(rounds):
                await wait_idle(pid)
                await wait_for_git(vault)
                saved: dict[str, float] = {}
                for name in names[r * in_a_row : (r + 1) * in_a_row]:
                    word = _editor_word(rng)
                    _save_like_an_editor(vault / "memories" / name, word)
                    saved[word] = time.perf_counter()
                    await anyio.sleep(gap)
                waiting = dict(saved)
                while waiting and time.perf_counter() - min(waiting.values()) < TIMEOUT:
                    # One read asks for every word still awaited (only the edited memories hold them), so
                    # a save is seen at the first read after it is visible, not after a round of reads.
                    question = " ".join(waiting)
                    _, result = await call(session, "personakit_read", {"question": question, "limit": 10})
                    seen = " ".join(m["text"] for m in result.get("memories", []))
                    for word in [w for w in waiting if w in seen]:
                        times.append(time.perf_counter() - waiting.pop(word))
                times += [float("inf")] * len(waiting)
    print(f"{size:,} memories, {rounds} rounds of {in_a_row} saves in a row, {gap * 1e3:.0f} ms apart; load "
          f"average {', '.join(f'{x:.1f}' for x in os.getloadavg())}")  # fmt: skip
    print(f"  save -> visible: p50 {percentile(times, 50) * 1e3:.0f} ms, p99 {percentile(times, 99) * 1e3:.0f} ms, "
          f"{sum(t == float('inf') for t in times)} not visible in {TIMEOUT:.0f} s")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("size", type=int)
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--in-a-row", type=int, default=5)
    parser.add_argument("--gap", type=float, default=0.0, help="seconds between two saves")
    parser.add_argument(
        "--code", type=Path, help="run the personakit of this checkout (e.g. an older commit's)"
    )
    args = parser.parse_args()
    anyio.run(measure, args.size, args.rounds, args.in_a_row, args.gap, args.code)


if __name__ == "__main__":
    main()
