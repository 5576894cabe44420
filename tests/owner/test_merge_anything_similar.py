"""Every memory `personakit similar` lists can be merged, whatever its state or its origin: with
`personakit merge ID INTO`, or from `review` (key m), which offers imported near-duplicates and walks the
decided ones too. The more private decision wins a merge."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pexpect
from owner import changed_lines, clean, cli_process, git, propose, subjects

from personakit.core.memory import parse_memory
from personakit.core.naming import memory_id

PROMPT = r"decide( \[[^\]]*\])?: "


def pk(vault: Path, *args: str) -> str:
    done = cli_process(*args, "--vault", str(vault))
    assert done.returncode == 0, done.stderr
    return done.stdout


def review(vault: Path) -> pexpect.spawn:
    return pexpect.spawn(
        sys.executable, ["-m", "personakit", "review", "--vault", str(vault)],
        env=dict(os.environ), encoding="utf-8", timeout=20, dimensions=(50, 200),
    )  # fmt: skip


def test_an_imported_near_duplicate_is_marked_and_review_offers_the_merge(
    vault: Path, tmp_path: Path
) -> None:
    (peanuts,) = propose(vault, "Allergic to peanuts", quote="I can't eat peanuts")
    pk(vault, "approve", peanuts)
    source = tmp_path / "saved.txt"
    source.write_text("User has a peanut allergy.\n")
    assert f"(similar to {peanuts})" in pk(vault, "import", str(source), "--from", "chatgpt")
    imported = memory_id("Has a peanut allergy")
    listed = pk(vault, "similar")
    assert f"personakit merge {imported} {peanuts}" in listed
    (path,) = [p for p in (vault / "memories").glob("has-a-peanut-allergy*.md")]
    assert parse_memory(path.read_text()).similar == (peanuts,)

    child = review(vault)
    child.expect(PROMPT)
    shown = str(child.before)
    assert f"near-duplicate of {peanuts} (approved): Allergic to peanuts" in shown
    assert "a/r/s/e/c/m/n/q" in child.after
    child.send("m")
    child.expect(f"merged into {peanuts}")
    child.expect(pexpect.EOF)
    assert "Done: 1 merged; 0 still unconfirmed." in str(child.before)
    assert not path.exists() and subjects(vault)[0] == f"merge {imported} into {peanuts}: Allergic to peanuts"
    assert clean(vault)


def test_two_approved_near_duplicates_are_merged_from_the_command_line_or_review(vault: Path) -> None:
    blunt, direct, tea, green = propose(
        vault, "Prefers blunt feedback", "Likes blunt, direct feedback", "Drinks green tea", "Likes green tea"
    )
    pk(vault, "approve", blunt, direct, tea, green)
    assert "2 groups of near-duplicates" in pk(vault, "similar")

    merged = pk(vault, "merge", direct, blunt)
    assert merged.startswith(f"{direct} merged into {blunt} (approved): Prefers blunt feedback")
    assert f"  its quote now on {blunt}: 'I said: likes blunt, direct feedback'" in merged
    files, lines = changed_lines(vault)
    assert len(files) == 2 and "+  - 'I said: likes blunt, direct feedback'" in lines

    child = review(vault)  # nothing unconfirmed: review still reaches the decided near-duplicates
    child.expect("Nothing to review: no memory is unconfirmed.")
    child.expect("1 decided memory repeats an older one")
    child.expect(PROMPT)
    assert f"{green}  (preferences, approved)" in str(child.before)
    assert f"near-duplicate of {tea} (approved): Drinks green tea" in str(child.before)
    child.send("m")
    child.expect(f"merged into {tea}")
    child.expect(pexpect.EOF)
    assert "Done: 1 merged; 0 still unconfirmed." in str(child.before)
    assert pk(vault, "similar").strip() == "No near-duplicates."
    assert clean(vault)


def test_the_more_private_decision_wins_a_merge(vault: Path) -> None:
    blunt, direct = propose(vault, "Prefers blunt feedback", "Likes blunt, direct feedback")
    pk(vault, "approve", blunt)
    pk(vault, "restrict", direct)
    said = pk(vault, "merge", direct, blunt)
    assert f"{blunt} is now restricted, as {direct} was" in said
    assert git(vault, "show", "HEAD:memories/prefers-blunt-feedback.md").count("state: restricted") == 1
    found = json.loads(pk(vault, "search", "blunt feedback", "--json"))
    assert found["memories"] == [] and found["withheld"] == 1  # neither memory's quotes are served now

    (gone,) = propose(vault, "Drinks green tea")
    pk(vault, "reject", gone)
    (other,) = propose(vault, "Likes green tea")
    refused = cli_process("merge", gone, other, "--vault", str(vault))
    assert refused.returncode == 1 and "is rejected; nothing was merged" in refused.stderr


def test_a_skipped_unconfirmed_near_duplicate_does_not_hide_the_decided_ones(vault: Path) -> None:
    blunt, direct = propose(vault, "Prefers blunt feedback", "Likes blunt, direct feedback")
    pk(vault, "approve", blunt, direct)
    (again,) = propose(vault, "Likes blunt feedback")  # unconfirmed, a near-duplicate of both
    child = review(vault)
    child.expect(rf"\[1/1\] {again}")
    child.expect(PROMPT)
    child.send("n")  # skipped: it stays unconfirmed, in the same group as the two approved ones
    child.expect("1 decided memory repeats an older one")
    child.expect(rf"\[1/1\] {direct}  \(\w+, approved\)")
    child.expect(PROMPT)
    child.send("m")
    child.expect(rf"1 {blunt}  2 {again}\s+merge into \(1-2")  # both others of its group are offered
    child.send("1")
    child.expect(f"merged into {blunt}")
    child.expect(pexpect.EOF)
    assert "Done: 1 merged; 1 still unconfirmed." in str(child.before)
