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

from personakit.store.history import FALLBACK_EMAIL, GitError, History

KEY = "personakit.known"
CHECKED = "refs/personakit/checked"  # the commit up to which this device has looked at who changed what
ASSISTANT_EMAIL = "assistant@personakit.invalid"


def known(history: History) -> set[str]:
    """The addresses whose changes apply at once, this device's own among them."""
    try:
        listed = str(history.git.config("--get-all", KEY, with_exceptions=False))
    except GitError:
        listed = ""
    found = {line.strip().casefold() for line in listed.splitlines() if line.strip()}
    own = history.identity()
    found.add((own[1] if own else FALLBACK_EMAIL).casefold())
    found.discard(ASSISTANT_EMAIL)
    return found


def trust(history: History, emails: set[str]) -> None:
    """Add addresses to the known ones."""
    have = known(history)
    for email in sorted({e.casefold() for e in emails} - have - {ASSISTANT_EMAIL}):
        history.git.config("--add", KEY, email)


def looked(history: History) -> tuple[str | None, str | None]:
    """HEAD, and the commit this device last looked at (one git command: this runs before every intake)."""
    out = str(history.git.rev_parse("HEAD", CHECKED, with_exceptions=False)).split()
    shas = [s for s in out if len(s) == 40 and all(c in "0123456789abcdef" for c in s)]
    head = shas[0] if shas and out and out[0] == shas[0] else None
    return head, (shas[1] if head and len(shas) > 1 else None)


def checked(history: History) -> str | None:
    try:
        return str(history.git.rev_parse("--verify", "-q", f"{CHECKED}^{{commit}}")).strip() or None
    except GitError:
        return None


def mark_checked(history: History, commit: str) -> None:
    history.git.update_ref("-m", "personakit: looked at who changed what", CHECKED, commit)


def first_look(history: History, head: str) -> None:
    """A clone PersonaKit has not looked at yet: everyone in its history is known; look from head on."""
    authors = str(history.git.log("--format=%ae", head))
    trust(history, {line.strip() for line in authors.splitlines() if line.strip()})
    mark_checked(history, head)
