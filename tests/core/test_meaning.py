"""The related-words table and its engine (issue 19): which words count as one, which are only near."""

from __future__ import annotations

from pathlib import Path

import pytest

from personakit.core.meaning import (
    EXPAND_LIMITS,
    WIDE_MOST,
    _kinds,
    expand,
    explained,
    memory_words,
    near_words,
    same_words,
)
from personakit.core.words import STOP_WORDS, words

TABLE = Path(__file__).resolve().parents[2] / "personakit" / "core" / "meaning" / "related.tsv"


def _one(word: str) -> str:
    (found,) = words(word)
    return found


# -- the table and the engine ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("word", "other"),
    [
        ("allergy", "allergic"),  # a derivation that keeps its beginning
        ("vegetarian", "vegetarianism"),
        ("answer", "reply"),  # each word's dominant sense is the same synset
        ("doctor", "physician"),
        ("deploy", "deployment"),
    ],
)
def test_words_of_the_same_meaning_are_one_class(word: str, other: str) -> None:
    assert _one(other) in same_words(_one(word))
    assert _one(word) in same_words(_one(other))  # stored both ways


@pytest.mark.parametrize(
    ("word", "near"),
    [("dinner", "meal"), ("dinner", "food"), ("cook", "dinner"), ("format", "bullet"), ("answer", "format")],
)
def test_topic_words_are_near_not_the_same(word: str, near: str) -> None:
    assert _one(near) in near_words(_one(word))
    assert _one(near) not in same_words(_one(word))


def test_rare_senses_do_not_make_synonyms() -> None:
    # "pet" can mean to caress, "go" to travel, "cook" to prepare: none counts as the same word.
    assert _one("kiss") not in same_words(_one("pet"))
    assert _one("prepare") not in same_words(_one("cook"))
    assert _one("call") not in same_words(_one("meeting"))


def test_expansion_is_capped_and_deterministic() -> None:
    question = words("food meal dinner eat cook recipe diet format answer travel schedule family health")
    first, second = expand(question), expand(list(question))
    assert first == second
    per_word, most = EXPAND_LIMITS
    assert len(first.near) <= most
    for term in question:
        assert sum(1 for source, _ in first.near if source == term) <= per_word
    counted = first.counted
    assert len(counted) == len(set(counted))  # a word is in one class only
    assert not {near for _, near in first.near} & set(counted)


def test_the_table_is_sorted_by_bytes_with_one_line_per_word() -> None:
    lines = TABLE.read_text(encoding="utf-8").splitlines()
    keys = [line.split("\t", 1)[0] for line in lines]
    assert keys == sorted(keys, key=lambda k: k.encode()) and len(keys) == len(
        set(keys)
    )  # bisection needs it
    assert all(line.count("\t") == 2 for line in lines)


WORDNET = Path("/usr/share/wordnet")


@pytest.mark.slow
@pytest.mark.skipif(
    not (WORDNET / "data.noun").exists(), reason="WordNet 3.0 is not installed (wordnet-base)"
)
def test_the_script_rebuilds_the_shipped_table_byte_for_byte(tmp_path: Path) -> None:
    import subprocess
    import sys

    out = tmp_path / "related.tsv"
    script = Path(__file__).resolve().parents[2] / "tools" / "build_meaning.py"
    subprocess.run([sys.executable, str(script), "--out", str(out)], check=True, capture_output=True)
    assert out.read_bytes() == TABLE.read_bytes()  # deterministic, and the shipped table is the script's


def test_a_word_reaches_the_topics_of_the_words_that_count_as_it() -> None:
    assert "diet" in same_words("dietary") and "diet" not in near_words("dietary")
    assert "vegetarian" in near_words("dietary") and "doctor" in near_words("dietary")


def test_the_fill_looks_for_every_topic_word_the_near_words_cap_leaves_out() -> None:
    found = expand(words("What should I cook for dinner?"))
    near = {word for _, word in found.near}
    wide = [word for _, word in found.wide]
    assert "allergic" not in near and "allergic" in wide
    assert wide[: len(found.near)] == [word for _, word in found.near]  # the near words lead, in order
    assert len(wide) == len(set(wide)) <= WIDE_MOST and not set(wide) & set(found.counted)


def test_a_product_named_in_a_memory_brings_its_kind_as_words_of_the_memory() -> None:
    own, quoted = memory_words("Uses Neovim as her main editor", ["tmux all day"])
    assert {"neovim", "editor", "ide"} <= set(own) and own.count("editor") == 1  # no word twice
    assert {"tmux", "terminal", *words("multiplexer")} <= set(quoted) and not set(own) & set(quoted)
    assert memory_words("Eats fish and reads Kafka", [])[0] == words("Eats fish and reads Kafka")


def test_the_kinds_table_names_products_by_one_word_that_is_no_everyday_word() -> None:
    kinds = _kinds()
    assert len(kinds) > 150 and all(kinds.values())
    everyday = {"fish", "black", "kitty", "latex", "java", "rust", "react", "bash", "windows", "go", "slack"}
    everyday |= {"fedora", "peloton", "homebrew", "django", "svelte", "poetry", "yarn", "safari", "excel"}
    assert not everyday & set(kinds) and not STOP_WORDS & set(kinds)


def test_the_owner_is_told_which_product_brought_a_shared_word() -> None:
    reach = expand(words("Which IDE or terminal does she like?"))
    shared, _ = explained(reach, "Uses Neovim inside a terminal", ["nvim always"])
    assert ("ide", "neovim's kind") in shared and ("terminal", "terminal") in shared
