"""How a review ends and in what order it walks: Ctrl-C says the same summary as q and ends the line;
memories proposed in the same second come in the order they were committed."""

from __future__ import annotations

import os
import signal
import sys
from pathlib import Path

import pexpect
from owner import commit_all, propose, write_memory

from personakit.core.naming import memory_id

PROMPT = r"decide( \[[^\]]*\])?: "


def review(vault: Path) -> pexpect.spawn:
    return pexpect.spawn(
        sys.executable, ["-m", "personakit", "review", "--vault", str(vault)],
        env=dict(os.environ), encoding="utf-8", timeout=20, dimensions=(50, 200),
    )  # fmt: skip


def test_ctrl_c_says_the_summary_q_would_and_ends_the_line(vault: Path) -> None:
    propose(vault, "Drinks green tea", "Uses vim", "Reads on the train", "Hates early calls")
    child = review(vault)
    for key in "aa":
        child.expect(PROMPT)
        child.send(key)
        child.expect("approved")
    child.expect(PROMPT)
    child.sendintr()  # Ctrl-C, as the terminal sends it
    child.expect(pexpect.EOF)
    said = str(child.before)
    assert "Done: 2 approved; 2 still unconfirmed." in said
    assert said.endswith("\r\n") and "Traceback" not in said
    child.close()
    assert child.exitstatus == 130 or child.signalstatus == signal.SIGINT


def test_memories_made_in_the_same_second_come_in_commit_order(vault: Path) -> None:
    # Two files with one `created`, committed in the order opposite to their names and ids.
    second = "2026-03-04T05:06:07Z"
    write_memory(vault, "zz-first.md", "Zebra crossings make me nervous", created=second)
    commit_all(vault, "propose the first")
    write_memory(vault, "aa-second.md", "Apples before lunch", created=second)
    commit_all(vault, "propose the second")
    child = review(vault)
    child.expect(r"\[1/2\] (m_[0-9a-f]{12})")
    assert child.match.group(1) == memory_id("Zebra crossings make me nervous")
    child.expect(PROMPT)
    child.send("n")
    child.expect(r"\[2/2\] (m_[0-9a-f]{12})")
    assert child.match.group(1) == memory_id("Apples before lunch")
    child.expect(PROMPT)
    child.send("q")
    child.expect(pexpect.EOF)
