"""The PersonaKit object: read, propose, decide, sync. Both front doors (MCP server and CLI) call it.

A read walks one way: index (candidates by word) -> files (each candidate's current state on disk)
-> reading (order, fill, withheld) -> masking. A proposal: proposal checks -> files (atomic write under
the vault lock) -> history (one commit) -> index. Changes made by anyone else (an editor, Obsidian,
another process) come in through `sync`, called by the watcher and at start: files are the truth, the
index follows them, and a hand edit becomes the owner's commit.
"""

from __future__ import annotations

import json
import logging
import os
import re
import threading
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import AbstractContextManager, nullcontext
from datetime import UTC, datetime
from functools import partial
from pathlib import Path
from typing import Any, NotRequired, TypeVar

from typing_extensions import TypedDict  # pydantic needs it for schemas on Python < 3.12

from personakit.core.credentials import looks_like_credential
from personakit.core.memory import (
    CATEGORIES,
    STATES,
    VISIBLE_STATES,
    Category,
    InvalidMemory,
    Memory,
    State,
    add_evidence,
    memory_id,
    normalize,
    parse_memory,
    render_memory,
    set_category,
    set_state,
    slug,
)
from personakit.core.proposal import Reason, check_proposal
from personakit.core.reading import Match, ReadResult, clamp_limit, compose
from personakit.core.words import words
from personakit.errors import PersonaKitError, ReadOnlyVault, UnknownMemory
from personakit.store.files import FileStat, VaultFiles, resolve_vault
from personakit.store.history import History
from personakit.store.index import ALL_WORDS_FIELDS, Hit, MemoryIndex
from personakit.store.watcher import Watcher

log = logging.getLogger("personakit")
T = TypeVar("T")

MAX_QUESTION = 2_000  # characters; a longer question is refused with a sentence
LEDGER_MOST_BYTES = 5_000_000  # the read ledger rolls over to reads.1.jsonl past this
SYNC_BATCH = 10_000  # memories indexed per Whoosh commit when a sync takes in many (a first index)
ASSISTANT_EMAIL = "assistant@personakit.invalid"


class ProposeResult(TypedDict):
    stored: bool
    id: NotRequired[str]
    new: NotRequired[bool]
    state: NotRequired[State]
    reason: NotRequired[Reason]


def now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def host_name(name: object) -> str:
    """The host's name from its client info, safe to write into front matter and a commit author."""
    text = re.sub(r"[^\w .@()+-]", "", str(name or ""))[:64].strip()
    return text or "unknown-assistant"


def init_vault(root: Path) -> str | None:
    """Make root a new vault from the template. Returns a sentence for the owner, if there is one to say."""
    files = VaultFiles(root)
    if files.is_vault():
        return None
    files.copy_template()
    return History(root).init()


class PersonaKit:
    def __init__(self, vault: str | os.PathLike[str] | None = None, *, create: bool = True) -> None:
        self.root = resolve_vault(vault)
        self.files = VaultFiles(self.root)
        if not self.files.is_vault():
            if not create:
                raise PersonaKitError(
                    f"{self.root} is not a PersonaKit vault; make one with: personakit init"
                )
            said = init_vault(self.root)
            log.info("created a new vault at %s", self.root)
            if said:
                log.warning("%s", said)
        self.history = History(self.root)
        self._git = ThreadPoolExecutor(max_workers=1, thread_name_prefix="personakit-git")
        self.writable = self.files.writable()
        # On a vault that cannot be written (a read-only mount), the index is built in memory.
        self.index = MemoryIndex(self.files.state / "index" if self.writable else None)
        if not self.writable:
            log.warning("%s cannot be written: serving reads only; proposals will be refused", self.root)
        self.broken: dict[str, tuple[FileStat, InvalidMemory | OSError | UnicodeError]] = {}
        self._watcher: Watcher | None = None
        self._synced = threading.Event()

    # -- lifecycle ------------------------------------------------------------------------------------
    def start(self, watch: bool = False, background: bool = False) -> None:
        """Open the index and bring it level with the files; with watch, keep it so."""
        if self.writable:
            self.files.ensure_state_dir()
        with self._mutating():  # several servers may start at once on a vault with no index yet
            if self.writable:
                self.files.clear_tmp()  # a killed writer's leftovers: no write runs while we hold the lock
            fresh = self.index.open()
        if watch:
            self._watcher = Watcher(self.files.memories, self.sync)
            self._watcher.start()
        if background and not fresh:
            # Reads check each candidate against the disk, so they may run while a known index catches up.
            self._synced.set()
            threading.Thread(target=self._sync_all_logged, name="personakit-sync", daemon=True).start()
        else:
            self._sync_all_logged()

    def close(self, wait: float = 30.0) -> None:
        if self._watcher is not None:
            self._watcher.stop()
            self._watcher = None
        in_flight = self.files.lock(timeout=wait) if self.writable else nullcontext()
        with in_flight:  # a write in flight ends whole before the index closes
            self.index.close()
        self._git.shutdown()

    def _sync_all_logged(self) -> None:
        try:
            self._sync_logged(None, commit=True)
        finally:
            self._synced.set()

    def _sync_logged(self, names: list[str] | None, commit: bool) -> None:
        try:
            self.sync(names, commit)
        except Exception:
            log.exception("could not bring the index level with the files")

    # -- taking in changes ----------------------------------------------------------------------------
    def sync(self, names: Iterable[str] | None = None, commit: bool = True) -> None:
        """Take in changes to the named files (None: every file): index them and (with commit) commit
        hand edits."""
        with self._mutating():
            if names is None:
                on_disk = self.files.list()
                indexed = self._indexed(self.index.stats)
                wanted = set(on_disk) | set(indexed)
            else:  # a watcher's batch: look at those files only, however large the vault
                wanted = {n for n in names if _plain_name(n)}
                on_disk = {n: s for n in wanted if (s := self.files.stat(n)) is not None}
                indexed = self._indexed(lambda: self.index.stats(wanted))
            upserts, deletes, touched = [], [], set()
            for name in sorted(wanted):
                stat = on_disk.get(name)
                if indexed.get(name) == stat and (stat is not None or name not in self.broken):
                    continue  # level already: another process (or an earlier batch) took it in
                touched.add(name)
                memory = None if stat is None else self._load(name, stat)
                if stat is None:
                    self.broken.pop(name, None)
                elif memory is not None:
                    upserts.append((memory, stat))
                    if len(upserts) >= SYNC_BATCH:  # a first index: bound what is held at once
                        self._indexed(partial(self.index.update, upserts))
                        upserts = []
                if memory is None and name in indexed:
                    deletes.append(name)
            if upserts or deletes:
                self._indexed(lambda: self.index.update(upserts, deletes))
            if self.writable and commit:
                # A full sync also commits changes another process wrote but could not commit (a kill).
                self._commit_hand_edits(None if names is None else touched)

    def _mutating(self) -> AbstractContextManager[None]:
        """The vault lock, or nothing on a vault that cannot be written (nothing there can change)."""
        return self.files.lock() if self.writable else nullcontext()

    def _indexed(self, work: Callable[[], T]) -> T:
        """Run an index operation; if the index is damaged (deleted, truncated), repair it and run it again.

        Under the vault lock, the index is reopened first: another process may have repaired it already.
        Only when it still fails is it thrown away and rebuilt from the files."""
        try:
            return work()
        except Exception as error:
            log.warning("the index failed (%s: %s); repairing it from the files", type(error).__name__, error)
        with self._mutating():
            if not self.index.open():
                try:
                    return work()
                except Exception:
                    self.index.open_fresh()
            self.sync(None)
        return work()

    def _load(self, name: str, stat: FileStat) -> Memory | None:
        try:
            memory = parse_memory(self.files.read(name), name)
        except (InvalidMemory, OSError, UnicodeError) as error:
            if self.broken.get(name, (None,))[0] != stat:
                line = error.line if isinstance(error, InvalidMemory) else None
                where = f"memories/{name}" + (f":{line}" if line else "")
                log.warning("skipped %s: %s", where, _reason(error))
            self.broken[name] = (stat, error)
            return None
        self.broken.pop(name, None)
        for problem in memory.problems:
            log.info("memories/%s: %s", name, problem)
        return memory

    def _commit_hand_edits(self, names: set[str] | None) -> None:
        """Commit what someone else changed in memories/ as the owner's edit: one commit per memory."""
        if names is not None and not names:
            return
        gone: dict[str, Memory | None] = {}  # path -> the memory HEAD had there
        edited: dict[str, Memory] = {}
        # Ask git about the touched files only: a status of the whole folder costs 0.5 s at 100k memories.
        asked = ["memories"] if names is None else [f"memories/{n}" for n in sorted(names)]
        for path in sorted(self.history.changed(*asked)):
            name = path.removeprefix("memories/")
            if (names is not None and name not in names) or not _plain_name(name):
                continue
            if name in self.broken:
                continue  # an unreadable file is reported, never committed
            if self.files.stat(name) is None:
                if not os.path.islink(self.files.memories / name):  # a link is never followed nor committed
                    gone[path] = self._committed_memory(path)
                continue
            memory = parse_memory(self.files.read(name), name)
            if looks_like_credential(memory.text) or any(looks_like_credential(q) for q in memory.evidence):
                log.warning(
                    "memories/%s holds something shaped like a password or key: not committed to git; "
                    "remove it from the file (personakit doctor lists it)",
                    name,
                )
                continue
            edited[path] = memory
        for path, memory in edited.items():
            renamed_from = next(
                (p for p, old in gone.items() if old is not None and old.id == memory.id), None
            )
            if renamed_from is not None:  # a file renamed by hand: one commit, not a forget and an add
                del gone[renamed_from]
                label = f"rename {memory.id}: {memory.text} (by hand, was {renamed_from.removeprefix('memories/')})"
                self.history.commit([renamed_from, path], label)
            else:
                self.history.commit([path], f"edit {memory.id}: {memory.text} (by hand)")
        for path, old in gone.items():
            label = f"{old.id}: {old.text}" if old else path.removeprefix("memories/")
            self.history.commit([path], f"forget {label} (file deleted by hand)")

    def _committed_memory(self, path: str) -> Memory | None:
        try:
            return parse_memory(self.history.show(f"HEAD:{path}"))
        except Exception:
            return None

    # -- the two tools --------------------------------------------------------------------------------
    def read(self, question: str, limit: int = 7, host: str = "owner", record: bool = True) -> ReadResult:
        if len(question) > MAX_QUESTION:
            raise PersonaKitError(
                f"the question is {len(question):,} characters long; ask in at most {MAX_QUESTION:,}"
            )
        self._synced.wait(timeout=600)
        limit = clamp_limit(limit)
        terms = words(question)
        indexed_withheld = self._indexed(lambda: self.index.count_restricted(terms))
        wanted = limit
        while True:  # a few more candidates when files changed state on disk since they were indexed
            hits = self._indexed(partial(self.index.search, terms, wanted))
            matches: list[Match] = []
            withheld = indexed_withheld
            for hit in hits:
                memory = self._current(hit)
                if memory is None:
                    continue
                if memory.state in VISIBLE_STATES:
                    matches.append(Match(memory, hit.shared, hit.fine))
                elif memory.state == "restricted":
                    withheld += 1  # restricted on disk since it was indexed
            if len(matches) >= limit or len(hits) < wanted:
                break
            wanted += limit + 10
        approved: list[Memory] = []
        if len(matches) < 3:
            for hit in self._indexed(lambda: self.index.newest("approved", 3 + len(matches))):
                memory = self._current(hit)
                if memory is not None and memory.state == "approved":
                    approved.append(memory)
        result = compose(_unique(matches), approved, withheld, limit)
        if record:  # the owner's own `personakit search` is not an assistant's read: kept out of the ledger
            self._ledger(host, question, [m["id"] for m in result["memories"]], result["withheld"])
        return result

    def _current(self, hit: Hit) -> Memory | None:
        """The hit's memory as the file on disk says now: the owner's latest decision always applies."""
        stat = self.files.stat(hit.memory.name)
        if stat == hit.stat:
            return hit.memory
        if stat is None:
            return None
        try:
            return parse_memory(self.files.read(hit.memory.name), hit.memory.name)
        except (InvalidMemory, OSError, UnicodeError):
            return None

    def propose(self, text: str, quote: str, category: str, host: str = "unknown-assistant") -> ProposeResult:
        checked = check_proposal(text, quote, category)
        if isinstance(checked, str):
            return {"stored": False, "reason": checked}
        if not self.writable:
            raise ReadOnlyVault(f"the vault at {self.root} cannot be written (read-only); nothing was stored")
        mid = memory_id(checked.text)
        author = (f"{host} (assistant)", ASSISTANT_EMAIL)
        try:
            with self.files.lock():
                found = self._find(mid, checked.text)
                if found is not None:
                    memory, raw = found
                    if normalize(checked.quote) not in {normalize(q) for q in memory.evidence}:
                        self._rewrite(
                            memory,
                            raw,
                            add_evidence(raw, checked.quote),
                            f"evidence for {mid}: {memory.text}",
                            author,
                        )
                    return {"stored": True, "id": mid, "new": False, "state": memory.state}
                memory = Memory(
                    id=mid, text=checked.text, category=checked.category, state="unconfirmed",
                    evidence=(checked.quote,), proposed_by=host, created=now(),
                    name=self.files.free_name(slug(checked.text), mid[2:8]),
                )  # fmt: skip
                self._rewrite(memory, None, render_memory(memory), f"propose {mid}: {memory.text}", author)
        except OSError as error:
            raise ReadOnlyVault(
                f"the vault could not be written ({error.strerror or error}); nothing was stored"
            ) from None
        return {"stored": True, "id": mid, "new": True, "state": "unconfirmed"}

    def _find(self, mid: str, text: str) -> tuple[Memory, str] | None:
        """The memory with this id on disk now, with its file's text (the index may lag a hand edit)."""
        names = [h.memory.name for h in self._indexed(lambda: self.index.by_id(mid))]
        names += [f"{slug(text)}.md", f"{slug(text)}-{mid[2:8]}.md"]
        for name in dict.fromkeys(names):
            if self.files.stat(name) is None:
                continue
            try:
                raw = self.files.read(name)
                memory = parse_memory(raw, name)
            except (InvalidMemory, OSError, UnicodeError):
                continue
            if memory.id == mid:
                return memory, raw
        return None

    def _rewrite(
        self, memory: Memory, old: str | None, new: str, message: str, author: tuple[str, str] | None = None
    ) -> None:
        """Write a memory file, commit it and index it, all or nothing (the caller holds the lock).

        Git commits on a worker thread while this one indexes: the two are independent and each is about
        half of a proposal's time, and git's own processes need no Python thread to run."""
        path = f"memories/{memory.name}"
        parsed = parse_memory(new, memory.name)
        stat = self.files.write(memory.name, new)
        committed = self._git.submit(self.history.commit, [path], message, author)
        update = partial(self.index.update, [(parsed, stat)])
        try:
            update()
            indexed = True
        except Exception:  # repaired below, once git is done: the repair commits hand edits, and would
            indexed = False  # take this file for one while git is still committing it
        try:
            committed.result()
        except BaseException:
            if old is None:
                self.files.remove(memory.name)
            else:
                self.files.write(memory.name, old)
            self.history.unstage([path])
            self._sync_logged([memory.name], commit=False)  # the file's restored state, back into the index
            raise
        if not indexed:
            try:
                self._indexed(update)
            except Exception:  # stored and committed: the next sync indexes it
                log.exception(
                    "memories/%s is stored and committed, but could not be indexed yet", memory.name
                )

    # -- the owner's decisions ------------------------------------------------------------------------
    def resolve(self, ref: str) -> Memory:
        """The memory an id, a unique id prefix or a file name names."""
        ref = ref.strip()
        self._synced.wait(timeout=600)
        if ref.endswith(".md") and self.files.stat(ref):
            return parse_memory(self.files.read(ref), ref)
        wanted = ref if ref.startswith("m_") else "m_" + ref
        found = {h.memory.id: h for h in self._indexed(lambda: self.index.by_id_prefix(wanted))}
        if not found:
            raise UnknownMemory(
                f"no memory has an id starting with {ref!r}; 'personakit list' shows them all"
            )
        if len(found) > 1:
            shown = ", ".join(sorted(found)[:5])
            many = f"{len(found)}{' or more' if len(found) >= 50 else ''}"
            raise UnknownMemory(f"{ref!r} names {many} memories ({shown}); give more of the id")
        hit = next(iter(found.values()))
        current = self._current(hit)
        if current is None:
            raise UnknownMemory(f"memories/{hit.memory.name} is gone or unreadable; see 'personakit doctor'")
        return current

    def decide(self, ref: str, state: State) -> tuple[Memory, bool]:
        """Set a memory's state; one commit. Returns the memory and whether anything changed."""
        if state not in STATES:
            raise PersonaKitError(f"{state!r} is not a state; use one of {', '.join(STATES)}")
        return self._change(
            ref, partial(set_state, state=state), lambda m: f"{_VERB[state]} {m.id}: {m.text}"
        )

    def _change(
        self, ref: str, edit: Callable[[str], str], message: Callable[[Memory], str]
    ) -> tuple[Memory, bool]:
        """Apply an owner's one-line edit to a memory's file; one commit. The memory, and whether it changed."""
        self._require_writable()
        with self.files.lock():
            memory = self.resolve(ref)
            raw = self.files.read(memory.name)
            new = edit(raw)
            if new == raw:
                return memory, False
            self._rewrite(memory, raw, new, message(memory))
            return parse_memory(new, memory.name), True

    def forget(self, ref: str) -> Memory:
        self._require_writable()
        with self.files.lock():
            memory = self.resolve(ref)
            self.files.remove(memory.name)
            self.history.commit([f"memories/{memory.name}"], f"forget {memory.id}: {memory.text}")
            self._indexed(lambda: self.index.update([], [memory.name]))
            return memory

    def _require_writable(self) -> None:
        if not self.writable:
            raise ReadOnlyVault(
                f"the vault at {self.root} cannot be written (read-only); nothing was changed"
            )

    # -- the read ledger ------------------------------------------------------------------------------
    def _ledger(self, host: str, question: str, ids: list[str], withheld: int) -> None:
        if not self.writable:
            return
        line = json.dumps(
            {"at": now(), "host": host, "question": question[:500], "ids": ids, "withheld": withheld}
        )
        path = self.files.state / "reads.jsonl"
        try:
            if path.exists() and path.stat().st_size > LEDGER_MOST_BYTES:
                os.replace(path, path.with_name("reads.1.jsonl"))
            with open(path, "a", encoding="utf-8") as handle:
                handle.write(line + "\n")
        except OSError as error:
            log.debug("the read ledger could not be written: %s", error)

    # -- owner side (issue 3) -------------------------------------------------------------------------
    def recategorize(self, ref: str, category: Category) -> tuple[Memory, bool]:
        """Set a memory's category; one commit. Returns the memory and whether anything changed."""
        if category not in CATEGORIES:
            raise PersonaKitError(f"{category!r} is not a category; use one of {', '.join(CATEGORIES)}")
        edit = partial(set_category, category=category)
        return self._change(ref, edit, lambda m: f"categorize {m.id}: {m.text} (as {category})")

    def refresh_index(self) -> None:
        """Open the index and bring it level with the files, committing nothing (for a vault mid-merge)."""
        if self.writable:
            self.files.ensure_state_dir()
        with self._mutating():
            self.index.open()
            self.sync(None, commit=False)
        self._synced.set()

    def matching(self, question: str) -> list[tuple[Memory, list[str]]]:
        """Every memory sharing a word with question, in any state, as its file says now, with the words."""
        terms = words(question)
        found = []
        for hit in self._indexed(lambda: self.index.search(terms, None, ALL_WORDS_FIELDS)):
            memory = self._current(hit)
            if memory is not None:
                mine = set(words(" ".join((memory.text, *memory.evidence))))
                found.append((memory, [t for t in terms if t in mine]))
        return found

    def reads(self) -> Iterator[dict[str, Any]]:
        """The read ledger, oldest first: what each assistant asked and which memories it was given."""
        for path in (self.files.state / "reads.1.jsonl", self.files.state / "reads.jsonl"):
            try:
                lines = path.read_text(encoding="utf-8").splitlines()
            except FileNotFoundError:
                continue
            for line in lines:
                try:
                    entry = json.loads(line)
                except ValueError:
                    continue  # a line cut short by a crash: the rest of the ledger still counts
                if isinstance(entry, dict):
                    yield entry


_VERB = {"approved": "approve", "rejected": "reject", "restricted": "restrict", "unconfirmed": "unconfirm"}


def _plain_name(name: str) -> bool:
    return name.endswith(".md") and "/" not in name and "\0" not in name and not name.startswith(".")


def _unique(matches: list[Match]) -> list[Match]:
    """One match per id: two files claiming one id (a copy made by hand) must not show twice."""
    seen: set[str] = set()
    out = []
    for match in matches:
        if match.memory.id not in seen:
            seen.add(match.memory.id)
            out.append(match)
    return out


def _reason(error: Exception) -> str:
    if isinstance(error, UnicodeError):
        return "not UTF-8 text (a binary file?)"
    if isinstance(error, OSError):
        return error.strerror or str(error)
    return str(error)
