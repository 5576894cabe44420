"""Git objects written in the process: blobs, and HEAD's trees kept in memory and changed in place.

A commit of one changed memory needs its blob, the `memories/` tree (10,000 entries, about 0.8 MB at 10k
memories), the root tree, the commit and the move of HEAD. git's own way (`update-index` into an index
file, then `write-tree`) rewrites and reads back an index of every file for each commit. Here each
folder's tree is kept as its sorted, serialized entries, an entry is replaced or inserted by bisection,
and only the folders on a changed path are hashed and written, as loose objects compressed the way git
writes them (zlib level 1; past STORED_FROM, stored in a zlib stream as it is). Each object goes to a
temporary file first and is linked into place, so a kill leaves no partial object, and one already
there is not written again. Any git reads them.

The kept trees are those of one commit (`commit`). The caller (store/history.py, which runs git) checks
it against HEAD, and the move's compare-and-swap (`refs.py`) catches a HEAD that moved meanwhile; then
the trees are read again from the new HEAD (`reset`, and `read` for each folder on demand). Memory: one bytes
object per entry, about 100 bytes, so about 1 MB at 10k memories and 11 MB at 100k.
"""

from __future__ import annotations

import hashlib
import os
import stat
import zlib
from bisect import bisect_left
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

TREE_MODE = b"40000"
# An object this big (the memories/ tree past ~4,000 memories) is stored without compression: zlib at
# level 1 takes ~7 ms per commit at 10k memories (~70 ms at 100k) and halves its size only until the
# packer packs it (store/packing.py), which it starts after ~60 commits or STORED_BYTES of these.
STORED_FROM = 256 * 1024
CHUNK = 64 * 1024  # bytes compressed and written at a time
KEPT_JOINED = 2 * 1024 * 1024  # an object up to this size is joined once, for its id and its write
STORED = {"bytes": 0}  # written so in this process since it last started a packer: store/packing reads it
BATCH = 200  # paths per git command line (an import commits thousands of files)
Change = tuple[str, str] | None  # (mode, object id in hex) of a file, or None when it is removed
Unwritten = tuple[bytes, Sequence[bytes], bytes]  # an object to write: its kind, its data, its id


@dataclass(frozen=True)
class Built:
    """A commit's trees, built on the kept HEAD (head, head_tree; None when none was kept)."""

    changes: dict[str, Change]
    head: str | None
    head_tree: str | None
    tree: str | None
    unwritten: list[Unwritten]  # the trees' objects, to write before the commit (`write_all`)


class Objects:
    """A repository's object folder: writes loose objects (git's format: `kind size\\0data`, zlib)."""

    def __init__(self, folder: Path, algorithm: str = "sha1") -> None:
        self.folder = folder
        self.algorithm = algorithm  # sha1, or sha256 in a repository made with --object-format=sha256
        self.size = hashlib.new(algorithm).digest_size

    def write(self, kind: bytes, parts: Sequence[bytes], later: list[Unwritten] | None = None) -> bytes:
        """Store the object made of parts (a blob's data; a tree's entries) unless it is there already, or
        add it to later (for `write_all`, on another thread, which gets its id: never hashed twice); its id.
        Parts are joined into pieces of CHUNK bytes, never whole. Up to KEPT_JOINED bytes (the memories/
        tree up to ~25k memories) the pieces are kept for the write; a bigger tree's, held all at once,
        would stay in the server's peak memory (8 MB at 100k), so the write joins its parts again."""
        size = sum(map(len, parts))
        joined = list(_pieces(parts)) if size <= KEPT_JOINED else None
        h = hashlib.new(self.algorithm, b"%s %d\0" % (kind, size))
        for piece in _pieces(parts) if joined is None else joined:
            h.update(piece)
        oid = h.digest()
        if later is None:
            self._store(kind, parts if joined is None else joined, oid)
        else:  # the kept trees change after this: a big tree's entries as they are now
            later.append((kind, tuple(parts) if joined is None else joined, oid))
        return oid

    def write_all(self, objects: list[Unwritten]) -> None:
        for kind, data, oid in objects:
            self._store(kind, data, oid)

    def _store(self, kind: bytes, data: Sequence[bytes], oid: bytes) -> None:
        """The loose object oid, made of data (parts, or pieces joined already), unless it is there already."""
        hexid = oid.hex()
        folder = self.folder / hexid[:2]
        target = folder / hexid[2:]
        if target.exists():
            return
        tmp = folder / f"tmp_obj_{os.urandom(6).hex()}"
        fd = _create(tmp)
        try:
            size = sum(map(len, data))
            stored = size > STORED_FROM
            STORED["bytes"] += size if stored else 0
            compressor = zlib.compressobj(0 if stored else 1)
            os.write(fd, compressor.compress(b"%s %d\0" % (kind, size)))
            for piece in _pieces(data):  # pieces joined already pass through as they are
                os.write(fd, compressor.compress(piece))
            os.write(fd, compressor.flush())
        finally:
            os.close(fd)
        try:
            os.link(tmp, target)  # as git does: never replaces an object another writer put there first
        except FileExistsError:
            pass
        finally:
            tmp.unlink(missing_ok=True)


def _create(tmp: Path) -> int:
    """A new read-only file, as git makes objects, in an object folder made if missing: the packer's `git
    prune-packed` removes a folder it emptied, and may do so between our mkdir and our open (git's own
    writers try again the same way)."""
    attempts = 5
    while True:
        tmp.parent.mkdir(mode=0o700, exist_ok=True)  # git's own mode under core.sharedRepository=0600
        try:
            return os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o444)
        except FileNotFoundError:
            attempts -= 1
            if not attempts:
                raise


def _pieces(parts: Sequence[bytes], size: int = CHUNK) -> Iterator[bytes]:
    """parts joined into pieces of about size bytes (a 10k-entry tree: a dozen pieces). Parts are counted
    off by the first one's length, so the joining happens in C, not in a loop over every tree entry (that
    loop, twice per commit, was 9 ms of a 10k proposal)."""
    if len(parts) <= 1:
        yield from parts
        return
    step = max(1, size // max(1, len(parts[0])))
    for start in range(0, len(parts), step):
        yield b"".join(parts[start : start + step])


def _key(entry: bytes) -> bytes:
    """git's order of tree entries: by name, bytewise, a folder's name read as if it ended in '/'."""
    space = entry.index(b" ")
    name = entry[space + 1 : entry.index(b"\0", space)]
    return name + b"/" if entry[:space] == TREE_MODE else name


class Trees:
    """HEAD's trees, one sorted list of serialized entries per folder read so far."""

    def __init__(self, objects: Objects, read: Callable[[str], bytes]) -> None:
        self.objects = objects
        self.read = read  # a tree object's raw data by its hex id (git cat-file)
        self.commit: str | None = None
        self.tree: str | None = None
        self._folders: dict[str, list[bytes]] = {}
        self._known = False
        self.made: dict[str, str | None] = {}  # commit -> parent, each this process landed (vault/trust.py)

    @property
    def known(self) -> bool:
        """Whether the trees are those of `commit` (False until reset, and after forget)."""
        return self._known

    def reset(self, commit: str | None, tree: str | None) -> None:
        """Keep the trees of commit (None: a repository with no commit yet), read on demand."""
        self.commit, self.tree = commit, tree
        self._folders = {"": self._parse(self.read(tree)) if tree else []}
        self._known = True

    def forget(self) -> None:
        self._known = False
        self._folders = {}

    def landed(self, commit: str, tree: str, parent: str | None = None) -> None:
        """The trees as last changed are now those of commit (made on parent, by this process)."""
        self.commit, self.tree = commit, tree
        self.made[commit] = parent

    def apply(self, changes: dict[str, Change], later: list[Unwritten] | None = None) -> str:
        """Change the kept trees by changes (vault path -> new entry) and write every tree that changed
        (or add them to later: compressing a 10k-entry tree takes about 7 ms, which another thread can
        spend); the new root tree's id. On any failure the caller forgets the trees: they may be half
        changed."""
        touched: set[str] = {""}
        for path, change in changes.items():
            folder, _, name = path.rpartition("/")
            entries = self._folder(folder)
            line = None if change is None else b"%s %s\0%s" % (
                change[0].lstrip("0").encode(), name.encode(), bytes.fromhex(change[1]))  # fmt: skip
            self._put(entries, name.encode(), line)
            while True:
                touched.add(folder)
                if not folder:
                    break
                folder = folder.rpartition("/")[0]
        # Deepest first, so each folder's new id is in its parent before the parent is written.
        for folder in sorted(touched, key=lambda f: -1 if not f else f.count("/"), reverse=True):
            entries = self._folders[folder]
            if not folder:
                continue
            parent, _, name = folder.rpartition("/")
            if entries:
                oid = self.objects.write(b"tree", entries, later)
                entry: bytes | None = b"%s %s\0%s" % (TREE_MODE, name.encode(), oid)
            else:
                entry = None  # git keeps no empty folder
            self._put(self._folder(parent), name.encode(), entry)
        return self.objects.write(b"tree", self._folders[""], later).hex()

    def _folder(self, folder: str) -> list[bytes]:
        """A folder's entries, read from its parent's tree the first time (empty when there is none)."""
        if folder not in self._folders:
            parent, _, name = folder.rpartition("/")
            entries = self._folder(parent)
            at = bisect_left(entries, name.encode() + b"/", key=_key)
            found = entries[at] if at < len(entries) and _key(entries[at]) == name.encode() + b"/" else None
            self._folders[folder] = self._parse(self.read(found[-self.objects.size :].hex())) if found else []
        return self._folders[folder]

    @staticmethod
    def _put(entries: list[bytes], name: bytes, entry: bytes | None) -> None:
        """Replace name's entry (a file's or a folder's) by entry, or remove it (None)."""
        for key in (name, name + b"/"):
            at = bisect_left(entries, key, key=_key)
            if at < len(entries) and _key(entries[at]) == key:
                del entries[at]
        if entry is not None:
            entries.insert(bisect_left(entries, _key(entry), key=_key), entry)

    def _parse(self, data: bytes) -> list[bytes]:
        """A tree object's entries, each as serialized (`mode name\\0id`), in the tree's own order."""
        entries = []
        at, size, end = 0, self.objects.size, len(data)
        while at < end:
            stop = data.index(b"\0", at) + 1 + size
            entries.append(data[at:stop])
            at = stop
        return entries


def blobs(
    root: Path, paths: list[str], objects: Objects, plain: Callable[[str], bool],
    by_git: Callable[[list[str]], list[str]],
) -> dict[str, Change]:  # fmt: skip
    """Each path's new entry (its blob written now), or None for a path that is no file any more.

    Blobs are written in the process, unless git would change the bytes on their way in (`plain` says
    whether a filter, `ident` or a working-tree encoding applies; a carriage return may meet line-ending
    rules): those `by_git` hashes (`hash-object -w`), as `git add` would."""
    changes: dict[str, Change] = {}
    left = []
    for path in paths:
        try:
            st = os.lstat(root / path)
        except FileNotFoundError:
            changes[path] = None
            continue
        if not stat.S_ISREG(st.st_mode):
            changes[path] = None  # a symbolic link or a folder is never committed as a memory
            continue
        mode = "100755" if st.st_mode & 0o100 else "100644"
        data = (root / path).read_bytes()
        if b"\r" in data or not plain(path):
            left.append((path, mode))
        else:
            changes[path] = (mode, objects.write(b"blob", [data]).hex())
    for at in range(0, len(left), BATCH):
        chunk = left[at : at + BATCH]
        for (path, mode), sha in zip(chunk, by_git([p for p, _ in chunk]), strict=True):
            changes[path] = (mode, sha)
    return changes


class Attributes:
    """Whether git stores a path's bytes as they are: no clean filter, `ident` or working-tree encoding set
    for it (`git check-attr`), asked once per folder and suffix while no attributes file changes."""

    def __init__(self, root: Path, check_attr: Callable[..., str], dirs: Callable[[], tuple[Path, Path]]):
        self.root = root
        self.check_attr = check_attr
        self.dirs = dirs
        self._known: dict[tuple[object, ...], bool] = {}

    def plain(self, path: str) -> bool:
        folder, _, name = path.rpartition("/")
        sources = (self.root / ".gitattributes", self.root / folder / ".gitattributes",
                   self.dirs()[1] / "info" / "attributes")  # fmt: skip
        key = (folder, os.path.splitext(name)[1], tuple(stamp(s) for s in sources))
        if key not in self._known:
            said = self.check_attr("-z", "filter", "ident", "working-tree-encoding", "--", path)
            self._known[key] = all(v in ("unspecified", "unset") for v in said.split("\0")[2::3])
        return self._known[key]


def stamp(path: Path) -> tuple[int, int] | None:
    """A file's modification time and size, to tell whether it changed; None when it is missing."""
    try:
        st = path.stat()
    except OSError:
        return None
    return st.st_mtime_ns, st.st_size
