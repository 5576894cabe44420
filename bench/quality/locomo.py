"""The LoCoMo benchmark's questions, read through PersonaKit: how an outside question set finds the facts.

LoCoMo (Maharana et al., ACL 2024; snap-research/locomo, `data/locomo10.json`) is ten long conversations
between two people, each with the facts ("observations") an annotator drew from every session, and
questions written by other people, each with the turns that answer it. Its licence (CC BY-NC 4.0) keeps it
out of this repository: fetch the file yourself and pass its path.

Each conversation becomes a vault of its observations, every one approved (the owner has reviewed them),
its text the observation, its quote the turn it came from, created at the session's date. Questions of the
first four kinds (single-hop, temporal, open-domain, multi-hop; the fifth, adversarial, has no answer in
the conversation) whose answering turns have an observation are read in process through the real
`PersonaKit.read`, limit 10:

- hit@k: the share of questions with at least one answering turn among the first k memories;
- recall@k: the share of a question's answering turns found among the first k, averaged over questions.

    python bench/quality/locomo.py /path/to/locomo10.json
    python bench/quality/locomo.py /path/to/locomo10.json --code /an/older/checkout --misses 20
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

KINDS = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop"}  # as the dataset numbers them
LIMIT = 10


def when(stamp: str) -> str:
    """'1:56 pm on 8 May, 2023' -> '2023-05-08T13:56:00Z'."""
    moment = datetime.strptime(stamp.replace(" on ", " ").strip(), "%I:%M %p %d %B, %Y")
    return moment.replace(tzinfo=UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def observations(conversation: dict[str, Any]) -> list[tuple[str, str, str]]:
    """(text, turn id, created) for every observation, with the turn's own words as its quote."""
    talk = conversation["conversation"]
    out = []
    for key, facts in conversation["observation"].items():
        session = key.removesuffix("_observation")
        created = when(talk[f"{session}_date_time"])
        for pairs in facts.values():
            for text, turn in pairs:
                for one in [turn] if isinstance(turn, str) else turn:
                    out.append((text.strip(), one.strip(), created))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("data", type=Path, help="locomo10.json")
    parser.add_argument("--code", type=Path, help="import personakit from this checkout")
    parser.add_argument("--misses", type=int, default=0, help="print this many questions found nowhere in 7")
    parser.add_argument("--conversations", type=int, default=10)
    args = parser.parse_args(argv)
    if args.code:
        sys.path.insert(0, str(args.code.resolve()))
    from personakit.core.memory import Memory, render_memory

    try:
        from personakit.core.naming import memory_id, slug
        from personakit.vault.service import PersonaKit, init_vault
    except ImportError:  # a checkout from before the layout of issue 22
        from personakit.service import PersonaKit, init_vault  # type: ignore[no-redef]

        from personakit.core.memory import memory_id, slug  # type: ignore[attr-defined,no-redef]

    rows: list[dict[str, Any]] = []
    for conversation in json.loads(args.data.read_text(encoding="utf-8"))[: args.conversations]:
        turns = {d["dia_id"]: d["text"] for k, v in conversation["conversation"].items()
                 if k.startswith("session_") and isinstance(v, list) for d in v}  # fmt: skip
        facts = observations(conversation)
        with tempfile.TemporaryDirectory() as folder:
            root = Path(folder) / "vault"
            init_vault(root)
            turn_of: dict[str, str] = {}
            for text, turn, created in facts:
                mid = memory_id(text + turn)
                if mid in turn_of or not text:
                    continue
                turn_of[mid] = turn
                memory = Memory(
                    id=mid, text=text[:300], category="other", state="approved",
                    evidence=(turns.get(turn, text),), proposed_by="locomo", created=created,
                    name=f"{slug(text)}-{mid[2:8]}.md",
                )  # fmt: skip
                (root / "memories" / memory.name).write_text(render_memory(memory), encoding="utf-8")
            for git in (["add", "-A"], ["commit", "-qm", "LoCoMo observations"]):
                subprocess.run(["git", "-C", str(root), *git], check=True, capture_output=True)
            known = set(turn_of.values())
            kit = PersonaKit(root, create=False)
            kit.start()
            try:
                for qa in conversation["qa"]:
                    answers = {e.strip() for e in qa.get("evidence", []) for e in e.split(";")} & known
                    if qa.get("category") not in KINDS or not answers:
                        continue
                    result = kit.read(qa["question"], LIMIT, record=False)
                    got = [turn_of[m["id"]] for m in result["memories"]]
                    rows.append({"q": qa["question"], "kind": KINDS[qa["category"]], "answers": answers,
                                 "got": got, "texts": [m["text"] for m in result["memories"]]})  # fmt: skip
            finally:
                kit.close()
    report(rows, args.misses)
    return 0


def figures(rows: list[dict[str, Any]]) -> str:
    n = max(len(rows), 1)
    hit7 = sum(1 for r in rows if r["answers"] & set(r["got"][:7])) / n
    recall = {
        k: sum(len(r["answers"] & set(r["got"][:k])) / len(r["answers"]) for r in rows) / n for k in (5, 10)
    }
    return f"{len(rows):5} {hit7:7.3f} {recall[5]:7.3f} {recall[10]:7.3f}"


def report(rows: list[dict[str, Any]], misses: int) -> None:
    print(f"{'kind':12} {'n':>5} {'hit@7':>7} {'R@5':>7} {'R@10':>7}")
    for kind in KINDS.values():
        print(f"{kind:12} {figures([r for r in rows if r['kind'] == kind])}")
    print(f"{'all':12} {figures(rows)}")
    for r in [r for r in rows if not r["answers"] & set(r["got"][:7])][:misses]:
        print(f"- {r['q']}  ->  {' | '.join(t[:50] for t in r['texts'][:3])}")


if __name__ == "__main__":
    sys.exit(main())
