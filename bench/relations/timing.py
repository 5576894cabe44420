"""What near-duplicates and clashes cost at 10k memories (a benchmark, not a test: nothing here fails).

- Marking a proposal: the time `personakit.vault.linking.link` takes inside real `propose` calls (the index
  asked for the memories sharing most words, the near-duplicate rule run on them), over proposals of new
  memories and of rewordings of existing ones ("The user ..." in front, a verb of liking swapped), on a
  copy of the benchmark's generated vault. Propose's whole time is shown beside it.
- `personakit clashes --json` and `personakit similar --json` over the whole vault, as the owner runs them
  (a process: start-up, taking in changes, the scan), and the scans alone in a process already open.

    python bench/relations/timing.py                 # 10k memories
    python bench/relations/timing.py --size 1000     # another size

Uses bench/generate.py's cached vaults (built on first use). Targets: marking p50 <= 5 ms; clashes over
the whole vault <= 5 s.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import generate

import personakit.vault.service
from personakit.owner.corrections import vault_clashes, vault_similar
from personakit.vault.service import PersonaKit


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def rewordings(kit: PersonaKit, k: int, seed: int = 7) -> list[str]:
    """Texts that say what k existing memories say, in other words."""
    rng = random.Random(seed)
    texts = sorted({h.memory.text for h in kit.index.all()})
    out = []
    for text in rng.sample(texts, k):
        for a, b in (("Prefers ", "Likes "), ("Likes ", "Enjoys "), ("Uses ", "Works with ")):
            if text.startswith(a):
                out.append(b + text[len(a) :])
                break
        else:
            out.append("The user " + text[:1].lower() + text[1:])
    return out


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--size", type=int, default=10_000)
    parser.add_argument("--proposals", type=int, default=200)
    args = parser.parse_args()
    env = os.environ | {"GIT_CONFIG_GLOBAL": str(generate.bench_gitconfig()), "GIT_CONFIG_NOSYSTEM": "1"}
    os.environ.update(env)
    with tempfile.TemporaryDirectory(prefix="pk-relations-") as tmp:
        vault = generate.fresh_copy(args.size, Path(tmp) / "vault")
        load = os.getloadavg()[0]
        kit = PersonaKit(vault, create=False)
        kit.start()
        new = [d.text for d in generate.proposals(args.proposals // 2, exclude=generate.vault_ids(args.size))]
        texts = new + rewordings(kit, args.proposals - len(new))
        random.Random(3).shuffle(texts)

        marking: list[float] = []
        cpu: list[float] = []  # the thread's CPU time: what the wall time would be on an idle machine
        whole: list[float] = []
        marked = 0
        link = personakit.vault.service.link

        def timed_link(*a: object) -> object:
            nonlocal marked
            start, used = time.perf_counter(), time.thread_time()
            linked = link(*a)  # type: ignore[arg-type]
            marking.append((time.perf_counter() - start) * 1000)
            cpu.append((time.thread_time() - used) * 1000)
            marked += bool(linked.similar)
            return linked

        personakit.vault.service.link = timed_link  # type: ignore[assignment]
        for text in texts:
            start = time.perf_counter()
            kit.propose(text, f"I said {text.lower()}", "other", "bench")
            whole.append((time.perf_counter() - start) * 1000)
        personakit.vault.service.link = link

        start = time.perf_counter()
        clashing = vault_clashes(kit)
        scan_clashes = time.perf_counter() - start
        start = time.perf_counter()
        groups = vault_similar(kit)
        scan_similar = time.perf_counter() - start
        kit.close()

        runs = {}
        for command in ("clashes", "similar"):
            start = time.perf_counter()
            subprocess.run(
                [sys.executable, "-m", "personakit", command, "--json", "--vault", str(vault)],
                check=True, stdout=subprocess.DEVNULL, env=env,
            )  # fmt: skip
            runs[command] = time.perf_counter() - start

    print(
        f"{args.size:,} memories; load average {load:.2f} at the start (2 cores: above ~1, wall times inflate)"
    )
    print(f"| {args.size:,} memories | p50 | p95 | max |")
    print("|---|---|---|---|")
    print(
        f"| marking a proposal (link), wall time | {percentile(marking, 50):.2f} ms | {percentile(marking, 95):.2f} ms | {max(marking):.2f} ms |"
    )
    print(
        f"| marking a proposal (link), CPU time | {percentile(cpu, 50):.2f} ms | {percentile(cpu, 95):.2f} ms | {max(cpu):.2f} ms |"
    )
    print(
        f"| the whole propose | {percentile(whole, 50):.1f} ms | {percentile(whole, 95):.1f} ms | {max(whole):.1f} ms |"
    )
    print()
    print(f"{len(texts)} proposals, {marked} marked similar (mean marking {statistics.mean(marking):.2f} ms)")
    print(
        f"clashes over the vault: {scan_clashes:.2f} s in process, {runs['clashes']:.2f} s as `personakit clashes --json` ({len(clashing):,} pairs)"
    )
    print(
        f"near-duplicates over the vault: {scan_similar:.2f} s in process, {runs['similar']:.2f} s as `personakit similar --json` ({len(groups):,} groups)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
