"""How text becomes words: the one definition of "shares a word"."""

from __future__ import annotations

from personakit.core.words import STOP_WORDS, stem, words


def test_question_words_and_owner_references_are_dropped() -> None:
    assert words("What does the owner usually drink in the morning?") == ["drink", "morn"]
    assert words("the user's dietary restrictions") == ["dietary", "restriction"]


def test_inflections_meet() -> None:
    assert stem("running") == stem("runs") == stem("run") == stem("ran")
    assert stem("meetings") == stem("meeting") == stem("meet")
    assert stem("stopped") == stem("stop")
    assert stem("children") == stem("child")
    assert stem("makes") == stem("making") == stem("make")


def test_unicode_words_are_kept_case_folded_and_distinct() -> None:
    assert words("Café CAFÉ café") == ["café"]
    assert words("مرحبا بالعالم") == ["مرحبا", "بالعالم"]
    assert words("東京に住んでいる") != []
    assert words("🎉🎉🎉") == []


def test_digits_and_times_are_words() -> None:
    assert words("No calls before 10am, 9 or 10") == ["call", "10am", "9", "10"]


def test_stop_words_are_lowercase_single_words() -> None:
    assert all(w == w.casefold() and " " not in w for w in STOP_WORDS)
