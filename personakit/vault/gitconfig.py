"""The vault's own git settings, written at `init` and at every start (git's config is per clone, so a
fresh clone gets them here, and a setting another tool changed is put back).

- The merge driver for `memories/*.md` (`sync.driver`): a shell command that falls back to git's own text
  merge when the Python that installed it is gone, and its line in `.git/info/attributes`, which no pull
  can change and which outranks the versioned `.gitattributes`.
- `pull.rebase=false`, unless the owner chose `pull.rebase` or `pull.ff` at some level: with git's
  defaults a plain `git pull` after both devices changed stops instead of merging through the driver.

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
    """Make the vault's git use the driver, and a plain `git pull` merge through it (cheap when all is in
    place: one `git config` read, one small file read). A failure (a config file another process holds,
    a read-only .git) is logged and leaves the vault with git's text merge; it never stops PersonaKit from
    starting."""
    git = Plumbing(history)
    want = command()
    try:
        found = _settings(git)
        if found.get("merge.personakit.driver") != want:
            git.set_config("merge.personakit.name", "PersonaKit's per-memory rules (docs/sync.md)")
            git.set_config("merge.personakit.driver", want)
        if not {"pull.rebase", "pull.ff"} & found.keys():
            # git's default stops a pull after both devices changed ("Need to specify how to reconcile
            # divergent branches"): a merge goes through the driver. An owner's own choice, at any level, stays.
            git.set_config("pull.rebase", "false")
        # Always in .git/info/attributes, which outranks any .gitattributes: a pull that replaced the
        # versioned file (a union merge, say) cannot take memory files away from the driver.
        info = git.git_dir / "info" / "attributes"
        known = info.read_text(encoding="utf-8") if info.is_file() else ""
        if ATTRIBUTE not in known.splitlines():
            info.parent.mkdir(parents=True, exist_ok=True)
            write_whole(
                str(info), known + ("\n" if known and not known.endswith("\n") else "") + ATTRIBUTE + "\n"
            )
    except (GitError, OSError) as error:
        log.info("could not install the merge driver for memory files (%s); git merges them as text", error)


def _settings(git: Plumbing) -> dict[str, str]:
    """The settings install looks at, from every level of git's config, in one git command."""
    try:
        out = str(git.git.config("--get-regexp", r"^(merge\.personakit\.driver|pull\.rebase|pull\.ff)$"))
    except GitError:
        return {}
    return dict(line.split(" ", 1) for line in out.splitlines() if " " in line)
