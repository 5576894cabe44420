"""`personakit serve` run by hand in a terminal: Ctrl-C ends it on a line of its own."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pexpect


def test_ctrl_c_in_a_terminal_ends_the_line(vault: Path) -> None:
    child = pexpect.spawn(
        sys.executable, ["-m", "personakit", "serve", "--vault", str(vault)],
        env=dict(os.environ), encoding="utf-8", timeout=30,
    )  # fmt: skip
    child.expect("serving")
    child.sendintr()
    child.expect(pexpect.EOF)
    assert str(child.before).endswith("^C\r\n"), repr(child.before)  # the terminal's ^C, then a new line
    child.close()
    assert child.exitstatus == 130
