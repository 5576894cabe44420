"""core.overlap finds the best memories on bit sets: it must agree exactly with the plain sum it replaces."""

from __future__ import annotations

import heapq

from hypothesis import given, settings
from hypothesis import strategies as st

from personakit.core.overlap import Word, bits, candidates, groups, members, scores

SHARE = 1.0 / 65  # as the index: the fractions of 64 words add up to less than 1


@st.composite
def questions(draw: st.DrawFn) -> tuple[list[Word], int, int]:
    size = draw(st.integers(1, 300))
    docs = st.sets(st.integers(0, size - 1), max_size=size)
    # Few distinct rarities, so that different words often add exactly the same amount (float ties).
    rarity = st.sampled_from([0.1, 0.25, 0.5, 0.999])
    words = []
    for _ in range(draw(st.integers(0, 12))):
        having = draw(docs)
        in_text = {d for d in having if draw(st.booleans())} if len(having) < 40 else set(list(having)[::2])
        fraction = SHARE * draw(rarity)
        words.append(Word(bits(having, size), bits(in_text, size), 1.0 + fraction, 1.0 + fraction * 0.75))
    return words, draw(st.integers(1, 25)), size


def plain(words: list[Word]) -> dict[int, float]:
    """What the index summed before: every posting, word by word, document by document."""
    out: dict[int, float] = {}
    for word in words:
        for doc in members(word.having):
            text = doc in set(members(word.in_text))
            out[doc] = out.get(doc, 0.0) + (word.text_score if text else word.quote_score)
    return out


def test_members_and_bits_round_trip() -> None:
    for docs in ([], [0], [7, 8, 9], [5, 63, 64, 1000, 4095], list(range(0, 3000, 7))):
        assert members(bits(docs, 4096)) == docs


@settings(max_examples=150, deadline=None)
@given(questions())
def test_candidates_hold_every_memory_that_can_be_among_the_best(
    question: tuple[list[Word], int, int],
) -> None:
    words, limit, _ = question
    everyone = plain(words)
    chosen = set(members(candidates(words, limit)))
    assert chosen <= everyone.keys()
    assert len(chosen) >= min(limit, len(everyone))
    if len(everyone) > limit:
        edge = heapq.nlargest(limit, everyone.values())[-1]
        assert {d for d, s in everyone.items() if s >= edge} <= chosen  # the best and all tied with them
        assert all(everyone[d] < min(everyone[c] for c in chosen) for d in everyone.keys() - chosen)


@settings(max_examples=150, deadline=None)
@given(questions(), st.integers(1, 40))
def test_scores_and_groups_are_the_plain_sum_exactly(
    question: tuple[list[Word], int, int], most: int
) -> None:
    words, limit, _ = question
    everyone = plain(words)
    among = candidates(words, limit)
    inside = set(members(among))
    found = scores(words, among)
    assert list(found.items()) == [(d, s) for d, s in everyone.items() if d in inside]  # same floats, order
    split = groups(words, among, most)
    if split is None:
        return
    seen: set[int] = set()
    first_word = {d: min(i for i, w in enumerate(words) if d in set(members(w.having))) for d in inside}
    for group in split:
        for doc in members(group.docs):
            assert doc not in seen
            seen.add(doc)
            assert group.score == everyone[doc] and group.first == first_word[doc]
    assert seen == inside
