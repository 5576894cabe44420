"""Reads in process, without the MCP SDK: what the server itself spends, with cProfile on demand.

Opens a copy of a cached bench vault with `PersonaKit` (index built if missing), warms up, and times
`read()` over both workloads. With `--profile`, prints cProfile's top functions for the conversational
workload. With `--dump FILE`, writes every question's returned ids and withheld count; with
`--compare FILE`, checks them against such a file (a ranking change shows up here at 10k or 100k, where
ties at the cut are common, beyond the retrieval-quality set that `tests/store/test_ranking_unchanged.py` pins).

    python bench/inprocess.py 10000
    python bench/inprocess.py 10000 --profile
    python bench/inprocess.py 100000 --dump before.json     # then, after a change:
    python bench/inprocess.py 100000 --compare before.json
"""

from __future__ import annotations

import argparse
import cProfile
import json
import os
import pstats
import statistics
import sys
import tempfile
import time
from pathlib import Path

import generate
import zipf
from measure import percentile

from personakit.vault.service import PersonaKit


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("size", type=int)
    parser.add_argument("--reads", type=int, default=600)
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--dump", type=Path)
    parser.add_argument("--compare", type=Path)
    parser.add_argument("--shape", choices=["generated", "zipf"], default="generated")
    parser.add_argument("--vault", type=Path, help="use this copy (kept between runs) instead of a new one")
    args = parser.parse_args(argv)
    os.environ["GIT_CONFIG_GLOBAL"] = str(generate.bench_gitconfig())
    os.environ["GIT_CONFIG_NOSYSTEM"] = "1"
    vault = args.vault or Path(tempfile.mkdtemp(prefix="personakit-inprocess-")) / "vault"
    if not vault.exists():
        source = zipf.cached_vault(args.size) if args.shape == "zipf" else generate.cached_vault(args.size)
        generate.copy_vault(source, vault)
    t0 = time.perf_counter()
    kit = PersonaKit(vault, create=False)
    kit.start()
    print(f"started in {time.perf_counter() - t0:.2f} s", file=sys.stderr)
    count = args.reads + 20
    workloads = {"lookup": generate.questions(count), "conversational": generate.conversational(count)}
    if args.shape == "zipf":  # profiled as "conversational" below
        workloads = {"conversational": zipf.questions(count)}
    results: dict[str, list[object]] = {}
    for name, questions in workloads.items():
        for q in questions[:20]:
            kit.read(q, record=False)
        times = []
        for q in questions[20:]:
            start = time.perf_counter()
            result = kit.read(q, record=False)
            times.append(time.perf_counter() - start)
            results.setdefault(name, []).append([[m["id"] for m in result["memories"]], result["withheld"]])
        shown = ", ".join(f"p{p} {percentile(times, p) * 1e3:.2f} ms" for p in (50, 90, 99))
        print(f"{name}: {shown}, mean {statistics.mean(times) * 1e3:.2f} ms")
    if args.profile:
        profile = cProfile.Profile()
        profile.enable()
        for q in workloads["conversational"][20:]:
            kit.read(q, record=False)
        profile.disable()
        pstats.Stats(profile).sort_stats("cumulative").print_stats(25)
    kit.close()
    if args.dump:
        args.dump.write_text(json.dumps(results) + "\n")
    if args.compare:
        expected = json.loads(args.compare.read_text())
        differ = [
            (name, i) for name in expected for i, r in enumerate(expected[name]) if results[name][i] != r
        ]
        print(
            f"{len(differ)} of {sum(map(len, expected.values()))} reads differ from {args.compare}: {differ[:5]}"
        )
        return 1 if differ else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
