"""The paraphrase set: questions an assistant asks in its own words, none of them the memory's.

`paraphrases.jsonl` holds questions about the owner of `memories.jsonl`, each labelled with the memories
that answer it, and written so that it shares no word (as `core.words.words()` counted them before
related words existed) with any of its answers, text or quote: "What should I cook for them for dinner?"
for "Has been pescatarian since 2015". `topic` says what it is about (food, format, schedule, family,
tools, health, travel); `split` is `tune` (used while tuning) or `heldout` (written after tuning ended,
looked at only to report).

The vault is the set's 624 memories, all approved (the owner has reviewed them, so the fill applies,
as in the issue's story), committed once and read in process through the real `PersonaKit.read`.
hit@k: the share of questions with at least one answer among the first k memories of a limit-7 read.

    python bench/quality/paraphrase.py --check            # labels, and that no question shares a word
    python bench/quality/paraphrase.py                    # hit@1/3/7 and MRR per split and topic
    python bench/quality/paraphrase.py --code /path/to/an/older/checkout   # the figures before a change
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
TOPICS = ("food", "format", "schedule", "family", "tools", "health", "travel")


def lines(name: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (HERE / name).read_text(encoding="utf-8").splitlines() if line]


def check(words: Any) -> int:
    memories = {m["key"]: m for m in lines("memories.jsonl")}
    problems = 0
    seen = set()
    for q in lines("paraphrases.jsonl"):
        own = set(words(q["question"]))
        for key in q["answers"]:
            if key not in memories:
                print(f"{q['qid']}: unknown memory {key}")
                problems += 1
                continue
            theirs = set(words(memories[key]["text"] + " " + memories[key]["quote"]))
            if own & theirs:
                print(f"{q['qid']}: shares {sorted(own & theirs)} with {key}: {q['question']}")
                problems += 1
        if q["topic"] not in TOPICS or q["split"] not in ("tune", "heldout") or not q["answers"]:
            print(f"{q['qid']}: bad topic, split or answers")
            problems += 1
        if q["question"].casefold() in seen:
            print(f"{q['qid']}: asked twice")
            problems += 1
        seen.add(q["question"].casefold())
    return problems


def build(
    root: Path,
    memory_id: Any,
    render: Any,
    slug: Any,
    memory_class: Any,
    init_vault: Any,
    state: str = "approved",
) -> dict[str, str]:
    """The 624 memories, all in one state, with distinct creation times not in file order; id -> key."""
    init_vault(root)
    start = datetime(2025, 1, 1, tzinfo=UTC)
    keys = {}
    for i, record in enumerate(lines("memories.jsonl")):
        mid = memory_id(record["text"])
        keys[mid] = record["key"]
        created = start + timedelta(hours=7 * ((i * 37) % 624))
        memory = memory_class(
            id=mid, text=record["text"], category=record["category"], state=state,
            evidence=(record["quote"],), proposed_by="quality-set",
            created=created.strftime("%Y-%m-%dT%H:%M:%SZ"), name=f"{slug(record['text'])}-{mid[2:8]}.md",
        )  # fmt: skip
        (root / "memories" / memory.name).write_text(render(memory), encoding="utf-8")
    for args in (["add", "-A"], ["commit", "-qm", "the quality set"]):
        subprocess.run(["git", "-C", str(root), *args], check=True, capture_output=True)
    return keys


LEVERS = ("same", "order", "fill", "topics")


def switch_off(levers: list[str]) -> None:
    """Turn levers of issue 19 off in this process, to measure what each buys."""
    if not levers:
        return
    import personakit.core.meaning as meaning
    import personakit.store.ranking as ranking
    from personakit.store.index import MemoryIndex

    if "same" in levers:
        meaning.SAME_PER_WORD = 0
    if "order" in levers:
        ranking.NEAR_SHARE = 0.0
    if "fill" in levers:
        MemoryIndex.fill = lambda self, *args, **kwargs: []  # type: ignore[method-assign]
    if "topics" in levers:
        meaning._topics = lambda: ({}, {}, {})  # type: ignore[assignment]
    meaning.same_words.cache_clear()
    meaning.near_words.cache_clear()


def figures(ranked: dict[str, list[str]], questions: list[dict[str, Any]]) -> dict[str, float]:
    n = len(questions)
    out: dict[str, float] = {"n": n}
    for k in (1, 3, 5, 7):
        out[f"hit@{k}"] = sum(1 for q in questions if set(ranked[q["qid"]][:k]) & set(q["answers"])) / max(
            n, 1
        )
    rr = []
    for q in questions:
        ranks = [i + 1 for i, key in enumerate(ranked[q["qid"]]) if key in q["answers"]]
        rr.append(1 / ranks[0] if ranks else 0.0)
    out["mrr"] = sum(rr) / max(n, 1)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("--check", action="store_true")
    parser.add_argument("--code", type=Path, help="import personakit from this checkout")
    parser.add_argument("--json", type=Path, help="write the figures and every ranking here")
    parser.add_argument("--misses", action="store_true", help="list the questions with no answer in 7")
    parser.add_argument(
        "--without",
        nargs="*",
        default=[],
        choices=LEVERS,
        help="switch levers off: same (same-meaning words), order (near words ordering ties), "
        "fill (the closest fill: newest instead), topics (the curated topics)",
    )
    parser.add_argument(
        "--existing", action="store_true",
        help="the existing set instead (questions.jsonl, answerable ones, every memory unconfirmed, as run.py)",
    )  # fmt: skip
    args = parser.parse_args(argv)
    if args.code:
        sys.path.insert(0, str(args.code.resolve()))
    from personakit.core.memory import Memory, render_memory
    from personakit.core.naming import memory_id, slug
    from personakit.core.words import words

    try:
        from personakit.vault.service import PersonaKit, init_vault
    except ImportError:  # a checkout from before the layout of issue 22
        from personakit.service import PersonaKit, init_vault  # type: ignore[no-redef]

    switch_off(args.without)
    if args.check:
        problems = check(words)
        print(f"{len(lines('paraphrases.jsonl'))} questions, {problems} problems")
        return 1 if problems else 0
    questions = lines("paraphrases.jsonl")
    state = "approved"
    if args.existing:
        questions = [dict(q, topic="food") for q in lines("questions.jsonl") if q["answers"]]
        state = "unconfirmed"
    memories = {m["key"]: m for m in lines("memories.jsonl")}
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder) / "vault"
        keys = build(root, memory_id, render_memory, slug, Memory, init_vault, state)
        kit = PersonaKit(root, create=False)
        kit.start()
        try:
            ranked = {}
            for q in questions:
                result = kit.read(q["question"], 7, record=False)
                ranked[q["qid"]] = [keys[m["id"]] for m in result["memories"]]
        finally:
            kit.close()
    table: dict[str, Any] = {}
    for split in ("tune", "heldout"):
        part = [q for q in questions if q["split"] == split]
        if not part:
            continue
        table[split] = figures(ranked, part)
        table[split]["by_topic"] = {
            t: figures(ranked, [q for q in part if q["topic"] == t])
            for t in TOPICS
            if any(q["topic"] == t for q in part)
        }
    print(f"{'split':8} {'n':>4} {'hit@1':>6} {'hit@3':>6} {'hit@5':>6} {'hit@7':>6} {'mrr':>6}")
    for split, row in table.items():
        cells = " ".join(f"{row[k]:6.3f}" for k in ("hit@1", "hit@3", "hit@5", "hit@7", "mrr"))
        print(f"{split:8} {row['n']:4.0f} {cells}")
    if args.existing:
        return 0
    print("\nhit@3 / hit@7 by topic")
    for split, row in table.items():
        cells = "  ".join(f"{t} {f['hit@3']:.2f}/{f['hit@7']:.2f}" for t, f in row["by_topic"].items())
        print(f"{split:8} {cells}")
    if args.misses:
        for q in questions:
            if not set(ranked[q["qid"]]) & set(q["answers"]):
                got = "; ".join(memories[k]["text"][:40] for k in ranked[q["qid"]][:3])
                print(f"{q['qid']} {q['split']:7} {q['question']}  ->  {got}")
    if args.json:
        args.json.write_text(json.dumps({"figures": table, "ranked": ranked}, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
