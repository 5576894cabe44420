"""The benchmark's table: every figure next to the reference measured with it, the ratio, and the target.

A reference is the floor's matching figure measured alongside (the same SDK serving one `echo` tool:
its cold start, its call latency over the same questions, its peak RSS), or for proposals the owner's own
`git add` + `git commit` of one file in the same vault, or for the long-history vault the same command on
the same memories with a fresh history (shown as a difference, not a ratio).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

Figures = dict[str, float]


@dataclass(frozen=True)
class Row:
    key: str
    label: str
    unit: str  # "ms", "s", "MB" or "x"
    reference: str | None  # the reference figure's key, or None
    difference: bool = False  # show value - reference instead of value / reference


WORKLOADS = ("lookup", "conversational")
SIZE_ROWS = [
    Row("index build", "first index (reindex CLI, wall)", "s", "cold"),
    Row("cold scratch listed", "cold start to tools/list, no index", "s", "cold"),
    Row("cold scratch", "first index by serve: spawn to the first read answered", "s", "cold"),
    Row("cold existing", "cold start to tools/list, index there", "s", "cold"),
    *(
        Row(f"read {w} p{p}", f"read p{p}, {w} questions", "ms", f"call {w} p{p}")
        for w in WORKLOADS
        for p in (50, 95, 99)
    ),
    Row("propose p50", "propose p50, server idle before each", "ms", "git baseline p50"),
    Row("burst p50", "propose p50, back to back", "ms", "git baseline p50"),
    Row("burst p99", "propose p99, back to back", "ms", "git baseline p50"),
    Row("git baseline p50", "by hand: git add + git commit p50", "ms", None),
    Row("save p50", "editor save -> visible p50", "ms", None),
    Row("save p99", "editor save -> visible p99", "ms", None),
    Row("rss", "server peak RSS (VmHWM)", "MB", "floor rss"),
    Row("git size", ".git on disk, against memories/", "MB", "memories size"),
]
HISTORY_ROWS = [
    Row("show", "show ID", "s", "fresh show", difference=True),
    Row("log", "log --limit 50", "s", "fresh log", difference=True),
    Row("log reads", "log --reads --limit 50", "s", "fresh log reads", difference=True),
    Row("doctor", "doctor", "s", "fresh doctor", difference=True),
    Row(
        "cold existing", "cold start to tools/list, index there", "s", "fresh cold existing", difference=True
    ),
    Row("git size", ".git on disk, as generated", "MB", "memories size"),
    Row(
        "git size after burst",
        ".git on disk, after proposals back to back and the packer",
        "MB",
        "memories size",
    ),
    Row("packer cpu", "packer's CPU (its own and its git's), all runs", "s", None),
]
Test = Callable[[float, float], bool]  # (value, ratio or difference) -> met
TARGETS: dict[tuple[int | str, str], tuple[str, Test]] = {
    **{(10_000, f"read {w} p50"): ("<= 2x floor", lambda v, r: r <= 2) for w in WORKLOADS},
    **{(10_000, f"read {w} p99"): ("<= 3x floor", lambda v, r: r <= 3) for w in WORKLOADS},
    **{(100_000, f"read {w} p99"): ("<= 5x floor", lambda v, r: r <= 5) for w in WORKLOADS},
    (10_000, "burst p50"): ("<= 0.4x git", lambda v, r: r <= 0.4),
    (100_000, "burst p50"): ("<= 1.0x git", lambda v, r: r <= 1.0),
    (10_000, "index build"): ("<= 5x floor", lambda v, r: r <= 5),
    (100_000, "index build"): ("<= 30x floor", lambda v, r: r <= 30),
    (10_000, "cold scratch"): ("<= 5x floor", lambda v, r: r <= 5),
    (100_000, "cold scratch"): ("<= 30x floor", lambda v, r: r <= 30),
    (10_000, "cold existing"): ("<= 1.2x floor", lambda v, r: r <= 1.2),
    (100_000, "cold existing"): ("<= 1.2x floor", lambda v, r: r <= 1.2),
    (10_000, "save p50"): ("<= 100 ms", lambda v, r: v <= 0.100),
    (10_000, "rss"): ("<= 1.5x floor", lambda v, r: r <= 1.5),
    (100_000, "rss"): ("<= 250 MB", lambda v, r: v <= 250),
    **{("history", k): ("<= +1 s", lambda v, r: r <= 1.0) for k in ("show", "log", "log reads", "doctor")},
    ("history", "cold existing"): ("<= +1 s", lambda v, r: r <= 1.0),
    ("history", "git size"): ("<= 3x", lambda v, r: r <= 3),
    ("history", "git size after burst"): ("<= 3x", lambda v, r: r <= 3),
}


def shown(value: float, unit: str) -> str:
    if math.isnan(value):
        return "-"
    if math.isinf(value):
        return "lost"
    if unit == "ms":
        return f"{value * 1e3:.1f} ms" if value < 1 else f"{value:.2f} s"
    if unit == "s":
        return f"{value:.2f} s"
    return f"{value:.0f} MB" if unit == "MB" else f"{value:.2f}x"


def _line(where: str, row: Row, figures: Figures, target_key: tuple[int | str, str]) -> list[str]:
    value = figures.get(row.key, math.nan)
    base = figures.get(row.reference, math.nan) if row.reference else math.nan
    if row.difference:
        ratio = value - base
        ratio_text = "-" if math.isnan(ratio) else f"{ratio:+.2f} s"
    else:
        ratio = value / base if base else math.nan
        ratio_text = "-" if math.isnan(ratio) else "inf" if math.isinf(ratio) else f"{ratio:.2f}x"
    target, met = "", ""
    if target_key in TARGETS and not math.isnan(value):
        target, test = TARGETS[target_key]
        met = "yes" if test(value, ratio) else "NO"
    return [where, row.label, shown(value, row.unit), shown(base, row.unit), ratio_text, target, met]


def table(sizes: dict[int, Figures], history: dict[str, Figures]) -> list[list[str]]:
    """Rows of [size, metric, value, reference, ratio, target, met?]."""
    rows = [["size", "metric", "value", "reference", "ratio", "target", "met?"]]
    for n, figures in sizes.items():
        rows += [_line(f"{n:,}", row, figures, (n, row.key)) for row in SIZE_ROWS if row.key in figures]
    for label, figures in history.items():
        rows += [
            _line(label, row, figures, ("history", row.key)) for row in HISTORY_ROWS if row.key in figures
        ]
    return rows


def floors(sizes: dict[int, Figures]) -> list[list[str]]:
    """The references themselves, per size: what each ratio above divides by."""
    rows = [["size", "floor cold start", "echo p50 / p99 (lookup)", "echo p50 / p99 (conversational)",
             "floor RSS", "git add + commit p50"]]  # fmt: skip
    for n, f in sizes.items():
        rows.append([
            f"{n:,}", shown(f.get("cold", math.nan), "s"),
            f"{shown(f.get('call lookup p50', math.nan), 'ms')} / {shown(f.get('call lookup p99', math.nan), 'ms')}",
            f"{shown(f.get('call conversational p50', math.nan), 'ms')} / "
            f"{shown(f.get('call conversational p99', math.nan), 'ms')}",
            shown(f.get("floor rss", math.nan), "MB"), shown(f.get("git baseline p50", math.nan), "ms"),
        ])  # fmt: skip
    return rows


def plain(rows: list[list[str]]) -> str:
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    lines = ["  ".join(c.ljust(w) if i < 2 else c.rjust(w) for i, (c, w) in enumerate(zip(r, widths, strict=True)))
             for r in rows]  # fmt: skip
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(line.rstrip() for line in lines)


def markdown(rows: list[list[str]]) -> str:
    lines = [
        "| " + " | ".join(rows[0]) + " |",
        "|" + "|".join(["---"] * 2 + ["---:"] * (len(rows[0]) - 2)) + "|",
    ]
    lines += ["| " + " | ".join(r) + " |" for r in rows[1:]]
    return "\n".join(lines)
