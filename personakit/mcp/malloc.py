"""The server process's C allocator: one glibc arena for all its threads.

glibc gives each thread that calls malloc an arena of its own, up to eight per core, and keeps the memory
a thread frees in that thread's arena for its later use. The server runs about ten threads (the SDK's
workers, the watcher, the git worker, the index's, masking ahead), each of which allocates now and then:
at 10k memories the kept memory of their arenas was about 6 MB of the server's peak RSS
(`bench/memory.py 10000 --env MALLOC_ARENA_MAX=1`: 108 against 102 MB). Python threads take turns under
one lock, so they rarely call malloc at once: proposals back to back, whose commit runs on three threads,
measured the same with one arena (0.33-0.43x of git by hand, against 0.31-0.39x, four runs each).

`MALLOC_ARENA_MAX=1` in the environment does the same, but a host starts the server with its own
environment; so `serve` asks glibc itself, before any thread starts. Elsewhere (musl, macOS, Windows)
nothing is done: those allocators keep memory differently.
"""

from __future__ import annotations

import ctypes
import platform

M_ARENA_MAX = -8  # glibc's malloc.h


def one_arena() -> bool:
    """Have every thread of this process allocate from glibc's main arena; False where that cannot be
    asked (not glibc). Call it before the process starts threads: one that has allocated keeps its arena."""
    if platform.libc_ver()[0] != "glibc":
        return False
    try:
        return bool(ctypes.CDLL(None).mallopt(M_ARENA_MAX, 1))
    except (OSError, AttributeError):
        return False
