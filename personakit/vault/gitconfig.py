"""The vault's own git settings, written at `init` and at every start (git's config is per clone, so a
fresh clone gets them here, and a setting another tool changed is put back).

- The merge driver for `memories/*.md` (`sync.driver`): a shell command that falls back to git's own text
  merge when the Python that installed it is gone. A vault without the `.gitattributes` line gets it in
  `.git/info/attributes`.

The vault layer writes them because every process that opens a vault must; the driver itself, which only
git runs, lives with sync.
"""

from __future__ import annotations

import logging
import shlex
import sys

from personakit.store.files import write_whole
from personakit.store.history import GitError, History
from personakit.store.plumbing import Plumbing

ATTRIBUTE = "memories/*.md merge=personakit"
log = logging.getLogger("personakit")


def command(python: str | None = None) -> str:
    """The shell command git runs; git's text merge when this Python (or PersonaKit in it) is gone."""
    py = shlex.quote(python or sys.executable)
    return (
        f"{py} -c 'import personakit.sync.driver' 2>/dev/null && exec {py} -m personakit.sync.driver %O %A %B %P"
        " || git merge-file -L ours -L base -L theirs %A %O %B"
    )


def install(history: History) -> None:
    """Make the vault's git use the driver (cheap when it already does: one `git config` read). A
    failure (a config file another process holds, a read-only .git) is logged and leaves the vault
    with git's text merge; it never stops PersonaKit from starting."""
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
            write_whole(
                str(info), known + ("\n" if known and not known.endswith("\n") else "") + ATTRIBUTE + "\n"
            )
    except (GitError, OSError) as error:
        log.info("could not install the merge driver for memory files (%s); git merges them as text", error)
