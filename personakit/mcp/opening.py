"""The vault, opened on a thread of its own while the server answers its host's handshake.

A host starts the server, then waits for `initialize` and `tools/list` before it asks anything else. Those
need the MCP SDK and the tools' schemas (`results.json`), not the vault: so `serve` imports neither the
service nor its stores (Whoosh, GitPython, watchdog, YAML, masking: about a third of a second of
imports) before it answers them, and this thread imports them and opens the vault (the index, the
watcher, the start-up checks) meanwhile. Every tool call and resource read waits for it (`kit`).

A vault that cannot be opened still ends the server with one sentence: `failure` raises what stopped
the thread, inside the lifespan's task group, which ends the session, and `serve` says it. What runs on
the thread is what the lifespan ran before it: a kill during it is a kill during a start, which loses
nothing (every write is atomic, and the next start does what this one did not finish).
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING

import anyio

from personakit.errors import PersonaKitError

if TYPE_CHECKING:
    from personakit.vault.service import PersonaKit


class Opening:
    """The vault being opened; `kit()` is the open vault, once it is."""

    def __init__(self, vault: str | None, opened: PersonaKit | None, then: Callable[[], None]) -> None:
        self._vault = vault
        self._kit = opened  # a vault `serve` opened itself (it had to make it): only started here
        self._then = then  # run on the thread once the vault is open, before any call may use it
        self._error: BaseException | None = None
        self._done = threading.Event()

    def begin(self) -> None:
        threading.Thread(target=self._open, name="personakit-open", daemon=True).start()

    def _open(self) -> None:
        try:
            from personakit.vault import firstindex  # a first index's helper may be waiting (`serve`)

            firstindex.go()
            from personakit.vault.service import PersonaKit  # the heavy part, on this thread

            kit = self._kit or PersonaKit(self._vault)
            self._kit = None
            kit.history.dirs()  # a .git git cannot open: its one sentence, before start warns of each step
            kit.start(watch=True, background=True)
            self._then()
            # What exists now (the SDK, the open index) lives as long as the server: keep the collector's
            # full passes from walking it again and again (one took 14 ms, in the middle of a read, at 10k).
            gc.freeze()
            self._kit = kit
        except BaseException as error:  # said by `failure`, on the server's side
            self._error = error
        finally:
            self._done.set()

    def kit(self) -> PersonaKit:
        """The open vault, waiting for it if need be (on a worker thread: calls run there)."""
        self._done.wait()
        if self._kit is None:
            said = str(self._error) if isinstance(self._error, PersonaKitError) else "it could not be opened"
            raise PersonaKitError(f"the vault is not open: {said}")
        return self._kit

    @property
    def opened(self) -> PersonaKit | None:
        """The open vault, or None while it opens or when it could not be."""
        return self._kit if self._done.is_set() else None

    async def failure(self) -> None:
        """Return once the vault is open; raise what kept it from opening."""
        await anyio.to_thread.run_sync(self._done.wait)
        if self._error is not None:
            raise self._error
