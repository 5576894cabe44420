"""What a credential looks like: the one answer to "where are the secrets in this text?".

A proposal whose text or quote holds a password, key, token, private key or another secret is refused
(`shape`); a hand edit holding one is not committed; and credentials an owner typed into a
memory file are masked in anything served. All of them ask this module, as character spans.

How a text is read:

1. **As a person reads it** (`textview`): NFKC, invisible characters removed, accents and look-alike
   letters folded. Spans found there map back to the text as written, so masking removes what was seen.
2. **By kind**, each in its own module, each with its validation where one exists:
   - `tokens`: provider keys, structured secrets, PEM blocks and headerless private-key
     bodies, long random tokens;
   - `phrases`: a value said or assigned to a secret word, in English and thirty languages;
   - `contexts`: command lines, environment names, XML, Wi-Fi join strings, URLs;
   - `assignments`: literals assigned to secret names in code and configuration (thirty shapes, from
     `stripeToken = "..."` to make's `::=` and `System.setProperty`), and a Kubernetes Secret's data;
   - `sayings`: passwords said with no word right before them (`Tr0ub4dor&3 is the password for
     everything`, `Netflix: Sunflower!2024`);
   - `numbers`: cards (Luhn), IBANs (mod 97), national ids, BitLocker keys, BIP39 seed phrases
     (checksum), Bitcoin private keys.
3. **With spacing closed up** where the characters of a key were spread out (`s k - a n t - ...`) or
   written in even groups (`JBSW Y3DP EHPK 3PXP`), when the closed-up text is a key by its shape.
4. **Together** (`holds_credential`): a key cut between a proposal's text and its quote, or between two
   quotes, is found in the seam where the two are joined (with nothing, and with a space, between them).
   A word glued to the other text's token ("Deployed" + a commit hash) is not a key cut in two. Two
   quiet texts (`hints.Quiet`: no sign of a secret, the most of what people write) are read joined only
   with a glue that makes a sign at the seam (`hints.glues_to_read`); with the others the joined texts
   provably hold nothing, and `tests/core/test_seam_exactness.py` checks that against reading them all.

The tables (provider shapes, words in other languages, the BIP39 list) are data beside the engine:
`patterns`, `words`, `data/bip39-english.txt`. `docs/tools.md` lists the kinds that
are refused and those deliberately allowed.

Speed: every regex is compiled once and runs in linear time; each family is skipped for text without a
cheap sign of it (a run of 14 key characters, a hint word, a pair of digits), so prose pays little. See
`bench/credentials.py` for the figures.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from personakit.core.credentials.assignments import assignment_spans, kubernetes_spans
from personakit.core.credentials.bodies import private_key_body, random_token_spans
from personakit.core.credentials.contexts import context_spans
from personakit.core.credentials.hints import (
    GLUES,
    ID_HINTS,
    SIGNS,
    Hints,
    Quiet,
    glues_to_read,
    hint_windows,
    hint_words,
    seeds_at_ends,
)
from personakit.core.credentials.lazyre import lazy
from personakit.core.credentials.numbers import (
    is_seed_word,
    labelled_id_spans,
    number_spans,
    seed_phrase_spans,
    seed_words,
)
from personakit.core.credentials.phrases import phrase_spans
from personakit.core.credentials.runs import LONG_RUN, Runs, Span, merge
from personakit.core.credentials.sayings import saying_spans
from personakit.core.credentials.textview import read
from personakit.core.credentials.tokens import pem_spans, provider_spans, url_spans
from personakit.core.credentials.values import ordinary_word, placeholder_key

_SEAM = 4096  # how much of each side a seam check reads: more than any key, and than 4 x the longest run
_SEAM_REACH = 500  # a seam's secret starts no farther than this into the second text
_EDGE = 120  # what of each side shows whether joining them is worth a look
# Key characters spread out one by one, or in even groups. Closed up, with the words before them, they
# are read again as a whole.
_GROUP = r"[A-Za-z0-9_+/=.!#$%?*&~@-]"
_SPACED = {
    1: lazy(r"\S(?: \S)+(?!\S)"),
    **{n: lazy(rf"{_GROUP}{{{n}}}(?: {_GROUP}{{{n}}})+(?: {_GROUP}{{1,{n}}})?(?!\S)") for n in (4, 5, 6, 8)},
}
_GROUP_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_+/=.!#$%?*&~@-")
_CONTEXT = 60  # the words before a closed-up key that are read with it ("password is", "api key:")
_DIGITS = lazy(r"\d+")
_SPACE = lazy(" ")
_EDGES = ".,;:!?()[]{}<>\"'`*_"  # taken off a word's ends: "abandon," is abandon, "(pin)" is pin


def find_credentials(text: str) -> list[Span]:
    """Spans (start, end) of credential-shaped substrings in text, sorted, non-overlapping."""
    return _read_alone(text)[0]


def _read_alone(text: str) -> tuple[list[Span], Quiet | None]:
    """find_credentials(text), and the text as `Quiet` when it is."""
    if not text:
        return [], None
    view = read(text)
    tokens = view.lower.split()
    distinct = set(tokens)
    found = hint_words(view.lower, distinct)
    digits = bool(_DIGITS.search(view.text))
    pieces = any(_may_be_spread_out(t) for t in distinct if not t.isalpha())  # (a digit of any kind)
    listed = None  # a quiet text's list words (`Quiet`: only numbers and the hints' families read)
    if len(view.text) <= _SEAM and not (
        pieces or LONG_RUN.search(view.text) or any(sign in view.lower for sign in SIGNS)
    ):
        bare = {
            t: (_NUMBERED.sub("", t) if digits and t[:1].isdigit() else t).strip(_EDGES) for t in distinct
        }
        marks = {t: 2 if word.isdigit() else word in seed_words() for t, word in bare.items()}  # 2: a number
        listed = bytes(map(marks.__getitem__, tokens))  # as seed_phrase_spans reads them
    if listed is None or b"\x01" * 12 in listed.replace(b"\x02", b""):  # (numbers left out)
        spans = _detect(view.text, view.lower, tokens, distinct, found)
        spans += _closed_up(view.text) if digits and pieces else []
        return merge([view.original_span(*span) for span in spans]), None
    hints = hint_windows(view.lower, distinct, found)
    spans = (number_spans(view.text) if digits else []) + _near_hints(view.text, view.lower, hints, digits)
    spans = merge([view.original_span(*span) for span in spans])
    said = ":" in view.text or "use" in view.lower
    if spans or (digits and said) or "\u03a3" in view.text:  # (Σ lower-cases by what follows it)
        return spans, None
    return [], Quiet(view.text, view.lower, bool(found), digits, said, *seeds_at_ends(listed))


def _may_be_spread_out(word: str) -> bool:
    """A word that can be one piece of a key spread out with spaces: a character, or a group with a digit."""
    return (
        len(word) in _SPACED
        and any(c.isdigit() for c in word)
        and (len(word) == 1 or _GROUP_CHARS.issuperset(word))
    )


def _detect(
    text: str,
    lower: str,
    tokens: list[str] | None = None,
    distinct: set[str] | None = None,
    found: set[str] | None = None,
) -> list[Span]:
    """Every family on the view, as it stands (tokens: lower's words, each once, and the hints among
    them, if known)."""
    tokens = lower.split() if tokens is None else tokens
    distinct = set(tokens) if distinct is None else distinct
    bare = {  # "1.gas" is gas
        token: (_NUMBERED.sub("", token) if token[:1].isdigit() else token).strip(_EDGES)
        for token in distinct
    }
    hints = hint_windows(lower, distinct, found)
    digits = bool(_DIGITS.search(text))
    spans = _shapes(text, lower, digits) + seed_phrase_spans(lower, tokens, bare)
    spans += kubernetes_spans(text) if "kind:" in lower and "data:" in lower else []
    return spans + _near_hints(text, lower, hints, digits)


def _near_hints(text: str, lower: str, hints: Hints, digits: bool) -> list[Span]:
    """The families read near the words that name a secret (sayings and contexts also read a few shapes
    with signs of their own: a colon or "use" beside digits, " / ", "=", a URL)."""
    spans = labelled_id_spans(text, hints.windows) if hints.found & ID_HINTS else []
    spans += assignment_spans(text, hints) if hints.windows else []
    spans += saying_spans(text, lower, hints.windows) if digits else []
    return spans + phrase_spans(text, lower, hints) + context_spans(text, lower, hints)


def looks_like_credential(text: str) -> bool:
    """True when text holds anything credential-shaped."""
    return bool(find_credentials(text))


def holds_credential(*texts: str) -> bool:
    """True when any of texts holds a credential, or two of them do once joined (a key cut in two)."""
    texts = tuple(t for t in texts if t)
    read = [_read_alone(text) for text in texts]
    if any(spans for spans, _ in read):
        return True
    quiet = [q for _, q in read]
    return any(any(_seam_spans(texts[i], texts[j], quiet[i], quiet[j])) for i, j in _pairs(len(texts)))


def mask_credentials(text: str, mask: str = "[secret]") -> str:
    """text with every credential span replaced by mask."""
    return _masked(text, find_credentials(text), mask)


def mask_together(texts: Sequence[str], mask: str = "[secret]") -> tuple[str, ...]:
    """Each of texts masked, including the parts of a credential cut between two of them."""
    read = [_read_alone(text) for text in texts]
    spans = [found for found, _ in read]
    for i, j in _pairs(len(texts)):
        if texts[i] and texts[j]:
            in_a, in_b = _seam_spans(texts[i], texts[j], read[i][1], read[j][1])
            spans[i] += in_a
            spans[j] += in_b
    return tuple(_masked(text, merge(found), mask) for text, found in zip(texts, spans, strict=True))


def _masked(text: str, spans: list[Span], mask: str) -> str:
    parts: list[str] = []
    last = 0
    for start, end in spans:
        parts += [text[last:start], mask]
        last = end
    parts.append(text[last:])
    return "".join(parts)


def _shapes(text: str, lower: str, digits: bool) -> list[Span]:
    """Secrets known by their shape alone: keys, structures, private keys, numbers, random tokens."""
    runs = Runs(text)
    private, public = pem_spans(text) if "-----" in text else ([], [])
    spans = (
        provider_spans(text, lower, runs, placeholder_key) + private + (number_spans(text) if digits else [])
    )
    excluded = public + private + (url_spans(text) if "://" in text or "www." in lower else [])
    tokens = random_token_spans(text, runs, excluded, looks_like_credential)
    return spans + [
        (start, end)
        for start, end in tokens
        if not placeholder_key(text[start:end]) or private_key_body(text[start:end])
    ]


def _closed_up(text: str) -> list[Span]:
    """Keys written with spaces between their characters or groups, found with the spaces taken out.

    Every such key holds digits, so each run of digits is looked at: when the word around it is one of
    several words of one size in a row, the spread-out run of that size is read from the first, closed
    up, after the words before it."""
    spans: list[Span] = []
    done = 0
    for digits in _DIGITS.finditer(text):
        if digits.start() < done:
            continue
        found = _spread_out(text, digits.start(), digits.end())
        run = _SPACED[found[0]].match(text, found[1]) if found else None
        if not run:
            continue
        done = run.end()
        # from the run's first group, and from each of the next two (a word of the same size before a
        # key joins the run: "token glpat -q1ik ..."); with and without a short last group
        run_start, run_end = _without_words(text, run.start(), run.end())
        firsts = [run_start, *(m.end() for m in _SPACE.finditer(text, run_start, run_end))][:3]
        for begin in firsts if found and found[0] > 1 else firsts[:1]:
            context = text[max(0, begin - _CONTEXT) : begin]
            # the key's prefix written apart from the rest ("sk_live_ pvKh OwZX ...", "AKIA 3VC2A ..."):
            # read it glued on, too
            prefix = _PREFIX_APART.search(context)
            contexts = (context, context[: prefix.end(1)]) if prefix else (context,)
            for end_at in {run_end, text.rfind(" ", begin, run_end)}:
                kept = [i for i in range(begin, end_at) if text[i] != " "]
                for before in contexts:
                    closed = before + "".join(text[i] for i in kept)
                    for start, end in _detect(closed, closed.lower()) if kept else []:
                        if end <= len(before):
                            continue
                        if prefix and before != context and start < len(before):
                            first = begin - len(context) + prefix.start(1)  # from the prefix written apart
                        else:
                            first = kept[max(start - len(before), 0)]
                        spans.append((first, kept[end - len(before) - 1] + 1))
    return spans


def _without_words(text: str, start: int, end: int) -> tuple[int, int]:
    """A spread-out run less the ordinary words at its ends ("rotate ab3d x9qz ... next quarter": "next"
    has the groups' size but is a word), so masking leaves them."""
    groups = [(m.start(), m.end()) for m in _GROUP_WORD.finditer(text, start, end)]
    while len(groups) > 2 and _is_word(text[groups[-1][0] : groups[-1][1]]):
        groups.pop()
    while len(groups) > 2 and _is_word(text[groups[0][0] : groups[0][1]]):
        groups.pop(0)
    return (groups[0][0], groups[-1][1]) if groups else (start, end)


def _is_word(group: str) -> bool:
    return (
        len(group) > 1 and group.isalpha() and group.islower() and (ordinary_word(group) or group in _LABELS)
    )


_GROUP_WORD = lazy(r"\S+")
_NUMBERED = lazy(r"^\d{1,2}[.)](?=[a-z])")
_PREFIX_APART = lazy(r"(?<!\S)([A-Za-z]{2,5}[_-](?:[a-z]{2,5}[_-])?|[A-Z]{4}) \Z")
_LABELS = frozenset({"code", "pin", "key", "pass", "token", "seed", "otp", "secret", "is", "was"})


def _spread_out(text: str, start: int, end: int) -> tuple[int, int] | None:
    """(size, first) when the word holding text[start:end] is one of several words of one size in a
    row (8 single characters, or 2 groups), first being where the row starts."""
    word_start = text.rfind(" ", 0, start) + 1
    word_end = text.find(" ", end)
    word_end = len(text) if word_end < 0 else word_end
    if not _GROUP_CHARS.issuperset(
        text[word_start:word_end]
    ):  # "身份证：4366 2919 ...": from the digits' run
        word_start = start
        while word_start > 0 and text[word_start - 1] in _GROUP_CHARS:
            word_start -= 1
    size = word_end - word_start
    if size not in _SPACED or (size > 1 and not _GROUP_CHARS.issuperset(text[word_start:word_end])):
        return None

    def whole(at: int) -> bool:  # a word of this size at `at`, with a space or an end on each side
        return (
            at >= 0
            and at + size <= len(text)
            and (at == 0 or text[at - 1].isspace())
            and (at + size == len(text) or text[at + size].isspace())
            and not text[at : at + size].isspace()
            and (size == 1 or _GROUP_CHARS.issuperset(text[at : at + size]))
        )

    least = 8 if size == 1 else 2
    first, count = word_start, 1
    while whole(first - size - 1) and text[first - 1] == " " and count < 400:
        first, count = first - size - 1, count + 1
    label_end, glued = text[first - 3 : first - 2], text[first - 2 : first - 1]
    after_label = (
        bool(label_end) and not label_end.isspace() and not (label_end.isascii() and label_end.isalnum())
    )
    if size == 1 and text[first - 1 : first] == " " and glued.isascii() and glued.strip() and after_label:
        first, count = (
            first - 2,
            count + 1,
        )  # "密码是P i a n o", "パスワード：O t t e r": glued to a label
    following = word_end + 1
    while count < least and whole(following) and text[following - 1] == " ":
        following, count = following + size + 1, count + 1
    return (size, first) if count >= least else None


def _worth_joining(left: str, right: str) -> bool:
    """Whether the two ends joined hold any sign of a secret: a digit, a run of key characters, a word
    that names a secret, a PEM line, a URL, or seed words on both sides. Two ends of ordinary prose are
    not read again."""
    edge = left + right
    if _DIGITS.search(edge) or LONG_RUN.search(edge) or "-----" in edge or "://" in edge:
        return True
    lower = edge.lower()
    if hint_windows(lower, set(lower.split())).windows:
        return True
    ends = (left.lower().split()[-2:], right.lower().split()[:2])
    return all(any(is_seed_word(word.strip(_EDGES)) for word in end) for end in ends)


def _glued_word(first: str, second: str) -> bool:
    """Whether a token found across a seam is only a word glued to the other text's token, not a key cut
    in two: the second piece is a word ("PuttyPassword=0" + "Notes ..."), or the first is a word and the
    second a whole token of its own ("build." + a commit hash, a Bitcoin address, base64 of prose), which
    was read alone already. A password cut in two ("Password: riv" + "er5542#") has a short second piece."""

    def word(piece: str) -> bool:
        piece = piece.strip(_EDGES)
        return len(piece) >= 2 and piece.isalpha() and (piece.islower() or piece.istitle())

    return word(second) or (word(first) and len(second) >= _WHOLE_TOKEN)


_WHOLE_TOKEN = 16  # a piece this long after a word is a token of its own, not the rest of a cut password


@cache
def _pairs(count: int) -> list[tuple[int, int]]:
    """Which texts are joined: the first (a memory's text) with each other, and each with the next, both ways."""
    pairs = {(0, i) for i in range(1, count)} | {(i, i + 1) for i in range(count - 1)}
    return [pair for a, b in sorted(pairs) for pair in ((a, b), (b, a))]


def _seam_spans(a: str, b: str, qa: Quiet | None, qb: Quiet | None) -> tuple[list[Span], list[Span]]:
    """Spans, in a and in b, of credentials found only where a's end and b's start are joined (qa, qb:
    a and b as `Quiet`, when they are)."""
    glues = GLUES
    if qa and qb and len(a) <= _SEAM and len(b) <= _SEAM:  # each read whole at the seam
        glues = glues_to_read(qa, qb, _may_be_spread_out)
    if not glues or not _worth_joining(a[-_EDGE:], b[:_EDGE]):
        return [], []
    left, right = a[-_SEAM:], b[:_SEAM]
    offset = len(a) - len(left)
    in_a: list[Span] = []
    in_b: list[Span] = []
    for glue in glues:
        cut, resume = len(left), len(left) + len(glue)
        joined = left + glue + right
        for start, end in find_credentials(joined):
            if end <= cut - _SEAM_REACH or start >= resume + _SEAM_REACH:
                continue  # far from the seam: already checked alone (or cut off by the window)
            if not glue and start < cut < end and _glued_word(joined[start:cut], joined[cut:end]):
                continue  # a word glued to what the other side starts or ends with: "build." + a commit hash
            if start < cut:
                in_a.append((offset + start, offset + min(end, cut)))
            if end > resume:
                in_b.append((max(start, resume) - resume, end - resume))
    return merge(in_a), merge(in_b)
