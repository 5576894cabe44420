"""What each ranking rule buys: the labelled set ranked in process, with the rules switched on one by one.

Uses PersonaKit's real index (`store.index.MemoryIndex`, in RAM) and the read's real order
(`MemoryIndex.search` and `core.reading.order_key`, as `service.read` does), with
variants of `core.words.words()` and of the tie-break swapped in. No server, no git: about 1 s a row.
The last cumulative row is the shipped rules; `run.py` measures those through the real server.

    python bench/quality/ablation.py             # tune split (choose rules on tune only)
    python bench/quality/ablation.py --split heldout
"""

from __future__ import annotations

import argparse
import math
import re
import unicodedata
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from evaluate import SPLITS, Memory, Question, load_set, metrics, print_table

from personakit.core import words as rules
from personakit.core.memory import Memory as VaultMemory
from personakit.core.reading import Match, order_key
from personakit.store import index as store
from personakit.store.files import FileStat

Words = Callable[[str], list[str]]
Rarity = Callable[[int, int], float]


def _stem_without_spellings(word: str) -> str:
    word = rules._IRREGULAR.get(word, word)
    if len(word) <= 3 or not word.isascii() or not word.isalpha():
        return word
    return rules._suffixes(word)


def make_words(
    stop: bool = True, stem: bool = True, fold: bool = True, same: bool = True, spellings: bool = True
) -> Words:
    """core.words.words() with some of its steps switched off (all on: the same function, checked below)."""
    stemmer = rules.stem if spellings else _stem_without_spellings

    def counted(token: str) -> str:
        if len(token) == 1 and not token.isdigit():
            return ""
        if fold:
            token = rules.fold(token)
        if stop and (token in rules.STOP_WORDS or rules._IRREGULAR.get(token) in rules.STOP_WORDS):
            return ""
        word = stemmer(token) if stem else token
        return rules._SAME.get(word, word) if same else word

    def words(text: str) -> list[str]:
        text = rules._CONTRACTION.sub(" ", unicodedata.normalize("NFKC", text).casefold())
        seen: dict[str, None] = {}
        for token in rules._WORD.findall(text):
            word = counted(token)
            if word:
                seen[word] = None
        return list(seen)

    return words


def no_rarity(having: int, documents: int) -> float:
    """No tie-break fraction: ties among equal counts go straight to approved-first, then newest."""
    return 0.0


@contextmanager
def patched(words: Words, rarity: Rarity, text_weight: int, quote_share: float) -> Iterator[None]:
    """Swap the index's words(), rarity and tie-break constants for the duration."""
    values = {"words": words, "rarity": rarity, "TEXT_WEIGHT": text_weight, "QUOTE_SHARE": quote_share}
    saved = {name: getattr(store, name) for name in values}
    for name, value in values.items():
        setattr(store, name, value)
    try:
        yield
    finally:
        for name, value in saved.items():
            setattr(store, name, value)


def rank(
    memories: Sequence[Memory],
    questions: Sequence[Question],
    words: Words = rules.words,
    quotes: bool = True,
    rarity: Rarity = store.rarity,
    text_weight: int = store.TEXT_WEIGHT,
    quote_share: float = store.QUOTE_SHARE,
) -> dict[str, Any]:
    """metrics() of one variant: R@k from reads of limit 7, MRR from reads of limit 20, as run.py does."""
    with patched(words, rarity, text_weight, quote_share):
        index = store.MemoryIndex(None)
        index.open()
        index.update(
            (
                VaultMemory(
                    id=m["key"], text=m["text"], category=m["category"], state="unconfirmed",  # type: ignore[arg-type]
                    evidence=(m["quote"],) if quotes else (), created=f"2026-01-01T00:00:00.{i:06d}Z",
                    name=f"{m['key']}.md",
                ),
                FileStat(0, 0),
            )
            for i, m in enumerate(memories)
        )  # fmt: skip
        ranked: dict[int, dict[str, list[str]]] = {7: {}, 20: {}}
        for q in questions:
            for limit in ranked:
                found = index.search(words(q["question"]), limit)
                matches = sorted((Match(h.memory, h.shared, h.fine) for h in found), key=order_key)
                ranked[limit][q["qid"]] = [m.memory.id for m in matches]
        index.close()
    at7, at20 = metrics(ranked[7], questions), metrics(ranked[20], questions)
    for split in at7:
        at7[split]["mrr"] = at20[split]["mrr"]
    return at7


# British spellings and words an American-writing assistant would use instead; only for the check below.
AMERICAN = {
    "colour": "color", "favourite": "favorite", "neighbour": "neighbor", "flavour": "flavor",
    "behaviour": "behavior", "humour": "humor", "harbour": "harbor", "theatre": "theater", "centre": "center",
    "metre": "meter", "litre": "liter", "programme": "program", "catalogue": "catalog", "travelling": "traveling",
    "travelled": "traveled", "cancelled": "canceled", "modelling": "modeling", "organise": "organize",
    "realise": "realize", "recognise": "recognize", "apologise": "apologize", "analyse": "analyze",
    "practise": "practice", "licence": "license", "defence": "defense", "grey": "gray", "jewellery": "jewelry",
    "mum": "mom", "holiday": "vacation", "film": "movie", "biscuit": "cookie", "nappy": "diaper",
}  # fmt: skip
_BRITISH = re.compile(r"\b(" + "|".join(AMERICAN) + r")(s?)\b", re.IGNORECASE)


def americanized(question: str) -> str:
    """The question as an assistant might type it: American spelling and words, no accents."""
    question = _BRITISH.sub(lambda m: AMERICAN[m.group(1).lower()] + m.group(2), question)
    return "".join(c for c in unicodedata.normalize("NFKD", question) if not unicodedata.combining(c))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("--split", choices=(*SPLITS, "all"), default="tune")
    args = parser.parse_args(argv)
    memories, questions = load_set()
    full = make_words()
    texts = (
        [m["text"] for m in memories] + [m["quote"] for m in memories] + [q["question"] for q in questions]
    )
    assert all(full(t) == rules.words(t) for t in texts), "make_words() no longer matches core.words.words()"

    plain = make_words(stop=False, stem=False, fold=False, same=False)
    stops = make_words(stem=False, fold=False, same=False)
    stems = make_words(fold=False, same=False)
    folds = make_words(same=False)
    cumulative = [
        ("words: tokens only, text only, no tie-break", rank(memories, questions, plain, False, no_rarity)),
        ("+ stop words", rank(memories, questions, stops, False, no_rarity)),
        ("+ stemming and spellings", rank(memories, questions, stems, False, no_rarity)),
        ("+ quotes are memory words", rank(memories, questions, stems, True, no_rarity)),
        ("+ tie-break: rarity, text 1, quote 0.75", rank(memories, questions, stems)),
        ("+ accents ignored", rank(memories, questions, folds)),
        ("+ same-meaning table (= shipped)", rank(memories, questions, full)),
    ]
    without = [
        ("shipped", cumulative[-1][1]),
        ("- stop words", rank(memories, questions, make_words(stop=False))),
        ("- stemming and spellings", rank(memories, questions, make_words(stem=False))),
        ("- quotes", rank(memories, questions, full, quotes=False)),
        ("- same-meaning table", cumulative[-2][1]),
        ("tie-break: none (newest first)", rank(memories, questions, full, rarity=no_rarity)),
        ("tie-break: rarity, quote = text", rank(memories, questions, full, quote_share=1.0)),
        ("tie-break: rarity, quote 0.5", rank(memories, questions, full, quote_share=0.5)),
    ]
    typed = [Question(**{**q, "question": americanized(q["question"])}) for q in questions]  # type: ignore[typeddict-item]
    changed = sum(
        a["question"] != b["question"]
        for a, b in zip(questions, typed, strict=True)
        if a["split"] == args.split
    )
    american = [
        ("shipped", rank(memories, typed, full)),
        ("- accents ignored", rank(memories, typed, make_words(fold=False))),
        ("- spellings", rank(memories, typed, make_words(spellings=False))),
        ("- same-meaning table", rank(memories, typed, make_words(same=False))),
        ("- all three", rank(memories, typed, make_words(fold=False, spellings=False, same=False))),
    ]
    columns = ("recall@1", "recall@3", "recall@5", "recall@7", "mrr")
    for title, rows in (
        ("Adding the rules one by one", cumulative),
        ("The shipped rules, less one", without),
        (
            f"Questions typed in American English without accents ({changed} of the split's questions change)",
            american,
        ),
    ):
        print(title)
        print_table(rows, splits=(args.split,), columns=columns)
        print()
    unanswered = cumulative[-1][1][args.split]["by_kind"].get("unanswerable", {}).get("unanswerable_returned")
    if unanswered is not None and not math.isnan(unanswered):
        print(
            f"unanswerable questions, shipped rules: {unanswered:.1f} memories returned on average (limit 7)"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
