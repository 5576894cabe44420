"""Regular expressions compiled on first use, not at import.

The credential check holds some three hundred patterns, many of them long alternations of words in a dozen
languages; compiling them all took about a tenth of a second at every start, before a server could answer
its host's handshake. `lazy` returns a stand-in that compiles its pattern the first time it is used, then
holds the compiled pattern's methods as its own, so a call costs what a compiled pattern's does.
"""

from __future__ import annotations

import re
from typing import Any, cast

_METHODS = ("search", "match", "fullmatch", "finditer", "findall", "sub", "subn", "split")


class _Lazy:
    def __init__(self, pattern: str, flags: int) -> None:
        self._source = (pattern, flags)

    def __getattr__(self, name: str) -> Any:  # only for what the instance does not hold yet
        if name.startswith("__"):
            raise AttributeError(name)
        compiled = self.__dict__.get("_compiled")
        if compiled is not None:  # an attribute not copied below: asked of the pattern each time
            return getattr(compiled, name)
        compiled = self._compiled = re.compile(*self._source)
        for method in _METHODS:
            setattr(self, method, getattr(compiled, method))
        self.__dict__.update(pattern=compiled.pattern, flags=compiled.flags, groups=compiled.groups,
                             groupindex=compiled.groupindex)  # fmt: skip
        return getattr(compiled, name)


def lazy(pattern: str, flags: int = 0) -> re.Pattern[str]:
    """re.compile(pattern, flags), done when the pattern is first used."""
    return cast("re.Pattern[str]", _Lazy(pattern, flags))
