"""The credential corpus: written sentences and generated disguises, in two parts.

- **tuning**: `data/credentials/secrets.txt`, `benign.txt`, and what the generator makes from each kind's
  own sentences, `sentences.txt`, `near-misses.txt` and `PAIRS`. The detector was tuned against this
  part. It includes three earlier held-out parts, each measured once (recall 98.44%, 97.56% and 99.40%;
  false refusals 0.26%, 0.00% and 0.00%) and then used for tuning, so they no longer count as held out.
- **held-out**: `heldout-secrets.txt`, `heldout-benign.txt`, and what the generator makes from
  `heldout-sentences.txt`, `heldout-near-misses.txt` and `heldout-pairs.txt` with its own seed: written
  after tuning ended, never read while tuning.

Secret files hold `kind<TAB>sentence<TAB>secret` (the exact text masking must remove); benign files one
sentence per line. Every value here is fake: written by hand or drawn from a seeded random generator,
never issued by anyone.

The generator makes, for each key kind, the plain key in a sentence and each disguise of it: invisible
characters inside, full-width letters, Cyrillic and Greek look-alike letters, cut in two between a
proposal's text and its quote, and spread out with spaces (one character or four at a time). It also
makes benign near-misses (hashes, UUIDs, versions, ISBNs, tracking and phone numbers, publishable keys,
card-like numbers that fail Luhn, ...), disguised benign sentences, and text and quote pairs that must
stay allowed when joined.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from pathlib import Path

from credential_benign import BENIGN_KINDS, PAIRS
from credential_kinds import KEY_KINDS

DATA = Path(__file__).parent / "data" / "credentials"
TUNING, HELD_OUT = "tuning", "held-out"
PARTS = (TUNING, HELD_OUT)
_SEEDS = {TUNING: 20261201, HELD_OUT: 90210577}
INVISIBLE = [
    "\u200b",
    "\u200c",
    "\u200d",
    "\u2060",
    "\u00ad",
    "\ufeff",
    "\ufe0f",
    "\u200e",
    "\u2062",
    "\u180e",
]
LOOK_ALIKES = dict(zip("aceopxyijsABCEHKMOPTXY", "асеорхуіјѕАВСЕНКМОРТХУ", strict=True))
DISGUISES = ("plain", "invisible", "fullwidth", "look-alike", "split", "spaced")
_SPACEABLE = re.compile(
    r"[A-Za-z0-9_+/=.~!#$%?-]+"
)  # one token of key characters: URLs, tags and phrases are not spread out


@dataclass(frozen=True)
class Secret:
    kind: str
    text: str
    quote: str = ""
    secret: str = ""  # the exact text masking must remove ("" when the secret is cut in two)
    disguise: str = "plain"


@dataclass(frozen=True)
class Benign:
    kind: str
    text: str
    quote: str = ""


def secrets(part: str) -> list[Secret]:
    written = [Secret(kind, sentence, "", secret) for kind, sentence, secret in _rows(_file(part, "secrets"))]
    return written + generated_secrets(part)


def benign(part: str) -> list[Benign]:
    written = [Benign("written", line) for line in _lines(_file(part, "benign"))]
    return written + generated_benign(part, written)


def written_secrets(part: str) -> list[Secret]:
    return [Secret(kind, sentence, "", secret) for kind, sentence, secret in _rows(_file(part, "secrets"))]


def written_benign(part: str) -> list[str]:
    return _lines(_file(part, "benign"))


def _file(part: str, name: str) -> Path:
    return DATA / (f"{name}.txt" if part == TUNING else f"heldout-{name}.txt")


def _lines(path: Path) -> list[str]:
    text = path.read_text(encoding="utf-8")
    return [line for line in text.splitlines() if line.strip() and not line.startswith("#")]


def _rows(path: Path) -> list[tuple[str, str, str]]:
    return [tuple(line.split("\t")) for line in _lines(path)]  # type: ignore[misc]


# -- generated secrets -----------------------------------------------------------------------------------


def generated_secrets(part: str) -> list[Secret]:
    rng = random.Random(_SEEDS[part])
    made: list[Secret] = []
    more = _sentences("sentences.txt" if part == TUNING else "heldout-sentences.txt")
    for kind, maker, templates in KEY_KINDS:
        # tuning: the first half of the kind's own sentences and those of sentences.txt; held out: the
        # sentences written for the kind after tuning, or the generic ones (kind "*")
        own = templates[: max(1, len(templates) // 2)] if part == TUNING else []
        sentences = own + more.get(kind, more["*"])
        for disguise in DISGUISES:
            value = maker(rng)
            sentence = rng.choice(sentences)
            made.append(disguised(kind, sentence, value, disguise, rng))
    return made


def _sentences(name: str) -> dict[str, list[str]]:
    """kind<TAB>sentence with {k} (kind "*" is for every key kind), "\\n" standing for a line break."""
    sentences: dict[str, list[str]] = {}
    for kind, sentence in (line.split("\t") for line in _lines(DATA / name)):
        sentences.setdefault(kind, []).append(sentence.replace("\\n", "\n"))
    return sentences


def disguised(kind: str, sentence: str, value: str, disguise: str, rng: random.Random) -> Secret:
    """The sentence holding value, with value disguised (or the whole cut in two, for "split")."""
    if disguise == "split":
        before, after = sentence.split("{k}")
        cut = rng.randrange(max(1, len(value) // 4), max(2, len(value) * 3 // 4))
        return Secret(kind, before + value[:cut], value[cut:] + after, "", disguise)
    if disguise == "spaced" and _SPACEABLE.fullmatch(value):
        size = rng.choice((1, 4))
        shown = " ".join(value[i : i + size] for i in range(0, len(value), size))
    elif disguise == "spaced":
        disguise, shown = "invisible", _invisible(value, rng)
    elif disguise == "invisible":
        shown = _invisible(value, rng)
    elif disguise == "fullwidth":
        shown = "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" and rng.random() < 0.7 else c for c in value)
    elif disguise == "look-alike":
        shown = "".join(LOOK_ALIKES.get(c, c) if rng.random() < 0.6 else c for c in value)
    else:
        shown = value
    return Secret(kind, sentence.replace("{k}", shown), "", shown, disguise)


def _invisible(value: str, rng: random.Random) -> str:
    chars = list(value)
    for _ in range(rng.randint(1, 3)):
        chars.insert(rng.randrange(1, len(chars)), rng.choice(INVISIBLE))
    return "".join(chars)


# -- generated benign ------------------------------------------------------------------------------------


def generated_benign(part: str, written: list[Benign]) -> list[Benign]:
    rng = random.Random(_SEEDS[part] + 1)
    made: list[Benign] = []
    more = _sentences("near-misses.txt" if part == TUNING else "heldout-near-misses.txt")
    for kind, maker, templates in BENIGN_KINDS:
        sentences = (templates if part == TUNING else []) + more.get(kind, [])
        for _ in range(4 if part == TUNING else 8):  # the held-out part is smaller in written sentences
            made.append(Benign(kind, rng.choice(sentences).replace("{k}", maker(rng))))
    disguised_lines = min(40 if part == TUNING else 80, len(written))
    for line in rng.sample([b.text for b in written], disguised_lines):  # disguised ordinary text
        if rng.random() < 0.5:
            made.append(Benign("disguised: invisible", _invisible(line, rng)))
        else:
            made.append(
                Benign(
                    "disguised: fullwidth",
                    "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c for c in line),
                )
            )
    pairs = [
        tuple(line.split("\t"))
        for line in _lines(DATA / ("pairs.txt" if part == TUNING else "heldout-pairs.txt"))
    ]
    pairs = PAIRS + pairs if part == TUNING else pairs
    for text, quote in pairs:  # a memory and its evidence, joined both ways
        made.append(Benign("text and quote", text, quote))
        made.append(Benign("text and quote", quote, text))
    return made
