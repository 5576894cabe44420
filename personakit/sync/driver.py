"""The git merge driver for `memories/*.md`: PersonaKit's per-memory rules for a plain `git pull` or merge.

git runs `python -m personakit.sync.driver BASE OURS THEIRS PATH` (the `%O %A %B %P` of a merge driver) when a
memory file changed on both sides; the merged file must be left in OURS. The rules are `core.merging`'s,
with this device's version (ours; the commit being replayed, in a rebase) as "here".

One rule needs a second file: when the text was edited on both sides, the other side's text becomes a
second memory. A driver can only write its own file, so this one writes the second memory straight into
`memories/` beside it, as a new file that git does not know yet; PersonaKit commits it (as a hand edit)
the next time it runs, and until then `git status` shows it. Forgotten on one side and edited on the other
never reaches a driver: git stops on it as a modify/delete conflict (`git add` the file keeps the edit).

`vault.gitconfig.install` writes this driver into the vault's git config at init and at every start.
"""

from __future__ import annotations

import logging
import os
import subprocess
import sys

from personakit.core.memory import InvalidMemory, parse_memory
from personakit.core.merging import merge_memory
from personakit.core.naming import slug
from personakit.store.files import write_whole

log = logging.getLogger("personakit")


def merge_files(base_path: str, ours_path: str, theirs_path: str, name: str) -> int:
    """Merge the three versions; 0 when merged, 1 when git must report a conflict."""
    base, ours, theirs = (_read(p) for p in (base_path, ours_path, theirs_path))
    here, there = (theirs, ours) if _rebasing() else (ours, theirs)
    try:
        merged = merge_memory(base or None, here, there)
    except (InvalidMemory, UnicodeError):
        return _text_merge(base_path, ours_path, theirs_path)
    if merged.text is None:  # both sides have the file when git calls a driver; keep ours all the same
        return 0
    write_whole(ours_path, merged.text)
    if merged.second is not None:
        folder = os.path.dirname(name) or "."
        memory = parse_memory(merged.second)
        stem = os.path.join(folder, slug(memory.text))
        candidates = [f"{stem}.md", f"{stem}-{memory.id[2:8]}.md"] + [
            f"{stem}-{memory.id[2:8]}-{n}.md" for n in range(2, 100)
        ]
        target = next(c for c in candidates if not os.path.lexists(c))
        write_whole(target, merged.second)
        print(
            f"personakit: {target} is a new memory; PersonaKit commits it when it next runs", file=sys.stderr
        )
    for note in merged.notes:
        print(f"personakit: {note.sentence()}", file=sys.stderr)
    return 0


def _read(path: str) -> str:
    with open(path, "rb") as handle:
        return handle.read().decode("utf-8")


def _rebasing() -> bool:
    git_dir = os.environ.get("GIT_DIR", ".git")
    return any(os.path.isdir(os.path.join(git_dir, d)) for d in ("rebase-merge", "rebase-apply"))


def _text_merge(base: str, ours: str, theirs: str) -> int:
    done = subprocess.run(
        ["git", "merge-file", "-L", "ours", "-L", "base", "-L", "theirs", ours, base, theirs], check=False
    )
    return 1 if done.returncode else 0


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 4:
        print("usage: python -m personakit.sync.driver BASE OURS THEIRS PATH (run by git)", file=sys.stderr)
        return 2
    return merge_files(*args)


if __name__ == "__main__":
    sys.exit(main())
