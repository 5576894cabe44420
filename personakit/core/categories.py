"""Which of the seven categories a memory's own words suggest, for text that arrives without one (an
import from a tool that keeps no categories).

Data and a small engine. `CUES` lists, for each category, words that point to it: a topic word counts
two, an attitude word ("prefers", "likes", "hates") one, and a rule word ("never", "always", "must")
three, so "Prefers short answers" is about communication, "Likes green tea" about preferences and "Never
schedule calls before 10am" a constraint. The words are written plainly and counted as the
index counts them (`words.words`: case, endings, British spellings), and negations ("never", "don't"),
which the index drops as stop words, are matched as written. The category with the most points wins; a
tie goes to the one listed first; no cue at all is `other`.
"""

from __future__ import annotations

import re
from types import MappingProxyType

from personakit.core.words import words

RULE, TOPIC, ATTITUDE = 3, 2, 1

CUES: MappingProxyType[str, tuple[tuple[int, str], ...]] = MappingProxyType(
    {
        "constraints": (
            (RULE, "never always must mustn't cannot can't avoid"),
            (TOPIC, "don't doesn't dont before until allergic allergy "
                    "allergies intolerant intolerance gluten lactose halal kosher vegetarian vegan diet "
                    "medication wheelchair deadline budget forbidden unable"),
        ),
        "communication": (
            (TOPIC, "answer answers reply replies respond response feedback tone explain explanation "
                    "summary summaries bullet bullets concise brief verbose wordy short shorter long longer "
                    "detail detailed format formatting emoji emojis jargon example examples blunt direct "
                    "polite formal casual english spanish french german italian portuguese japanese chinese "
                    "language writing padding"),
        ),
        "tools": (
            (TOPIC, "vim neovim emacs vscode editor ide python go golang rust javascript typescript java "
                    "kotlin swift ruby php sql postgres postgresql mysql sqlite docker kubernetes git github "
                    "gitlab linux macos mac windows terminal shell bash zsh fish notion obsidian excel figma "
                    "slack jira framework library react django flask laptop keyboard tool tools app"),
        ),
        "work-style": (
            (TOPIC, "morning mornings evening meeting meetings call calls schedule focus plan planning "
                    "standup sprint task tasks todo notes pomodoro workflow commit commits test tests tdd "
                    "habit breaks hours remote async pairing review reviews merge merging"),
        ),
        "background": (
            (TOPIC, "live lives lived born grew moved city country married wife husband partner kid kids "
                    "child children daughter son dog cat pet degree studied university college school phd "
                    "job engineer developer designer manager teacher nurse doctor company employer startup "
                    "named native learning"),
            (ATTITUDE, "work works worked"),
        ),
        "preferences": (
            (TOPIC, "tea coffee food music favourite favorite colour color theme dark mode hobby hobbies "
                    "film films movie movies book books hobby running marathon gym yoga climbing hiking cycling"),
            (ATTITUDE, "prefer prefers like likes love loves enjoy enjoys hate hates dislike dislikes fan"),
        ),
    }
)  # fmt: skip

_RAW = re.compile(r"[^\W_]+(?:['’][^\W_]+)?")


def _forms(word: str) -> tuple[str, ...]:
    """How word is counted: as the index counts it, or as written when the index drops it (a stop word)."""
    return tuple(words(word)) or (word.replace("’", "'"),)


_POINTS: dict[str, dict[str, int]] = {}  # a counted word -> the categories it points to, with its points
for _category, _groups in CUES.items():
    for _weight, _listed in _groups:
        for _word in _listed.split():
            for _form in _forms(_word):  # "call" and "calls" are one word: counted once
                _points = _POINTS.setdefault(_form, {})
                _points[_category] = max(_points.get(_category, 0), _weight)


def guess_category(text: str) -> str:
    """The category text's words point to most, else `other`."""
    found = {form for word in _RAW.findall(text.casefold()) for form in _forms(word)}
    score: dict[str, int] = {}
    for word in found:
        for category, weight in _POINTS.get(word, {}).items():
            score[category] = score.get(category, 0) + weight
    if not score:
        return "other"
    order = list(CUES)
    return max(score, key=lambda c: (score[c], -order.index(c)))
