"""Recall and false refusals of the credential check, per part of the corpus and per kind.

    python tests/credential_report.py            # both parts: totals, then every kind
    python tests/credential_report.py --misses   # also each secret missed and each sentence refused

A secret counts as found when `holds_credential(text, quote)` is true (a proposal would be refused); a
benign sentence counts as a false refusal when it is. See `credential_corpus.py` for the parts.
"""

from __future__ import annotations

import argparse
import sys
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from credential_corpus import PARTS, Benign, Secret, benign, secrets

from personakit.core.credentials.engine import holds_credential


@dataclass
class Result:
    part: str
    secrets: list[Secret]
    benign: list[Benign]
    missed: list[Secret] = field(default_factory=list)
    refused: list[Benign] = field(default_factory=list)

    @property
    def recall(self) -> float:
        return 1 - len(self.missed) / len(self.secrets)

    @property
    def false_refusals(self) -> float:
        return len(self.refused) / len(self.benign)


def evaluate(part: str) -> Result:
    result = Result(part, secrets(part), benign(part))
    result.missed = [s for s in result.secrets if not holds_credential(s.text, s.quote)]
    result.refused = [b for b in result.benign if holds_credential(b.text, b.quote)]
    return result


def table(results: list[Result]) -> str:
    lines = ["| part | secrets | kinds | recall | benign | false refusals |", "|---|---|---|---|---|---|"]
    for r in results:
        lines.append(
            f"| {r.part} | {len(r.secrets)} | {len({s.kind for s in r.secrets})} | {r.recall:.2%} "
            f"({len(r.secrets) - len(r.missed)}/{len(r.secrets)}) | {len(r.benign)} | {r.false_refusals:.2%} "
            f"({len(r.refused)}/{len(r.benign)}) |"
        )
    return "\n".join(lines)


def per_kind(results: list[Result]) -> str:
    counts: dict[str, dict[str, list[int]]] = defaultdict(lambda: defaultdict(lambda: [0, 0]))
    for r in results:
        missed = {id(s) for s in r.missed}
        for s in r.secrets:
            counts[s.kind][r.part][0] += 1
            counts[s.kind][r.part][1] += id(s) not in missed
    lines = ["| kind | " + " | ".join(f"{p} found" for p in PARTS) + " |", "|---|" + "---|" * len(PARTS)]
    for kind in sorted(counts):
        cells = [
            f"{found}/{total}" if total else "-"
            for total, found in (counts[kind].get(p, [0, 0]) for p in PARTS)
        ]
        lines.append(f"| {kind} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def per_disguise(results: list[Result]) -> str:
    lines = [
        "| disguise | " + " | ".join(f"{r.part} found" for r in results) + " |",
        "|---|" + "---|" * len(results),
    ]
    names = sorted({s.disguise for r in results for s in r.secrets})
    for name in names:
        cells = []
        for r in results:
            total = [s for s in r.secrets if s.disguise == name]
            missed = [s for s in r.missed if s.disguise == name]
            cells.append(f"{len(total) - len(missed)}/{len(total)}")
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def per_benign_kind(results: list[Result]) -> str:
    lines = [
        "| benign kind | " + " | ".join(f"{r.part} refused" for r in results) + " |",
        "|---|" + "---|" * len(results),
    ]
    for name in sorted({b.kind for r in results for b in r.benign}):
        cells = []
        for r in results:
            total = [b for b in r.benign if b.kind == name]
            refused = [b for b in r.refused if b.kind == name]
            cells.append(f"{len(refused)}/{len(total)}")
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--misses", action="store_true", help="list every missed secret and refused sentence")
    parser.add_argument("--part", choices=PARTS, help="only this part")
    args = parser.parse_args()
    results = [evaluate(part) for part in PARTS if args.part in (None, part)]
    print(table(results), per_disguise(results), per_kind(results), per_benign_kind(results), sep="\n\n")
    if args.misses:
        for r in results:
            print(f"\n## {r.part}: missed")
            for s in r.missed:
                print(f"- [{s.kind} / {s.disguise}] {s.text!r}" + (f" + {s.quote!r}" if s.quote else ""))
            print(f"\n## {r.part}: refused")
            for b in r.refused:
                print(f"- [{b.kind}] {b.text!r}" + (f" + {b.quote!r}" if b.quote else ""))


if __name__ == "__main__":
    main()
