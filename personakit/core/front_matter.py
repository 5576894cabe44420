"""Reading a memory file's front matter as strictly as privacy needs and as leniently as typing allows.

One splitter finds the front matter for reading and for the line edits of a rewrite, so a decision
always edits the lines that are read. The YAML is composed by libyaml into nodes first, then checked,
and only then turned into values:

- an alias (`*name`, a node used twice) or a merge key (`<<`) is refused before anything is expanded,
  so a "billion laughs" file of a few hundred bytes costs what its bytes cost (libyaml itself bounds
  nesting at 1,000 levels);
- a key written twice at the top level is reported with its lines, so the caller can read the file as
  the most private possibility instead of YAML's silent "the last one wins";
- a value a typo can produce (an impossible date such as `2026-02-30`, a number too long to be one)
  reads as the text that was typed, never as an exception.

Any other failure of the YAML library on odd input is an `InvalidFrontMatter` with a line when known.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import yaml

_DELIMITER = re.compile(
    r"-{3,}\s*"
)  # the lines that open and close front matter, as python-frontmatter has it
_KEY_LINE = r"""(?P<q>["']?){key}(?P=q)[ \t]*:"""


class InvalidFrontMatter(ValueError):
    """Front matter that cannot be read; `line` is 1-based in the whole file when known."""

    def __init__(self, message: str, line: int | None = None) -> None:
        super().__init__(message)
        self.line = line


@dataclass(frozen=True)
class FrontMatter:
    meta: dict[Any, Any]
    body: str
    duplicates: dict[str, tuple[int, ...]]  # a key written more than once -> its 1-based lines


def bounds(lines: list[str]) -> int:
    """The index of the line closing the front matter; lines[0] must open it."""
    if not lines or not _DELIMITER.fullmatch(lines[0].rstrip("\r\n").lstrip("\ufeff")):
        raise InvalidFrontMatter("no front matter: the file must start with a line '---'", 1)
    for i in range(1, len(lines)):
        if _DELIMITER.fullmatch(lines[i].rstrip("\r\n")):
            return i
    raise InvalidFrontMatter("the front matter has no closing '---' line", len(lines))


def key_lines(lines: list[str], end: int, key: str) -> list[int]:
    """The 0-based indexes, among lines[1:end], of the top-level lines that set key (quoted or not)."""
    pattern = re.compile(_KEY_LINE.format(key=re.escape(key)))
    return [i for i in range(1, end) if pattern.match(lines[i])]


def value_end(lines: list[str], start: int, end: int) -> int:
    """The index after the last line of the value begun on lines[start]: its indented or list lines."""
    i = start + 1
    while i < end and (lines[i][:1] in (" ", "\t", "-") or not lines[i].strip()):
        i += 1
    while i > start + 1 and not lines[i - 1].strip():  # blank lines after a value belong to no one
        i -= 1
    return i


def read(raw: str) -> FrontMatter:
    """The front matter's values, the body, and the keys written twice. Raises InvalidFrontMatter."""
    lines = raw.splitlines(keepends=True)
    end = bounds(lines)
    text = "".join(lines[1:end])
    body = "".join(lines[end + 1 :])
    loader = _Loader(text)
    try:
        try:
            node = loader.get_single_node()
        except yaml.YAMLError as error:
            raise _invalid("the front matter is not valid YAML", error) from None
        except Exception as error:  # the library's own surprise on odd input: still just a bad file
            raise InvalidFrontMatter(f"the front matter is not valid YAML ({type(error).__name__})") from None
        if not isinstance(node, yaml.MappingNode) or not node.value:
            raise InvalidFrontMatter("the front matter is empty or not a set of 'key: value' lines", 1)
        _refuse_shared_nodes(node)
        duplicates = _duplicates(node)
        try:
            meta = loader.construct_document(node)
        except yaml.YAMLError as error:
            raise _invalid("the front matter cannot be read", error) from None
        except (ValueError, TypeError, OverflowError, RecursionError) as error:
            raise InvalidFrontMatter(
                f"the front matter holds a value that cannot be read ({error})"
            ) from None
    finally:
        loader.dispose()
    return FrontMatter(meta, body, duplicates)


def _invalid(what: str, error: yaml.YAMLError) -> InvalidFrontMatter:
    """PyYAML's error as a sentence, at its line in the file (the front matter starts on line 2)."""
    mark = getattr(error, "problem_mark", None)
    problem = getattr(error, "problem", None) or str(error).splitlines()[0]
    return InvalidFrontMatter(f"{what}: {problem}", mark.line + 2 if mark else None)


def _refuse_shared_nodes(root: yaml.Node) -> None:
    """Refuse an alias (a node reached twice) and a merge key, walking each node once."""
    seen: set[int] = set()
    stack = [root]
    while stack:
        node = stack.pop()
        if id(node) in seen:
            raise InvalidFrontMatter(
                "the front matter uses a YAML alias (*name), which PersonaKit does not read; "
                "write the value out instead",
                node.start_mark.line + 2,
            )
        seen.add(id(node))
        if isinstance(node, yaml.MappingNode):
            for key, value in node.value:
                if key.tag == "tag:yaml.org,2002:merge":
                    raise InvalidFrontMatter(
                        "the front matter uses a YAML merge key (<<), which PersonaKit does not read; "
                        "write the keys out instead",
                        key.start_mark.line + 2,
                    )
                stack += (key, value)
        elif isinstance(node, yaml.SequenceNode):
            stack += node.value


def _duplicates(root: yaml.MappingNode) -> dict[str, tuple[int, ...]]:
    lines: dict[str, list[int]] = {}
    for key, _ in root.value:
        if isinstance(key, yaml.ScalarNode):
            lines.setdefault(key.value, []).append(key.start_mark.line + 2)
    return {key: tuple(found) for key, found in lines.items() if len(found) > 1}


class _Loader(yaml.CSafeLoader if hasattr(yaml, "CSafeLoader") else yaml.SafeLoader):  # type: ignore[misc]
    """The safe loader, with typos read as the text that was typed."""


def _as_typed(constructor: Any) -> Any:
    def construct(loader: yaml.SafeLoader, node: yaml.ScalarNode) -> Any:
        try:
            return constructor(loader, node)
        except (ValueError, OverflowError):  # 2026-02-30, 13:75, a number of 5,000 digits
            return str(node.value)

    return construct


_Loader.add_constructor("tag:yaml.org,2002:timestamp", _as_typed(yaml.SafeLoader.construct_yaml_timestamp))
_Loader.add_constructor("tag:yaml.org,2002:int", _as_typed(yaml.SafeLoader.construct_yaml_int))
_Loader.add_constructor("tag:yaml.org,2002:float", _as_typed(yaml.SafeLoader.construct_yaml_float))
