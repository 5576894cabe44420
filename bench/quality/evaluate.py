"""Retrieval-quality evaluation for memory search: the labelled set, the metrics, two baselines.

This module does not import PersonaKit. It knows about memories only as ``{"key", "text", "quote",
"category"}`` records and about a search method only as "for each question, a list of memory keys, best
first". Anything that can produce such lists (the real MCP server, a baseline, an experiment) can be scored
with :func:`metrics` and compared with :func:`print_table`.

Metrics (see README.md in this folder for the full rules):

- ``recall@k`` (k = 1, 3, 5, 7): over *answerable* questions, the fraction with at least one labelled answer
  among the first k keys returned. This is the "success" or "hit rate" form of recall: a question counts as
  answered if any memory that answers it is shown.
- ``all@k``: over answerable questions, the fraction whose first k keys contain every labelled answer, or k
  of them when a question has more than k answers.
- ``mrr``: mean over answerable questions of 1 / rank of the first labelled answer, 0 when none is in the
  first 20 keys.
- ``unanswerable_returned``: mean number of keys returned for questions nothing answers (lower is better;
  informational, because a tool may legitimately fill places).

Every number is computed separately for the ``tune`` and ``heldout`` splits (and for ``all``).

Command line::

    python bench/quality/evaluate.py --baselines          # table for the two in-process baselines
    python bench/quality/evaluate.py --baselines --by-kind
    python bench/quality/evaluate.py --check              # validate the set and print its counts
"""

from __future__ import annotations

import argparse
import json
import math
import re
import sys
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, TextIO, TypedDict

HERE = Path(__file__).resolve().parent

CATEGORIES = ("communication", "work-style", "tools", "preferences", "background", "constraints", "other")
KINDS = ("paraphrase", "inflection", "question_words", "names", "quote_only", "unanswerable", "direct")
SPLITS = ("tune", "heldout")
KS = (1, 3, 5, 7)
MRR_DEPTH = 20
BASELINE_DEPTH = 20

_TOKEN = re.compile(r"\w+")


class Memory(TypedDict):
    key: str
    text: str
    quote: str
    category: str


class Question(TypedDict):
    qid: str
    question: str
    answers: list[str]
    split: str
    kind: str


Ranking = Sequence[str]
Rankings = Mapping[str, Ranking] | Sequence[Ranking]


# --------------------------------------------------------------------------------------------- loading


def _read_jsonl(path: Path) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    with path.open(encoding="utf-8") as fh:
        for number, line in enumerate(fh, 1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
            except json.JSONDecodeError as exc:
                raise ValueError(f"{path}:{number}: not JSON: {exc}") from exc
            if not isinstance(row, dict):
                raise ValueError(f"{path}:{number}: expected a JSON object")
            rows.append(row)
    return rows


def load_set(directory: str | Path = HERE) -> tuple[list[Memory], list[Question]]:
    """Read ``memories.jsonl`` and ``questions.jsonl`` from ``directory`` and check them.

    Raises ValueError on anything a benchmark should not silently run on: duplicate keys or qids, unknown
    categories, kinds or splits, answers that name no memory, and an unanswerable question with answers.
    """
    folder = Path(directory)
    memories: list[Memory] = []
    for row in _read_jsonl(folder / "memories.jsonl"):
        memory = Memory(
            key=str(row["key"]), text=str(row["text"]), quote=str(row["quote"]), category=str(row["category"])
        )
        if memory["category"] not in CATEGORIES:
            raise ValueError(f"memory {memory['key']}: unknown category {memory['category']!r}")
        if not memory["text"].strip() or len(memory["text"]) > 300:
            raise ValueError(f"memory {memory['key']}: text must be 1-300 characters")
        memories.append(memory)
    known = _unique([m["key"] for m in memories], "memory keys")

    questions: list[Question] = []
    for row in _read_jsonl(folder / "questions.jsonl"):
        question = Question(
            qid=str(row["qid"]),
            question=str(row["question"]),
            answers=[str(a) for a in row["answers"]],
            split=str(row["split"]),
            kind=str(row["kind"]),
        )
        if question["split"] not in SPLITS:
            raise ValueError(f"question {question['qid']}: unknown split {question['split']!r}")
        if question["kind"] not in KINDS:
            raise ValueError(f"question {question['qid']}: unknown kind {question['kind']!r}")
        unknown = [a for a in question["answers"] if a not in known]
        if unknown:
            raise ValueError(f"question {question['qid']}: answers name no memory: {unknown}")
        if (question["kind"] == "unanswerable") != (not question["answers"]):
            raise ValueError(f"question {question['qid']}: only unanswerable questions have no answers")
        questions.append(question)
    _unique([q["qid"] for q in questions], "qids")
    return memories, questions


def _unique(values: list[str], what: str) -> set[str]:
    duplicates = sorted(v for v, n in Counter(values).items() if n > 1)
    if duplicates:
        raise ValueError(f"duplicate {what}: {duplicates}")
    return set(values)


# --------------------------------------------------------------------------------------------- metrics


def _as_mapping(ranked: Rankings, questions: Sequence[Question]) -> dict[str, list[str]]:
    if isinstance(ranked, Mapping):
        missing = [q["qid"] for q in questions if q["qid"] not in ranked]
        if missing:
            raise ValueError(f"no ranking for {len(missing)} question(s), e.g. {missing[:5]}")
        return {q["qid"]: list(ranked[q["qid"]]) for q in questions}
    if len(ranked) != len(questions):
        raise ValueError(f"{len(ranked)} rankings for {len(questions)} questions")
    return {q["qid"]: list(r) for q, r in zip(questions, ranked, strict=True)}


def _dedupe(keys: Iterable[str]) -> list[str]:
    seen: set[str] = set()
    out: list[str] = []
    for key in keys:
        if key not in seen:
            seen.add(key)
            out.append(key)
    return out


def _summarise(questions: Sequence[Question], ranked: Mapping[str, list[str]]) -> dict[str, Any]:
    answerable = [q for q in questions if q["answers"]]
    unanswerable = [q for q in questions if not q["answers"]]
    result: dict[str, Any] = {
        "n": len(questions),
        "n_answerable": len(answerable),
        "n_unanswerable": len(unanswerable),
    }
    hits = dict.fromkeys(KS, 0)
    complete = dict.fromkeys(KS, 0)
    reciprocal = 0.0
    for q in answerable:
        answers = set(q["answers"])
        keys = _dedupe(ranked[q["qid"]])
        for k in KS:
            found = len(answers.intersection(keys[:k]))
            hits[k] += found > 0
            complete[k] += found >= min(k, len(answers))
        for rank, key in enumerate(keys[:MRR_DEPTH], 1):
            if key in answers:
                reciprocal += 1.0 / rank
                break
    n = len(answerable)
    for k in KS:
        result[f"recall@{k}"] = hits[k] / n if n else math.nan
        result[f"all@{k}"] = complete[k] / n if n else math.nan
    result["mrr"] = reciprocal / n if n else math.nan
    returned = [len(_dedupe(ranked[q["qid"]])) for q in unanswerable]
    result["unanswerable_returned"] = sum(returned) / len(returned) if returned else math.nan
    return result


def metrics(ranked_keys_per_question: Rankings, questions: Sequence[Question]) -> dict[str, Any]:
    """Score rankings against the labels.

    ``ranked_keys_per_question`` is either a mapping ``qid -> [key, ...]`` or a sequence of key lists in the
    same order as ``questions``; each list is best first and may be shorter than 20 (an empty list means the
    method returned nothing). Repeated keys count once, at their first position; keys that name no memory
    simply never match.

    Returns ``{"tune": {...}, "heldout": {...}, "all": {...}}``. Each part holds ``n``, ``n_answerable``,
    ``n_unanswerable``, ``recall@k`` and ``all@k`` for k in 1, 3, 5, 7, ``mrr``, ``unanswerable_returned``
    and ``by_kind``: the same numbers per question kind.
    """
    ranked = _as_mapping(ranked_keys_per_question, questions)
    out: dict[str, Any] = {}
    for split in (*SPLITS, "all"):
        subset = [q for q in questions if split in ("all", q["split"])]
        part = _summarise(subset, ranked)
        part["by_kind"] = {
            kind: _summarise([q for q in subset if q["kind"] == kind], ranked)
            for kind in KINDS
            if any(q["kind"] == kind for q in subset)
        }
        out[split] = part
    return out


# --------------------------------------------------------------------------------------------- baselines


def tokens(text: str) -> list[str]:
    """Baseline tokenizer: lowercase ``\\w+`` runs, no stemming, no stop words."""
    return _TOKEN.findall(text.lower())


def bm25_baseline(
    memories: Sequence[Memory],
    questions: Sequence[Question],
    k1: float = 1.2,
    b: float = 0.75,
    depth: int = BASELINE_DEPTH,
) -> dict[str, list[str]]:
    """Okapi BM25 over the memory text only.

    Scores sum over the distinct question tokens; idf is ``ln(1 + (N - df + 0.5) / (df + 0.5))`` (never
    negative). Only memories with a positive score are returned, best first (ties by key), at most ``depth``.
    """
    docs = [(m["key"], Counter(tokens(m["text"]))) for m in memories]
    lengths = {key: sum(tf.values()) for key, tf in docs}
    avgdl = sum(lengths.values()) / len(docs) if docs else 0.0
    df: Counter[str] = Counter()
    for _, tf in docs:
        df.update(tf.keys())
    n = len(docs)
    idf = {term: math.log(1.0 + (n - count + 0.5) / (count + 0.5)) for term, count in df.items()}
    out: dict[str, list[str]] = {}
    for q in questions:
        terms = set(tokens(q["question"])) & idf.keys()
        scored: list[tuple[float, str]] = []
        for key, tf in docs:
            score = 0.0
            norm = k1 * (1.0 - b + b * lengths[key] / avgdl)
            for term in terms:
                f = tf.get(term, 0)
                if f:
                    score += idf[term] * f * (k1 + 1.0) / (f + norm)
            if score > 0.0:
                scored.append((score, key))
        scored.sort(key=lambda item: (-item[0], item[1]))
        out[q["qid"]] = [key for _, key in scored[:depth]]
    return out


def overlap_baseline(
    memories: Sequence[Memory], questions: Sequence[Question], depth: int = BASELINE_DEPTH
) -> dict[str, list[str]]:
    """Distinct-word overlap with the memory text; ties go to the shorter text, then the smaller key.

    Only memories sharing at least one token are returned, at most ``depth``.
    """
    docs = [(m["key"], len(m["text"]), set(tokens(m["text"]))) for m in memories]
    out: dict[str, list[str]] = {}
    for q in questions:
        terms = set(tokens(q["question"]))
        scored = [(len(terms & words), length, key) for key, length, words in docs]
        scored = [item for item in scored if item[0] > 0]
        scored.sort(key=lambda item: (-item[0], item[1], item[2]))
        out[q["qid"]] = [key for _, _, key in scored[:depth]]
    return out


# --------------------------------------------------------------------------------------------- output


def _fmt(value: Any) -> str:
    if isinstance(value, float):
        return "  -  " if math.isnan(value) else f"{value:.3f}"
    return str(value)


def _render(header: list[str], body: list[list[str]], left: int, file: TextIO | None) -> None:
    """Print aligned columns: the first ``left`` columns left-aligned, the rest right-aligned."""
    out = file if file is not None else sys.stdout
    widths = [max(len(line[i]) for line in [header, *body]) for i in range(len(header))]
    for line in [header, ["-" * w for w in widths], *body]:
        cells = [
            c.ljust(w) if i < left else c.rjust(w) for i, (c, w) in enumerate(zip(line, widths, strict=True))
        ]
        print("  ".join(cells).rstrip(), file=out)


def print_table(
    rows: Iterable[tuple[str, Mapping[str, Any]]],
    splits: Sequence[str] = SPLITS,
    columns: Sequence[str] = ("recall@1", "recall@3", "recall@5", "recall@7", "mrr"),
    file: TextIO | None = None,
) -> None:
    """Print a plain text table, one line per method and split.

    ``rows`` is a sequence of ``(method name, metrics(...) result)`` pairs. The default columns are
    R@1 R@3 R@5 R@7 MRR; pass e.g. ``columns=(..., "all@5", "unanswerable_returned")`` for more.
    """
    short = {
        "recall@1": "R@1",
        "recall@3": "R@3",
        "recall@5": "R@5",
        "recall@7": "R@7",
        "mrr": "MRR",
        "unanswerable_returned": "unans.ret",
    }
    header = ["method", "split", "n", *(short.get(c, c) for c in columns)]
    body: list[list[str]] = []
    for method, result in rows:
        for split in splits:
            part = result[split]
            body.append([method, split, str(part["n_answerable"]), *(_fmt(part[c]) for c in columns)])
    _render(header, body, left=2, file=file)


def print_by_kind(
    rows: Iterable[tuple[str, Mapping[str, Any]]],
    split: str = "all",
    column: str = "recall@5",
    file: TextIO | None = None,
) -> None:
    """Print one metric per question kind: methods down, kinds across (unanswerable shows unans.ret)."""
    rows = list(rows)
    kinds = [k for k in KINDS if any(k in result[split]["by_kind"] for _, result in rows)]
    header = ["method", *kinds]
    body: list[list[str]] = []
    for method, result in rows:
        cells = [method]
        for kind in kinds:
            part = result[split]["by_kind"].get(kind)
            if part is None:
                cells.append("")
            else:
                cells.append(_fmt(part["unanswerable_returned" if kind == "unanswerable" else column]))
        body.append(cells)
    out = file if file is not None else sys.stdout
    print(f"{column} by kind, split={split} (unanswerable: mean results returned)", file=out)
    _render(header, body, left=1, file=out)


def describe(memories: Sequence[Memory], questions: Sequence[Question], file: TextIO | None = None) -> None:
    """Print the counts of a set: memories per category, questions per kind and split."""
    out = file if file is not None else sys.stdout
    categories = Counter(m["category"] for m in memories)
    print(f"{len(memories)} memories", file=out)
    for category in CATEGORIES:
        print(f"  {category:<14} {categories[category]:>4}", file=out)
    per = Counter((q["kind"], q["split"]) for q in questions)
    print(f"{len(questions)} questions          tune  heldout  total", file=out)
    for kind in KINDS:
        tune, heldout = per[(kind, "tune")], per[(kind, "heldout")]
        print(f"  {kind:<16} {tune:>6} {heldout:>8} {tune + heldout:>6}", file=out)
    tune = sum(1 for q in questions if q["split"] == "tune")
    print(f"  {'all':<16} {tune:>6} {len(questions) - tune:>8} {len(questions):>6}", file=out)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("--dir", default=str(HERE), help="folder holding memories.jsonl and questions.jsonl")
    parser.add_argument("--baselines", action="store_true", help="score the BM25 and word-overlap baselines")
    parser.add_argument("--by-kind", action="store_true", help="also print R@5 and MRR per question kind")
    parser.add_argument("--check", action="store_true", help="validate the set and print its counts")
    parser.add_argument("--json", action="store_true", help="print the full metrics as JSON instead")
    args = parser.parse_args(argv)

    memories, questions = load_set(args.dir)
    if args.check or not args.baselines:
        describe(memories, questions)
        if not args.baselines:
            return 0
        print()
    rows = [
        ("bm25", metrics(bm25_baseline(memories, questions), questions)),
        ("overlap", metrics(overlap_baseline(memories, questions), questions)),
    ]
    if args.json:
        print(json.dumps(dict(rows), indent=2, sort_keys=True, default=str))
        return 0
    print_table(rows)
    if args.by_kind:
        print()
        print_by_kind(rows, column="recall@5")
        print()
        print_by_kind(rows, column="mrr")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
