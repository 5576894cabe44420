"""Ranking a read from the index's postings: which memories share most of the question's words, in the
contract's order. No library is imported here: the index hands in its Whoosh searcher.

Scoring is 1 per distinct query word a memory has, plus a fraction that sums to less than 1 over all
query words: the integer part is the overlap count the contract ranks by, the fraction breaks its ties.
Each shared word adds its rarity in the vault (idf over the maximum idf), three quarters of it when the
memory has the word only in a quote: among memories sharing as many words, the one sharing rarer words,
in its text rather than its quotes, comes first. Memory length plays no part.

Scores are summed from the words' posting lists, kept as bit sets (`store.postings`), and only for the
memories that can be among the best (`core.overlap`). (Whoosh's own Or query walks a tree of union
matchers for every memory sharing a word, and its top-N breaks exact ties by index order, not by the
contract.) Only the memories tied at the cut are then ordered by the contract's tie-break, approved first
and then newest, from the tie_break column.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Callable
from pathlib import Path
from typing import Any

from personakit.core.overlap import Group, Word, bits, candidates, groups, members, scores
from personakit.core.reading import tie_break
from personakit.store.postings import Ids, Postings
from personakit.store.postings.lookup import frequency

MAX_QUERY_WORDS = 64
TEXT_WEIGHT = 2  # times a word of the memory's text is written to `words`; a quote-only word: once
QUOTE_SHARE = 0.75  # a quote-only word's part of the tie-break, against 1 for a word of the text
GROUPS_FROM = 512  # candidates from which they are scored per group of equal words rather than one by one
MOST_GROUPS = 256  # more groups than this: scored one by one after all
WALK_FROM = 256  # tied documents from which they are walked in tie_break order rather than looked up
APPROVED = tie_break("approved", "")[0]  # what an approved memory's tie_break starts with
Searcher = Any  # a Whoosh searcher, as the index hands it in
KEPT_COUNTS = 100_000  # ids' file counts kept per searcher (about 100 bytes each)


def rarity(having: int, documents: int) -> float:
    """A word's rarity in (0, 1): idf as Whoosh computes it, over its largest value (a word one memory has)."""
    documents = max(documents, 1)
    idf = (math.log(documents / (having + 1)) + 1.0) / (math.log(documents) + 1.0)
    return min(max(idf, 0.0), 0.999)


# The fractions never add up to a whole word: the question's own words share half of it (each below
# 1 / (words + 1) of it). Near words add a thousandth of that, so they order memories only after the
# rarity of the shared words does: between memories sharing the same words (measured: any larger share
# let near words outrank a rarer shared word, and lost 2.5 points of R@1 on the quality set's tune part).
SHARE = 0.5 / (MAX_QUERY_WORDS + 1)
MAX_NEAR_WORDS = 64
NEAR_SHARE = SHARE / 1000
NEAR_COMMON = 0.02  # near words more than this share of the memories have are left out of a read's order
FILL_SPARE = 4  # the fill ranks this many times the places it needs by near words, then orders by category


class Kept:
    """What reads keep of one searcher besides postings, let go when the searcher changes: column values
    (opening a column reader reads its whole offset table, which costs more than a search), one per
    document at most; and how many files have each id, KEPT_COUNTS at most."""

    def __init__(self) -> None:
        self._let_go(None)

    def _let_go(self, s: Any) -> None:
        self._searcher = s
        self._columns: dict[str, tuple[Any, dict[int, Any]]] = {}
        self._counts: dict[str, int] = {}

    def _for(self, s: Any) -> None:
        if s is not self._searcher:
            self._let_go(s)

    def column(self, s: Any, name: str) -> Callable[[int], Any]:
        """A document's value in the column `name`, each value read once: the same common words bring up
        the same memories read after read."""
        self._for(s)
        if name not in self._columns:
            self._columns[name] = (s.reader().column_reader(name), {})
        column, known = self._columns[name]

        def value(doc: int) -> Any:
            found = known.get(doc)
            if found is None:
                found = known[doc] = column[doc]
            return found

        return value

    def files(self, s: Any, memory_id: str) -> int:
        """How many documents have the id (replaced ones too, until a merge: that only costs a look)."""
        self._for(s)
        count = self._counts.get(memory_id)
        if count is None:
            if len(self._counts) >= KEPT_COUNTS:
                self._counts.clear()
            count = self._counts[memory_id] = frequency(s.reader(), "id", memory_id)
        return count


class Ranker:
    """Ranks reads on one index; keeps what it read (postings, tie-break values) for later reads. Not
    thread-safe: the index's lock guards it, as it guards the searcher."""

    def __init__(self, kept: Kept, folder: Path | None = None) -> None:
        self.postings = Postings(TEXT_WEIGHT, "tie_break", folder)  # folder: the index's, for `Written`
        self._kept = kept
        self._copies: tuple[Searcher | None, list[int]] = (None, [])  # see _restricted_copies

    def withheld(self, s: Searcher, terms: list[str], also: set[str]) -> int:
        """How many restricted memories share at least one of terms, and how many memories with an id in
        `also` are not among them: the bit set's count, less the extra files of memories with copies."""
        found = 0
        for term in terms[:MAX_QUERY_WORDS]:
            found |= self.postings.word(s, "restricted_words", term)[1]
        count = found.bit_count()
        for docs in self._restricted_copies(s) if found else ():
            count -= max(0, (found & docs).bit_count() - 1)
        return count + sum(1 for mid in also if not found & self.postings.word(s, "id", mid)[1])

    def _restricted_copies(self, s: Searcher) -> list[int]:
        """Per id that more than one restricted document has, those documents as a bit set; worked out once
        per searcher (copies are rare: usually there are none)."""
        if self._copies[0] is not s:
            restricted = self.postings.word(s, "state", "restricted")[1]
            keys: list[int | str] = []
            docs: list[int] = []
            for first, ids in self.postings.values(s, "id", Ids):
                inside = members((restricted >> first) & ((1 << len(ids)) - 1))
                keys += ids.keys(inside)
                docs += [first + doc for doc in inside]
            seen: dict[int | str, list[int]] = {}
            if len(set(keys)) < len(keys):  # some id twice: rare, worth a walk
                for key, doc in zip(keys, docs, strict=True):
                    seen.setdefault(key, []).append(doc)
            size = s.reader().doc_count_all()
            self._copies = (s, [bits(group, size) for group in seen.values() if len(group) > 1])
        return self._copies[1]

    def words(
        self,
        s: Searcher,
        classes: list[list[str]],
        fields: tuple[str, ...],
        near: list[str] = (),  # type: ignore[assignment]
    ) -> list[Word]:
        """Each class of question words (a word and the words that count as it) in each field, with its
        documents (those having any word of the class) and what it adds to their scores: 1 plus SHARE x its
        rarity (x QUOTE_SHARE when the memory has it only in a quote); then each near word, adding only
        NEAR_SHARE x its rarity and not counted as a shared word."""
        documents = s.reader().doc_count_all()
        found = []
        for field in fields:
            for group in classes[:MAX_QUERY_WORDS]:
                having = docs = in_text = 0
                for term in group:
                    n, d, t = self.postings.word(s, field, term)
                    having, docs, in_text = having + n, docs | d, in_text | t
                if docs:
                    if len(group) > 1:
                        having = min(having, docs.bit_count())  # the class's rarity, as one word's
                    fraction = SHARE * rarity(having, documents)
                    found.append(Word(docs, in_text, 1.0 + fraction, 1.0 + fraction * QUOTE_SHARE))
        for field in fields:
            for term in list(near)[:MAX_NEAR_WORDS]:
                having, docs, in_text = self.postings.word(s, field, term)
                if docs and having <= documents * NEAR_COMMON:  # a common one orders little, costs a table
                    fraction = NEAR_SHARE * rarity(having, documents)
                    found.append(Word(docs, in_text, fraction, fraction * QUOTE_SHARE, counts=False))
        return found

    def choose(self, s: Searcher, words: list[Word], limit: int | None) -> list[tuple[int, float]]:
        """The `limit` best documents (None: all) and their scores, in the order a plain sum over the
        words meets them (so that equal keys keep the order they always had)."""
        among = 0
        for word in words:
            if word.counts:
                among |= word.having
        if limit is not None:
            among = candidates(words, limit)
        # Near words only order the candidates: those having none of them are left out of the sums.
        words = [word for word in words if word.counts or word.having & among]
        grouped = None
        if limit is not None and among.bit_count() > GROUPS_FROM:
            grouped = groups(words, among, MOST_GROUPS)
        if grouped is None:
            return self._cut(s, scores(words, among), limit)
        ranked = sorted(grouped, key=lambda g: -g.score)
        total, edge = 0, 0.0
        for group in ranked:
            total += group.docs.bit_count()
            if total >= limit:  # type: ignore[operator]
                edge = group.score
                break
        chosen = [(doc, g.first, g.score) for g in ranked if g.score > edge for doc in members(g.docs)]
        tied = [g for g in ranked if g.score == edge]
        need = limit - len(chosen)  # type: ignore[operator]
        chosen += [(doc, first, edge) for doc, first in self._first_tied(s, tied, need)]
        chosen.sort(key=lambda c: (c[1], c[0]))
        return [(doc, score) for doc, _, score in chosen]

    def fill(
        self, s: Searcher, classes: list[list[str]], near: list[str], categories: list[str], need: int
    ) -> list[int]:
        """Up to `need` approved documents that share none of the question's words, closest first: most near
        words shared (then their rarity), then the question's categories in order, then the newest; after
        them, when too few share a near word, approved documents of those categories, newest first."""
        approved = self.postings.word(s, "state", "approved")[1]
        for group in classes[:MAX_QUERY_WORDS]:
            for term in group:
                approved &= ~self.postings.word(s, "words", term)[1]
        if not approved or need <= 0:
            return []
        documents = s.reader().doc_count_all()
        nearby = []
        for term in near[:MAX_NEAR_WORDS]:
            having, docs, in_text = self.postings.word(s, "words", term)
            if docs & approved:
                fraction = SHARE * rarity(having, documents)
                nearby.append(
                    Word(docs & approved, in_text & approved, 1.0 + fraction, 1.0 + fraction * QUOTE_SHARE)
                )
        kinds = [self.postings.word(s, "category", category)[1] & approved for category in categories[:4]]
        chosen: list[int] = []
        if nearby:
            found = dict(self.choose(s, nearby, need * FILL_SPARE))
            value = self._tie_breaks(s)
            chosen = sorted(found, key=lambda d: (-found[d], _kind(d, kinds), value(d)))[:need]
        taken = 0
        for doc in chosen:
            taken |= 1 << doc
        for docs in kinds:
            if len(chosen) >= need:
                break
            docs &= ~taken
            if docs:
                first = self._first_tied(s, [Group(0.0, 0, docs)], need - len(chosen))
                chosen += [doc for doc, _ in first]
                for doc, _ in first:
                    taken |= 1 << doc
        return chosen[:need]

    def _cut(self, s: Searcher, scores: dict[int, float], limit: int | None) -> list[tuple[int, float]]:
        """The `limit` best of scores (all when None), ties at the cut broken by the contract."""
        if limit is None or len(scores) <= limit:
            return list(scores.items())
        edge = heapq.nlargest(limit, scores.values())[-1]
        chosen = [(doc, score) for doc, score in scores.items() if score > edge]
        tied = [doc for doc, score in scores.items() if score == edge]
        if len(chosen) + len(tied) > limit:
            tied.sort(key=self._tie_breaks(s))
        return chosen + [(doc, edge) for doc in tied[: limit - len(chosen)]]

    def _first_tied(self, s: Searcher, tied: list[Group], need: int) -> list[tuple[int, int]]:
        """The `need` first documents of the tied groups, as (doc, first word): by tie_break, then in the
        order the plain sum meets them. Many tied documents are walked in each segment's tie_break order
        rather than all looked up (a single common word can tie thousands)."""
        everyone = 0
        for group in tied:
            everyone |= group.docs
        if everyone.bit_count() <= WALK_FROM:
            value = self._tie_breaks(s)
            keyed = [(value(doc), g.first, doc) for g in tied for doc in members(g.docs)]
            return [(doc, first) for _, first, doc in heapq.nsmallest(need, keyed)]
        picked: list[tuple[str, int]] = []  # (tie_break, doc)
        for start, values, order in self.postings.orders(s):
            size = len(values)
            local = (everyone >> start) & ((1 << size) - 1)
            inside = local.bit_count()
            # A walk takes about need * size / inside steps, each some ten times cheaper than looking one
            # document up: look them up only when that is fewer.
            if inside * inside * 8 <= need * size:
                picked += [(values[doc], start + doc) for doc in members(local)]
                continue
            table = local.to_bytes((size + 7) // 8, "little")
            taken, last = 0, None
            for doc in order:  # this segment's documents by tie_break; stop past the need-th's value
                if table[doc >> 3] >> (doc & 7) & 1:
                    if taken >= need and values[doc] != last:
                        break
                    picked.append((values[doc], start + doc))
                    taken, last = taken + 1, values[doc]
        if len(tied) == 1:
            keyed = [(value, tied[0].first, doc) for value, doc in picked]
        else:
            firsts = [(g.first, g.docs.to_bytes((g.docs.bit_length() + 7) // 8, "little")) for g in tied]
            keyed = [(value, _first_of(doc, firsts), doc) for value, doc in picked]
        return [(doc, first) for _, first, doc in heapq.nsmallest(need, keyed)]

    def first_approved(self, s: Searcher, limit: int) -> list[int]:
        """The first `limit` approved documents in tie_break order (the newest), as Whoosh's search sorted
        by the column gives them (ties by document number), from each segment's kept order: at 100k
        memories Whoosh's sort took most of a second after every change."""
        dead = self.postings.dead(s)
        found: list[tuple[str, int]] = []
        for start, values, order in self.postings.orders(s):
            taken = 0
            for doc in order:
                value = values[doc]
                if taken >= limit or not value.startswith(APPROVED):
                    break  # sorted: the approved come first, and only the first `limit` can count
                if not dead or not dead >> (start + doc) & 1:
                    found.append((value, start + doc))
                    taken += 1
        return [doc for _, doc in sorted(found)[:limit]]

    def _tie_breaks(self, s: Searcher) -> Callable[[int], str]:
        return self._kept.column(s, "tie_break")  # type: ignore[no-any-return]


def _kind(doc: int, kinds: list[int]) -> int:
    """The position of the first category set holding doc (len(kinds) when none does)."""
    for position, docs in enumerate(kinds):
        if docs >> doc & 1:
            return position
    return len(kinds)


def _first_of(doc: int, firsts: list[tuple[int, bytes]]) -> int:
    """The first word of the (disjoint) group holding doc."""
    for first, table in firsts:
        if doc >> 3 < len(table) and table[doc >> 3] >> (doc & 7) & 1:
            return first
    raise ValueError(f"document {doc} is in no tied group")
