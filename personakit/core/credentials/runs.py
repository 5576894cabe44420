"""The long runs of key characters in a text: where keys are looked for, and the way back from them.

Every provider key and every random token lies inside a run of at least 14 characters of the key
alphabet (letters, digits and `_+/=.$%~:-`). Prose has few such runs, so the shape checks read the runs
alone, joined by line breaks, and map what they find back to the text.
"""

from __future__ import annotations

import bisect

from personakit.core.credentials.lazyre import lazy

Span = tuple[int, int]
# Runs of key characters long enough to hold a provider key: every provider shape in _IN_RUNS lies
# inside one (a test checks it), so only the runs are read, joined by line breaks.
RUN_CHARS = "A-Za-z0-9_+/=.$%~:-"
LONG_RUN = lazy(rf"[{RUN_CHARS}]{{14,}}")


class Runs:
    """The long runs of key characters in a text, joined by line breaks, with the way back to the text."""

    def __init__(self, text: str) -> None:
        self.spans = [m.span() for m in LONG_RUN.finditer(text)]
        self.joined = "\n".join(text[start:end] for start, end in self.spans)
        self._text_starts = [start for start, _ in self.spans]
        self._starts: list[int] = []
        position = 0
        for start, end in self.spans:
            self._starts.append(position)
            position += end - start + 1

    def back(self, start: int, end: int) -> Span:
        index = bisect.bisect_right(self._starts, start) - 1
        offset = self.spans[index][0] - self._starts[index]
        return start + offset, end + offset

    def run_start(self, start: int) -> int:
        """Where the long run holding text position start begins."""
        return self.spans[bisect.bisect_right(self._text_starts, start) - 1][0]


_RUN_CHAR = frozenset(c for c in map(chr, range(128)) if LONG_RUN.fullmatch(c * 14))


def run_across(a: str, b: str) -> str:
    """The key characters a ends with and b starts with: the run a + b holds across their seam."""
    start, end = len(a), 0
    while start and a[start - 1] in _RUN_CHAR:
        start -= 1
    while end < len(b) and b[end] in _RUN_CHAR:
        end += 1
    return a[start:] + b[:end]


def merge(spans: list[Span]) -> list[Span]:
    merged: list[Span] = []
    for start, end in sorted(spans):
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], end))
        elif end > start:
            merged.append((start, end))
    return merged
