"""How well `personakit.core.relations.pairs` finds clashes and near-duplicates, on labeled memory pairs.

The pairs live in `tests/data/relations/`: `tuning.tsv` (the rules were tuned on it) and `held_out.tsv`
(written after the tuning, never used to tune). Each line is `label<TAB>memory a<TAB>memory b`, with the
label one of contradict, same, related, unrelated. A pair is predicted a clash when `clash()` gives a
reason, and a near-duplicate when `similar()` says so.

    python bench/relations/report.py              # both tables
    python bench/relations/report.py --failures   # and every pair each part gets wrong
    python bench/relations/report.py --check      # exit 1 when the held-out part misses a target

Targets (held-out): clashes precision >= 0.85 with recall >= 0.6; near-duplicates precision >= 0.9 with
recall >= 0.7. tests/test_relations_quality.py runs `--check`.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from personakit.core.relations.pairs import analyse, clash, similar

DATA = Path(__file__).resolve().parents[2] / "tests" / "data" / "relations"
PARTS = ("tuning", "held_out")
LABELS = ("contradict", "same", "related", "unrelated")
TARGETS = {"clashes": (0.85, 0.6), "near-duplicates": (0.9, 0.7)}


def pairs(part: str) -> list[tuple[str, str, str]]:
    found = []
    for number, line in enumerate((DATA / f"{part}.tsv").read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        label, a, b = line.split("\t")
        if label not in LABELS:
            raise SystemExit(f"{part}.tsv:{number}: unknown label {label!r}")
        found.append((label, a, b))
    return found


def score(part: str) -> dict[str, object]:
    """Precision and recall of clashes (against 'contradict') and near-duplicates (against 'same')."""
    rows = pairs(part)
    counts = {label: sum(1 for r in rows if r[0] == label) for label in LABELS}
    result: dict[str, object] = {"pairs": len(rows), "counts": counts}
    wrong: list[str] = []
    for name, wanted, predict in (
        ("clashes", "contradict", lambda a, b: clash(analyse(a), analyse(b))),
        ("near-duplicates", "same", lambda a, b: similar(analyse(a), analyse(b))),
    ):
        tp = fp = fn = 0
        for label, a, b in rows:
            said = predict(a, b)
            if said and label == wanted:
                tp += 1
            elif said:
                fp += 1
                reason = f" ({said})" if isinstance(said, str) else ""
                wrong.append(f"  {name} false positive [{label}]: {a!r} / {b!r}{reason}")
            elif label == wanted:
                fn += 1
                wrong.append(f"  {name} missed: {a!r} / {b!r}")
        precision = tp / (tp + fp) if tp + fp else 1.0
        recall = tp / (tp + fn) if tp + fn else 1.0
        result[name] = {"tp": tp, "fp": fp, "fn": fn, "precision": precision, "recall": recall}
    result["wrong"] = wrong
    return result


def table(part: str, result: dict[str, object]) -> list[str]:
    counts = result["counts"]
    assert isinstance(counts, dict)
    lines = [
        f"{part}: {result['pairs']} pairs ("
        + ", ".join(f"{counts[label]} {label}" for label in LABELS)
        + ")",
        "| | precision | recall | true pos. | false pos. | missed |",
        "|---|---|---|---|---|---|",
    ]
    for name in TARGETS:
        r = result[name]
        assert isinstance(r, dict)
        lines.append(
            f"| {name} | {r['precision']:.3f} | {r['recall']:.3f} | {r['tp']} | {r['fp']} | {r['fn']} |"
        )
    return lines


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--failures", action="store_true", help="list every pair a part gets wrong")
    parser.add_argument("--check", action="store_true", help="exit 1 when the held-out part misses a target")
    args = parser.parse_args()
    missed = []
    for part in PARTS:
        if not (DATA / f"{part}.tsv").exists():
            print(f"{part}: no {part}.tsv yet\n")
            continue
        result = score(part)
        print("\n".join(table(part, result)))
        if args.failures:
            print("\n".join(result["wrong"]) or "  nothing wrong")  # type: ignore[arg-type]
        print()
        if part == "held_out":
            for name, (precision, recall) in TARGETS.items():
                r = result[name]
                assert isinstance(r, dict)
                if r["precision"] < precision or r["recall"] < recall:
                    missed.append(
                        f"{name}: precision {r['precision']:.3f} (target {precision}), "
                        f"recall {r['recall']:.3f} (target {recall})"
                    )
    if missed:
        print("held-out targets missed: " + "; ".join(missed))
    return 1 if args.check and missed else 0


if __name__ == "__main__":
    sys.exit(main())
