"""Ways to commit one memory file without touching what the owner staged, timed at 1k and 10k memories.

Each way makes the same commit (one new memory file on top of HEAD) with git's command line, the way
`store/history.py` runs it (hooks off), and ends with the owner's `.git/index` holding that file as
committed and nothing else changed. The vault's `.git/index` is version 2 without a split index in
every case except `shared-split-v4` (0.1's way, for comparison), because libgit2 and isomorphic-git
cannot read the others. The baseline is the owner's own `git add` + `git commit` of one new file.

    python bench/commit_paths.py                   # 1k and 10k, 40 commits per way
    python bench/commit_paths.py --sizes 10000 --commits 60
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from generate import memories

from personakit.core.memory import render_memory
from personakit.store.history import History

NO_HOOKS = ["-c", "core.hooksPath=/dev/null"]
ENV = os.environ | {
    "GIT_AUTHOR_NAME": "bench", "GIT_AUTHOR_EMAIL": "bench@example.invalid",
    "GIT_COMMITTER_NAME": "bench", "GIT_COMMITTER_EMAIL": "bench@example.invalid",
    "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": "/dev/null",
}  # fmt: skip


def git(root: Path, *args: str, index: Path | None = None, stdin: str | None = None) -> str:
    env = ENV if index is None else ENV | {"GIT_INDEX_FILE": str(index)}
    done = subprocess.run(
        ["git", *NO_HOOKS, *args], cwd=root, env=env, input=stdin, capture_output=True, text=True, check=True
    )
    return done.stdout


def make_vault(n: int, root: Path) -> None:
    (root / "memories").mkdir(parents=True)
    for memory in memories(n, 1):
        (root / "memories" / memory.name).write_text(render_memory(memory), encoding="utf-8")
    (root / "README.md").write_text("vault\n")
    git(root, "init", "-q", "-b", "main")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "generated")
    git(root, "repack", "-a", "-d", "-q")
    (root / "notes.txt").write_text("the owner's own work\n")
    git(root, "add", "notes.txt")  # staged by the owner: every way below must leave it staged


def new_file(root: Path, k: int) -> str:
    path = f"memories/bench-commit-path-{k:05d}.md"
    (root / path).write_text(f"---\nid: m_{k:012x}\nstate: unconfirmed\n---\nBench memory number {k}\n")
    return path


def commit(root: Path, tree: str, message: str) -> None:
    head = git(root, "rev-parse", "HEAD").strip()
    sha = git(root, "commit-tree", tree, "-p", head, "-m", message).strip()
    git(root, "update-ref", "HEAD", sha, head)


def owner_index(root: Path, path: str) -> None:
    git(root, "add", "-A", "--", path) if path == "memories" else git(
        root, "update-index", "--add", "--remove", "--", path
    )


# -- the ways --------------------------------------------------------------------------------------------
def shared(root: Path, path: str) -> None:
    """0.1: stage in the owner's index and write its tree (sweeps the owner's staged work in)."""
    git(root, "update-index", "--add", "--remove", "--", path)
    commit(root, git(root, "write-tree").strip(), f"add {path}")


def private(root: Path, path: str, *, split: bool = True, owner: bool = True) -> None:
    """An index of PersonaKit's own in .git/personakit-index, kept level with HEAD across commits."""
    index = root / ".git" / "personakit-index"
    head = git(root, "rev-parse", "HEAD").strip()
    marker = root / ".git" / "personakit-index.head"
    if not index.exists() or marker.read_text() != head:
        git(root, "read-tree", "HEAD", index=index)
        if split:
            git(root, "update-index", "--split-index", "--index-version", "4", index=index)
    git(root, "update-index", "--add", "--remove", "--", path, index=index)
    tree = git(root, "write-tree", index=index).strip()
    sha = git(root, "commit-tree", tree, "-p", head, "-m", f"add {path}").strip()
    git(root, "update-ref", "HEAD", sha, head)
    marker.write_text(sha)
    if owner:
        owner_index(root, path)


def temp_read_tree(root: Path, path: str) -> None:
    """A fresh index from HEAD every time (read-tree), thrown away after."""
    with tempfile.TemporaryDirectory(dir=root / ".git") as tmp:
        index = Path(tmp) / "index"
        git(root, "read-tree", "HEAD", index=index)
        git(root, "update-index", "--add", "--remove", "--", path, index=index)
        commit(root, git(root, "write-tree", index=index).strip(), f"add {path}")
    owner_index(root, path)


def mktree(root: Path, path: str) -> None:
    """No index at all: hash the blob, rebuild the memories/ tree and the root tree with mktree."""
    blob = git(root, "hash-object", "-w", "--", path).strip()
    folder, name = path.split("/")
    entries = [e for e in git(root, "ls-tree", "-z", f"HEAD:{folder}").split("\0") if e]
    entries = [e for e in entries if e.split("\t", 1)[1] != name] + [f"100644 blob {blob}\t{name}"]
    sub = git(root, "mktree", "-z", stdin="\0".join(entries) + "\0").strip()
    top = [e for e in git(root, "ls-tree", "-z", "HEAD").split("\0") if e]
    top = [e for e in top if e.split("\t", 1)[1] != folder] + [f"040000 tree {sub}\t{folder}"]
    commit(root, git(root, "mktree", "-z", stdin="\0".join(top) + "\0").strip(), f"add {path}")
    owner_index(root, path)


def owner_baseline(root: Path, path: str) -> None:
    """What the owner does by hand: git add + git commit (their hooks would run; there are none here)."""
    git(root, "add", "--", path)
    git(root, "commit", "-q", "-m", f"add {path}", "--", path)


_histories: dict[Path, History] = {}


def personakit(root: Path, path: str) -> None:
    """What store/history.py does: its own index (version 4) kept level with HEAD, then git's index."""
    history = _histories.get(root) or _histories.setdefault(root, History(root))
    history.commit([path], f"add {path}")


WAYS: dict[str, Callable[[Path, str], None]] = {
    "owner git add + commit": owner_baseline,
    "shared-split-v4 (0.1)": shared,
    "shared-v2": shared,
    "private split v4 + owner v2": private,
    "private v2 + owner v2": lambda r, p: private(r, p, split=False),
    "private split v4, owner later": lambda r, p: private(r, p, owner=False),
    "temp read-tree + owner v2": temp_read_tree,
    "mktree + owner v2": mktree,
    "store/history.py (this branch)": personakit,
}


def measure(n: int, commits: int, base: Path) -> dict[str, list[float]]:
    """Each way in its own copy of one vault; the ways take turns, commit by commit, so that a change in
    the machine's load falls on all of them alike."""
    pristine = base / f"pristine-{n}"
    if not pristine.exists():
        make_vault(n, pristine)
    roots = {}
    for i, way in enumerate(WAYS):
        root = roots[way] = base / f"work-{n}-{i}"
        subprocess.run(["cp", "-a", str(pristine), str(root)], check=True)
        if way.startswith("shared-split"):
            git(root, "update-index", "--index-version", "4")
            git(root, "update-index", "--split-index")
        git(root, "update-index", "-q", "--refresh")
        WAYS[way](root, new_file(root, 0))  # warm up (and build a private index)
    times: dict[str, list[float]] = {way: [] for way in WAYS}
    for k in range(1, commits + 1):
        for way, fn in WAYS.items():
            path = new_file(roots[way], k)
            t0 = time.perf_counter()
            fn(roots[way], path)
            times[way].append((time.perf_counter() - t0) * 1000)
    for way, root in roots.items():
        if way.endswith("owner later"):  # the catch-up, once, after the burst (not timed)
            owner_index(root, "memories")
        staged = git(root, "diff", "--cached", "--name-only").split()
        if not way.startswith(("shared", "owner")):
            assert staged == ["notes.txt"], (way, staged)
        shutil.rmtree(root)
    return times


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--sizes", nargs="*", type=int, default=[1000, 10000])
    parser.add_argument("--commits", type=int, default=40)
    parser.add_argument("--ways", nargs="*", help="only the ways whose names start with these")
    args = parser.parse_args()
    for way in [w for w in WAYS if args.ways and not w.startswith(tuple(args.ways))]:
        del WAYS[way]
    with tempfile.TemporaryDirectory(prefix="commit-paths-") as tmp:
        for n in args.sizes:
            times = measure(n, args.commits, Path(tmp))
            base = statistics.median(times["owner git add + commit"])
            print(f"\n{n:,} memories, {args.commits} commits each; load {os.getloadavg()[0]:.1f}")
            print(f"{'way':34} {'p50 ms':>8} {'p90 ms':>8} {'x owner':>8}")
            for way, samples in times.items():
                p50 = statistics.median(samples)
                p90 = statistics.quantiles(samples, n=10)[-1]
                print(f"{way:34} {p50:8.1f} {p90:8.1f} {p50 / base:8.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
