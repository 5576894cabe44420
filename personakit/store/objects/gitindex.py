"""Git's index (`.git/index`) given committed entries in the process, as `git update-index --add --cacheinfo
MODE,ID,PATH` and `--force-remove PATH` give them, when nothing is unusual.

Why: at 10,000 memories git's index is 1.2 MB, and `git update-index` reads, changes and writes it whole in
a process of its own, 12 ms for each proposal. Here where each entry starts is kept from one update to the
next (while the file is the one this process wrote), the changed entries are found by bisection, and the
new file is written as the old one is read, a window at a time, the changes put in between: as git writes
it, under `index.lock`, with its checksum, renamed over the old. The file is never held whole: at 100k
memories it is 12 MB, and a copy of it for each proposal, freed on the staging thread, left malloc holding
50-100 MB of freed memory it never gave back (the server's peak RSS).

Done as git does it: an entry given this way has no stat data (all zero, so git compares the file's
content the next time it looks), stage 0 and no extended flags; the cache tree (the TREE extension) forgets
the folders above each changed path, as `cache_tree_invalidate_path` does. Anything less plain is left to
git (`apply` returns False having written nothing): an index version other than 2 or 3, an extension other
than TREE and REUC (a split or sparse index, the untracked cache, fsmonitor, the end-of-index tables), an
entry that git would find racily clean (its file's time not before the index's: git checks those again
whenever it writes the index), a path in conflict or with extended flags, a file where a folder of the path
is or the reverse, more than `MOST` paths at once, and `index.lock` held by another program.
"""

from __future__ import annotations

import hashlib
import os
import struct
import threading
from array import array
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from personakit.store.objects.trees import Change

MOST = 64  # paths in one update; more (an import) go to git, which does them in one pass
_HEADER = struct.Struct(">4sLL")
_EXTENDED, _STAGE, _NAME = 0x4000, 0x3000, 0x0FFF
_KEPT = (b"TREE", b"REUC")  # the extensions kept: TREE as git changes it, REUC (resolve-undo) as it is


CHUNK = 1 << 18  # bytes read (and hashed) at a time: the file itself is never held whole


class Unusual(Exception):
    """Something this module leaves to git."""


class _Reader:
    """The old file read a window at a time, never whole: `ahead` bytes from where an entry is asked for
    (a few hundred for the look-ups of a change, CHUNK while every entry is walked)."""

    def __init__(self, fd: int, size: int) -> None:
        self.fd, self.size, self.ahead = fd, size, 512
        self._at, self._data = 0, b""

    def get(self, at: int, n: int) -> bytes:
        """n bytes from at; Unusual when the file ends before (it changed while read, or is damaged)."""
        if not (self._at <= at and at + n <= self._at + len(self._data)):
            self._at, self._data = at, os.pread(self.fd, max(n, self.ahead), at)
        if at + n > self._at + len(self._data):
            raise Unusual("the index ends inside an entry")
        return self._data[at - self._at : at - self._at + n]

    def copy(self, frm: int, to: int, put: Callable[[bytes], object]) -> None:
        """The bytes from frm to to, CHUNK at a time, given to put."""
        for at in range(frm, to, CHUNK):
            data = os.pread(self.fd, min(CHUNK, to - at), at)
            if len(data) != min(CHUNK, to - at):
                raise Unusual("the index changed while read")
            put(data)


class GitIndex:
    def __init__(self, path: Path, hash_size: int, algorithm: str) -> None:
        self.path = path
        self.hash_size = hash_size  # 20 (sha1) or 32 (sha256)
        self.algorithm = algorithm
        # The file the kept starts are of (inode, size, mtime): the one this process wrote last.
        self._stamp: tuple[int, int, int] | None = None
        self._starts = array("L")

    def apply(self, changes: dict[str, Change]) -> bool:
        """Give git's index the entries (vault path -> (mode, id in hex), None: removed); False, having
        written nothing, when git must (see the module's docstring)."""
        if len(changes) > MOST:
            return False
        lock = self.path.with_name(self.path.name + ".lock")
        try:
            fd = os.open(lock, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except OSError:  # held by another program (git's route waits for it), or no such folder
            return False
        old = None
        try:
            try:
                old = open(self.path, "rb")  # noqa: SIM115 (closed on another thread: see `_let_go`)
                with os.fdopen(fd, "wb", closefd=False) as out:
                    self._write(_Reader(old.fileno(), os.fstat(old.fileno()).st_size), changes, out)
                os.close(fd)
                fd = -1
                os.replace(lock, self.path)
            except (Unusual, OSError, ValueError, struct.error):  # a full disk, say: git's route says so
                self._stamp = None
                return False
            finally:
                _let_go(old)
            try:
                st = self.path.stat()
                self._stamp = (st.st_ino, st.st_size, st.st_mtime_ns)
            except OSError:  # written; the next update reads it whole
                self._stamp = None
            return True
        except BaseException:
            self._stamp = None
            raise
        finally:
            if fd >= 0:
                os.close(fd)
                lock.unlink(missing_ok=True)

    def _write(self, old: _Reader, changes: dict[str, Change], out: BinaryIO) -> None:
        """The new index into out: the old entries with the changes put in, the extensions, the checksum."""
        signature, version, count = _HEADER.unpack(old.get(0, 12))
        if signature != b"DIRC" or version not in (2, 3):
            raise Unusual(f"index version {version}")
        st = os.fstat(old.fd)
        stamp = (st.st_ino, st.st_size, st.st_mtime_ns)
        if stamp != self._stamp or len(self._starts) != count:
            self._starts = self._parse(old, count, st.st_mtime_ns // 10**9)
        starts = self._starts
        end = starts[-1] + self._length(old, starts[-1]) if count else 12
        extensions = self._extensions(old, end, old.size - self.hash_size)
        edits = self._edits(old, changes)
        digest = hashlib.new(self.algorithm)

        def put(data: bytes) -> None:
            digest.update(data)
            out.write(data)

        added = sum(new is not None for _, _, new, _ in edits) - sum(replaced for _, _, _, replaced in edits)
        put(_HEADER.pack(b"DIRC", version, count + added))
        kept, at, shift, moved = array("L"), 12, 0, 0  # moved: the old entries before `at`, in kept
        for position, _, new, replaced in edits:
            where = starts[position] if position < count else end
            old.copy(at, where, put)
            kept.extend(
                starts[moved:position]
                if not shift
                else array("L", map(shift.__add__, starts[moved:position]))
            )
            if new is not None:
                kept.append(where + shift)
                put(new)
            at, moved = (where + self._length(old, where), position + 1) if replaced else (where, position)
            shift += (len(new) if new is not None else 0) - (at - where)
        old.copy(at, end, put)
        kept.extend(starts[moved:] if not shift else array("L", map(shift.__add__, starts[moved:])))
        for name, body in extensions:
            if name == b"TREE":
                body = _tree_without(
                    body, [p.encode("utf-8", "surrogateescape") for p in changes], self.hash_size
                )
            put(name + len(body).to_bytes(4, "big") + body)
        out.write(digest.digest())
        self._starts = kept

    # -- the entries ----------------------------------------------------------------------------------
    def _parse(self, old: _Reader, count: int, written: int) -> array[int]:
        """Where each entry starts; Unusual when one would be racily clean (see the module's docstring).
        Walked in windows of CHUNK bytes, each entry read where it lies (once per start: 0.3 s at 100k)."""
        starts, at, hs = array("L"), 12, self.hash_size
        data, base = b"", at
        while len(starts) < count:
            if at + 44 + hs > base + len(data):  # the entry's fixed part, extended flags included
                data, base = os.pread(old.fd, CHUNK, at), at
            off = at - base
            flags = int.from_bytes(data[off + 40 + hs : off + 42 + hs], "big")
            name = off + 42 + hs + (2 if flags & _EXTENDED else 0)
            while (nul := data.find(b"\0", name)) < 0:  # the path goes on past the window
                more = os.pread(old.fd, CHUNK, base + len(data))
                if not more:
                    raise Unusual("entries past the end")
                data += more
            seconds = int.from_bytes(
                data[off + 8 : off + 12], "big"
            )  # seconds only, as a git without USE_NSEC
            if seconds >= written and seconds:
                raise Unusual("an entry git would look at again")
            starts.append(at)
            at += ((nul - off) // 8 + 1) * 8
        if at > old.size - hs:
            raise Unusual("entries past the end")
        return starts

    def _name(self, old: _Reader, at: int) -> tuple[int, int]:
        """Where the entry at `at` has its path, and its flags (an extended entry has two bytes more)."""
        flags = int.from_bytes(old.get(at + 40 + self.hash_size, 2), "big")
        return at + 42 + self.hash_size + (2 if flags & _EXTENDED else 0), flags

    def _path(self, old: _Reader, at: int) -> tuple[bytes, int]:
        """An entry's path and flags: the path ends at a NUL (the flags count at most _NAME bytes)."""
        name, flags = self._name(old, at)
        n = (flags & _NAME) + 1
        while (nul := old.get(name, min(n, old.size - name)).find(b"\0")) < 0:
            if n >= old.size - name:
                raise Unusual("a path without its end")
            n *= 2
        return old.get(name, nul), flags

    def _length(self, old: _Reader, at: int) -> int:
        """The entry's bytes: its path ends with one to eight NULs, to a multiple of eight."""
        name, _ = self._name(old, at)
        return ((name + len(self._path(old, at)[0]) - at) // 8 + 1) * 8

    def _find(self, old: _Reader, path: bytes) -> int:
        """The position of path's first entry, or where it would go (entries sort by path, then stage)."""
        lo, hi = 0, len(self._starts)
        while lo < hi:
            mid = (lo + hi) // 2
            if self._path(old, self._starts[mid])[0] < path:
                lo = mid + 1
            else:
                hi = mid
        return lo

    def _edits(self, old: _Reader, changes: dict[str, Change]) -> list[tuple[int, bytes, bytes | None, bool]]:
        """What changes, in the file's order: (the old entry's position, path, the new entry or None to
        remove, whether the old entry at that position goes). Checked in the paths' order, each against
        the index as the ones before it left it, as `update-index` does them one after another."""
        starts, edits = self._starts, []
        done: dict[bytes, bool] = {}  # a path changed already: whether it is in the index now

        def there(path: bytes) -> bool:
            if path in done:
                return done[path]
            at = self._find(old, path)
            return at < len(starts) and self._path(old, starts[at])[0] == path

        def inside(folder: bytes) -> bool:  # any entry under folder/
            prefix = folder + b"/"
            if any(p.startswith(prefix) and here for p, here in done.items()):
                return True
            for at in range(self._find(old, prefix), len(starts)):
                path = self._path(old, starts[at])[0]
                if not path.startswith(prefix):
                    return False
                if path not in done:
                    return True
            return False

        for text, entry in sorted(changes.items()):
            path = text.encode("utf-8", "surrogateescape")
            at = self._find(old, path)
            here = self._path(old, starts[at]) if at < len(starts) else None
            if here is not None and here[0] == path:
                if here[1] & (_STAGE | _EXTENDED):
                    raise Unusual("a path in conflict or with extended flags")
                if at + 1 < len(starts) and self._path(old, starts[at + 1])[0] == path:
                    raise Unusual("a path in conflict")
                replaced = True
            else:
                if entry is None:
                    continue  # not in the index: removing it changes nothing
                if inside(path):
                    raise Unusual("a folder where the path's file would go")
                folder = path
                while b"/" in folder:
                    folder = folder.rpartition(b"/")[0]
                    if there(folder):
                        raise Unusual("a file where the path's folder is")
                replaced = False
            done[path] = entry is not None
            edits.append((at, path, None if entry is None else self._entry(path, entry), replaced))
        return sorted(edits, key=lambda e: (e[0], e[1]))

    def _entry(self, path: bytes, entry: tuple[str, str]) -> bytes:
        mode, oid = entry
        sha = bytes.fromhex(oid)
        if len(sha) != self.hash_size:
            raise Unusual("an object id of another length")
        head = bytes(24) + int(mode, 8).to_bytes(4, "big") + bytes(12) + sha
        head += min(len(path), _NAME).to_bytes(2, "big") + path
        return head + bytes(8 - len(head) % 8)

    def _extensions(self, old: _Reader, at: int, end: int) -> list[tuple[bytes, bytes]]:
        found = []
        while at < end:
            head = old.get(at, 8)
            signature, size = head[:4], int.from_bytes(head[4:], "big")
            if signature not in _KEPT or at + 8 + size > end:
                raise Unusual(f"the {signature!r} extension")
            found.append((signature, old.get(at + 8, size)))
            at += 8 + size
        return found


def _let_go(old: BinaryIO | None) -> None:
    """Close the old file on a thread of its own: the last name gone, closing it frees its blocks, which
    took 2.4 ms of the 7.8 an update takes at 10k memories, on the thread a commit waits for."""
    if old is not None:
        threading.Thread(target=old.close, name="personakit-old-index", daemon=True).start()


# -- the cache tree (TREE) ------------------------------------------------------------------------------
@dataclass
class _Node:
    name: bytes
    count: int  # entries the folder's tree covers; -1: forgotten (no id)
    oid: bytes | None
    children: list[_Node]


def _tree_without(body: bytes, paths: list[bytes], hash_size: int) -> bytes:
    """The TREE extension with each path's folders forgotten (entry count -1, no id), as git does it."""
    root, at = _read_node(body, 0, hash_size)
    if at != len(body):
        raise Unusual("a cache tree with bytes after it")
    for path in paths:
        _forget(root, path)
    out = bytearray()
    _write_node(root, out)
    return bytes(out)


def _read_node(body: bytes, at: int, hash_size: int) -> tuple[_Node, int]:
    nul = body.index(b"\0", at)
    newline = body.index(b"\n", nul)
    count, subtrees = (int(n) for n in body[nul + 1 : newline].split(b" "))
    node, at = _Node(body[at:nul], count, None, []), newline + 1
    if count >= 0:
        node.oid, at = body[at : at + hash_size], at + hash_size
    for _ in range(subtrees):
        child, at = _read_node(body, at, hash_size)
        node.children.append(child)
    return node, at


def _forget(node: _Node, path: bytes) -> None:
    """git's do_invalidate_path: each folder down to the path's forgets its tree; a subtree named as the
    path's last part goes."""
    while True:
        node.count, node.oid = -1, None
        first, slash, rest = path.partition(b"/")
        down = next((c for c in node.children if c.name == first), None)
        if not slash:
            if down is not None:
                node.children.remove(down)
            return
        if down is None:
            return
        node, path = down, rest


def _write_node(node: _Node, out: bytearray) -> None:
    out += node.name + b"\0%d %d\n" % (node.count, len(node.children))
    if node.oid is not None:
        out += node.oid
    for child in node.children:
        _write_node(child, out)
