"""`personakit demo`: the whole loop on a throwaway vault, through the real stdio server."""

from __future__ import annotations

import json
import os
import re
import tempfile
from pathlib import Path

import pytest
from owner import cli


def test_demo_shows_proposals_decisions_the_read_and_the_log(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = cli(capsys, "demo")
    assert code == 0
    vault = Path(re.search(r"A throwaway vault: (\S+)", out)[1])  # type: ignore[index]
    assert not vault.exists()  # thrown away
    assert not Path(os.environ["PERSONAKIT_VAULT"]).exists()  # the owner's vault untouched
    assert out.count('{"stored": true') == 4
    assert re.search(r"approved\s+m_[0-9a-f]{12}: Prefers short, direct answers", out)
    assert re.search(r"restricted m_[0-9a-f]{12}: Keeps Thursday afternoons free for therapy", out)
    answer = json.loads(out.split("and gets:\n", 1)[1].split("\n   The restricted", 1)[0])
    assert answer["withheld"] == 1
    assert "therapy" not in json.dumps(answer)
    assert [m["confirmed"] for m in answer["memories"]] == [False, True]
    log = out.split("git recorded every step", 1)[1]
    assert log.count("demo-assistant (assistant)") == 4
    assert "approve m_" in log and "restrict m_" in log and "Create the PersonaKit vault" in log
    assert "exactly the decision: -state: unconfirmed  +state: approved" in out
    assert 'quote: "just give me the answer, skip the intro"' in out  # each proposal's evidence is shown
    assert (
        out.rstrip().splitlines()[-4:][0] == "Next, your own vault:"
        and "personakit init" in out.split("Next")[-1]
    )


def test_demo_keep_leaves_the_vault_to_look_around(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))  # where mkdtemp puts the throwaway vault
    code, out, _ = cli(capsys, "demo", "--keep")
    assert code == 0
    vault = Path(re.search(r"The vault is kept at (\S+):", out)[1])  # type: ignore[index]
    assert vault.is_relative_to(tmp_path)
    assert len(list((vault / "memories").glob("*.md"))) == 4
