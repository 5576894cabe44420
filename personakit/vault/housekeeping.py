"""Bringing a vault made by an older PersonaKit up to date, at start, under the vault lock.

- git's index: 0.1 made it a split index of version 4, which libgit2 and isomorphic-git (Obsidian Git)
  cannot read; `store/history.py` converts it once, and catches up on updates to it that had to wait.
- `.gitignore`: 0.1's template ignored only Obsidian's workspace files, so a vault opened in Obsidian
  showed its settings as changes. The template's own line is replaced by `.obsidian/` in a commit of its
  own, authored by PersonaKit and saying why: written but not committed, the change would show in
  `git status`, in `doctor`, and in the owner's next commit under the owner's name. An owner who removed
  or edited that line, or who is editing `.gitignore` right now, keeps their file as it is.
"""

from __future__ import annotations

import logging

from personakit.errors import PersonaKitError
from personakit.store.objects.commits import FALLBACK_EMAIL
from personakit.vault.state import Vault

log = logging.getLogger("personakit")

OLD_OBSIDIAN_LINE = ".obsidian/workspace*.json"  # 0.1's template
OBSIDIAN_LINE = ".obsidian/"


def bring_up_to_date(kit: Vault) -> None:
    kit.history.prepare()
    try:
        ignore_obsidian(kit)
    except (PersonaKitError, OSError) as error:  # never a reason not to start
        log.info("left .gitignore as it is for now: %s", error)


def ignore_obsidian(kit: Vault) -> None:
    path = kit.root / ".gitignore"
    try:
        lines = path.read_text().splitlines()
    except OSError:
        return
    if OLD_OBSIDIAN_LINE not in lines or OBSIDIAN_LINE in lines:
        return
    if kit.history.trouble(quick=True) or kit.history.changed(".gitignore"):
        return  # mid-merge, or the owner's own edit in progress: theirs to commit
    path.write_text("".join(f"{OBSIDIAN_LINE if line == OLD_OBSIDIAN_LINE else line}\n" for line in lines))
    kit.history.commit(
        [".gitignore"],
        "Ignore .obsidian/: Obsidian's settings belong to the app, not to the memories (PersonaKit housekeeping)",
        author=("PersonaKit", FALLBACK_EMAIL),
    )
    log.info("updated .gitignore to ignore .obsidian/ (committed)")
