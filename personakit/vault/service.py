"""The PersonaKit object: read and propose, and the wiring of the stores. Both front doors call it.

A read walks one way: index (candidates by word) -> files (each candidate's current state on disk)
-> reading (order, fill, withheld) -> masking. A proposal: proposal checks -> files (atomic write under
the vault lock) -> history (one commit) -> index. Changes made by anyone else (an editor, Obsidian,
another process) come in through `intake`, called by the watcher and at start. The owner's decisions
live in `personakit.owner`; every change to memories/ is written by `personakit.vault.writing`.
"""

from __future__ import annotations

import gc
import logging
import os
import re
import threading
import time
from collections.abc import Iterable
from contextlib import nullcontext
from datetime import UTC, date, datetime
from functools import partial
from pathlib import Path
from typing import NotRequired, TypeVar

from typing_extensions import TypedDict  # pydantic needs it for schemas on Python < 3.12

from personakit.core import meaning
from personakit.core.credentials.engine import holds_credential
from personakit.core.evidence import with_quote
from personakit.core.memory import VISIBLE_STATES, Memory, State, most_private, render_memory
from personakit.core.naming import memory_id, memory_ids, normalize, slug
from personakit.core.people import expand
from personakit.core.proposal import Reason, check_proposal, who_and_when
from personakit.core.reading import FILL_TO, Match, ReadResult, clamp_limit, compose, unique
from personakit.core.when import is_past
from personakit.core.withholding import counted_words, shares
from personakit.core.words import words
from personakit.errors import PersonaKitError, ReadOnlyVault
from personakit.store.files import VaultFiles, resolve_vault
from personakit.store.history import History
from personakit.store.ledger import AskedWords, Ledger
from personakit.store.packing import maybe_pack
from personakit.store.postings import READS
from personakit.store.private import private_umask, refuse_outside, tighten
from personakit.store.watcher import Watcher
from personakit.vault.copies import effective, of_proposal
from personakit.vault.gitconfig import install as install_driver
from personakit.vault.housekeeping import bring_up_to_date
from personakit.vault.intake import take_in
from personakit.vault.linking import link
from personakit.vault.moving import recover
from personakit.vault.people import PeopleNotes
from personakit.vault.plain import Calls, PlainKeeper, mask_ahead, start_apart, until_quiet
from personakit.vault.state import Vault
from personakit.vault.trust import hold_arrivals
from personakit.vault.writing import write

log = logging.getLogger("personakit")
T = TypeVar("T")

MAX_QUESTION = 2_000  # characters; a longer question is refused with a sentence
WARM_AFTER = 1.0  # seconds after start before a server reads ahead the common words (start-up goes first)
SYNC_AFTER = 0.3  # seconds before a server checks its index against every file, after its host's handshake
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
    private_umask()
    files = VaultFiles(root)
    if files.is_vault():
        return None
    refuse_outside(root)
    history = History(root, files.lock)  # no git: say so before anything is written
    written = files.copy_template()
    with files.lock():
        said = history.init(written)
        install_driver(history)
    tighten(root)
    return said


class PersonaKit(Vault):
    def __init__(self, vault: str | os.PathLike[str] | None = None, *, create: bool = True) -> None:
        private_umask()  # for the files this process and git, its child, make
        root = resolve_vault(vault)
        refuse_outside(root)
        if not VaultFiles(root).is_vault():
            if not create:
                if root.is_file():  # said now, not after the owner has tried `personakit init` on it
                    raise PersonaKitError(f"{root} is a file, not a folder; give the vault's folder")
                raise PersonaKitError(f"{root} is not a PersonaKit vault; make one with: personakit init")
            said = init_vault(root)
            log.info("created a new vault at %s", root)
            if said:
                log.warning("%s", said)
        super().__init__(root)
        if not self.writable:
            log.warning("%s cannot be written: serving reads only; proposals will be refused", self.root)
        self.ledger = Ledger(self.files.state)
        self.asked = AskedWords(self.files.state if self.writable else None)  # see core.withholding
        self.plain = PlainKeeper(self.files.state if self.writable else None)  # kept by servers only
        self.people = PeopleNotes(self.root)  # read at each question: an alias counts at the next read
        self._watcher: Watcher | None = None
        self._synced = threading.Event()  # reads may start: the index is known, if perhaps behind
        self._caught_up = threading.Event()  # no start-up pass is running: every unreadable file is known
        self._caught_up.set()
        self._closing = threading.Event()  # masking ahead stops
        self._calls = Calls()  # masking ahead waits while a read, a proposal or an edit runs or just ran

    # -- lifecycle ------------------------------------------------------------------------------------
    def start(self, watch: bool = False, background: bool = False) -> None:
        """Open the index and bring it level with the files; with watch, keep it so."""
        if self.writable:
            tighten(self.root)
            self.history.keep_private()
            self.files.ensure_state_dir()
            install_driver(self.history)  # git's config is per clone: a fresh clone gets the driver here
        with self.mutating():  # several servers may start at once on a vault with no index yet
            if self.writable:
                self.files.clear_tmp()  # a killed writer's leftovers: no write runs while we hold the lock
                bring_up_to_date(self)  # an older PersonaKit's vault: git's index format, .gitignore
                recover(self)  # a killed sync is finished, then what a pull brought is looked at: before
                hold_arrivals(self)  # any read, a stranger's approval is held (vault/trust.py)
            fresh = self.index.open()
        if watch:
            self._watcher = Watcher(self.files.memories, self._on_disk)
            self._watcher.start()
        self._caught_up.clear()
        if background and fresh:  # a first index: reads wait for it, not for the commit of what changed by
            self._sync_logged(None, commit=False)  # hand (git's status of every file: 2 s at 100k memories)
            self._synced.set()
        if background:
            threading.Thread(
                target=self._start_up, args=(fresh,), name="personakit-sync", daemon=True
            ).start()
        else:
            self._sync_all_logged()
        if self.writable:
            maybe_pack(self.root, opening=True)
        if watch:  # a server: read ahead the everyday words' postings, once it has answered its host
            threading.Thread(target=self._warm_logged, name="personakit-warm", daemon=True).start()

    def close(self, wait: float = 30.0) -> None:
        self._closing.set()
        self.history.owner_index.stop()
        if self._watcher is not None:
            self._watcher.stop()
            self._watcher = None
        with self.files.lock(timeout=wait) if self.writable else nullcontext():  # a write ends whole first
            self.index.close()
        self.plain.save(at_least=1)
        self.git_worker.shutdown()

    def _start_up(self, fresh: bool = False) -> None:
        """A server's start. On a known index, reads check each candidate against the disk, but a file made or
        changed while no server ran (a copy of a memory, made more private) is no candidate until indexed:
        those changed since the index was last level (one listing of memories/) are taken in before the first
        answer, and the whole pass, which commits, after the handshake (without a known level time, before the
        first answer). After a first index (fresh), only the commit of what changed by hand is left."""
        if fresh:
            return self._sync_all_logged(index=False)
        try:
            recent = self.files.changed_since_level()
        except OSError:
            recent = None  # reads wait for the whole pass
        if recent is not None:
            self._sync_logged(recent, commit=False)
            self._synced.set()
        self._sync_all_logged(SYNC_AFTER if recent is not None else 0.0)

    def _sync_all_logged(self, after: float = 0.0, index: bool = True) -> None:
        time.sleep(after)
        try:
            self._sync_logged(None, commit=True, index=index)
        finally:
            self._synced.set()
            self._caught_up.set()

    def _warm_logged(self, after: float = WARM_AFTER) -> None:
        try:
            self.wait_until_synced()
            self.plain.load()
            # At once: that process, below the server's priority, has the other core (at 10k, done 0.7 s sooner)
            apart = start_apart(self.plain, self.index.folder, self.index.count(), self._closing.is_set)
            time.sleep(after)
            quiet = partial(until_quiet, self._calls.busy, self._closing.is_set)
            self.index.warm(quiet)  # in quiet moments: a host reading at once reads its own words
            apart()  # masking ahead in a process of its own; what it left (changed since, failed) is done here
            memories = (hit.memory for hit in self.index.all(pause=True))
            mask_ahead(self.plain, memories, self._closing.is_set, self._calls.busy)
            gc.freeze()  # what it kept lives as long as the vault: the collector's full passes skip it
        except Exception as error:  # only a head start: reads read what they need anyway
            log.debug("could not read ahead the common words or mask ahead: %s", error)

    def _sync_logged(self, names: list[str] | None, commit: bool, index: bool = True) -> None:
        try:
            self.sync(names, commit, index)
        except Exception:
            log.exception("could not bring the index level with the files")

    # -- taking in changes ----------------------------------------------------------------------------
    def _on_disk(self, names: set[str], settled: bool) -> None:
        """The watcher's batch less the files this process wrote, committed and indexed, as they still are."""
        self.writes.wait(names)  # a proposal's own file is seen while it is still being committed
        if others := {n for n in names if n in self.unsettled or not self.as_written(n)}:
            self.sync(others, settled)

    def sync(self, names: Iterable[str] | None = None, commit: bool = True, index: bool = True) -> None:
        """Take in changes to the named files (None: every file): see `personakit.vault.intake`."""
        if commit:
            recover(self)  # a killed `personakit sync` is finished first, so it never looks like a hand edit
            hold_arrivals(self)  # a git pull's commits: a stranger's approvals are held before intake
        with self._calls:
            take_in(self, names, commit, index)

    def wait_until_synced(self) -> None:  # for the start-up pass (run in the background by a server)
        self._synced.wait(timeout=600)

    # -- the two tools --------------------------------------------------------------------------------
    def read(self, question: str, limit: int = 7, host: str = "owner", record: bool = True) -> ReadResult:
        if len(question) > MAX_QUESTION:
            raise PersonaKitError(
                f"the question is {len(question):,} characters long; ask in at most {MAX_QUESTION:,}"
            )
        self.wait_until_synced()
        with self._calls, READS:  # background walks wait (`store.postings.Reads`)
            return self._read(question, limit, host, record)

    def _read(self, question: str, limit: int, host: str, record: bool) -> ReadResult:
        limit = clamp_limit(limit)
        terms = words(question)
        terms += expand(terms, self.people.all())  # "my sister": the words of Carla, whose alias it is
        today = date.today()  # the owner's day, for what is past
        found = meaning.expand(terms)  # the question's words, the words that count as them, near words
        # The words that may make a restricted memory count: few a question, few new ones a day, each
        # with the words that count as it (core.withholding).
        admitted = set(self.asked.admit(counted_words(terms), spend=record))
        counted = [word for group in found.classes if admitted.intersection(group) for word in group]
        near = [word for _, word in found.near]
        wanted = limit
        # A few more candidates when files changed state on disk since they were indexed, or when past
        # memories (which rank after current ones with as many shared words) are among them.
        while True:
            hits = self.indexed(partial(self.index.search, found.classes, wanted, near=near))
            matches: list[Match] = []
            withheld = set()  # restricted on disk since it was indexed, or a copy is
            for hit, memory in zip(hits, effective(self, hits), strict=True):
                if memory is None:
                    continue
                if memory.state in VISIBLE_STATES:
                    matches.append(Match(memory, hit.shared, hit.fine))
                elif memory.state == "restricted" and shares(memory.text, memory.evidence, counted):
                    withheld.add(memory.id)
            current = sum(1 for m in matches if not is_past(m.memory.until, today))
            if current >= limit or len(hits) < wanted:
                break
            wanted += limit + 10
        approved = self._fill(len(matches), today, found) if len(matches) < FILL_TO else []
        count = self.indexed(lambda: self.index.count_restricted(counted, withheld))
        result = compose(unique(matches), approved, count, limit, today, self.plain.plain)
        self.plain.save()
        if record and self.writable:  # the owner's own `personakit search` is kept out of the ledger
            ids = [m["id"] for m in result["memories"]]
            self.ledger.record({"at": now(), "host": host, "question": question[:500], "ids": ids,
                                "withheld": result["withheld"]})  # fmt: skip
        return result

    def _fill(self, matched: int, today: date, found: meaning.Expansion) -> list[Memory]:
        """Approved memories that are not past, enough to fill the places a read left: the closest to the
        question first (near words, then category: `store.ranking.Ranker.fill`), then the newest."""
        wanted = FILL_TO + matched
        wide = [word for _, word in found.wide]  # the near words first, then the rest of their topics
        closest = self.indexed(lambda: self.index.fill(found.classes, wide, found.categories, wanted))
        while True:
            newest = self.indexed(partial(self.index.newest, "approved", wanted))
            approved = list(
                {
                    m.id: m
                    for m in effective(self, closest + newest)
                    if m is not None and m.state == "approved" and not is_past(m.until, today)
                }.values()
            )
            if len(approved) >= FILL_TO + matched or len(newest) < wanted:
                return approved
            wanted *= 4

    def propose(
        self,
        text: str,
        quote: str,
        category: str,
        host: str = "unknown-assistant",
        replaces: object = None,
        about: object = None,
        said: object = None,
        until: object = None,
    ) -> ProposeResult:
        """Store a proposal (see the contract). `replaces` links a correction to the memory it corrects, and
        near-duplicates are marked (`personakit.vault.linking`); neither changes the answer. `about`,
        `said` and `until` (`core.people`, `core.when`) are checked first: a bad one is a PersonaKitError
        sentence, and nothing is written. Proposed again, a memory keeps its own."""
        checked_names = who_and_when(about, said, until, date.today())
        if isinstance(checked_names, str):
            raise PersonaKitError(checked_names)
        names, said, until = checked_names
        checked = check_proposal(text, quote, category)
        if isinstance(checked, str):
            return {"stored": False, "reason": checked}
        if names and holds_credential(checked.text, checked.quote, *names):
            return {"stored": False, "reason": "credential_shape"}
        if not self.writable:
            raise ReadOnlyVault(f"the vault at {self.root} cannot be written (read-only); nothing was stored")
        mid = memory_id(checked.text, names)
        author = (f"{host} (assistant)", ASSISTANT_EMAIL)
        self._caught_up.wait(timeout=600)  # every unreadable file is known (see copies.on_disk)
        try:
            with self._calls, self.files.lock():
                stem = slug(checked.text)
                found, mid = self._proposed(mid, text, [f"{stem}.md", f"{stem}-{mid[2:8]}.md"], names)
                if found:
                    memory, raw = found[0]
                    state = most_private(m.state for m, _ in found)
                    quotes = {normalize(q) for m, _ in found for q in (*m.evidence, *m.pending)}
                    # A new quote waits for the owner unless the memory is unconfirmed (`core.evidence`).
                    quoted = (
                        raw
                        if normalize(checked.quote) in quotes
                        else with_quote(raw, memory, checked.quote, seen=state == "unconfirmed")
                    )
                    if quoted != raw:
                        write(
                            self, [(memory.name, raw, quoted)], f"evidence for {mid}: {memory.text}", author
                        )
                    return {"stored": True, "id": mid, "new": False, "state": state}
                memory = Memory(
                    id=mid, text=checked.text, category=checked.category, state="unconfirmed",
                    evidence=(checked.quote,), proposed_by=host, created=now(),
                    name=self.files.free_name(stem, mid[2:8]), about=names, said=said, until=until,
                )  # fmt: skip
                memory = link(self, memory, replaces)
                message = f"propose {mid}: {memory.text}"
                write(self, [(memory.name, None, render_memory(memory))], message, author)
        except OSError as error:
            raise ReadOnlyVault(
                f"the vault could not be written ({error.strerror or error}); nothing was stored"
            ) from None
        return {"stored": True, "id": mid, "new": True, "state": "unconfirmed"}

    def find_memory(self, mid: str, text: str) -> tuple[Memory, str] | None:
        """The memory with this id on disk now, with its file's text (the index may lag a hand edit); a
        file that may hold it but cannot be read refuses, as for a proposal (`copies.of_proposal`)."""
        found, _ = self._proposed(mid, text, [f"{slug(text)}.md", f"{slug(text)}-{mid[2:8]}.md"])
        return found[0] if found else None

    def _proposed(
        self, mid: str, text: str, files: list[str], about: tuple[str, ...] = ()
    ) -> tuple[list[tuple[Memory, str]], str]:
        """The files of the memory a text is, and its id: mid (made from the text as a person reads it),
        else the id an older PersonaKit made from the text as written (`memory_ids`)."""
        for candidate in dict.fromkeys([mid, *memory_ids(text, about)]):
            found = of_proposal(self, candidate, files if candidate == mid else [])
            if found:
                return found, candidate
        return [], mid

    def require_writable(self) -> None:
        if not self.writable:
            raise ReadOnlyVault(
                f"the vault at {self.root} cannot be written (read-only); nothing was changed"
            )

    def refresh_index(self) -> None:
        """Open the index and bring it level with the files, committing nothing (for a vault mid-merge)."""
        if self.writable:
            tighten(self.root)
            self.files.ensure_state_dir()
        with self.mutating():
            self.index.open()
            self.sync(None, commit=False)
        self._synced.set()
        self._caught_up.set()
