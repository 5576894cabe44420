"""What `personakit sync` asks of git: remotes, fetch and push, and commits built off to the side.

Built on `History`'s git handle (so `store/history.py` stays the only importer of GitPython), in a module
of its own so neither grows past a few hundred lines. Nothing here touches the work tree, and git's
index only in `stage` (through `store/objects/ownerindex`, as History's commits do), which
`personakit.sync.syncing` calls under the vault lock: trees are built in an index of their own
(`build_tree`) and commits with `commit-tree`, so a sync can prepare a whole new history and move the
vault to it with one compare-and-swap of HEAD. Like History, it never lets the owner's git hooks run.

Network commands never prompt unless `interactive` (a person at a terminal runs `personakit sync`); then
git's own credential helpers and ssh may ask, as they would for `git pull`. PersonaKit stores no
credential. Objects are read through one `cat-file --batch` process; `close()` ends it.
"""

from __future__ import annotations

import functools
import os
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from personakit.errors import PersonaKitError
from personakit.store.history import GitError, History

NO_HOOKS = ("-c", "core.hooksPath=/dev/null")  # as History runs git: the owner's hooks never run


class RemoteFailed(PersonaKitError):
    """git could not fetch from or push to a remote; `kind` says why, `said` is git's own last line."""

    def __init__(self, kind: str, said: str) -> None:
        super().__init__(said)
        self.kind = kind  # unreachable | credentials | behind | other
        self.said = said


_FAILURES = (  # (kind, what git says), checked in order: an ssh refusal also says "could not read from"
    ("behind", ("[rejected]", "non-fast-forward", "fetch first", "cannot lock ref", "failed to update ref")),
    ("credentials", ("authentication failed", "permission denied", "could not read username",
                     "could not read password", "terminal prompts disabled", "access denied",
                     "invalid username or password", "error: 401", "error: 403", "returned error: 401",
                     "returned error: 403")),
    ("unreachable", ("does not appear to be a git repository", "could not resolve host", "connection refused",
                     "connection timed out", "network is unreachable", "no route to host", "failed to connect",
                     "could not read from remote repository", "unable to access", "not found",
                     "host key verification failed", "timed out", "no such file or directory")),
)  # fmt: skip
Entry = tuple[str, str]  # (mode, object id) of a file in a tree


@dataclass(frozen=True)
class Replayed:
    """A commit to build again on top of another: who made it, when, and what it said."""

    sha: str
    parent: str | None
    author: str
    email: str
    date: str
    message: str
    changes: dict[str, tuple[Entry | None, Entry | None]] = field(default_factory=dict, compare=False)
    merge: bool = False  # more than one parent (changes are against the first)


class Plumbing:
    """Remotes, fetch and push, trees and commits made without touching the work tree or git's index."""

    def __init__(self, history: History) -> None:
        self.history = history
        self.git = history.git
        self._index_tree: str | None = None  # the tree build_tree last wrote, still in its index
        self._index_at: str | None = None  # the commit made of that tree

    @functools.cached_property
    def git_dir(self) -> Path:
        return Path(self.git.rev_parse("--absolute-git-dir").strip())

    def close(self) -> None:
        self.git.clear_cache()

    # remotes
    def remotes(self) -> dict[str, str]:
        try:
            out = self.git.config("--get-regexp", r"^remote\..*\.url$")
        except GitError:
            return {}
        found = (line.split(" ", 1) for line in out.splitlines() if " " in line)
        return {key[len("remote.") : -len(".url")]: url for key, url in found}

    def add_remote(self, name: str, url: str, forget: str) -> None:
        """Add a remote, and forget `forget` (a ref) that an earlier remote of that name left."""
        try:
            self.git.remote("add", name, url)
            self.git.update_ref("-d", forget)
        except GitError as error:
            raise PersonaKitError(f"git could not add the remote ({_last_line(error)})") from None

    def config(self, key: str) -> str | None:
        try:
            return str(self.git.config("--get", key)).strip() or None
        except GitError:
            return None

    def set_config(self, key: str, value: str) -> None:
        self.git.config(key, value)

    def branch(self) -> str | None:
        try:
            return str(self.git.symbolic_ref("-q", "--short", "HEAD")).strip() or None
        except GitError:
            return None

    def fetch(self, remote: str, branch: str, interactive: bool) -> str | None:
        """Fetch the remote's branch; its commit, or None when the remote has no such branch yet."""
        tracking = f"refs/remotes/{remote}/{branch}"
        for attempt in range(3):
            try:
                self._network("fetch", "--no-tags", "--quiet", remote, f"+refs/heads/{branch}:{tracking}",
                              interactive=interactive)  # fmt: skip
                return self.ref(tracking)
            except RemoteFailed as failed:
                if "couldn't find remote ref" in failed.said.lower():
                    return None
                if "cannot lock ref" not in failed.said or attempt == 2:
                    raise
                time.sleep(0.5)  # another fetch (one a killed sync left running) is updating the ref
        raise AssertionError("unreachable")

    def push(self, remote: str, commit: str, branch: str, interactive: bool) -> None:
        """Push commit to the remote's branch: a fast-forward, never forced."""
        self._network("push", "--porcelain", "--no-verify", remote, f"{commit}:refs/heads/{branch}",
                      interactive=interactive)  # fmt: skip

    def remote_head(self, remote: str, interactive: bool) -> tuple[str | None, set[str]]:
        """The branch the remote's HEAD names (None when it names none) and the branches it has."""
        out = self._network("ls-remote", "--symref", remote, "HEAD", "refs/heads/*", interactive=interactive)
        named, branches = None, set()
        for line in out.splitlines():
            if line.startswith("ref: refs/heads/") and line.endswith("\tHEAD"):
                named = line[len("ref: refs/heads/") : -len("\tHEAD")]
            elif "\trefs/heads/" in line:
                branches.add(line.split("\trefs/heads/", 1)[1])
        return named, branches

    def point_head(self, bare: str, branch: str) -> None:
        """Make a bare repository on this machine (a path) name branch as its HEAD, so a clone checks it out."""
        self.git.execute(
            ["git", *NO_HOOKS, "--git-dir", bare, "symbolic-ref", "HEAD", f"refs/heads/{branch}"]
        )

    def _network(self, *args: str, interactive: bool) -> str:
        env = {} if interactive else {"GIT_TERMINAL_PROMPT": "0", "GCM_INTERACTIVE": "never"}
        if not interactive and not os.environ.get("GIT_SSH_COMMAND") and not self.config("core.sshCommand"):
            env["GIT_SSH_COMMAND"] = "ssh -o BatchMode=yes -o ConnectTimeout=20"
        try:
            return str(
                self.git.execute(
                    ["git", *NO_HOOKS, *args], env=env, kill_after_timeout=None if interactive else 300
                )
            )
        except GitError as error:
            text = f"{error.stderr or ''}\n{error.stdout or ''}".lower()
            kind = next((k for k, signs in _FAILURES if any(s in text for s in signs)), "other")
            raise RemoteFailed(kind, _last_line(error)) from None

    # commits and trees
    def ref(self, name: str) -> str | None:
        try:
            return str(self.git.rev_parse("--verify", "-q", f"{name}^{{commit}}")).strip() or None
        except GitError:
            return None

    def move_ref(self, name: str, new: str, old: str | None, why: str) -> bool:
        """Point name at new if it still points at old (None: if it does not exist): compare-and-swap."""
        try:
            self.git.update_ref("-m", why, name, new, old or "0" * 40)
        except GitError:
            return False
        if name == "HEAD":
            self.history.forget_trees()  # the kept trees were the old HEAD's: read the new one's
        return True

    def merge_base(self, a: str, b: str) -> str | None:
        try:
            return str(self.git.merge_base(a, b)).strip() or None
        except GitError:
            return None  # unrelated histories

    def is_ancestor(self, a: str, b: str) -> bool:
        try:
            self.git.merge_base("--is-ancestor", a, b)
            return True
        except GitError:
            return False

    def commits(self, base: str | None, tip: str, *only: str) -> list[Replayed]:
        """The commits in base..tip (only: more `git log` options, such as --grep), oldest first, each
        with the files it changed (a merge: against its first parent), in one `git log`."""
        span = f"{base}..{tip}" if base else tip
        out = self.git.log(
            "--reverse", "--topo-order", "--raw", "--no-renames", "--no-abbrev", "-z",
            "--diff-merges=first-parent", "--format=%x1e%H%x1f%P%x1f%an%x1f%ae%x1f%aI%x1f%B%x1f", *only, span,
            strip_newline_in_stdout=False,
        )  # fmt: skip
        found = []
        for record in str(out).split("\x1e")[1:]:
            sha, parents, name, email, date, message, raw = record.split("\x1f", 6)
            first = parents.split()[0] if parents.split() else None
            commit = Replayed(
                sha, first, name, email, date, message.rstrip("\n"), merge=len(parents.split()) > 1
            )
            commit.changes.update(_raw_changes(raw.lstrip("\0\n").split("\0")))
            found.append(commit)
        return found

    def count(self, base: str | None, tip: str) -> int:
        """How many commits base..tip holds."""
        return int(self.git.rev_list("--count", f"{base}..{tip}" if base else tip).strip())

    def tree(self, commit: str | None) -> dict[str, Entry]:
        """Every file in commit's tree: path -> (mode, blob id)."""
        if commit is None:
            return {}
        out = str(self.git.ls_tree("-r", "-z", "--full-tree", commit, strip_newline_in_stdout=False))
        entries = {}
        for record in out.split("\0"):
            if record:
                meta, path = record.split("\t", 1)
                mode, _, sha = meta.split()
                entries[path] = (mode, sha)
        return entries

    def changes(self, a: str | None, b: str) -> dict[str, tuple[Entry | None, Entry | None]]:
        """The files that differ between two commits (a None: every file of b): path -> (in a, in b)."""
        if a is None:
            return {path: (None, entry) for path, entry in self.tree(b).items()}
        out = str(
            self.git.diff_tree(
                "-r", "-z", "--no-renames", "--no-commit-id", a, b, strip_newline_in_stdout=False
            )
        )
        return _raw_changes(out.split("\0"))

    def mentions(self, commit: str, text: str) -> bool:
        """Does any file under memories/ in commit contain text?"""
        try:
            self.git.grep("-F", "-q", "-e", text, commit, "--", "memories")
            return True
        except GitError:
            return False

    def blob(self, sha: str) -> bytes:
        return bytes(self.git.get_object_data(sha)[3])

    def write_blob(self, data: bytes) -> str:
        with self._scratch(data) as path:
            return str(self.git.hash_object("-w", "--", path)).strip()

    def build_tree(self, start: str | None, changes: dict[str, Entry | None]) -> str:
        """The tree of start with changes applied (an entry, or None to remove the path), built in an
        index of its own so git's index and the work tree are untouched."""
        env = {"GIT_INDEX_FILE": str(self.git_dir / "personakit-sync-index")}
        split = ("-c", "core.splitIndex=false")
        if start is None:
            self.git.execute(["git", *NO_HOOKS, *split, "read-tree", "--empty"], env=env)
        elif start != self._index_at:  # the index holds another tree than start's: read start's
            self.git.execute(["git", *NO_HOOKS, *split, "read-tree", start], env=env)
        gone = [path for path, entry in changes.items() if entry is None]
        put = [f"{mode},{sha},{path}" for path, e in changes.items() if e is not None for mode, sha in [e]]
        if gone:
            self.git.execute(
                ["git", *NO_HOOKS, *split, "update-index", "--force-remove", "--", *gone], env=env
            )
        for i in range(0, len(put), 500):
            args = [a for info in put[i : i + 500] for a in ("--cacheinfo", info)]
            self.git.execute(["git", *NO_HOOKS, *split, "update-index", "--add", *args], env=env)
        self._index_tree, self._index_at = (
            str(self.git.execute(["git", *NO_HOOKS, *split, "write-tree"], env=env)).strip(),
            None,
        )
        return self._index_tree

    def commit_tree(self, tree: str, parent: str | None, message: str, author: Replayed | None = None) -> str:
        """A commit of tree on parent, made by the owner; with author, in that commit's name and date."""
        by, date = ((author.author, author.email), author.date) if author is not None else (None, None)
        commit = self.history._commit_tree(tree, parent, message, by, date)  # signed when the config asks
        if tree == self._index_tree:
            self._index_at = commit  # the next tree built on this commit starts from the index as it is
        return commit

    def merge_text(self, base: bytes, ours: bytes, theirs: bytes) -> bytes | None:
        """git's own three-way merge of a file's texts; None when they conflict (or one is binary)."""
        with self._scratch(ours) as a, self._scratch(base) as o, self._scratch(theirs) as b:
            try:
                out = self.git.merge_file(
                    "-p", "-q", a, o, b, stdout_as_string=False, strip_newline_in_stdout=False
                )
            except GitError:
                return None
        return bytes(out)

    # the vault's own index and work tree
    def stage(self, changes: dict[str, Entry | None]) -> None:
        """Give git's index these entries (None: remove the path), as a commit of PersonaKit's does (through
        `store/objects/ownerindex`, which waits out another program's index.lock, or finishes it later)."""
        self.history.owner_index.update(changes)

    def _scratch(self, data: bytes) -> _Scratch:
        return _Scratch(self.git_dir, data)


class _Scratch:
    """A temporary file inside .git (never in a shared /tmp: memory texts may be private)."""

    def __init__(self, folder: Path, data: bytes) -> None:
        self.folder, self.data, self.path = folder, data, ""

    def __enter__(self) -> str:
        fd, self.path = tempfile.mkstemp(dir=self.folder, prefix="personakit-")
        with os.fdopen(fd, "wb") as handle:
            handle.write(self.data)
        return self.path

    def __exit__(self, *_: object) -> None:
        os.unlink(self.path)


def _raw_changes(fields: list[str]) -> dict[str, tuple[Entry | None, Entry | None]]:
    """`--raw -z` output (`:mode mode sha sha status`, path, ...) as path -> (old entry, new entry)."""
    found: dict[str, tuple[Entry | None, Entry | None]] = {}
    for meta, path in zip(fields[0::2], fields[1::2], strict=False):
        if meta.startswith(":"):
            old_mode, new_mode, old_sha, new_sha, _ = meta[1:].split()
            found[path] = (None if set(old_mode) == {"0"} else (old_mode, old_sha),
                           None if set(new_mode) == {"0"} else (new_mode, new_sha))  # fmt: skip
    return found


def _last_line(error: GitError) -> str:
    """What git said that matters: its last line, without the boilerplate it adds after ssh's reason."""
    text = str(error.stderr or "").strip()
    if text.startswith("stderr: '"):  # GitPython's wrapping
        text = text.removeprefix("stderr: '").removesuffix("'")
    said = [line.strip() for line in text.splitlines() if line.strip()]
    said = [line.removeprefix("fatal: ").removeprefix("error: ") for line in said]
    said = [line for line in said if not line.startswith(_BOILERPLATE)]
    return said[-1] if said else str(error).strip().splitlines()[-1]


_BOILERPLATE = (
    "Could not read from remote repository",
    "Please make sure you have",
    "and the repository exists",
)
