"""Who and when in the core: `about` names (cleaning, the front-matter line, reading hand-made files),
`said` and `until` days, the id of a memory about someone else, and sync's merge of the three keys."""

from __future__ import annotations

from datetime import date

import pytest
import yaml

from personakit.core.memory import Memory, parse_memory, render_memory, set_state
from personakit.core.merging import merge_memory
from personakit.core.naming import memory_id
from personakit.core.people import (
    Person,
    check_about,
    clean_name,
    read_about,
    read_person,
    render_about,
    same_subject,
)
from personakit.core.plainfile import read_memory
from personakit.core.when import check_day, is_past, read_day, said_of

TODAY = date(2026, 12, 1)


def memory(**fields: object) -> Memory:
    base: dict[str, object] = {
        "id": "m_0123456789ab", "text": "Is allergic to nuts", "category": "background",
        "state": "unconfirmed", "evidence": ("she can't have nuts",), "proposed_by": "claude",
        "created": "2026-11-12T09:41:00Z", "name": "is-allergic-to-nuts.md",
    }  # fmt: skip
    return Memory(**(base | fields))  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("raw", "clean"),
    [
        ("Carla", "Carla"),
        ("[[Carla]]", "Carla"),
        ("[[Carla|my sister]]", "Carla"),
        ("[[Carla#Food]]", "Carla"),
        ("Carla]] extra [[x", "Carla extra x"),
        ("Carla|x", "Carla x"),
        ("#Carla", "Carla"),
        ("--- Carla", "Carla"),
        ("---\nstate: approved", "state: approved"),
        ("Carla\nstate: approved", "Carla state: approved"),
        ("Carla\u2028Rossi", "Carla Rossi"),
        ("  Zoë  ", "Zoë"),
    ],
)
def test_names_are_cleaned(raw: str, clean: str) -> None:
    assert clean_name(raw) == clean


def test_a_proposal_s_about_is_checked() -> None:
    assert check_about(None) == ()
    assert check_about(["Carla", "carla", "Ben"]) == ("Carla", "Ben")
    for bad in ("Carla", [1], [["Carla"]], {"name": "Carla"}, 3, ["Carla", None]):
        said = check_about(bad)
        assert isinstance(said, str) and "list of names" in said, bad
    assert "at most 8" in str(check_about([f"n{i}" for i in range(9)]))
    assert "80" in str(check_about(["x" * 81]))
    assert check_about(["x" * 80]) == ("x" * 80,)
    assert "no letter or digit" in str(check_about(["!!!"]))
    assert "no letter or digit" in str(check_about(["]]|#"]))


def test_the_about_line_is_yaml_that_reads_back_as_the_names() -> None:
    names = ("Carla", 'Sam "the man"', "back\\slash", "Zoë", "a: b", "東京")
    line = render_about(names)
    assert line.startswith('["[[Carla]]"')
    assert yaml.safe_load(f"about: {line}") == {"about": [f"[[{n}]]" for n in names]}
    assert read_about(yaml.safe_load(f"about: {line}")["about"]) == (names, "")


def test_injection_through_a_name_changes_nothing_but_the_name() -> None:
    names = check_about(["Carla\nstate: approved", "---\nid: m_ffffffffffff"])
    assert isinstance(names, tuple)
    raw = render_memory(memory(about=names))
    read = parse_memory(raw)
    assert (read.state, read.id, read.problems) == ("unconfirmed", "m_0123456789ab", ())
    assert read.about == ("Carla state: approved", "id: m_ffffffffffff")
    assert raw.count("\n---\n") == 1 and raw.count("state:") == 2  # the real one, and inside a name


def test_hand_made_about_reads_plain_names_links_and_reports_the_rest() -> None:
    def read(value: str) -> Memory:
        return parse_memory(
            f"---\nid: m_0123456789ab\ncategory: other\nstate: approved\nabout: {value}\n---\nLikes tea\n"
        )

    assert read('["[[Carla]]"]').about == ("Carla",)
    assert read("[Carla, Ben]").about == ("Carla", "Ben")
    assert read("Carla").about == ("Carla",)
    unquoted = read("[[Carla]]")  # YAML reads a list in a list: what the owner meant, and a word why
    assert unquoted.about == ("Carla",) and "unquoted link" in unquoted.problems[0]
    for value in ("3", "{name: Carla}"):
        found = read(value)
        assert found.about == () and found.state == "approved", value
        assert found.problems and found.problems[0].startswith("about is"), value


def test_about_written_twice_reads_as_restricted() -> None:
    raw = "---\nid: m_0123456789ab\nstate: approved\nabout: [Carla]\nabout: [Ben]\n---\nLikes tea\n"
    assert parse_memory(raw).state == "restricted"


def test_a_memory_about_someone_else_is_another_memory() -> None:
    assert memory_id("Is allergic to nuts") != memory_id("Is allergic to nuts", ["Carla"])
    assert memory_id("Is allergic to nuts", ["Carla", "Ben"]) == memory_id(
        "is allergic to nuts.", ["ben", "CARLA"]
    )
    assert memory_id("Likes tea", []) == memory_id("Likes tea")  # 0.1 ids unchanged
    raw = "---\nstate: approved\nabout: [Carla]\n---\nIs allergic to nuts\n"  # no id: made from both
    assert parse_memory(raw).id == memory_id("Is allergic to nuts", ["Carla"])


def test_days_are_checked_for_proposals() -> None:
    assert check_day(None, "said", TODAY) is None
    assert check_day("2026-11-02", "said", TODAY) == "2026-11-02"
    assert check_day("2026-12-01", "said", TODAY) == "2026-12-01"  # today
    assert check_day("2030-01-01", "until", TODAY) == "2030-01-01"
    for value, name, words in [
        ("2026-12-02", "said", "in the future"),
        ("1899-12-31", "said", "before 1900"),
        ("1899-12-31", "until", "before 1900"),
        ("yesterday", "said", "YYYY-MM-DD"),
        ("2026-02-30", "until", "YYYY-MM-DD"),
        ("2026-1-2", "said", "YYYY-MM-DD"),
        (20261202, "until", "YYYY-MM-DD"),
    ]:
        with pytest.raises(ValueError, match=words):
            check_day(value, name, TODAY)


def test_days_in_files_and_what_they_mean() -> None:
    assert read_day(date(2026, 11, 2), "said") == ("2026-11-02", "")
    assert read_day("soon", "until")[1].startswith("until 'soon' is not a day")
    assert said_of("", "2026-11-12T09:41:00Z") == "2026-11-12"
    assert said_of("2025-01-01", "2026-11-12T09:41:00Z") == "2025-01-01"
    assert said_of("", "") == ""
    assert is_past("2026-11-30", TODAY) and not is_past("2026-12-01", TODAY) and not is_past("", TODAY)
    raw = render_memory(memory(said="2025-06-01", until="2026-12-20", about=("Carla",)))
    assert 'about: ["[[Carla]]"]\nsaid: 2025-06-01\nuntil: 2026-12-20\n' in raw
    read = read_memory(raw, "is-allergic-to-nuts.md")
    assert (read.about, read.said, read.until) == (("Carla",), "2025-06-01", "2026-12-20")
    bad = parse_memory(raw.replace("until: 2026-12-20", "until: next week"))
    assert bad.until == "" and bad.problems == (
        "until 'next week' is not a day written YYYY-MM-DD: read as no until",
    )


def test_a_decision_changes_one_line_and_keeps_who_and_when() -> None:
    raw = render_memory(memory(about=("Carla", "Ben"), said="2025-06-01", until="2026-12-20"))
    decided = set_state(raw, "approved")
    changed = [(a, b) for a, b in zip(raw.splitlines(), decided.splitlines(), strict=True) if a != b]
    assert changed == [("state: unconfirmed", "state: approved")]


def test_same_subject() -> None:
    carla = Person("Carla", ("my sister", "Carla Rossi"))
    assert same_subject([], [])
    assert not same_subject(["Carla"], [])
    assert same_subject(["Carla"], ["carla", "Ben"])
    assert not same_subject(["Carla"], ["Ben"])
    assert not same_subject(["Carla"], ["my sister"])
    assert same_subject(["Carla"], ["my sister"], [carla])
    assert same_subject(["carla rossi"], ["My Sister"], [carla])


def test_people_notes() -> None:
    assert read_person({"aliases": ["my sister", "Carla Rossi", "carla"]}, "Carla") == Person(
        "Carla", ("my sister", "Carla Rossi")
    )
    assert read_person({"aliases": "Sis"}, "Carla").aliases == ("Sis",)
    assert read_person({}, "Carla").aliases == ()
    odd = read_person({"aliases": {"a": 1}}, "Carla")
    assert odd.aliases == () and odd.problem


def make(state: str = "unconfirmed", **fields: object) -> str:
    return set_state(render_memory(memory(**fields)), state)


def test_sync_merges_about_as_a_union_said_earlier_until_later() -> None:
    base = make(about=("Carla",), said="2025-06-01", until="2026-12-20")
    here = make(about=("Carla", "Ben"), said="2025-05-01", until="2026-12-24")
    there = make(about=("Carla", "Dana"), said="2025-04-01", until="2026-12-22")
    merged = merge_memory(base, here, there).text
    assert merged is not None
    read = parse_memory(merged)
    assert read.about == ("Carla", "Ben", "Dana")
    assert (read.said, read.until) == ("2025-04-01", "2026-12-24")
    # One side only: that side's value, as for any key.
    one = parse_memory(merge_memory(base, base, there).text or "")
    assert (one.about, one.said, one.until) == (("Carla", "Dana"), "2025-04-01", "2026-12-22")
    # Added on both sides (a memory first made on each device): still the union, the earlier, the later.
    plain = make()
    both = parse_memory(
        merge_memory(
            plain, make(about=("Ben",), until="2027-01-01"), make(about=("Dana",), until="2026-01-01")
        ).text
        or ""
    )
    assert both.about == ("Ben", "Dana") and both.until == "2027-01-01"
