"""Build `personakit/core/meaning/related.tsv`, the related-words table, from WordNet 3.0.

    apt-get install wordnet-base            # Debian's WordNet 3.0: /usr/share/wordnet/
    python tools/build_meaning.py           # writes the table; the same input gives the same bytes

WordNet lists every sense a word has ever had, most of them rare ("dinner" is also a party; "cook" a
district of Illinois). The table keeps a word's *common* senses only: those the sense-tagged corpus
behind WordNet (its `cntlist.rev` counts) saw at least a third as often as the word's most frequent one,
at most three; a word the corpus never saw keeps its first sense. From those senses, two relations:

- **same** (counts as the same word in a read): another word of the same synset when that synset is one
  of *its* common senses too (answer = reply), a derivation that keeps the word's beginning
  (allergy = allergic, vegetarian = vegetarianism, marry = marriage), a pertainym likewise
  (music = musical), and an irregular form from the `*.exc` lists that is no word of its own
  (went = go, mice = mouse);
- **near** (only orders and chooses the fill): the other synonyms and derivations, the hypernyms two
  levels up (dinner: meal, food), the most frequent hyponyms, similar adjectives and the topic domain, strongest first, at most
  NEAR_MOST, for the words the tagged corpus saw (other words keep only their same words).

Every word is keyed as `core.words.words()` counts it (stemmed, folded), so the table speaks the index's
language; a relation that is symmetric is stored both ways. The curated topics (`topics.txt` beside the
table) are not merged here: the engine reads them itself, so they can be edited without WordNet.

Output lines: `word<TAB>same words<TAB>near words`, sorted, space-separated, strongest first.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from personakit.core.words import words  # noqa: E402  (the repository's own rules key the table)

WORDNET = Path("/usr/share/wordnet")
OUT = ROOT / "personakit" / "core" / "meaning" / "related.tsv"
POS = {"n": "noun", "v": "verb", "a": "adj", "r": "adv"}
SS_NUMBER = {"n": 1, "v": 2, "a": 3, "s": 5, "r": 4}
COMMON_SHARE = 1 / 3  # a sense is common when seen at least this share as often as the word's top sense
COMMON_MOST = 3
SYNONYM_COUNT = 2
SYNONYM_SHARE = 0.4
SUFFIXES = ("ism", "ness", "ment")  # vegetarianism, deployment: derivations WordNet does not link
SAME_MOST = 6
NEAR_MOST = 6  # the engine takes at most six near words of a question word
HYPONYMS_MOST = 4
_LETTERS = re.compile(r"^[a-z]+$")


class Synset:
    __slots__ = ("gloss", "lemmas", "offset", "pointers", "pos")

    def __init__(self, line: str, pos: str) -> None:
        head, _, gloss = line.partition(" | ")
        parts = head.split()
        self.offset, self.pos = parts[0], pos
        lexfile, ss_type, count = parts[1], parts[2], int(parts[3], 16)
        self.lemmas: list[tuple[str, tuple[str, int, int, int]]] = []
        for i in range(count):
            word, lex_id = parts[4 + 2 * i], int(parts[5 + 2 * i], 16)
            word = re.sub(r"\(.*\)$", "", word).lower()  # adjective markers: (a), (p), (ip)
            self.lemmas.append((word, (word, SS_NUMBER[ss_type], int(lexfile), lex_id)))
        at = 4 + 2 * count
        self.pointers: list[tuple[str, str, str, int, int]] = []
        for i in range(int(parts[at])):
            symbol, offset, pos_, st = parts[at + 1 + 4 * i : at + 5 + 4 * i]
            self.pointers.append(
                (symbol, offset, "a" if pos_ == "s" else pos_, int(st[:2], 16), int(st[2:], 16))
            )
        self.gloss = gloss


def load(folder: Path) -> tuple[dict[tuple[str, str], Synset], dict[str, list[tuple[str, int]]], dict]:
    counts: dict[tuple[str, int, int, int], int] = defaultdict(int)
    for line in (folder / "cntlist.rev").read_text().splitlines():
        key, _, tag = line.split()
        lemma, _, rest = key.partition("%")
        ss, lexfile, lex_id = rest.split(":")[:3]
        counts[(lemma.lower(), int(ss), int(lexfile), int(lex_id))] += int(tag)
    synsets: dict[tuple[str, str], Synset] = {}
    for pos, name in POS.items():
        for line in (folder / f"data.{name}").read_text().splitlines():
            if line and not line.startswith(" "):
                synset = Synset(line, pos)
                synsets[(pos, synset.offset)] = synset
    senses: dict[str, list[tuple[str, int]]] = defaultdict(list)  # lemma -> [(pos offset, count)] by order
    for pos, name in POS.items():
        for line in (folder / f"index.{name}").read_text().splitlines():
            if not line or line.startswith(" "):
                continue
            parts = line.split()
            lemma, synset_count = parts[0], int(parts[2])
            for offset in parts[len(parts) - synset_count :]:
                synset = synsets[(pos, offset)]
                count = sum(counts.get(key, 0) for word, key in synset.lemmas if word == lemma)
                senses[lemma].append((f"{pos} {offset}", count))
    return synsets, senses, counts


def common(senses: list[tuple[str, int]]) -> list[str]:
    """A word's common senses: the top one, and those seen at least COMMON_SHARE as often."""
    top = max(count for _, count in senses)
    if top == 0:
        return [senses[0][0]]
    ranked = sorted(senses, key=lambda s: -s[1])  # stable: index order breaks ties
    return [s for s, count in ranked if count >= top * COMMON_SHARE][:COMMON_MOST]


def key_of(lemma: str) -> str:
    """The word a single-word lemma counts as, or "" (stop words, several words, digits)."""
    if not _LETTERS.match(lemma) or len(lemma) < 3:
        return ""
    found = words(lemma)
    return found[0] if len(found) == 1 else ""


def close(a: str, b: str) -> bool:
    """Do two words keep the same beginning (a derivation that is still visibly the same word)?"""
    prefix = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        prefix += 1
    return prefix >= 4 or (prefix >= 3 and prefix >= min(len(a), len(b)) - 1)


def build(folder: Path) -> list[str]:
    synsets, senses, _ = load(folder)
    frequency = {lemma: sum(c for _, c in s) for lemma, s in senses.items()}
    common_of = {lemma: common(s) for lemma, s in senses.items()}
    # The sense a word is mostly used in: seen at least SYNONYM_COUNT times and for SYNONYM_SHARE of its uses.
    dominant = {
        lemma: max(s, key=lambda x: x[1])[0]
        for lemma, s in senses.items()
        if max(c for _, c in s) >= SYNONYM_COUNT and max(c for _, c in s) >= SYNONYM_SHARE * frequency[lemma]
    }
    same: dict[str, dict[str, float]] = defaultdict(dict)
    near: dict[str, dict[str, float]] = defaultdict(dict)

    def link(table: dict[str, dict[str, float]], a: str, b: str, strength: float, both: bool = True) -> None:
        ka, kb = key_of(a), key_of(b)
        if ka and kb and ka != kb:
            table[ka][kb] = max(table[ka].get(kb, 0.0), strength)
            if both:
                table[kb][ka] = max(table[kb].get(ka, 0.0), strength)

    def lemmas_of(synset: Synset, most: int = 2) -> list[str]:
        return [w for w, _ in synset.lemmas[:most]]

    for lemma, mine in sorted(common_of.items()):
        if not key_of(lemma):
            continue
        weight = 1.0 + min(frequency[lemma], 200) / 200  # common words' links first, among equals
        for rank, sense in enumerate(mine):
            pos, offset = sense.split()
            synset = synsets[(pos, offset)]
            strength = weight / (1 + rank)
            for other, _ in synset.lemmas:
                if other == lemma:
                    continue
                if _synonyms(lemma, other, sense, dominant):
                    link(
                        same, lemma, other, strength
                    )  # the sense each word is mostly used in: answer = reply
                else:
                    link(near, lemma, other, strength * 0.9)
            word_number = next((i + 1 for i, (w, _) in enumerate(synset.lemmas) if w == lemma), 0)
            for symbol, target, tpos, source_no, target_no in synset.pointers:
                other_synset = synsets[(tpos, target)]
                if symbol in ("+", "\\") and source_no == word_number and target_no:
                    other = other_synset.lemmas[target_no - 1][0]
                    target_sense = f"{tpos} {target}"
                    if close(key_of(lemma), key_of(other)) and target_sense in common_of.get(other, []):
                        link(same, lemma, other, strength)
                    else:
                        link(near, lemma, other, strength * 0.8)
                elif symbol in ("@", "@i"):
                    for other in lemmas_of(other_synset):
                        link(near, lemma, other, strength * 0.7)
                    for symbol2, target2, tpos2, _, _ in other_synset.pointers:
                        if symbol2 in ("@", "@i"):
                            for other in lemmas_of(synsets[(tpos2, target2)], 1):
                                link(near, lemma, other, strength * 0.5, both=False)
                elif symbol in ("&", "^", "=", ";c", "-c"):
                    for other in lemmas_of(other_synset, 1):
                        link(near, lemma, other, strength * 0.6)
            hyponyms = [synsets[(tp, t)] for sym, t, tp, _, _ in synset.pointers if sym in ("~", "~i")]
            ranked = sorted(
                ((frequency.get(w, 0), w) for h in hyponyms for w, _ in h.lemmas[:1]),
                key=lambda x: (-x[0], x[1]),
            )
            for count, other in ranked[:HYPONYMS_MOST]:
                if count:
                    link(near, lemma, other, strength * 0.6)
    for name in ("noun", "verb", "adj", "adv"):
        for line in (folder / f"{name}.exc").read_text().splitlines():
            form, *bases = line.split()
            if form in senses or not bases or not _LETTERS.match(form):
                continue  # a form that is also a word of its own (left, saw, rose) stays apart
            link(same, form, bases[0], 3.0)
    for lemma in sorted(senses):  # derivations by suffix that WordNet leaves unlinked
        for suffix in SUFFIXES:
            base = lemma[: -len(suffix)]
            if lemma.endswith(suffix) and len(base) >= 4 and base in senses:
                link(same, lemma, base, 0.5)
    seen = {key_of(lemma) for lemma, count in frequency.items() if count}  # words the tagged corpus has
    keys = sorted(set(same) | set(near))
    lines = []
    for key in keys:
        mine_same = _strongest(same.get(key, {}), SAME_MOST, set())
        # A word the corpus never saw keeps only its forms: its looser links would cost bytes for words an
        # owner or an assistant hardly writes.
        mine_near = _strongest(near.get(key, {}), NEAR_MOST, {key, *mine_same}) if key in seen else []
        if mine_same or mine_near:
            lines.append(f"{key}\t{' '.join(mine_same)}\t{' '.join(mine_near)}")
    return lines


def _synonyms(a: str, b: str, sense: str, dominant: dict[str, str]) -> bool:
    """Do a and b count as one word through this synset of theirs? Only when it is the sense each of them
    is mostly used in. (Measured on bench/quality: a synset among both words' common senses made more
    paraphrases match, +3 points of hit@3, but cost a point of R@5 on the existing set's tune part: "cook"
    met "prepare", "pet" met "kiss".)"""
    return dominant.get(a) == sense and dominant.get(b) == sense


def _strongest(found: dict[str, float], most: int, leave: set[str]) -> list[str]:
    ranked = sorted(((-s, w) for w, s in found.items() if w not in leave))
    return [w for _, w in ranked[:most]]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--wordnet", type=Path, default=WORDNET, help="folder of the WordNet 3.0 database")
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args(argv)
    if not (args.wordnet / "data.noun").exists():
        parser.error(f"no WordNet database in {args.wordnet}: apt-get install wordnet-base")
    lines = build(args.wordnet)
    args.out.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    print(f"{args.out}: {len(lines):,} words, {args.out.stat().st_size:,} bytes", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
