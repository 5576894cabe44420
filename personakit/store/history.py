"""Git, the vault's log: every proposal and decision is one commit. The only module that imports GitPython.

A commit is built without an index: the blobs, HEAD's trees kept in the process and the commit object
are written here (`store/objects/`), then HEAD moves by compare-and-swap (`store/objects/refs.py`),
while git's index gets the committed paths and nothing else (`store/objects/ownerindex.py`). What the owner
staged stays staged and out of PersonaKit's commits. No owner hook runs (`core.hooksPath=/dev/null` on
every command); commits are signed when the owner's config asks (`store/objects/signing.py`); another
program's `index.lock` is left alone unless it is dead (`store/gitlock.py`). docs/design.md says why.
Callers hold the vault lock, so PersonaKit processes never race each other here.
"""

from __future__ import annotations

import logging
import os
import shutil
import threading
import time
from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass
from pathlib import Path

# A missing git must become our sentence at first use, not an ImportError with a page of text at import.
os.environ.setdefault("GIT_PYTHON_REFRESH", "quiet")
from git import Git, GitCommandError

from personakit.errors import PersonaKitError
from personakit.store import gitlock
from personakit.store.objects import ownerindex
from personakit.store.objects.commits import (
    Commits,
    Unsigned,
    configured,
    fallback_env,
    identity,
    identity_note,
)
from personakit.store.objects.gitindex import GitIndex
from personakit.store.objects.ownerindex import OwnerIndex
from personakit.store.objects.refs import Moved, Refs
from personakit.store.objects.signing import Signing, config_files
from personakit.store.objects.trees import Attributes, Built, Objects, Trees, Unwritten, blobs, stamp

GitError = GitCommandError  # what a failed git command raises, for the modules built on History (plumbing)

log = logging.getLogger("personakit")

NO_GIT = (
    "git is not installed (or not on PATH); PersonaKit keeps the vault's history with it: install git "
    "(https://git-scm.com/downloads) and try again"
)


class History:
    def __init__(self, root: Path, lock: Callable[[], AbstractContextManager[None]] | None = None) -> None:
        if shutil.which(os.environ.get("GIT_PYTHON_GIT_EXECUTABLE") or "git") is None:
            raise PersonaKitError(NO_GIT)
        self.root = root
        self.state = root / ".personakit"
        self.git = Git(str(root))
        self.git.set_persistent_git_options(c="core.hooksPath=/dev/null")  # the owner's hooks never run
        self._identity: dict[str, str] | None = None
        self._dirs: tuple[Path, Path] | None = None
        self._clean_index: tuple[int, int] | None = None
        self._trees: Trees | None = None
        self._refs = Refs(self.dirs, self._run, self.state)
        self._commit_writer: Commits | None = None
        self._attributes = Attributes(root, lambda *args: self._run("check-attr", *args), self.dirs)
        self._signing = Signing(lambda: self.git.config("--type=bool", "--get", "commit.gpgsign",
                                                        with_exceptions=False).strip() == "true")  # fmt: skip
        self.owner_index = OwnerIndex(self.state, self._run_owner, lock, lambda: GitIndex(
            self.dirs()[0] / "index", self.trees().objects.size, self.trees().objects.algorithm))  # fmt: skip

    # -- setting up ---------------------------------------------------------------------------------
    def init(self, paths: list[str]) -> str | None:
        """Make root a repository and commit paths (the template). A sentence when there is no git identity.

        The fallback identity is given to each commit, never written into the vault's config, so an
        identity the owner sets later (globally or in the vault) takes over at once."""
        if not (self.root / ".git").exists():
            self.git.init("-q", "-b", "main")
        self.keep_private()
        said = self.identity_note()
        self.commit(paths, "Create the PersonaKit vault")  # also in a repository that had commits
        return said

    def keep_private(self) -> None:
        """Have git make the repository's files the owner's only, whoever runs git in it and whatever
        their umask (`core.sharedRepository=0600`: files 0600 or 0400, folders 0700)."""
        shared = self.git.config("--local", "--get", "core.sharedRepository", with_exceptions=False)
        if shared.strip() == "0600":
            return
        try:
            self.git.config("--local", "core.sharedRepository", "0600")
        except GitCommandError as error:  # a read-only .git/config: doctor reports the folder's modes
            log.warning("could not set core.sharedRepository in the vault: %s", error)

    def dirs(self) -> tuple[Path, Path]:
        """The git folder and the common one (they differ in a worktree; `.git` may be a file)."""
        if self._dirs is None:
            try:
                out = self.git.rev_parse("--path-format=absolute", "--git-dir", "--git-common-dir")
            except GitCommandError as error:
                dot_git = self.root / ".git"
                what = "a file pointing to a repository" if dot_git.is_file() else "a repository"
                raise PersonaKitError(
                    f"{dot_git} should be {what}, but git cannot open it ({_said(error)}); repair it or "
                    "point PersonaKit at another folder"
                ) from None
            git_dir, common = out.split("\n")[:2]
            self._dirs = Path(git_dir), Path(common)
        return self._dirs

    def prepare(self) -> None:
        """At start, under the vault lock: make git's index one every git reads, and catch up on it."""
        self.state.mkdir(exist_ok=True)
        locks = [self.dirs()[0] / "index.lock", *Refs.locks(*self.dirs())]
        gitlock.clear_if_stale(locks, self.root, self.dirs()[1], self.state)
        asked = self.git.config("--show-scope", "--get-regexp", ownerindex.FORMAT_KEYS, with_exceptions=False)
        split = bool(self._run("rev-parse", "--shared-index-path").strip())
        self.owner_index.prepare(asked, self.dirs()[0] / "index", split)
        for old in ("git-index", "git-index.head", "git-index.lock"):  # where PersonaKit 0.2 built commits
            (self.state / old).unlink(missing_ok=True)

    def owner_identity(self) -> dict[str, str]:
        """Environment for commits by the owner: what git lacks of their identity, from the fallback
        (`store.objects.commits.fallback_env`); what git has is kept."""
        if self._identity is None:
            self._identity = fallback_env(*self.configured())
        return self._identity

    def identity_note(self) -> str | None:
        """What to tell the owner about the identity their commits carry (None: git has all of it)."""
        return identity_note(*self.configured())

    # -- committing ---------------------------------------------------------------------------------
    def head(self) -> str | None:
        return self.git.rev_parse("--verify", "-q", "HEAD", with_exceptions=False).strip() or None

    def _head_and_tree(self) -> tuple[str | None, str | None]:
        """HEAD's commit and tree in one git call (None, None in a repository with no commit yet)."""
        try:
            head, tree = self._run("rev-parse", "HEAD", "HEAD^{tree}").split()
            return head, tree
        except (GitCommandError, ValueError):
            return None, None

    def commit(self, paths: list[str], message: str, author: tuple[str, str] | None = None) -> str | None:
        """Commit the current content of paths (relative to the vault) and nothing else; None when
        nothing changed. Git's index then holds those paths as committed; the rest of it is untouched."""
        return self.land(self.build(paths), message, author)

    def build(self, paths: list[str]) -> Built:
        """A commit's first half, in the caller's thread (Python work, which another thread's would slow
        down for the GIL): the checks, the blobs, and the trees on the HEAD kept, if one is."""
        seen = stamp(self.dirs()[0] / "index")  # git's index as this process last found it free of conflicts
        trouble = self.trouble(quick=seen == self._clean_index)
        if trouble:
            raise PersonaKitError(trouble)
        trees = self.trees()
        try:
            changes = blobs(self.root, paths, trees.objects, self._attributes.plain,
                            lambda chunk: self._run("hash-object", "-w", "--", *chunk).split())  # fmt: skip
            if not trees.known:
                return Built(changes, None, None, None, [])
            unwritten: list[Unwritten] = []
            return Built(changes, trees.commit, trees.tree, trees.apply(changes, unwritten), unwritten)
        except GitCommandError as error:
            trees.forget()
            raise PersonaKitError(f"git could not record the change ({_said(error)})") from None
        except BaseException:
            trees.forget()  # the kept trees may be half changed
            raise

    def land(self, built: Built, message: str, author: tuple[str, str] | None = None) -> str | None:
        """A commit's second half, git's processes: the commit, HEAD moved if it is still the HEAD the trees
        were built on (else built again on the new one), git's index given the committed paths."""
        trees = self.trees()
        # git's index gets the entries meanwhile, by another process: it needs only the blobs' ids.
        staging = threading.Thread(target=self.owner_index.update, args=(built.changes,), daemon=True)
        staging.start()
        try:
            for attempt in range(6):
                if attempt == 0 and built.tree is not None:  # the move's compare-and-swap checks the HEAD
                    head, head_tree, tree = built.head, built.head_tree, built.tree
                    trees.objects.write_all(built.unwritten)
                else:
                    head, head_tree = self._head_and_tree()
                    trees.reset(head, head_tree)
                    tree = trees.apply(built.changes)
                if tree == head_tree:
                    if attempt == 0 and self._head_and_tree()[0] != head:
                        continue  # HEAD moved since: compare with it instead
                    commit = None
                    break
                commit = self._commit_tree(tree, head, message, author)
                who = self._commit_writer.committer(commit) if self._commit_writer else None
                try:
                    self._refs.move(commit, head, f"commit: {message.splitlines()[0]}", who)
                except (GitCommandError, Moved):
                    trees.forget()
                    if self.head() == head:
                        raise  # not a race: git could not move HEAD at all (a held ref lock, say)
                    time.sleep(0.01)  # HEAD moved under us (someone committed by hand): build on the new HEAD
                    continue
                trees.landed(commit, tree, head)
                break
            else:
                raise PersonaKitError("could not commit: the vault's HEAD kept moving; try again")
        except BaseException as error:
            trees.forget()
            staging.join()
            self.owner_index.put_back(list(built.changes))  # HEAD's entries again: nothing was committed
            if isinstance(error, (GitCommandError, Moved)):
                raise PersonaKitError(f"git could not record the change ({_said(error)})") from None
            raise
        staging.join()
        self._clean_index = stamp(self.dirs()[0] / "index")  # no conflict before, none added since
        return commit

    def trees(self) -> Trees:
        """HEAD's trees as this process keeps them (store/objects/trees.py), in the repository's format."""
        if self._trees is None:
            algorithm = self.git.rev_parse("--show-object-format", with_exceptions=False).strip() or "sha1"
            self._trees = Trees(
                Objects(self.dirs()[1] / "objects", algorithm),
                lambda sha: bytes(self.git.cat_file("tree", sha, stdout_as_string=False,
                                                    strip_newline_in_stdout=False)),
            )  # fmt: skip
        return self._trees

    def _commit_tree(self, tree: str, head: str | None, message: str, author: tuple[str, str] | None = None,
                     date: str | None = None) -> str:  # fmt: skip
        """The commit object, by author at date (or the owner, now): see store/objects/commits.py."""
        if self._commit_writer is None:
            self._commit_writer = Commits(self.trees().objects, self._run, lambda: config_files(*self.dirs()),
                                          lambda: self._signing.wanted(*self.dirs()))  # fmt: skip
        try:
            return self._commit_writer.make(tree, head, message, self.owner_identity(), author, date)
        except Unsigned as failed:
            self._signing.failed(_said(failed.error), self.root)  # type: ignore[arg-type]
            return self._commit_writer.make(tree, head, message, self.owner_identity(), author, date, False)

    def unstage(self, paths: list[str]) -> None:
        """After a failed commit: nothing reached git's index or HEAD; read HEAD's trees again next time."""
        self.forget_trees()

    def forget_trees(self) -> None:
        """HEAD moved by another way (a sync): the kept trees are read again from it next time."""
        if self._trees is not None:
            self._trees.forget()

    # -- running git --------------------------------------------------------------------------------
    def _run(self, command: str, *args: str, env: dict[str, str] | None = None) -> str:
        return str(getattr(self.git, command.replace("-", "_"))(*args, env=env))

    def _run_owner(self, command: str, *args: str, wait: float = 2.0) -> str:
        """Run a git command that takes `.git/index.lock`, as `store/gitlock.py` says; PersonaKitError when
        it fails (naming the lock's holder when the lock stayed held)."""
        try:
            return gitlock.run_taking(
                lambda: self._run(command, *args), self.dirs()[0] / "index.lock", self.root, self.dirs()[1],
                self.state, wait,
            )  # fmt: skip
        except GitCommandError as error:
            raise PersonaKitError(f"git could not update its index ({_said(error)})") from None

    # -- reading ------------------------------------------------------------------------------------
    def changed(self, *paths: str) -> set[str]:
        """Which of paths (files or folders) differ from HEAD: modified, added, deleted or untracked."""
        with gitlock.intent(self.state):  # status may take index.lock to refresh git's index
            out = self._run("status", "--porcelain=v1", "-z", "--untracked-files=all", "--", *paths)
        changed: set[str] = set()
        entries = out.split("\0")
        i = 0
        while i < len(entries):
            entry = entries[i]
            if len(entry) > 3:
                changed.add(entry[3:])
                if entry[0] in "RC":  # a rename's source follows as its own entry
                    i += 1
                    changed.add(entries[i])
            i += 1
        return changed

    def show(self, spec: str) -> str:
        return self._run("show", spec)

    def log(self, *args: str) -> str:
        return self._run("log", *args)

    # -- questions the owner asks (issue 3) ---------------------------------------------------------
    def commits(self, *args: str) -> list[Commit]:
        """Commits `git log args` names, newest first (e.g. `"--follow", "--", path` or `"--", "memories"`)."""
        if not self.head():
            return []
        out = self._run("log", f"--format={_LOG_FORMAT}", *args)
        found = []
        for record in out.split("\x1e"):
            parts = record.strip("\n").split("\x1f")
            if len(parts) == 5:
                found.append(Commit(*parts))
        return found

    def trouble(self, quick: bool = False) -> str | None:
        """A sentence when the repository is in the middle of a merge, rebase, cherry-pick or revert
        (quick: only what git's folder shows, without reading its index)."""
        git_dir = self.dirs()[0]
        doing = next((found for found in _IN_PROGRESS if (git_dir / found[0]).exists()), None)
        if doing is None and not quick and self._run("ls-files", "--unmerged").strip():
            doing = _IN_PROGRESS[0]
        if doing is None:
            return None
        _, what, verb = doing
        return (
            f"the vault's git repository is in the middle of {what}; finish it (resolve the conflicts and "
            f"commit with git) or abandon it (git -C {self.root} {verb} --abort), then try again"
        )

    def detached(self) -> bool:
        """True when HEAD is not on a branch (commits still land, but no branch keeps them)."""
        try:
            self.git.symbolic_ref("-q", "HEAD")
            return False
        except GitCommandError:
            return True

    def identity(self) -> tuple[str, str] | None:
        """The name and email the owner's commits are signed with (see `store.objects.commits.identity`)."""
        return identity(self._config)

    def configured(self) -> tuple[str, str]:
        """The owner's name and email as the environment or git config has them ("" for one it lacks)."""
        return configured(self._config)

    def _config(self, key: str) -> str:
        return str(self.git.config(key, with_exceptions=False))

    def ignored(self, path: str) -> bool:
        """Does .gitignore keep path (relative to the vault) out of git?"""
        try:
            self.git.check_ignore("-q", "--", path)
            return True
        except GitCommandError:
            return False

    # -- the owner's command line (issue 14) ----------------------------------------------------------
    def tracked(self, paths: list[str]) -> set[str]:
        """Which of paths HEAD has."""
        if not paths or not self.head():
            return set()
        listed = self._run("ls-tree", "-r", "-z", "--name-only", "HEAD", "--", *paths)
        return set(filter(None, listed.split("\0")))

    def touched_by(self, sha: str) -> list[str]:
        """The paths commit sha changed (renames as a deletion and an addition)."""
        listed = self._run("diff-tree", "-r", "-z", "--no-renames", "--name-only", f"{sha}^", sha)
        return list(filter(None, listed.split("\0")))

    def blob(self, spec: str) -> str | None:
        """The text git has at spec (`REV:PATH`), or None when it has none."""
        try:
            return str(self.git.cat_file("blob", spec, strip_newline_in_stdout=False))
        except GitCommandError:
            return None

    def merge_file(self, ours: str, base: str, theirs: str) -> str | None:
        """`git merge-file -p` of three files: their three-way merge, or None when it clashes."""
        try:
            return str(self.git.merge_file("-p", "-q", ours, base, theirs, strip_newline_in_stdout=False))
        except GitCommandError:
            return None


@dataclass(frozen=True)
class Commit:
    sha: str
    author: str
    email: str
    date: str  # ISO 8601 with the author's offset
    subject: str


def _said(error: GitCommandError | Moved) -> str:
    """What git said went wrong (its first `fatal:` or `error:` line), for a sentence."""
    said = [line.strip() for line in (getattr(error, "stderr", "") or "").splitlines() if line.strip()]
    said = [line.removeprefix("stderr: ").strip("'").strip() for line in said]
    worst = [line for line in said if line.startswith(("fatal:", "error:"))]
    return (worst or said or [str(error)])[0]


_LOG_FORMAT = "%H%x1f%an%x1f%ae%x1f%aI%x1f%s%x1e"
_IN_PROGRESS = (  # (marker in .git, what is going on, the git command that abandons it)
    ("MERGE_HEAD", "a merge", "merge"),
    ("rebase-merge", "a rebase", "rebase"),
    ("rebase-apply", "a rebase", "rebase"),
    ("CHERRY_PICK_HEAD", "a cherry-pick", "cherry-pick"),
    ("REVERT_HEAD", "a revert", "revert"),
)
