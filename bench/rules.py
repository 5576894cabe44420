"""What each of the owner's rules costs per returned memory, in process, on the conversational workload.

A read ranks candidates from the index, then applies the owner's rules to each memory it may return:
- the stat: the file is checked against the disk (`kit.current`: a `stat`, and a parse when it changed),
  so the owner's latest decision always applies;
- the copies: a memory with more than one file is read in the most private state of them all
  (`copies.effective`, beyond the stat);
- the withheld count: restricted memories sharing a word, copies counted once;
- the masking: what leaves the process is shortened and masked (`core.reading.compose`, `core.masking`):
  as a read after the warm-up pays it (the memory known plain, or masked by an earlier read of this
  process), and the scan itself, which a memory shown for the first time on this vault pays.

Each step is timed on its own over the same questions, after the read itself has warmed the index, and
divided by the memories the reads returned.

    python bench/rules.py 10000
    python bench/rules.py 100000 --reads 300
    python bench/rules.py 10000 --shape zipf   # zipf.py's vault and questions
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import generate
import zipf

from personakit.core.masking import MAX_QUOTES, _masked
from personakit.core.reading import Match, compose
from personakit.core.words import words
from personakit.vault.copies import effective
from personakit.vault.service import PersonaKit


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("size", type=int)
    parser.add_argument("--reads", type=int, default=600)
    parser.add_argument("--shape", choices=["generated", "zipf"], default="generated")
    args = parser.parse_args()
    questions = zipf.questions(args.reads) if args.shape == "zipf" else generate.conversational(args.reads)
    with tempfile.TemporaryDirectory(prefix="pk-rules-") as tmp:
        source = zipf.cached_vault(args.size) if args.shape == "zipf" else generate.cached_vault(args.size)
        vault = generate.copy_vault(source, Path(tmp) / "vault")
        kit = PersonaKit(vault)
        kit.start()
        try:
            for q in questions:  # warm: searchers, kept columns, postings
                kit.read(q, record=False)
            spent = {"whole read": 0.0, "ranking": 0.0, "stat": 0.0, "copies": 0.0, "withheld": 0.0,
                     "masking": 0.0, "scan": 0.0}  # fmt: skip
            returned = 0
            for q in questions:
                t0 = time.perf_counter()
                result = kit.read(q, record=False)
                spent["whole read"] += time.perf_counter() - t0
                returned += len(result["memories"])
                terms = words(q)
                t0 = time.perf_counter()
                hits = kit.index.search(terms, 7)
                t1 = time.perf_counter()
                current = [kit.current(hit) for hit in hits]
                t2 = time.perf_counter()
                memories = effective(kit, hits)
                t3 = time.perf_counter()
                kit.index.count_restricted(terms, set())
                t4 = time.perf_counter()
                matches = [
                    Match(m, h.shared, h.fine) for h, m in zip(hits, memories, strict=True) if m is not None
                ]
                compose(matches, [], 0, 7, None, kit.plain.plain)
                t5 = time.perf_counter()
                for m in memories:
                    if m is not None:
                        _masked.__wrapped__(m.text, m.evidence[:MAX_QUOTES])  # the scan, not its cache
                spent["scan"] += time.perf_counter() - t5
                spent["ranking"] += t1 - t0
                spent["stat"] += t2 - t1
                spent["copies"] += max(0.0, (t3 - t2) - (t2 - t1))  # effective() checks the stat again
                spent["withheld"] += t4 - t3
                spent["masking"] += t5 - t4
                assert len(current) == len(hits)
        finally:
            kit.close()
    print(f"{args.size:,} memories, {len(questions)} conversational reads, {returned} memories returned; "
          f"load average {', '.join(f'{x:.1f}' for x in os.getloadavg())}")  # fmt: skip
    for step, seconds in spent.items():
        print(f"  {step:<11} {seconds / len(questions) * 1e3:7.3f} ms a read  "
              f"{seconds / max(returned, 1) * 1e6:8.1f} us per returned memory")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
