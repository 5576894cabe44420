"""The credential check against an outside corpus: the test strings of two public secret scanners,
gitleaks (MIT) and detect-secrets (Apache-2.0), extracted by `tests/data/outside/extract.py` (issue 21).

Targets: at least 97% of their secrets refused, at most 20% of their near-misses (those still shaped like
a secret to a person, such as another provider's key, are reported apart), and every placeholder and
every key its provider documents as public stored. Run `python tests/outside_corpus.py --misses` for the
figures by family.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from outside_corpus import cases, header, measure

MIN_SECRETS_REFUSED = 0.97
MAX_NEAR_MISSES_REFUSED = 0.20


def test_the_corpus_names_its_sources_licences_and_commits() -> None:
    sources = header()["sources"]
    assert isinstance(sources, dict)
    assert {name: source["licence"] for name, source in sources.items()} == {
        "gitleaks": "MIT",
        "detect-secrets": "Apache-2.0",
    }
    assert all(len(source["commit"]) == 40 for source in sources.values())
    labels = [case.label for case in cases()]
    assert labels.count("secret") >= 5000 and labels.count("near-miss") >= 300


def test_outside_secrets_are_refused_and_near_misses_mostly_stored(
    capsys: pytest.CaptureFixture[str], record_property: Callable[[str, object], None]
) -> None:
    results = measure([case for case in cases() if case.label != "out-of-scope"])
    by_group: dict[str, list[bool]] = {}
    for (_, group), rows in results.items():
        by_group.setdefault(group, []).extend(refused for _, refused in rows)
    share = {group: sum(rows) / len(rows) for group, rows in by_group.items()}
    with capsys.disabled():
        print("\noutside corpus refused: " + ", ".join(f"{g} {s:.1%}" for g, s in sorted(share.items())))
    for group, value in share.items():
        record_property(group, round(value, 4))
    missed = [
        case.text[:80]
        for (_, group), rows in results.items()
        if group == "secret"
        for case, r in rows
        if not r
    ]
    assert share["secret"] >= MIN_SECRETS_REFUSED, missed[:20]
    assert share["near-miss"] <= MAX_NEAR_MISSES_REFUSED
    for group in ("placeholder", "public"):  # every one stored
        wrong = [case.text for (_, g), rows in results.items() if g == group for case, r in rows if r]
        assert not wrong, wrong
