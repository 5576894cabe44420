"""The first second after start: a file copied while no server ran (a sync tool's "conflicted copy", a file
manager's copy) and made more private is seen before the first answer, by reads and by both resources,
and the profile applies "the most private copy wins" for as long as the server runs."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest
from git import Repo

from personakit.core.naming import memory_id
from personakit.vault.service import PersonaKit

from rawclient import RawServer

TEA = "Drinks green tea every morning"


def _served(server: RawServer, tea: str) -> dict[str, bool]:
    """What the server shows of the memory: in a read, as its resource, in the profile."""
    read = server.call("personakit_read", question="green tea")["structuredContent"]
    one = server.request("resources/read", {"uri": f"personakit://memory/{tea}"})
    profile = server.request("resources/read", {"uri": "personakit://profile"})
    return {
        "read": tea in [m["id"] for m in read["memories"]],
        "resource": "result" in one,
        "profile": "green tea" in profile["result"]["contents"][0]["text"],
    }


@pytest.mark.parametrize(
    ("state", "how"), [("restricted", "new"), ("rejected", "new"), ("restricted", "over")]
)
def test_a_copy_made_while_no_server_ran_is_seen_before_the_first_answer(
    vault: Path, state: str, how: str
) -> None:
    tea = memory_id(TEA)
    original = vault / "memories" / "drinks-green-tea-every-morning.md"
    original.write_text(
        f"---\nid: {tea}\ncategory: preferences\nstate: approved\nevidence:\n  - green tea, always\n---\n{TEA}\n",
        encoding="utf-8",
    )
    other = vault / "memories" / "likes-jazz.md"  # another memory, whose file the copy may replace
    other.write_text(original.read_text().replace(TEA, "Likes jazz").replace(tea, memory_id("Likes jazz")))
    Repo(vault).git.add("-A")
    Repo(vault).git.commit("-qm", "setup")
    kit = PersonaKit(vault, create=False)
    kit.start()  # an index that knows the approved file, as after any earlier session
    kit.close()

    copy = (
        other if how == "over" else vault / "memories" / "drinks-green-tea-every-morning (conflicted copy).md"
    )
    copy.write_text(original.read_text().replace("state: approved", f"state: {state}"), encoding="utf-8")
    then = original.stat().st_mtime_ns
    os.utime(copy, ns=(then, then))  # as `cp -p` or a sync tool keeps it: only its ctime is new

    server = RawServer(vault)
    try:
        first = _served(server, tea)  # the first requests after the handshake
        time.sleep(1.5)  # the start-up pass has run by now
        later = _served(server, tea)
    finally:
        server.close()
    assert first == {"read": False, "resource": False, "profile": False}
    assert later == {"read": False, "resource": False, "profile": False}
