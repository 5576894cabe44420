"""gitleaks' test strings: a small evaluator of the Go expressions under `cmd/generate/config/rules/`.

Most true positives there are generated: a secret drawn at random from a regex (`secrets.NewSecret`), written
into some thirty code and configuration shapes (`utils.GenerateSampleSecrets`). This runs those expressions
(literals, `+`, `[]string{...}`, maps, `append`, `fmt.Sprintf` and gitleaks' helpers) with a random
generator seeded by each rule's name, so `extract.py` writes the same file at every run.
"""

from __future__ import annotations

import ast
import base64
import json
import random
import re
import subprocess
import sys
import zlib
from typing import Any

from regexgen import new_secret


def git(git_dir: str, *args: str) -> str:
    return subprocess.run(
        ["git", "--git-dir", git_dir, *args], capture_output=True, text=True, check=True
    ).stdout


# ---- gitleaks: a small evaluator of the Go expressions that build tps and fps ---------------------------

_SAMPLES = {  # utils.GenerateSampleSecrets, as in cmd/generate/config/utils/generate.go
    "ini - quoted1": '{i}Token="{s}"',
    "ini - quoted2": '{i}Token = "{s}"',
    "ini - unquoted1": "{i}Token={s}",
    "ini - unquoted2": "{i}Token = {s}",
    "json - string": '{\n    "{i}_token": "{s}"\n}',
    "json - escaped newline in string": '{"config.ini": "{I}_TOKEN={s}\\nBACKUP_ENABLED=true"}',
    "xml - element multiline": "<{i}Token>\n    {s}\n</{i}Token>",
    "yaml - singleline - unquoted": "{i}_token: {s}",
    "yaml - singleline - single quote": "{i}_token: '{s}'",
    "yaml - singleline - double quote": '{i}_token: "{s}"',
    "C#": 'string {i}Token = "{s}";',
    "go - normal": 'var {i}Token string = "{s}"',
    "go - short": '{i}Token := "{s}"',
    "go - backticks": "{i}Token := `{s}`",
    "java": 'String {i}Token = "{s}";',
    "kotlin - notype": 'var {i}Token = "{s}"',
    "php - string concat": '${i}Token .= "{s}"',
    "python - single quote": "{i}Token = '{s}'",
    "python - double quote": '{i}Token = "{s}"',
    "misc - comma operator": 'System.setProperty("{I}_TOKEN", "{s}")',
    "logstash": '  "{i}Token" => "{s}"',
    "make - recursive assignment": '{i}_TOKEN = "{s}"',
    "make - simple assignment": '{i}_TOKEN := "{s}"',
    "make - shell assignment": '{i}_TOKEN ::= "{s}"',
    "make - evaluated shell assignment": '{i}_TOKEN :::= "{s}"',
    "make - conditional assignment": '{i}_TOKEN ?= "{s}"',
}

_TOKEN = re.compile(
    r"(?P<comment>//[^\n]*|/\*.*?\*/)|(?P<raw>`[^`]*`)|(?P<str>\"(?:\\.|[^\"\\\n])*\")|(?P<rune>'(?:\\.|[^'\\])')"
    r"|(?P<nl>\n)|(?P<space>[ \t\r]+)|(?P<op>:=|\.\.\.|&&|\|\||==|!=|[-+*/%=(){}\[\],:;.<>!&|^])"
    r"|(?P<name>[A-Za-z_][\w]*(?:\.[A-Za-z_]\w*)*)|(?P<num>\d[\w.]*)",
    re.DOTALL,
)


def go_tokens(source: str) -> list[tuple[str, str]]:
    tokens: list[tuple[str, str]] = []
    for match in _TOKEN.finditer(source):
        kind = match.lastgroup or ""
        if kind in ("comment", "space"):
            if kind == "comment" and "\n" in match.group():
                tokens.append(("nl", "\n"))
            continue
        tokens.append((kind, match.group()))
    return tokens


def go_string(kind: str, text: str) -> str:
    if kind == "raw":
        return text[1:-1]
    return str(ast.literal_eval(text.replace("\\x60", "`")))  # Go's escapes that matter are Python's too


class Unsupported(Exception):
    pass


class GoEval:
    def __init__(self, tokens: list[tuple[str, str]], env: dict[str, Any], rng: random.Random) -> None:
        self.tokens = [t for t in tokens if t[0] != "nl"]
        self.pos = 0
        self.env = env
        self.rng = rng

    def peek(self, offset: int = 0) -> tuple[str, str]:
        index = self.pos + offset
        return self.tokens[index] if index < len(self.tokens) else ("eof", "")

    def take(self, value: str | None = None) -> tuple[str, str]:
        token = self.peek()
        if value is not None and token[1] != value:
            raise Unsupported(f"expected {value}, got {token[1]}")
        self.pos += 1
        return token

    def expr(self) -> Any:
        value = self.term()
        while self.peek()[1] == "+":
            self.take()
            right = self.term()
            if not isinstance(value, str) or not isinstance(right, str):
                raise Unsupported("+ of non-strings")
            value += right
        return value

    def composite_items(self, closing: str = "}") -> list[Any]:
        items: list[Any] = []
        while self.peek()[1] != closing:
            first = self.expr()
            if self.peek()[1] == ":":  # a map's key: keep the value
                self.take()
                first = self.expr()
            items.append(first)
            if self.peek()[1] == ",":
                self.take()
        self.take(closing)
        return items

    def term(self) -> Any:
        kind, text = self.peek()
        if kind in ("str", "raw"):
            self.take()
            return go_string(kind, text)
        if text == "(":
            self.take()
            value = self.expr()
            self.take(")")
            return value
        if text == "[":  # []string{...}, []byte(...)
            self.take("[")
            self.take("]")
            if self.take()[1] == "byte":
                self.take("(")
                value = self.expr()
                self.take(")")
                return value
            self.take("{")
            return self.composite_items()
        if text == "map":  # map[string]string{...}
            self.take()
            self.take("[")
            self.take()
            self.take("]")
            self.take()
            self.take("{")
            return self.composite_items()
        if kind == "num":
            self.take()
            return int(text)
        if kind == "name":
            self.take()
            if self.peek()[1] == "(":
                self.take("(")
                args: list[Any] = []
                spread = False
                while self.peek()[1] != ")":
                    args.append(self.expr())
                    if self.peek()[1] == "...":
                        self.take()
                        spread = True
                    if self.peek()[1] == ",":
                        self.take()
                self.take(")")
                return self.call(text, args, spread)
            if text in self.env:
                return self.env[text]
            raise Unsupported(f"unknown name {text}")
        raise Unsupported(f"unexpected {text!r}")

    def call(self, name: str, args: list[Any], spread: bool) -> Any:
        sizes = {
            "utils.Numeric": "[0-9]{%s}",
            "utils.Hex": "[a-f0-9]{%s}",
            "utils.AlphaNumeric": "[a-z0-9]{%s}",
            "utils.AlphaNumericExtendedShort": "[a-z0-9_-]{%s}",
            "utils.AlphaNumericExtended": r"[a-z0-9=_\-]{%s}",
            "utils.AlphaNumericExtendedLong": r"[a-z0-9\/=_\+\-]{%s}",
        }
        if name in sizes:
            return sizes[name] % args[0]
        if name == "utils.Hex8_4_4_4_12":
            return "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"
        if name == "secrets.NewSecret":
            return new_secret(args[0], self.rng)
        if name == "utils.GenerateSampleSecret":
            return f'{args[0]}_api_token = "{args[1]}"'
        if name == "utils.GenerateSampleSecrets":
            identifier, secret = args
            return [
                s.replace("{i}", identifier).replace("{I}", identifier.upper()).replace("{s}", secret)
                for s in _SAMPLES.values()
            ]
        if name == "append":
            base = list(args[0])
            for item in args[1:]:
                base += item if isinstance(item, list) else [item]
            return base
        if name == "fmt.Sprintf":
            return go_sprintf(args[0], args[1:])
        if name == "newPlausibleSecret":  # gitleaks retries until the secret holds a digit 1-9
            while not re.search("[1-9]", secret := new_secret(args[0], self.rng)):
                pass
            return secret
        if name in ("base64.StdEncoding.EncodeToString", "string"):
            return base64.b64encode(args[0].encode()).decode() if name != "string" else args[0]
        if name == "[]byte":
            return args[0]
        if name == "strings.Repeat":
            return args[0] * args[1]
        if name in ("strings.ToUpper", "strings.ToLower"):
            return args[0].upper() if name.endswith("Upper") else args[0].lower()
        raise Unsupported(f"call {name}")


def go_sprintf(form: str, args: list[Any]) -> str:
    values = iter(args)
    return re.sub(
        r"%[sdvq]", lambda m: json.dumps(next(values)) if m.group() == "%q" else str(next(values)), form
    )


def _statements(tokens: list[tuple[str, str]]) -> list[list[tuple[str, str]]]:
    """A function body's statements: split at newlines outside brackets, unless the line goes on."""
    statements: list[list[tuple[str, str]]] = [[]]
    depth = 0
    for kind, text in tokens:
        if text in "({[" and kind == "op":
            depth += 1
        elif text in ")}]" and kind == "op":
            depth -= 1
        if kind == "nl" and depth == 0:
            last = next((t for k, t in reversed(statements[-1]) if k != "nl"), "")
            if last and last not in ("+", ",", "(", "{", "[", "=", ":="):
                statements.append([])
            continue
        statements[-1].append((kind, text))
    return [s for s in statements if s]


def gitleaks_cases(git_dir: str) -> list[dict[str, Any]]:
    cases: list[dict[str, Any]] = []
    files = git(git_dir, "ls-tree", "--name-only", "HEAD", "cmd/generate/config/rules/").split()
    for path in sorted(f for f in files if f.endswith(".go") and not f.endswith("_test.go")):
        tokens = go_tokens(git(git_dir, "show", f"HEAD:{path}"))
        package = _package_vars(tokens, random.Random(zlib.crc32(path.encode())))
        index = 0
        while index < len(tokens):
            if tokens[index] != ("name", "func"):
                index += 1
                continue
            name = tokens[index + 1][1]
            start = next(i for i in range(index, len(tokens)) if tokens[i] == ("op", "{"))
            depth, end = 0, start
            for end in range(start, len(tokens)):
                depth += {"{": 1, "}": -1}.get(tokens[end][1], 0) if tokens[end][0] == "op" else 0
                if depth == 0:
                    break
            cases += _rule_cases(
                path, name, tokens[start + 1 : end], random.Random(zlib.crc32(name.encode())), package
            )
            index = end + 1
    return cases


def _flattened(statements: list[list[tuple[str, str]]]) -> list[list[tuple[str, str]]]:
    """`var ( a = x \n b = y )` as two statements."""
    out: list[list[tuple[str, str]]] = []
    for statement in statements:
        if len(statement) > 2 and statement[0][1] == "var" and statement[1][1] == "(":
            out += _statements(statement[2:-1])
        else:
            out.append([t for t in statement if t[0] != "nl"])
    return out


def _package_vars(tokens: list[tuple[str, str]], rng: random.Random) -> dict[str, Any]:
    """The file's top-level `var x = ...` (lists of samples several rules share)."""
    env: dict[str, Any] = {}
    for statement in _flattened(_statements(tokens)):
        words = [t for _, t in statement]
        if words and words[0] == "var" and len(words) > 3 and words[2] == "=":
            try:
                env[words[1]] = GoEval(statement[3:], env, rng).expr()
            except (Unsupported, IndexError, ValueError, SyntaxError, re.error, StopIteration, TypeError):
                pass
    return env


def _rule_cases(
    path: str, func: str, body: list[tuple[str, str]], rng: random.Random, package: dict[str, Any]
) -> list[dict[str, Any]]:
    rule = func
    for i, (_kind, text) in enumerate(body):
        if text == "RuleID" and body[i + 1][1] == ":" and body[i + 2][0] == "str":
            rule = go_string("str", body[i + 2][1])
            break
    env: dict[str, Any] = dict(package)
    returned: list[str] = []
    for statement in _flattened(_statements(body)):
        words = [t for _, t in statement]
        if words[0] == "var":
            statement, words = statement[1:], words[1:]
        if words[0] == "return":
            returned = [t for k, t in statement if k == "name"]
            continue
        if len(words) > 2 and words[1] in (":=", "=") and statement[0][0] == "name":
            try:
                env[words[0]] = GoEval(statement[2:], env, rng).expr()
            except (
                Unsupported,
                IndexError,
                ValueError,
                SyntaxError,
                re.error,
                StopIteration,
                TypeError,
            ) as e:
                if words[0] in ("tps", "fps"):
                    print(f"  {path} {func}: {words[0]} not evaluated ({e})", file=sys.stderr)
    if not any(name.startswith("utils.Validate") for name in returned):
        return []
    cases = []
    for variable, label in (("tps", "secret"), ("fps", "near-miss")):
        for text in env.get(variable, []) if variable in returned else []:
            if isinstance(text, str):
                cases.append({"source": "gitleaks", "family": rule, "label": label, "text": text})
    return cases
