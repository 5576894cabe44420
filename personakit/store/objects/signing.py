"""Signing PersonaKit's commits when the owner's git config asks for it.

`git commit-tree` ignores `commit.gpgSign` (git dropped that in 2.9, for plumbing), so `store/history.py`
asks this module whether to pass `-S`; git then signs with whatever `gpg.format` (openpgp, ssh, x509),
`gpg.program` and `user.signingKey` say. The answer is read again whenever one of git's config files
changes. When signing fails, the commit is made unsigned, and that is said once, with git's reason;
signing is tried again after the config changes.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable
from pathlib import Path

from personakit.store.objects.trees import stamp as stamp_of

log = logging.getLogger("personakit")


class Signing:
    def __init__(self, asked: Callable[[], bool]) -> None:
        self._asked = asked  # reads commit.gpgSign from git's config
        self._stamp: tuple[object, ...] | None = None
        self._sign = False

    def wanted(self, git_dir: Path, common_dir: Path) -> bool:
        stamp = tuple(map(stamp_of, config_files(git_dir, common_dir)))
        if stamp != self._stamp:
            self._stamp, self._sign = stamp, self._asked()
        return self._sign

    def failed(self, reason: str, root: Path) -> None:
        self._sign = False  # until a config file changes
        log.warning(
            "your git config asks for signed commits (commit.gpgSign), but git could not sign (%s), so "
            "PersonaKit's commits are unsigned until that is fixed; check gpg.format, gpg.program and "
            "user.signingKey (this shows git's error: git -C %s commit-tree -S -m test HEAD^{tree})",
            reason,
            root,
        )


def config_files(git_dir: Path, common_dir: Path) -> list[Path]:
    """git's config files, as git finds them for this repository."""
    home = Path.home()
    return [
        git_dir / "config.worktree", common_dir / "config",
        Path(os.environ.get("GIT_CONFIG_GLOBAL") or home / ".gitconfig"),
        Path(os.environ.get("XDG_CONFIG_HOME") or home / ".config") / "git" / "config",
        Path(os.environ.get("GIT_CONFIG_SYSTEM") or "/etc/gitconfig"),
    ]  # fmt: skip
