"""How text becomes words: the one definition behind "shares a word".

The index's terms, the question's terms and every "which words matched" explanation come from `words()`,
so a memory matches a question exactly when their word sets intersect. Words are Unicode letter-or-digit
runs, NFKC-normalized and case-folded; English stop words (question words and the ways assistants refer
to the owner included) are dropped; a light suffix stemmer makes "run", "runs" and "running" one word.
"""

from __future__ import annotations

import re
import unicodedata

# Letters and digits in any script; apostrophes split words, and the pieces they leave are handled below.
_WORD = re.compile(r"[^\W_]+")
_CONTRACTION = re.compile(r"(?:['’](?:s|d|ll|re|ve|m)|n['’]t)\b", re.IGNORECASE)

STOP_WORDS = frozenset(
    [
        "a",
        "about",
        "above",
        "after",
        "again",
        "against",
        "all",
        "also",
        "am",
        "an",
        "and",
        "any",
        "are",
        "as",
        "at",
        "be",
        "because",
        "been",
        "before",
        "being",
        "below",
        "between",
        "both",
        "but",
        "by",
        "can",
        "could",
        "did",
        "do",
        "does",
        "doing",
        "done",
        "down",
        "during",
        "each",
        "either",
        "else",
        "ever",
        "every",
        "few",
        "for",
        "from",
        "further",
        "get",
        "gets",
        "got",
        "had",
        "has",
        "have",
        "having",
        "he",
        "her",
        "here",
        "hers",
        "herself",
        "him",
        "himself",
        "his",
        "how",
        "i",
        "if",
        "in",
        "into",
        "is",
        "it",
        "its",
        "itself",
        "just",
        "let",
        "lets",
        "may",
        "me",
        "might",
        "mine",
        "more",
        "most",
        "much",
        "must",
        "my",
        "myself",
        "no",
        "nor",
        "not",
        "now",
        "of",
        "off",
        "often",
        "on",
        "once",
        "one",
        "only",
        "or",
        "other",
        "others",
        "our",
        "ours",
        "ourselves",
        "out",
        "over",
        "own",
        "per",
        "please",
        "quite",
        "rather",
        "really",
        "same",
        "shall",
        "she",
        "should",
        "so",
        "some",
        "such",
        "than",
        "that",
        "the",
        "their",
        "theirs",
        "them",
        "themselves",
        "then",
        "there",
        "these",
        "they",
        "this",
        "those",
        "through",
        "thus",
        "to",
        "too",
        "under",
        "until",
        "up",
        "upon",
        "us",
        "usually",
        "very",
        "was",
        "we",
        "were",
        "what",
        "whatever",
        "when",
        "whenever",
        "where",
        "wherever",
        "whether",
        "which",
        "while",
        "who",
        "whoever",
        "whom",
        "whose",
        "why",
        "will",
        "with",
        "within",
        "without",
        "would",
        "yes",
        "yet",
        "you",
        "your",
        "yours",
        "yourself",
        "yourselves",
        "anything",
        "something",
        "everything",
        "nothing",
        "someone",
        "anyone",
        "everyone",
        "thing",
        "things",
        "stuff",
        "kind",
        "sort",
        "owner",
        "owners",
        "user",
        "users",
        "person",
        "persons",
        "people's",
        "human",
        "assistant",
        "tell",
        "know",
        "known",
        "remember",
        "recall",
    ]
)

# Common irregular forms, mapped to the form the stemmer gives their base word.
_IRREGULAR = {
    "ran": "run",
    "went": "go",
    "gone": "go",
    "ate": "eat",
    "eaten": "eat",
    "wrote": "writ",
    "written": "writ",
    "spoke": "speak",
    "spoken": "speak",
    "drank": "drink",
    "drunk": "drink",
    "children": "child",
    "men": "man",
    "women": "woman",
    "mice": "mouse",
    "feet": "foot",
    "teeth": "tooth",
    "bought": "buy",
    "brought": "bring",
    "thought": "think",
    "taught": "teach",
    "made": "mak",
    "took": "tak",
    "taken": "tak",
    "gave": "giv",
    "given": "giv",
    "saw": "see",
    "seen": "see",
    "met": "meet",
    "left": "leav",
    "felt": "feel",
    "kept": "keep",
    "slept": "sleep",
    "swam": "swim",
    "swum": "swim",
    "flew": "fly",
    "flown": "fly",
    "grew": "grow",
    "grown": "grow",
    "knew": "know",
    "began": "begin",
    "begun": "begin",
    "sang": "sing",
    "sung": "sing",
    "rode": "rid",
    "ridden": "rid",
    "drove": "driv",
    "driven": "driv",
    "lived": "liv",
}
_VOWELS = set("aeiouy")


def stem(word: str) -> str:
    """A light English stemmer: plurals, -ing, -ed, -ly, a final e. Non-Latin words pass through."""
    if word in _IRREGULAR:
        return _IRREGULAR[word]
    if len(word) <= 3 or not word.isascii() or not word.isalpha():
        return word
    if word.endswith("ies") and len(word) > 4:
        word = word[:-3] + "y"
    elif word.endswith("sses"):
        word = word[:-2]
    elif word.endswith("s") and not word.endswith(("ss", "us", "is")):
        word = word[:-1]
    for suffix in ("ingly", "edly", "ing", "ed", "ly"):
        base = word[: -len(suffix)]
        if word.endswith(suffix) and len(base) >= 3 and _VOWELS & set(base):
            word = base
            if len(word) > 3 and word[-1] == word[-2] and word[-1] not in "lsz":
                word = word[:-1]  # running -> run, stopped -> stop
            break
    if word.endswith("e") and len(word) > 3:
        word = word[:-1]  # make / making / makes -> mak
    return word


def words(text: str) -> list[str]:
    """The distinct words of text, in order of first appearance, as the index and the rules count them."""
    text = unicodedata.normalize("NFKC", text).casefold()
    text = _CONTRACTION.sub(" ", text)
    seen: dict[str, None] = {}
    for token in _WORD.findall(text):
        if token in STOP_WORDS or (len(token) == 1 and not token.isdigit()):
            continue
        seen.setdefault(stem(token), None)
    return list(seen)
