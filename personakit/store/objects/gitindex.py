"""Git's index (`.git/index`) given committed entries in the process, as `git update-index --add --cacheinfo
MODE,ID,PATH` and `--force-remove PATH` give them, when nothing is unusual.

Why: at 10,000 memories git's index is 1.2 MB, and `git update-index` reads, changes and writes it whole in
a process of its own, 12 ms for each proposal. Here where each entry starts is kept from one update to the
next (while the file is the one this process wrote), the file is read, its entries replaced, inserted or
removed, and it is written as git writes it: under `index.lock`, with its checksum, renamed over the old.

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
from array import array
from dataclasses import dataclass
from pathlib import Path

from personakit.store.objects.trees import Change

MOST = 64  # paths in one update; more (an import) go to git, which does them in one pass
_HEADER = struct.Struct(">4sLL")
_EXTENDED, _STAGE, _NAME = 0x4000, 0x3000, 0x0FFF
_KEPT = (b"TREE", b"REUC")  # the extensions kept: TREE as git changes it, REUC (resolve-undo) as it is


class Unusual(Exception):
    """Something this module leaves to git."""


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
        try:
            try:
                data = self._changed(changes)
            except (Unusual, OSError, ValueError, struct.error):
                self._stamp = None
                return False
            try:
                with os.fdopen(fd, "wb", closefd=False) as out:
                    out.write(data)
                    out.write(hashlib.new(self.algorithm, data).digest())
                os.close(fd)
                fd = -1
                os.replace(lock, self.path)
            except OSError:  # a full disk, say: git's route says so, and the entries wait (ownerindex)
                self._stamp = None
                lock.unlink(missing_ok=True)
                return False
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

    def _changed(self, changes: dict[str, Change]) -> bytearray:
        with open(self.path, "rb") as handle:  # into one buffer, changed in place: at 100k the file is 12 MB
            st = os.fstat(handle.fileno())
            raw = bytearray(st.st_size)
            if handle.readinto(raw) != st.st_size:
                raise Unusual("the index changed while read")
        signature, version, count = _HEADER.unpack_from(raw)
        if signature != b"DIRC" or version not in (2, 3):
            raise Unusual(f"index version {version}")
        stamp = (st.st_ino, st.st_size, st.st_mtime_ns)
        if stamp != self._stamp or len(self._starts) != count:
            self._starts = self._parse(raw, count, st.st_mtime_ns // 10**9)
        starts = self._starts
        end = starts[-1] + self._length(raw, starts[-1]) if count else 12
        extensions = self._extensions(raw, end, len(raw) - self.hash_size)
        buf = raw
        del buf[end:]
        for path, entry in sorted(changes.items()):
            self._put(buf, path.encode("utf-8", "surrogateescape"), entry)
        buf[:12] = _HEADER.pack(b"DIRC", version, len(starts))
        for signature, body in extensions:
            if signature == b"TREE":
                body = _tree_without(
                    body, [p.encode("utf-8", "surrogateescape") for p in changes], self.hash_size
                )
            buf += signature + len(body).to_bytes(4, "big") + body
        return buf

    # -- the entries ----------------------------------------------------------------------------------
    def _parse(self, raw: bytearray, count: int, written: int) -> array[int]:
        """Where each entry starts; Unusual when one would be racily clean (see the module's docstring)."""
        starts, at, hs = array("L"), 12, self.hash_size
        for _ in range(count):
            starts.append(at)
            seconds = int.from_bytes(raw[at + 8 : at + 12], "big")  # seconds only, as a git without USE_NSEC
            if seconds >= written and seconds:
                raise Unusual("an entry git would look at again")
            at += self._length(raw, at)
        if at > len(raw) - hs:
            raise Unusual("entries past the end")
        return starts

    def _name(self, buf: bytearray, at: int) -> tuple[int, int]:
        """Where the entry at `at` has its path, and its flags (an extended entry has two bytes more)."""
        flags = int.from_bytes(buf[at + 40 + self.hash_size : at + 42 + self.hash_size], "big")
        return at + 42 + self.hash_size + (2 if flags & _EXTENDED else 0), flags

    def _length(self, buf: bytearray, at: int) -> int:
        """The entry's bytes: its path ends with one to eight NULs, to a multiple of eight."""
        return ((buf.index(b"\0", self._name(buf, at)[0]) - at) // 8 + 1) * 8

    def _path(self, buf: bytearray, at: int) -> tuple[bytes, int]:
        """An entry's path and flags."""
        name, flags = self._name(buf, at)
        return bytes(buf[name : buf.index(b"\0", name)]), flags

    def _find(self, buf: bytearray, path: bytes) -> int:
        """The position of path's first entry, or where it would go (entries sort by path, then stage)."""
        lo, hi = 0, len(self._starts)
        while lo < hi:
            mid = (lo + hi) // 2
            if self._path(buf, self._starts[mid])[0] < path:
                lo = mid + 1
            else:
                hi = mid
        return lo

    def _put(self, buf: bytearray, path: bytes, entry: Change) -> None:
        starts = self._starts
        at = self._find(buf, path)
        here = self._path(buf, starts[at]) if at < len(starts) else None
        if here is not None and here[0] == path:
            if here[1] & (_STAGE | _EXTENDED):
                raise Unusual("a path in conflict or with extended flags")
            old = slice(starts[at], starts[at] + self._length(buf, starts[at]))
            if at + 1 < len(starts) and self._path(buf, starts[at + 1])[0] == path:
                raise Unusual("a path in conflict")
        else:
            if entry is None:
                return  # not in the index: removing it changes nothing
            inside = self._find(buf, path + b"/")
            if inside < len(starts) and self._path(buf, starts[inside])[0].startswith(path + b"/"):
                raise Unusual("a folder where the path's file would go")
            folder = path
            while b"/" in folder:
                folder = folder.rpartition(b"/")[0]
                found = self._find(buf, folder)
                if found < len(starts) and self._path(buf, starts[found])[0] == folder:
                    raise Unusual("a file where the path's folder is")
            old = slice(starts[at], starts[at]) if at < len(starts) else slice(len(buf), len(buf))
        new = b"" if entry is None else self._entry(path, entry)
        buf[old] = new
        shift = len(new) - (old.stop - old.start)
        first = old.start
        if entry is None:
            del starts[at]
        elif here is None or here[0] != path:
            starts.insert(at, first)
            at += 1
        else:
            at += 1
        if shift:
            starts[at:] = array("L", (s + shift for s in starts[at:]))

    def _entry(self, path: bytes, entry: tuple[str, str]) -> bytes:
        mode, oid = entry
        sha = bytes.fromhex(oid)
        if len(sha) != self.hash_size:
            raise Unusual("an object id of another length")
        head = bytes(24) + int(mode, 8).to_bytes(4, "big") + bytes(12) + sha
        head += min(len(path), _NAME).to_bytes(2, "big") + path
        return head + bytes(8 - len(head) % 8)

    def _extensions(self, raw: bytearray, at: int, end: int) -> list[tuple[bytes, bytes]]:
        found = []
        while at < end:
            signature, size = raw[at : at + 4], int.from_bytes(raw[at + 4 : at + 8], "big")
            if signature not in _KEPT or at + 8 + size > end:
                raise Unusual(f"the {signature!r} extension")
            found.append((bytes(signature), bytes(raw[at + 8 : at + 8 + size])))
            at += 8 + size
        return found


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
