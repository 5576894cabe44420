"""The commit object written in the process, as `git commit-tree -m` writes it, when nothing is unusual.

A commit is a few lines: its tree, its parent, who wrote it and when (author and committer), and the
message. Who is what git says (`git var GIT_AUTHOR_IDENT` and `GIT_COMMITTER_IDENT`: the environment,
then git's config, as git reads them), asked again whenever one of git's config files or the identity
variables change; PersonaKit's own author (an assistant) replaces the author's name and email, trimmed of
what git trims. When is now, in the local time zone. Anything less plain goes to `git commit-tree`
itself: a signed commit, a date set in the environment, a commit encoding, an identity git refuses.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Mapping
from pathlib import Path

from personakit.store.objects.trees import Objects, stamp

IDENTITY_VARIABLES = ("GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL", "GIT_COMMITTER_NAME", "GIT_COMMITTER_EMAIL",
                      "GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM", "GIT_CONFIG_NOSYSTEM", "XDG_CONFIG_HOME", "HOME",
                      "EMAIL")  # fmt: skip
FALLBACK_NAME = "PersonaKit"
FALLBACK_EMAIL = "personakit@localhost"
NO_IDENTITY = (  # the one way PersonaKit says it, wherever it says it
    f"git has no name and email for you on this machine, so your commits are signed "
    f"'{FALLBACK_NAME} <{FALLBACK_EMAIL}>'; to sign them as you, run: "
    "git config --global user.name 'Your Name' && git config --global user.email you@example.com"
)


def half_identity(name: str, email: str) -> str:
    """What to say when git has only one of the owner's name and email (the commits use it)."""
    if name:
        return (
            f"git has your name ({name}) but no email on this machine, so your commits are signed "
            f"'{name} <{FALLBACK_EMAIL}>'; to add your email, run: git config --global user.email you@example.com"
        )
    return (
        f"git has your email ({email}) but no name on this machine, so your commits are signed "
        f"'{fallback_name(email)} <{email}>'; to add your name, run: git config --global user.name 'Your Name'"
    )


def fallback_name(email: str) -> str:
    """The name commits carry when git has only the owner's email: the email's first part."""
    return email.partition("@")[0].strip() or FALLBACK_NAME


def identity_note(name: str, email: str) -> str | None:
    """What to tell the owner about the identity their commits carry: nothing when git has their name and
    email, else what is missing and how to set it."""
    if name and email:
        return None
    return NO_IDENTITY if not (name or email) else half_identity(name, email)


def fallback_env(name: str, email: str) -> dict[str, str]:
    """The identity variables that fill in what git lacks (name, email: what it has, "" for none): the
    fallback's, except that an email alone keeps the email and names its first part. Never written into
    the vault's config, so an identity the owner sets later takes over at once."""
    wanted = {
        "NAME": name or (fallback_name(email) if email else FALLBACK_NAME),
        "EMAIL": email or FALLBACK_EMAIL,
    }
    have = {"NAME": name, "EMAIL": email}
    return {
        f"GIT_{who}_{key}": value
        for key, value in wanted.items()
        if not have[key]
        for who in ("AUTHOR", "COMMITTER")
    }


_CRUD = "".join(chr(c) for c in range(33)) + ".,:;<>\"\\'"  # what git trims from a name's or email's ends


def identity(config: Callable[[str], str]) -> tuple[str, str] | None:
    """The name and email the owner's commits are signed with, when the environment (GIT_AUTHOR_* and
    GIT_COMMITTER_*, as git reads them) or git's config (config: a key's value, "" when unset) has both."""
    name, email = configured(config)
    return (name, email) if name and email else None


def configured(config: Callable[[str], str]) -> tuple[str, str]:
    """The owner's name and email as the environment or git's config has them ("" for one it lacks)."""
    found = []
    for key, name in (("NAME", "user.name"), ("EMAIL", "user.email")):
        author, committer = (
            os.environ.get(f"GIT_{who}_{key}", "").strip() for who in ("AUTHOR", "COMMITTER")
        )
        if not (author and committer):
            configured = config(name).strip()
            author, committer = author or configured, committer or configured
        found.append(author if author and committer else "")
    return found[0], found[1]


class Unsigned(Exception):
    """git could not sign the commit the owner's config asks to sign (error: what git raised)."""

    def __init__(self, error: Exception) -> None:
        super().__init__(str(error))
        self.error = error


class Commits:
    def __init__(self, objects: Objects, run: Callable[..., str], config_files: Callable[[], list[Path]],
                 signed: Callable[[], bool]) -> None:  # fmt: skip
        self.objects = objects
        self.run = run  # runs a git command: run(command, *args, env=...) -> its output; raises on failure
        self.config_files = config_files
        self.signed = signed  # does the owner's config ask for signed commits (signing.py)
        self._key: tuple[object, ...] | None = None
        self._who: dict[str, tuple[str, str]] = {}
        self._plain = False
        self._committed = ("", "")

    def make(self, tree: str, parent: str | None, message: str, env: Mapping[str, str],
             by: tuple[str, str] | None, date: str | None = None, sign: bool = True) -> str:  # fmt: skip
        """The commit's id: written here when nothing is unusual, else by `git commit-tree` (signed when
        sign and the config asks; Unsigned when that fails). date: the author's, for a replayed commit."""
        signed = sign and self.signed()
        made = None if signed or date else self.write(tree, parent, message, env, by)
        if made:
            return made
        env = dict(env)
        if by:
            env["GIT_AUTHOR_NAME"], env["GIT_AUTHOR_EMAIL"] = by
        if date:
            env["GIT_AUTHOR_DATE"] = date
        args = [
            "commit-tree",
            tree,
            *(["-p", parent] if parent else []),
            *(["-S"] if signed else []),
            "-m",
            message,
        ]
        try:
            return self.run(*args, env=env).strip()
        except Exception as error:
            if signed:
                raise Unsigned(error) from None
            raise

    def write(
        self, tree: str, parent: str | None, message: str, env: Mapping[str, str], by: tuple[str, str] | None
    ) -> str | None:
        """The commit's id, or None when git commit-tree must make it (see the module's docstring). env:
        the identity variables the vault's commits are made with (the fallback identity's, when git has
        none); by: this commit's author, when not the owner (an assistant)."""
        whole = {**os.environ, **env}
        if "GIT_AUTHOR_DATE" in whole or "GIT_COMMITTER_DATE" in whole:
            return None
        self._refresh(whole)
        if not self._plain or len(self._who) != 2:
            return None
        author, committer = self._who["GIT_AUTHOR_IDENT"], self._who["GIT_COMMITTER_IDENT"]
        if by is not None:  # as git would trim them
            author = (by[0].strip(_CRUD), by[1].strip(_CRUD))
        if not all(author) or any(c in "".join(author) for c in "<>\n"):
            return None
        now, offset = int(time.time()), time.localtime().tm_gmtoff
        when = f"{now} {'-' if offset < 0 else '+'}{abs(offset) // 3600:02d}{abs(offset) % 3600 // 60:02d}"
        lines = [f"tree {tree}", *([f"parent {parent}"] if parent else []),
                 f"author {author[0]} <{author[1]}> {when}", f"committer {committer[0]} <{committer[1]}> {when}",
                 "", message if message.endswith("\n") else message + "\n"]  # fmt: skip
        made = self.objects.write(b"commit", ["\n".join(lines).encode("utf-8")]).hex()
        self._committed = (made, f"{committer[0]} <{committer[1]}> {when}")
        return made

    def committer(self, commit: str) -> str | None:
        """Who committed commit and when ("Name <email> seconds zone"), when it was written here last."""
        return self._committed[1] if self._committed[0] == commit else None

    def _refresh(self, whole: Mapping[str, str]) -> None:
        key = (tuple(map(stamp, self.config_files())), tuple(whole.get(v) for v in IDENTITY_VARIABLES))
        if key == self._key:
            return
        self._key, self._who = key, {}
        self._plain = not self._ask("config", "--get", "i18n.commitEncoding", env=whole)
        for var in ("GIT_AUTHOR_IDENT", "GIT_COMMITTER_IDENT"):
            ident = self._ask("var", var, env=whole)  # "Name <email> 1700000000 +0000"
            name, _, rest = ident.partition(" <")
            email = rest.rpartition("> ")[0]
            if name and email:
                self._who[var] = (name, email)

    def _ask(self, *args: str, env: Mapping[str, str]) -> str:
        try:
            return self.run(*args, env=dict(env)).strip()
        except Exception:  # unset, or git refuses the identity: git commit-tree will say so
            return ""
