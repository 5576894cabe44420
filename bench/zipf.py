"""A second vault shape, after the independent benchmark's: one Zipf vocabulary for memories and questions.

`generate.py` fills templates from many small vocabularies, so a question's words mostly meet few
memories and only a few everyday words meet thousands. The independent benchmark that measured reads at
5x the floor built its vault otherwise, and this module builds one like it:

- one vocabulary of 4,000 real English words (taken from the meaning table, so the related-words
  expansion of `core.meaning` reaches as far as it does for a person's words), sampled with weight
  1/rank: the few dozen commonest words are in thousands of memories at 10k;
- every memory has a text (6 to 16 words) and a quote (8 to 24 words) drawn from it;
- states mixed: 40% approved, 30% unconfirmed, 20% restricted, 10% rejected;
- questions of 6 to 15 words drawn from the same vocabulary, with a few grammar words between them.

Cached under `bench/out/vaults/` as `z{n}-g{version}`, built like the other vaults (`generate.build_vault`).

    python bench/zipf.py 10000            # build (or reuse) the cached vault
    python bench/zipf.py --sample 5       # what its memories and questions look like
"""

from __future__ import annotations

import argparse
import functools
import itertools
import random
import sys
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from importlib import resources
from pathlib import Path
from typing import cast

import generate

from personakit.core.memory import Category, Memory, State
from personakit.core.naming import memory_id, slug
from personakit.core.words import words

VERSION = 1
WORDS = 4000
STATES = {"approved": 40, "unconfirmed": 30, "restricted": 20, "rejected": 10}
CATEGORIES = ["preference", "fact", "goal", "relationship", "routine", "skill", "other"]
GRAMMAR = ["the", "a", "my", "about", "with", "and", "for", "what", "do", "you", "know", "is", "of"]


@functools.cache
def vocabulary() -> tuple[str, ...]:
    """WORDS real words, in a seeded order (rank 1 first): words of the meaning table that `words()` keeps
    as they are (no stop word, no stem that changes them)."""
    table = resources.files("personakit.core.meaning").joinpath("related.tsv").read_text(encoding="utf-8")
    keys = [line.split("\t", 1)[0] for line in table.splitlines()]
    kept = [k for k in keys if k.isalpha() and 3 <= len(k) <= 10 and words(k) == [k]]
    random.Random(7).shuffle(kept)
    return tuple(kept[:WORDS])


class Zipf:
    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.words = vocabulary()
        self.weights = list(itertools.accumulate(1.0 / rank for rank in range(1, len(self.words) + 1)))

    def some(self, low: int, high: int) -> list[str]:
        return self.rng.choices(self.words, cum_weights=self.weights, k=self.rng.randint(low, high))


def memories(n: int, seed: int = 11) -> Iterator[Memory]:
    """n memories, each with a text and a quote from the Zipf vocabulary, unique ids and file names."""
    zipf, rng = Zipf(seed), random.Random(seed * 31)
    states, weights = list(STATES), list(STATES.values())
    start, span = datetime(2024, 1, 1, tzinfo=UTC), int(timedelta(days=700).total_seconds())
    seen: set[str] = set()
    while len(seen) < n:
        text = " ".join(zipf.some(6, 16)).capitalize() + "."
        mid = memory_id(text)
        if mid in seen:
            continue
        seen.add(mid)
        quote = " ".join(zipf.some(8, 24)).capitalize()
        created = start + timedelta(seconds=rng.randrange(span))
        yield Memory(
            id=mid, text=text, category=cast(Category, rng.choice(CATEGORIES)),
            state=cast(State, rng.choices(states, weights)[0]), evidence=(quote,), proposed_by="bench",
            created=created.strftime("%Y-%m-%dT%H:%M:%SZ"), name=f"{slug(text)}-{mid[2:8]}.md",
        )  # fmt: skip


def questions(k: int, seed: int = 12) -> list[str]:
    """k questions of 6 to 15 words from the same vocabulary, some grammar words among them."""
    zipf = Zipf(seed)
    out = []
    for _ in range(k):
        picked = zipf.some(6, 15)
        for _ in range(zipf.rng.randint(0, 3)):
            picked.insert(zipf.rng.randrange(len(picked) + 1), zipf.rng.choice(GRAMMAR))
        out.append(" ".join(picked[:15]).capitalize() + "?")
    return out


def vault_dir(n: int) -> Path:
    return generate.VAULTS / f"z{n}-g{VERSION}"


def cached_vault(n: int) -> Path:
    root = vault_dir(n)
    done = root.parent / f"{root.name}.done"
    if done.exists() and root.is_dir():
        return root
    import shutil

    shutil.rmtree(root, ignore_errors=True)
    root.parent.mkdir(parents=True, exist_ok=True)
    print(f"generating a Zipf vault of {n:,} memories at {root} ...", file=sys.stderr, flush=True)
    done.write_text(repr(generate.build_vault(n, root, source=memories(n))) + "\n")
    return root


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("sizes", nargs="*", type=int, default=[10000])
    parser.add_argument("--sample", type=int, default=0)
    args = parser.parse_args()
    if args.sample:
        for memory in itertools.islice(memories(10000), args.sample):
            print(f"[{memory.state:11}] {memory.text}  <- {memory.evidence[0]}")
        for question in questions(args.sample):
            print(f"Q: {question}")
        return 0
    for n in args.sizes:
        print(cached_vault(n))
    return 0


if __name__ == "__main__":
    sys.exit(main())
