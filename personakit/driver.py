"""The git merge driver for `memories/*.md`: PersonaKit's per-memory rules for a plain `git pull` or merge.

git runs `python -m personakit.driver BASE OURS THEIRS PATH` (the `%O %A %B %P` of a merge driver) when a
memory file changed on both sides; the merged file must be left in OURS. The rules are `core.merging`'s,
with this device's version (ours; the commit being replayed, in a rebase) as "here".

One rule needs a second file: when the text was edited on both sides, the other side's text becomes a
second memory. A driver can only write its own file, so this one writes the second memory straight into
`memories/` beside it, as a new file that git does not know yet; PersonaKit commits it (as a hand edit)
the next time it runs, and until then `git status` shows it. Forgotten on one side and edited on the other
never reaches a driver: git stops on it as a modify/delete conflict (`git add` the file keeps the edit).

`install(history)` writes the driver into the vault's git config (not versioned: each clone needs it;
PersonaKit does it at start), as a shell command that falls back to git's own text merge when the Python
that installed it is gone. A vault without the `.gitattributes` line gets it in `.git/info/attributes`.
"""

from __future__ import annotations

import logging
import os
import shlex
import subprocess
import sys
import tempfile
from typing import TYPE_CHECKING

from personakit.core.memory import InvalidMemory, parse_memory, slug
from personakit.core.merging import merge_memory

if TYPE_CHECKING:
    from personakit.store.history import History

ATTRIBUTE = "memories/*.md merge=personakit"
log = logging.getLogger("personakit")


def command(python: str | None = None) -> str:
    """The shell command git runs; git's text merge when this Python (or PersonaKit in it) is gone."""
    py = shlex.quote(python or sys.executable)
    return (
        f"{py} -c 'import personakit.driver' 2>/dev/null && exec {py} -m personakit.driver %O %A %B %P"
        " || git merge-file -L ours -L base -L theirs %A %O %B"
    )


def install(history: History) -> None:
    """Make the vault's git use the driver (cheap when it already does: one `git config` read). A
    failure (a config file another process holds, a read-only .git) is logged and leaves the vault
    with git's text merge; it never stops PersonaKit from starting."""
    from personakit.store.history import GitError
    from personakit.store.plumbing import Plumbing

    git = Plumbing(history)
    want = command()
    try:
        if git.config("merge.personakit.driver") == want:
            return
        git.set_config("merge.personakit.name", "PersonaKit's per-memory rules (docs/sync.md)")
        git.set_config("merge.personakit.driver", want)
        versioned = history.root / ".gitattributes"
        if versioned.is_file() and ATTRIBUTE in versioned.read_text(encoding="utf-8", errors="replace"):
            return
        info = git.git_dir / "info" / "attributes"  # a vault from before sync: per clone, like the config
        known = info.read_text(encoding="utf-8") if info.is_file() else ""
        if ATTRIBUTE not in known:
            info.parent.mkdir(parents=True, exist_ok=True)
            _write(str(info), known + ("\n" if known and not known.endswith("\n") else "") + ATTRIBUTE + "\n")
    except (GitError, OSError) as error:
        log.info("could not install the merge driver for memory files (%s); git merges them as text", error)


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
    _write(ours_path, merged.text)
    if merged.second is not None:
        folder = os.path.dirname(name) or "."
        memory = parse_memory(merged.second)
        stem = os.path.join(folder, slug(memory.text))
        candidates = [f"{stem}.md", f"{stem}-{memory.id[2:8]}.md"] + [
            f"{stem}-{memory.id[2:8]}-{n}.md" for n in range(2, 100)
        ]
        target = next(c for c in candidates if not os.path.lexists(c))
        _write(target, merged.second)
        print(
            f"personakit: {target} is a new memory; PersonaKit commits it when it next runs", file=sys.stderr
        )
    for note in merged.notes:
        print(f"personakit: {note.sentence()}", file=sys.stderr)
    return 0


def _read(path: str) -> str:
    with open(path, "rb") as handle:
        return handle.read().decode("utf-8")


def _write(path: str, text: str) -> None:
    folder = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=".personakit-merge-")
    with os.fdopen(fd, "wb") as handle:
        handle.write(text.encode("utf-8"))
    os.replace(tmp, path)


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
        print("usage: python -m personakit.driver BASE OURS THEIRS PATH (run by git)", file=sys.stderr)
        return 2
    return merge_files(*args)


if __name__ == "__main__":
    sys.exit(main())
