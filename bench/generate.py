"""Generate benchmark vaults of N memories, and the questions and proposals the benchmark sends them.

Texts come from per-category templates whose slots are filled from vocabularies (foods, tools, places,
people, activities, times, ...; see `vocabulary.py`). Each vocabulary is sampled with Zipf-like weights,
so a few words are in many memories and most words are in few; synthetic project code names and optional
qualifiers add a long tail of rare words. Most quotes (and some texts) carry a clause of everyday nouns
and verbs (`COMMON_NOUNS`, `COMMON_VERBS`), so at 10k memories the common ones are each shared by
thousands of memories. Everything is seeded: the same N gives the same vault.

Two read workloads: `questions()` are short lookups about the vocabularies ("Is the user ok with
sushi?"); `conversational()` are what an assistant passes on from a chat: 6 to 15 words, one in ten
long (20 to 45 words), made of the everyday words that thousands of memories share.

A vault is written straight to disk with `personakit.core.memory.render_memory` (no service, no index),
committed once with the git CLI, repacked, and cached under `bench/out/vaults/` keyed by N and the
generator version. Its git index is plain (version 2, no split index), as every vault's is. Benchmarks
work on a copy (`fresh_copy`) and never touch the cache itself.

    python bench/generate.py 1000 10000 100000     # build (or reuse) the cached vaults
    python bench/generate.py 1000 --force           # rebuild one
"""

from __future__ import annotations

import argparse
import functools
import itertools
import os
import random
import shutil
import string
import subprocess
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import cast

from vocabulary import (
    ACTIVITIES,
    ASK_CLOSERS,
    ASK_CORES,
    ASK_JOINERS,
    ASK_OPENERS,
    CHANNELS,
    CLAUSES,
    CLOCK,
    COMMON_NOUNS,
    COMMON_VERBS,
    DRINKS,
    EXTRA,
    FEARS,
    FIRST_NAMES,
    FOODS,
    LANGUAGES,
    MEALS,
    MEETINGS,
    NONSENSE,
    PETS,
    PLACES,
    QUALIFIERS,
    QUESTION_TEMPLATES,
    RELATIONS,
    SPECIFIC_VOCABULARIES,
    STYLES,
    SUBJECTS,
    SYLLABLES,
    TASKS,
    TEMPLATES,
    THINGS,
    TIMES,
    TOOLS,
)

from personakit.core.memory import CATEGORIES, Category, Memory, State, render_memory
from personakit.core.naming import memory_id, slug

GENERATOR_VERSION = (
    3  # bump when the output changes, so cached vaults are rebuilt (3: everyday clauses, plain index)
)
BENCH_DIR = Path(__file__).resolve().parent
OUT = BENCH_DIR / "out"
VAULTS = OUT / "vaults"
GIT_IDENTITY = ["-c", "user.name=bench", "-c", "user.email=bench@example.invalid"]
STATE_WEIGHTS = {"approved": 50, "unconfirmed": 30, "restricted": 15, "rejected": 5}
HOSTS = ["claude-desktop", "cursor", "chatgpt-desktop", "zed", "vscode-copilot", "owner"]


def _zipf_sampler(items: Sequence[str], rng: random.Random, exponent: float = 1.05) -> Callable[[], str]:
    """A sampler over items (in a seeded shuffled order) with weight 1/rank**exponent."""
    order = list(items)
    random.Random(f"order-{len(order)}-{order[0]}").shuffle(order)
    weights = list(itertools.accumulate(1.0 / (rank + 1) ** exponent for rank in range(len(order))))
    return lambda: rng.choices(order, cum_weights=weights)[0]


@functools.cache
def _slots(template: str) -> tuple[str, ...]:
    """The slot names of template, each {name} before its {name2}."""
    names = [field for _, field, _, _ in string.Formatter().parse(template) if field]
    return tuple(sorted(dict.fromkeys(names), key=lambda name: name.endswith("2")))


class Vocabulary:
    """Zipf-weighted samplers for every template slot, sharing one seeded random source."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        lists: dict[str, Sequence[str]] = {
            "food": FOODS, "meal": MEALS, "drink": DRINKS, "tool": TOOLS, "lang": LANGUAGES, "task": TASKS,
            "place": PLACES, "person": FIRST_NAMES, "relation": RELATIONS, "pet": PETS,
            "activity": ACTIVITIES, "time": TIMES, "clock": CLOCK, "meeting": MEETINGS,
            "channel": CHANNELS, "style": STYLES, "subject": SUBJECTS, "thing": THINGS, "fear": FEARS,
            "nonsense": NONSENSE, "noun": COMMON_NOUNS, "verb": COMMON_VERBS, **EXTRA,
        }  # fmt: skip
        self.samplers = {name: _zipf_sampler(items, rng) for name, items in lists.items()}
        for name in ("noun", "verb"):  # steeper: a few dozen everyday words in thousands of memories
            self.samplers[name] = _zipf_sampler(lists[name], rng, exponent=1.2)

    def project(self) -> str:
        """A synthetic code name: thousands of possible rare words."""
        return "".join(self.rng.choice(SYLLABLES) for _ in range(self.rng.randint(2, 3))).capitalize()

    def fill(self, template: str, values: dict[str, str] | None = None) -> str:
        """template with each {slot} (and {slot2}, a different pick of the same slot) filled in.

        Slots already in values keep their value, and new picks are added to it, so a text and its quote
        can share what they talk about.
        """
        values = {} if values is None else values
        for slot in _slots(template):
            if slot in values:
                continue
            if slot == "project":
                values[slot] = self.project()
            elif slot.endswith("2"):
                first = values.get(slot[:-1]) or self.pick(slot[:-1])
                second = self.pick(slot[:-1])
                for _ in range(5):
                    if second != first:
                        break
                    second = self.pick(slot[:-1])
                values[slot] = second
            else:
                values[slot] = self.pick(slot)
        return template.format(**values)

    def pick(self, name: str) -> str:
        return self.samplers[name]()


@dataclass(frozen=True)
class Draft:
    text: str
    quote: str
    category: str


def drafts(seed: int) -> Iterator[Draft]:
    """An endless stream of distinct (by memory id) memory drafts."""
    rng = random.Random(seed)
    vocab = Vocabulary(rng)
    seen: set[str] = set()
    while True:
        category, text_t, quote_t = rng.choice(TEMPLATES)
        qualifier = rng.choice(QUALIFIERS)
        values: dict[str, str] = {}
        text = vocab.fill(text_t + qualifier, values)
        mid = memory_id(text)
        if mid in seen:
            continue
        seen.add(mid)
        quote = vocab.fill(quote_t, values) if rng.random() < 0.8 else vocab.fill(quote_t)
        for chance in (0.95, 0.4):  # everyday words: the common ones end up in thousands of memories
            if rng.random() < chance:
                quote += ", " + vocab.fill(rng.choice(CLAUSES))
        if rng.random() < 0.35:
            text += ", to " + vocab.fill("{verb} the {noun}")
        yield Draft(text[0].upper() + text[1:], quote[0].upper() + quote[1:], category)


def memories(n: int, seed: int = 1) -> Iterator[Memory]:
    """n memories with mixed states, hosts, evidence counts and creation times, unique file names."""
    rng = random.Random(seed * 7919)
    states, weights = list(STATE_WEIGHTS), list(STATE_WEIGHTS.values())
    start = datetime(2024, 1, 1, tzinfo=UTC)
    span = int(timedelta(days=700).total_seconds())
    vocab = Vocabulary(random.Random(seed * 104729))
    names: set[str] = set()
    for draft in itertools.islice(drafts(seed), n):
        mid = memory_id(draft.text)
        evidence = [draft.quote]
        if rng.random() < 0.2:  # a second quote, sometimes with an email address in it (masked on read)
            extra = vocab.fill(rng.choice(TEMPLATES)[2])
            if rng.random() < 0.15:
                extra += f", cc {vocab.pick('person').lower()}@example.com"
            evidence.append(extra)
        name = f"{slug(draft.text)}.md"
        if name in names:
            name = f"{slug(draft.text)}-{mid[2:8]}.md"
        names.add(name)
        created = start + timedelta(seconds=rng.randrange(span))
        yield Memory(
            id=mid, text=draft.text, category=cast(Category, draft.category if draft.category in CATEGORIES else "other"),
            state=cast(State, rng.choices(states, weights)[0]), evidence=tuple(evidence), proposed_by=rng.choice(HOSTS),
            created=created.strftime("%Y-%m-%dT%H:%M:%SZ"), name=name,
        )  # fmt: skip


def questions(k: int, seed: int = 2) -> list[str]:
    """k varied questions from the same vocabularies; about one in six matches nothing."""
    rng = random.Random(seed)
    vocab = Vocabulary(rng)
    return [vocab.fill(rng.choice(QUESTION_TEMPLATES)) for _ in range(k)]


def conversational(k: int, seed: int = 5) -> list[str]:
    """k questions as an assistant passes them on from a chat: 6 to 15 words, one in ten long (20 to 45
    words), mostly everyday nouns and verbs (shared by thousands of memories) around a specific word or
    two, with the grammar words a person types."""
    rng = random.Random(seed)
    vocab = Vocabulary(rng)
    out = []
    for _ in range(k):
        length = rng.randint(20, 45) if rng.random() < 0.1 else rng.randint(6, 15)
        parts = [rng.choice(ASK_OPENERS)]
        while len(" ".join(parts).split()) < length:
            if len(parts) > 1:
                parts.append(rng.choice(ASK_JOINERS))
            core = rng.choice(ASK_CORES)
            values = {"specific": vocab.pick(rng.choice(SPECIFIC_VOCABULARIES)),
                      "specific2": vocab.pick(rng.choice(SPECIFIC_VOCABULARIES))}  # fmt: skip
            parts.append(vocab.fill(core, values))
            if rng.random() < 0.3:
                parts.append(rng.choice(ASK_CLOSERS))
        question = " ".join(" ".join(parts).split()[:length])
        out.append(question.rstrip(",") + ("?" if rng.random() < 0.7 else ""))
    return out


def proposals(k: int, exclude: set[str], seed: int = 3) -> list[Draft]:
    """k drafts whose ids are not in exclude (the vault's ids): each one is a new memory."""
    out: list[Draft] = []
    taken = set(exclude)
    for draft in drafts(seed * 1_000_003):
        if memory_id(draft.text) not in taken:
            out.append(draft)
            taken.add(memory_id(draft.text))
        if len(out) == k:
            return out
    raise AssertionError("unreachable")


# -- the cached vaults ---------------------------------------------------------------------------------
def vault_dir(n: int) -> Path:
    return VAULTS / f"n{n}-g{GENERATOR_VERSION}"


def _git(root: Path, *args: str) -> None:
    subprocess.run(["git", *GIT_IDENTITY, *args], cwd=root, check=True, stdout=subprocess.DEVNULL)


def bench_gitconfig() -> Path:
    """A git config with an identity, used as GIT_CONFIG_GLOBAL so nothing reads the user's own."""
    path = OUT / "gitconfig"
    if not path.exists():
        OUT.mkdir(parents=True, exist_ok=True)
        path.write_text("[user]\n\tname = bench\n\temail = bench@example.invalid\n[gc]\n\tauto = 0\n")
    return path


def build_vault(
    n: int, root: Path, seed: int = 1, source: Iterable[Memory] | None = None
) -> dict[str, float]:
    """Write a vault of n memories at root (which must not exist): `memories(n, seed)`, or those of
    source (`zipf.py`'s). Returns seconds per phase."""
    from personakit.vault.service import init_vault  # imported late: only building needs the service

    os.environ["GIT_CONFIG_GLOBAL"] = str(bench_gitconfig())
    os.environ["GIT_CONFIG_NOSYSTEM"] = "1"
    times: dict[str, float] = {}
    t0 = time.perf_counter()
    init_vault(root)
    plain_index(root)
    memories_dir = root / "memories"
    ids = []
    for memory in memories(n, seed) if source is None else source:
        (memories_dir / memory.name).write_text(render_memory(memory), encoding="utf-8")
        ids.append(memory.id)
    (root.parent / f"{root.name}.ids").write_text("\n".join(ids) + "\n")
    times["write files"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    _git(root, "add", "-A")
    _git(root, "commit", "-q", "-m", f"bench: {n} generated memories")
    times["git add + commit"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    _git(root, "repack", "-a", "-d", "-q")
    times["git repack"] = time.perf_counter() - t0
    plain_index(root)
    return times


def plain_index(root: Path) -> None:
    """Make root's git index plain, as every vault's is: version 2, no split index (libgit2 and
    isomorphic-git cannot read the others). Checked, so a vault made otherwise is never measured."""
    for key in ("core.splitIndex", "index.version"):
        subprocess.run(["git", "config", "--unset-all", key], cwd=root, check=False)
    _git(root, "update-index", "--no-split-index", "--index-version", "2")
    for shared in (root / ".git").glob("sharedindex.*"):  # no longer linked: git would expire it later
        shared.unlink()
    header = (root / ".git" / "index").read_bytes()[:8]
    shared = list((root / ".git").glob("sharedindex.*"))
    if header != b"DIRC\0\0\0\2" or shared:
        raise RuntimeError(f"{root}: git's index is not plain version 2 ({header!r}, {len(shared)} shared)")


def cached_vault(n: int, force: bool = False, quiet: bool = False) -> Path:
    """The cached vault of n memories, built when missing (or when force)."""
    root = vault_dir(n)
    done = root.parent / f"{root.name}.done"
    if done.exists() and root.is_dir() and not force:
        return root
    shutil.rmtree(root, ignore_errors=True)
    done.unlink(missing_ok=True)
    root.parent.mkdir(parents=True, exist_ok=True)
    if not quiet:
        print(f"generating a vault of {n:,} memories at {root} ...", file=sys.stderr, flush=True)
    times = build_vault(n, root)
    done.write_text(repr(times) + "\n")
    if not quiet:
        shown = ", ".join(f"{k} {v:.1f} s" for k, v in times.items())
        print(f"  {n:,} memories: {shown}", file=sys.stderr, flush=True)
    return root


def vault_ids(n: int) -> set[str]:
    root = cached_vault(n)
    return set((root.parent / f"{root.name}.ids").read_text().split())


def fresh_copy(n: int, dest: Path) -> Path:
    """A fresh copy of the cached vault of n memories at dest (replaced if it exists)."""
    return copy_vault(cached_vault(n), dest)


def copy_vault(source: Path, dest: Path) -> Path:
    """A copy of a cached vault at dest, with git's stat cache as fresh as the original's."""
    if dest.exists():
        shutil.rmtree(dest)
    dest.parent.mkdir(parents=True, exist_ok=True)
    subprocess.run(["cp", "-a", str(source), str(dest)], check=True)
    # The copy's files have new inodes and ctimes; refresh git's stat cache now, as the original had it,
    # so the first `git status` a server runs does not re-hash every file (a cost no real vault pays).
    env = os.environ | {"GIT_CONFIG_GLOBAL": str(bench_gitconfig()), "GIT_CONFIG_NOSYSTEM": "1"}
    subprocess.run(["git", "update-index", "-q", "--refresh"], cwd=dest, env=env, check=False)
    return dest


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("sizes", nargs="*", type=int, default=[1000, 10000])
    parser.add_argument("--force", action="store_true", help="rebuild even when a cached vault exists")
    parser.add_argument("--sample", type=int, default=0, help="print this many memories and questions")
    args = parser.parse_args(argv)
    if args.sample:
        for memory in memories(args.sample):
            print(f"[{memory.state:11}] {memory.category:13} {memory.text}  <- {memory.evidence}")
        for question in questions(args.sample):
            print(f"Q: {question}")
        for question in conversational(args.sample):
            print(f"C: {question}")
        return 0
    for n in args.sizes:
        print(cached_vault(n, force=args.force))
    return 0


if __name__ == "__main__":
    sys.exit(main())
