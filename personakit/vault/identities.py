"""The identities this vault knows: who may make a memory more visible from another device.

Kept in the vault's own git config (`personakit.known`, one email a line), which git never sends to a
remote and no pull, merge or clone can change: someone who can push to the remote cannot add themselves.
Each device keeps its own list:

- the first time PersonaKit looks at a clone's history, every author in it is known (a clone trusts what
  it was cloned from: `personakit clone` prints who they are), assistants excepted (an assistant only
  ever proposes, so its address never makes a memory more visible);
- this device's own git identity is always known;
- the owner adds an identity by accepting its changes (`personakit review`, `personakit sync --accept`).

Addresses are compared case-folded. A git identity is a claim, not a proof: anyone can commit as
`Sam <sam@example.net>`; docs/design.md says what this does and does not stop.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from personakit.store.history import GitError, History
from personakit.store.objects.commits import FALLBACK_EMAIL

KEY = "personakit.known"
CHECKED = "refs/personakit/checked"  # the commit up to which this device has looked at who changed what
ASSISTANT_EMAIL = "assistant@personakit.invalid"
_SHA = re.compile(r"[0-9a-f]{40}")
_KNOWN: dict[Path, tuple[tuple[float, ...], set[str]]] = {}  # vault -> (its config files' times, known)


def known(history: History) -> set[str]:
    """The addresses whose changes apply at once, this device's own among them (read again only when a
    git config file changed)."""
    stamp = _stamp(history)
    cached = _KNOWN.get(history.root)
    if cached is not None and cached[0] == stamp:
        return set(cached[1])
    try:
        listed = str(history.git.config("--get-all", KEY, with_exceptions=False))
    except GitError:
        listed = ""
    found = {line.strip().casefold() for line in listed.splitlines() if line.strip()}
    found.add((history.configured()[1] or FALLBACK_EMAIL).casefold())  # whatever this device commits as
    found.discard(ASSISTANT_EMAIL)
    _KNOWN[history.root] = (stamp, found)
    return set(found)


def _stamp(history: History) -> tuple[float, ...]:
    home = Path.home()
    files = [
        history.dirs()[1] / "config",
        Path(os.environ.get("GIT_CONFIG_GLOBAL") or home / ".gitconfig"),
        Path(os.environ.get("XDG_CONFIG_HOME") or home / ".config") / "git" / "config",
    ]
    times = []
    for path in files:
        try:
            times.append(path.stat().st_mtime_ns)
        except OSError:
            times.append(0)
    names = ("GIT_AUTHOR_EMAIL", "GIT_COMMITTER_EMAIL")
    return (*times, hash(tuple(os.environ.get(n, "") for n in names)))


def trust(history: History, emails: set[str]) -> None:
    """Add addresses to the known ones."""
    have = known(history)
    for email in sorted({e.casefold() for e in emails} - have - {ASSISTANT_EMAIL}):
        history.git.config("--add", KEY, email)
    _KNOWN.pop(history.root, None)


def looked(history: History) -> tuple[str | None, str | None]:
    """HEAD, and the commit this device last looked at. Read from git's files (this runs before every
    intake, and a git process costs 5-15 ms); through git when they are in a form not read here."""
    git_dir, common = history.dirs()
    if not (common / "reftable").exists():
        try:
            return _ref(git_dir, common, "HEAD"), _ref(git_dir, common, CHECKED)
        except (OSError, UnicodeError, ValueError):
            pass
    out = str(history.git.rev_parse("HEAD", CHECKED, with_exceptions=False)).split()
    shas = [s for s in out if _SHA.fullmatch(s)]
    head = shas[0] if shas and out and out[0] == shas[0] else None
    return head, (shas[1] if head and len(shas) > 1 else None)


def _ref(git_dir: Path, common: Path, name: str, depth: int = 0) -> str | None:
    """What a ref names, from its loose file or packed-refs; None when it does not exist."""
    if name == "HEAD" or depth:
        where = git_dir if name == "HEAD" else common
        try:
            text = (where / name).read_text(encoding="utf-8").strip()
        except FileNotFoundError:
            text = ""
        if text.startswith("ref: ") and depth < 5:
            return _ref(git_dir, common, text[5:], depth + 1)
        if _SHA.fullmatch(text):
            return text
        if text:
            raise ValueError(f"{name} holds {text[:50]!r}")
    else:
        return _ref(git_dir, common, name, 1)
    packed = common / "packed-refs"
    if packed.exists():
        for line in packed.read_text(encoding="utf-8").splitlines():
            sha, _, ref = line.partition(" ")
            if ref == name and _SHA.fullmatch(sha):
                return sha
    return None


def checked(history: History) -> str | None:
    try:
        return str(history.git.rev_parse("--verify", "-q", f"{CHECKED}^{{commit}}")).strip() or None
    except GitError:
        return None


def mark_checked(history: History, commit: str) -> None:
    """Record commit as looked at: a loose ref file written whole, as git writes one (no git process:
    this runs at start and after each look); through git when the repository keeps refs otherwise."""
    common = history.dirs()[1]
    if (common / "reftable").exists() or not _SHA.fullmatch(commit):
        history.git.update_ref("-m", "personakit: looked at who changed what", CHECKED, commit)
        return
    path = common / CHECKED
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")  # never `.lock`: that name is git's to take
    tmp.write_text(commit + "\n", encoding="ascii")
    os.replace(tmp, path)


def first_look(history: History, head: str) -> None:
    """A clone PersonaKit has not looked at yet: everyone in its history is known; look from head on."""
    authors = str(history.git.log("--format=%ae", head))
    trust(history, {line.strip() for line in authors.splitlines() if line.strip()})
    mark_checked(history, head)
