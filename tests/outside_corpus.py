"""The outside corpus: the public secret scanners' own test strings (`tests/data/outside/secrets.jsonl`).

    python tests/outside_corpus.py             # totals by source, then every family with a miss
    python tests/outside_corpus.py --misses    # also each secret missed and each near-miss refused

Each case is proposed as a quote under an ordinary memory text, as `personakit_propose` checks it
(`holds_credential(text, quote)`, so a secret cut at the seam counts too). A secret counts as refused when
that is true; a near-miss counts as refused when it is. Near-misses marked `shaped` are still secrets to a
person (another provider's key, a wrong suffix): refusing them is right, so they are reported apart and
not counted against the near-miss target. A scanner's "secret" that is a placeholder (a run of x, of the
digits or the alphabet, AWS's EXAMPLE key) or a key its provider documents as public is labelled so, and
must be stored. `out-of-scope` cases (public IP addresses) are not credentials.
The file is built by `tests/data/outside/extract.py`; its first line names the licences and commits.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from personakit.core.credentials.engine import holds_credential

FILE = Path(__file__).parent / "data" / "outside" / "secrets.jsonl"
MEMORY_TEXT = "Notes kept from a chat about setting up the build."


@dataclass(frozen=True)
class Case:
    source: str
    family: str
    label: str  # secret, near-miss, placeholder, public, out-of-scope
    shaped: bool
    text: str

    @property
    def group(self) -> str:
        """secret, near-miss (shaped) or near-miss."""
        return "near-miss (shaped)" if self.shaped else self.label


def header() -> dict[str, object]:
    with FILE.open(encoding="utf-8") as lines:
        return dict(json.loads(next(lines)))


def cases() -> list[Case]:
    with FILE.open(encoding="utf-8") as lines:
        next(lines)
        return [Case(**json.loads(line)) for line in lines]


def refused(case: Case) -> bool:
    return holds_credential(MEMORY_TEXT, case.text)


def measure(selected: list[Case]) -> dict[tuple[str, str], list[tuple[Case, bool]]]:
    """(source, group) -> each case with whether it was refused."""
    results: dict[tuple[str, str], list[tuple[Case, bool]]] = defaultdict(list)
    for case in selected:
        results[(case.source, case.group)].append((case, refused(case)))
    return results


def share(rows: list[tuple[Case, bool]]) -> str:
    return f"{sum(r for _, r in rows) / max(1, len(rows)):.1%} ({sum(r for _, r in rows)}/{len(rows)})"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--misses", action="store_true")
    parser.add_argument("--family", default="")
    args = parser.parse_args()
    selected = [c for c in cases() if args.family in c.family]
    results = measure(selected)
    print("| source | group | refused |\n|---|---|---|")
    for (source, group), rows in sorted(results.items()):
        print(f"| {source} | {group} | {share(rows)} |")
    for group in ("secret", "near-miss", "near-miss (shaped)"):
        rows = [row for (_, g), found in results.items() if g == group for row in found]
        print(f"| all | {group} | {share(rows)} |")
    by_family: dict[tuple[str, str, str], list[tuple[Case, bool]]] = defaultdict(list)
    for rows in results.values():
        for case, was_refused in rows:
            by_family[(case.source, case.family, case.group)].append((case, was_refused))
    print("\nfamilies not at their target (secrets not all refused, near-misses refused):")
    for (source, family, group), rows in sorted(by_family.items()):
        wrong = [c for c, r in rows if r != (group in ("secret", "near-miss (shaped)"))]
        if wrong and group not in ("out-of-scope",):
            print(f"  {source} {family} {group}: refused {share(rows)}")
            if args.misses:
                for case in wrong[:30]:
                    print(f"      {case.text[:160]!r}")


if __name__ == "__main__":
    main()
