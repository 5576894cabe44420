"""A vault with years of history: N memories at the end of C commits, and a twin with a fresh history.

The history is what three years of use leave: memories proposed by assistants, evidence added to them,
the owner's decisions (approve, reject, restrict, unconfirm, categorize), edits and renames by hand, and
memories forgotten; every commit is in PersonaKit's own message convention and authored as PersonaKit
authors it. The read ledger holds three years of reads too: as much as it keeps (it rolls over at 5 MB,
so two files). It is written with `git fast-import` (CHUNK commits per run), then repacked once with
git's own delta search, as `git gc` leaves a repository (fast-import's packs are linear delta chains,
which no repository git packed has). Each commit rewrites the memories/ tree (750 KB at 10k memories), so
this takes a while (see README.md); the result is cached under `bench/out/vaults/` like the other vaults.

The twin has the same `memories/` and a fresh history: one commit and an empty read ledger, as a vault
that has just been made. `run.py` times the owner's commands and a cold start on both.

    python bench/longhistory.py 10000 100000    # build (or reuse) the cached pair
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import cast

import generate

from personakit.core.memory import CATEGORIES, STATES, Category, Memory, State, render_memory
from personakit.core.naming import slug

HISTORY_VERSION = 3  # bump when the output changes, so cached vaults are rebuilt
CHUNK = 1000  # commits per fast-import run (one long run slows down as it goes)
YEARS = 3
START = datetime(2023, 1, 1, tzinfo=UTC)
FORGOTTEN_SHARE = 0.12  # memories proposed and later forgotten, against the memories that stay
# Kinds of commit after a memory's proposal, with their weights (the rest of the commits are shared out).
KINDS = {"evidence": 40, "decide": 30, "edit": 14, "categorize": 2, "rename": 1}
VERBS = {"approved": "approve", "rejected": "reject", "restricted": "restrict", "unconfirmed": "unconfirm"}
OWNER = ("bench-owner", "owner@example.invalid")
LEDGER_BYTES = 4_900_000  # per ledger file: just under the 5 MB at which PersonaKit rolls it over
EDIT_WORDS = ["usually", "mostly", "lately", "again", "nowadays", "these days", "for now", "still"]


@dataclass
class Life:
    """A memory as its file says at one moment of its history."""

    memory: Memory
    base_text: str  # the text it has at the end
    forgotten: bool


def pair_dirs(n: int, commits: int) -> tuple[Path, Path]:
    stem = f"history-n{n}-c{commits}-h{HISTORY_VERSION}-g{generate.GENERATOR_VERSION}"
    return generate.VAULTS / stem, generate.VAULTS / f"{stem}-fresh"


def cached_pair(n: int, commits: int, quiet: bool = False) -> tuple[Path, Path]:
    """The cached long-history vault and its fresh-history twin, built when missing."""
    long, fresh = pair_dirs(n, commits)
    done = long.parent / f"{long.name}.done"
    if done.exists() and long.is_dir() and fresh.is_dir():
        return long, fresh
    for folder in (long, fresh):
        shutil.rmtree(folder, ignore_errors=True)
    long.parent.mkdir(parents=True, exist_ok=True)
    if not quiet:
        print(
            f"generating {n:,} memories with {commits:,} commits at {long} ...", file=sys.stderr, flush=True
        )
    times = build_pair(n, commits, long, fresh)
    done.write_text(repr(times) + "\n")
    if not quiet:
        shown = ", ".join(
            f"{k} {v:.1f} s" if k != "commits written" else f"{v:,.0f} {k}" for k, v in times.items()
        )
        print(f"  {n:,} memories, {commits:,} commits: {shown}", file=sys.stderr, flush=True)
    return long, fresh


def build_pair(n: int, commits: int, long: Path, fresh: Path, seed: int = 11) -> dict[str, float]:
    from personakit.vault.service import init_vault  # imported late: only building needs the service

    os.environ["GIT_CONFIG_GLOBAL"] = str(generate.bench_gitconfig())
    os.environ["GIT_CONFIG_NOSYSTEM"] = "1"
    times: dict[str, float] = {}
    t0 = time.perf_counter()
    init_vault(long)
    generate.plain_index(long)
    emitter = _Emitter(long)
    written = write_stream(emitter, n, commits, random.Random(seed))
    emitter.close()
    times["fast-import"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    # One full repack with git's own delta search, as `git gc` leaves a repository: fast-import's packs are
    # linear delta chains, which no repository git packed has.
    repack = ["git", "-c", "gc.auto=0", "repack", "-a", "-d", "-f", "-q", "--window=10", "--depth=50"]
    subprocess.run(repack, cwd=long, check=True)
    times["repack"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    subprocess.run(["git", "reset", "-q", "--hard", "main"], cwd=long, check=True)
    generate.plain_index(long)
    times["checkout"] = time.perf_counter() - t0
    write_ledger(long, random.Random(seed + 1))
    t0 = time.perf_counter()
    init_vault(fresh)
    generate.plain_index(fresh)
    shutil.rmtree(fresh / "memories")
    shutil.copytree(long / "memories", fresh / "memories")
    for args in (["add", "-A"], ["commit", "-q", "-m", "the same memories, with a fresh history"]):
        subprocess.run(
            ["git", *generate.GIT_IDENTITY, *args], cwd=fresh, check=True, stdout=subprocess.DEVNULL
        )
    generate.plain_index(fresh)
    times["fresh twin"] = time.perf_counter() - t0
    times["commits written"] = written
    return times


# -- the history -----------------------------------------------------------------------------------------
def lives(n: int, rng: random.Random) -> list[Life]:
    """The memories that stay (n) and the ones forgotten along the way, as first proposed."""
    extra = int(n * FORGOTTEN_SHARE)
    out = []
    for i, memory in enumerate(generate.memories(n + extra, seed=5)):
        proposed = replace(memory, state="unconfirmed", evidence=memory.evidence[:1])
        out.append(Life(proposed, memory.text, forgotten=i >= n))
    return out


def write_stream(emit: _Emitter, n: int, commits: int, rng: random.Random) -> int:
    """A fast-import stream of about `commits` commits ending with n memories. Returns the commits written."""
    memories = lives(n, rng)
    span = YEARS * 365 * 24 * 3600
    # Each memory is proposed at a moment of the span; its later commits come after that moment.
    born = sorted(rng.randrange(span - 3600) for _ in memories)
    rng.shuffle(memories)
    after = commits - len(memories) - sum(life.forgotten for life in memories)
    kinds, weights = list(KINDS), list(KINDS.values())
    events: list[tuple[int, int, str]] = []  # (second, memory index, kind)
    ends = []  # the second each memory's file is deleted (the end of the span for those that stay)
    for index, (second, life) in enumerate(zip(born, memories, strict=True)):
        events.append((second, index, "propose"))
        ends.append(rng.randrange(second + 2, span) if life.forgotten else span)
        if life.forgotten:
            events.append((ends[index], index, "forget"))
    for _ in range(max(after, 0)):
        index = rng.randrange(len(memories))
        events.append((rng.randrange(born[index] + 1, ends[index]), index, rng.choices(kinds, weights)[0]))
    events.sort()
    final_state = {i: cast(State, rng.choices(list(generate.STATE_WEIGHTS), list(generate.STATE_WEIGHTS.values()))[0])
                   for i in range(len(memories))}  # fmt: skip
    last_event = {index: position for position, (_, index, _) in enumerate(events)}
    vocab = generate.Vocabulary(rng)
    for position, (second, index, kind) in enumerate(events):
        life = memories[index]
        when = int((START + timedelta(seconds=second)).timestamp())
        memory = life.memory
        if kind == "propose":
            emit.commit(
                when, _assistant(memory), f"propose {memory.id}: {memory.text}", [(memory.name, memory)]
            )
            continue
        if kind == "forget":
            emit.commit(when, OWNER, f"forget {memory.id}: {memory.text}", [(memory.name, None)])
            continue
        if kind == "evidence":
            quote = vocab.fill(rng.choice(generate.TEMPLATES)[2])
            life.memory = replace(memory, evidence=(*memory.evidence, quote[0].upper() + quote[1:]))
            emit.commit(when, _assistant(memory), f"evidence for {memory.id}: {memory.text}",
                        [(memory.name, life.memory)])  # fmt: skip
        elif kind == "decide":
            final = last_event[index] == position or rng.random() < 0.5
            state = final_state[index] if final else cast(State, rng.choice(STATES))
            if state == memory.state:
                state = "approved" if memory.state != "approved" else "unconfirmed"
            life.memory = replace(memory, state=state)
            emit.commit(
                when, OWNER, f"{VERBS[state]} {memory.id}: {memory.text}", [(memory.name, life.memory)]
            )
        elif kind == "edit":
            text = life.base_text
            if not memory.text.endswith(tuple(EDIT_WORDS)):
                text = f"{life.base_text}, {rng.choice(EDIT_WORDS)}"
            life.memory = replace(memory, text=text)
            emit.commit(when, OWNER, f"edit {memory.id}: {text} (by hand)", [(memory.name, life.memory)])
        elif kind == "categorize":
            category = cast(Category, rng.choice([c for c in CATEGORIES if c != memory.category]))
            life.memory = replace(memory, category=category)
            emit.commit(when, OWNER, f"categorize {memory.id}: {memory.text} (as {category})",
                        [(memory.name, life.memory)])  # fmt: skip
        elif kind == "rename":
            name = f"{slug(memory.text)}-{memory.id[2:8]}-{rng.randrange(10**6)}.md"
            life.memory = replace(memory, name=name)
            emit.commit(when, OWNER, f"rename {memory.id}: {memory.text} (by hand, was {memory.name})",
                        [(memory.name, None), (name, life.memory)])  # fmt: skip
    return emit.count


def _assistant(memory: Memory) -> tuple[str, str]:
    return f"{memory.proposed_by} (assistant)", "assistant@personakit.invalid"


class _Emitter:
    """Feeds commits to `git fast-import`, CHUNK at a time (each run one pack)."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.count = 0
        self._process: subprocess.Popen[bytes] | None = None

    def _write(self, data: bytes) -> None:
        if self._process is None:
            self._process = subprocess.Popen(
                ["git", "fast-import", "--quiet"], cwd=self.root, stdin=subprocess.PIPE
            )
            self._first = True
        assert self._process.stdin is not None
        self._process.stdin.write(data)

    def close(self) -> None:
        """End the current chunk: git writes its pack and moves main."""
        if self._process is not None:
            assert self._process.stdin is not None
            self._process.stdin.close()
            if self._process.wait() != 0:
                raise RuntimeError(f"git fast-import failed in {self.root}")
            self._process = None

    def first_commit(self) -> None:
        self._first = True

    def commit(
        self, when: int, who: tuple[str, str], message: str, files: list[tuple[str, Memory | None]]
    ) -> None:
        body = message.encode()
        head = (
            f"commit refs/heads/main\nauthor {who[0]} <{who[1]}> {when} +0000\n"
            f"committer {OWNER[0]} <{OWNER[1]}> {when} +0000\ndata {len(body)}\n"
        ).encode()
        self._write(head + body + b"\n")
        if self._first:
            self._write(b"from refs/heads/main^0\n")
            self._first = False
        for name, memory in files:
            path = f"memories/{name}".encode()
            if memory is None:
                self._write(b"D " + path + b"\n")
            else:
                content = render_memory(memory).encode()
                self._write(
                    b"M 100644 inline " + path + f"\ndata {len(content)}\n".encode() + content + b"\n"
                )
        self._write(b"\n")
        self.count += 1
        if self.count % CHUNK == 0:
            self.close()


# -- the read ledger -------------------------------------------------------------------------------------
def write_ledger(vault: Path, rng: random.Random) -> None:
    """Two full ledger files of reads spread over the years, oldest first, as PersonaKit writes them."""
    ids = [line.split(": ", 1)[1] for line in _ids(vault)]
    questions = generate.questions(500, seed=9) + generate.conversational(500, seed=9)
    state = vault / ".personakit"
    state.mkdir(exist_ok=True)
    moment = START
    for name in ("reads.1.jsonl", "reads.jsonl"):
        lines, size = [], 0
        while size < LEDGER_BYTES:
            moment += timedelta(seconds=rng.randrange(60, 3600))
            entry = {"at": moment.strftime("%Y-%m-%dT%H:%M:%SZ"), "host": rng.choice(generate.HOSTS[:5]),
                     "question": rng.choice(questions), "ids": rng.sample(ids, rng.randint(0, 7)),
                     "withheld": rng.choice([0, 0, 0, 1, 2])}  # fmt: skip
            line = json.dumps(entry, ensure_ascii=False) + "\n"
            lines.append(line)
            size += len(line)
        (state / name).write_text("".join(lines), encoding="utf-8")


def _ids(vault: Path) -> list[str]:
    return [
        line
        for path in (vault / "memories").glob("*.md")
        for line in path.read_text(encoding="utf-8").splitlines()[1:2]
        if line.startswith("id: ")
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("memories", type=int, nargs="?", default=10_000)
    parser.add_argument("commits", type=int, nargs="?", default=100_000)
    args = parser.parse_args(argv)
    for path in cached_pair(args.memories, args.commits):
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
