"""`personakit clone URL [PATH]`: the vault on the next device, ready to sync.

`git clone` alone is not enough: a remote made with plain `git init --bare` names a branch it does not
have, so the clone checks out nothing; a repository that is not a vault should not become one by accident;
and git's config, where the merge driver and `pull.rebase` live, is never cloned. So this clones with git
(its credentials, its network), checks out the vault's branch when the remote's HEAD named none, checks
that what arrived is a vault, and opens it once, which writes the vault's git settings
(`vault/gitconfig.py`), builds the index, and records who committed to it so far: the identities this
device will trust (`vault/identities.py`). Anything that fails removes what it made.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

from personakit.errors import PersonaKitError
from personakit.vault import identities
from personakit.vault.service import PersonaKit


@dataclass(frozen=True)
class Cloned:
    root: Path
    memories: int
    trusted: list[str]  # the addresses in its history and this device's own: their changes apply at once


def clone(url: str, root: Path, interactive: bool) -> Cloned:
    if root.exists() and (not root.is_dir() or any(root.iterdir())):
        raise PersonaKitError(f"{root} already exists; choose a new folder: personakit clone URL PATH")
    made = not root.exists()
    try:
        _git(None, "clone", "--quiet", "--", url, str(root), interactive=interactive)
        if _git(root, "rev-parse", "--verify", "-q", "HEAD", check=False) == "":
            _check_out_branch(root)
        if not (root / "memories").is_dir():
            raise PersonaKitError(
                f"{url} is not a PersonaKit vault (it has no memories/ folder); nothing was kept"
            )
        kit = PersonaKit(root, create=False)
        try:
            kit.start()
            count = len(kit.files.list())
            trusted = identities.known(kit.history)
        finally:
            kit.close()
    except BaseException:
        if made:
            shutil.rmtree(root, ignore_errors=True)
        else:
            for child in root.iterdir():
                shutil.rmtree(child, ignore_errors=True) if child.is_dir() else child.unlink()
        raise
    return Cloned(root, count, sorted(trusted))


def _check_out_branch(root: Path) -> None:
    """The remote's HEAD named a branch it does not have: check out main, or its only branch."""
    branches = _git(root, "branch", "-r", "--format=%(refname:lstrip=3)").split()
    branches = [b for b in branches if b != "HEAD"]
    chosen = "main" if "main" in branches else branches[0] if len(branches) == 1 else None
    if chosen is None:
        raise PersonaKitError(
            "the remote is empty or has several branches and names none as its default; nothing was kept"
        )
    _git(root, "checkout", "-q", chosen)


def _git(where: Path | None, *args: str, interactive: bool = False, check: bool = True) -> str:
    env = dict(os.environ)
    if not interactive:
        env |= {"GIT_TERMINAL_PROMPT": "0", "GCM_INTERACTIVE": "never"}
        env.setdefault("GIT_SSH_COMMAND", "ssh -o BatchMode=yes -o ConnectTimeout=20")
    command = ["git", "-c", "core.hooksPath=/dev/null", *(["-C", str(where)] if where else []), *args]
    done = subprocess.run(command, capture_output=True, text=True, env=env, check=False, timeout=600)
    if check and done.returncode:
        said = [line for line in done.stderr.splitlines() if line.strip()]
        raise PersonaKitError(f"git could not {args[0]}: {said[-1] if said else 'no reason given'}")
    return done.stdout.strip()
