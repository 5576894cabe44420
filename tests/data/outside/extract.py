"""Build `secrets.jsonl`: the public secret scanners' own test strings, as an outside corpus.

    python tests/data/outside/extract.py GITLEAKS_GIT_DIR DETECT_SECRETS_GIT_DIR

Each argument is a git directory (a bare clone or a mirror); files are read from its HEAD with `git show`.

- **gitleaks** (MIT): every rule under `cmd/generate/config/rules/*.go` lists true positives (`tps`) and
  false positives (`fps`) as Go expressions. Most true positives are generated: a secret drawn at random
  from a regex (`secrets.NewSecret`), written into some thirty code and configuration shapes
  (`utils.GenerateSampleSecrets`). A small evaluator below runs those expressions (literals, `+`,
  `[]string{...}`, maps, `append`, `fmt.Sprintf` and gitleaks' helpers), with a seeded random generator,
  so the file is the same at every run.
- **detect-secrets** (Apache-2.0): every `pytest.mark.parametrize` case under `tests/plugins/`, with its
  label (`should_flag`, an expected secret or None, or the name of the list it sits in).

Each line: source, family (rule id or plugin), label (`secret`, `near-miss`, `placeholder`), `shaped` (a near-miss
that is still a secret to a person: another provider's key, a key with a wrong suffix, a real-looking
value the rule deliberately leaves to another rule), and the text. A scanner's "secret" that is a
placeholder (`AP6xxxxxxxxxx`, AWS's EXAMPLE key) is labelled `placeholder`: stored, like every other. The first line holds the licences
and commits. Families outside what PersonaKit calls a credential (public IP addresses) are kept with
`label: out-of-scope` and reported apart.
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
from pathlib import Path
from typing import Any

HERE = Path(__file__).parent
OUT = HERE / "secrets.jsonl"


def git(git_dir: str, *args: str) -> str:
    return subprocess.run(
        ["git", "--git-dir", git_dir, *args], capture_output=True, text=True, check=True
    ).stdout


# ---- a random string for a regex (gitleaks' secrets.NewSecret) ------------------------------------------

try:
    from re import _parser as sre_parse  # type: ignore[attr-defined]
except ImportError:  # Python < 3.11
    import sre_parse  # type: ignore[no-redef]

_CATEGORY = {
    "CATEGORY_DIGIT": "0123456789",
    "CATEGORY_WORD": "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_",
    "CATEGORY_SPACE": " ",
}
_PRINTABLE = [chr(c) for c in range(33, 127)]


def _chars(items: list[tuple[Any, Any]]) -> list[str]:
    chars: list[str] = []
    negate = False
    for op, value in items:
        name = str(op)
        if name == "NEGATE":
            negate = True
        elif name == "LITERAL":
            chars.append(chr(value))
        elif name == "RANGE":
            chars += [chr(c) for c in range(value[0], value[1] + 1)]
        elif name == "CATEGORY":
            chars += list(_CATEGORY.get(str(value), "a"))
    if negate:
        return [c for c in _PRINTABLE if c not in chars] or ["a"]
    return chars


def _generate(parsed: Any, rng: random.Random, extra: int = 1) -> str:
    out: list[str] = []
    for op, value in parsed:
        name = str(op)
        if name == "LITERAL":
            out.append(chr(value))
        elif name == "NOT_LITERAL":
            out.append(rng.choice([c for c in _PRINTABLE if ord(c) != value]))
        elif name == "ANY":
            out.append(rng.choice(_PRINTABLE))
        elif name == "IN":
            out.append(rng.choice(_chars(value)))
        elif name in ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT"):
            low, high, sub = value
            high = low + extra if high == sre_parse.MAXREPEAT else high  # reggen's Generate(1)
            out += [_generate(sub, rng, extra) for _ in range(rng.randint(low, high))]
        elif name == "SUBPATTERN":
            out.append(_generate(value[-1], rng, extra))
        elif name == "BRANCH":
            out.append(_generate(rng.choice(value[1]), rng, extra))
        elif name == "CATEGORY":
            out.append(rng.choice(_CATEGORY.get(str(value), "a")))
        # AT (anchors), GROUPREF and the like write nothing
    return "".join(out)


def new_secret(regex: str, rng: random.Random) -> str:
    regex = (
        regex.replace(r"\z", r"\Z").replace("[[:alnum:]]", "[A-Za-z0-9]").replace("[:alnum:]", "A-Za-z0-9")
    )
    regex = re.sub(r"\(\?P?<\w+>", "(", regex)
    return _generate(sre_parse.parse(regex), rng)


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


# ---- detect-secrets: the parametrized cases of tests/plugins ---------------------------------------------

_SECRET_WHEN = {"should_flag", "should_be_caught", "is_secret"}


def detect_secrets_cases(git_dir: str) -> list[dict[str, Any]]:
    cases: list[dict[str, Any]] = []
    files = git(git_dir, "ls-tree", "--name-only", "HEAD", "tests/plugins/").split()
    for path in sorted(f for f in files if f.endswith("_test.py")):
        family = Path(path).stem.removesuffix("_test")
        tree = ast.parse(git(git_dir, "show", f"HEAD:{path}"))
        namespace: dict[str, Any] = {"__builtins__": __builtins__}
        exec("import base64, random, textwrap, string\nrandom.seed(0)", namespace)
        for node in tree.body:
            if isinstance(node, ast.Assign):
                try:
                    exec(compile(ast.Module([node], []), path, "exec"), namespace)
                except Exception:  # a constant built from the plugin itself: not a case
                    pass
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and ast.unparse(node.func).endswith("mark.parametrize")):
                continue
            names = [n.strip() for n in ast.literal_eval(node.args[0]).split(",")]
            try:
                values = eval(compile(ast.Expression(node.args[1]), path, "eval"), namespace)
            except Exception:
                continue
            cases += _parametrized(family, names, values)
    return cases


def _parametrized(family: str, names: list[str], values: Any) -> list[dict[str, Any]]:
    cases = []
    for row in values:
        row = row if isinstance(row, tuple) else (row,)
        found = dict(zip(names, row, strict=False))
        if family == "high_entropy_strings" and "secret" in found and "non_secret" in found:
            cases.append({"text": found["secret"], "label": "secret"})
            cases.append({"text": found["non_secret"], "label": "near-miss"})
            continue
        text = next(
            (found[n] for n in ("payload", "line", "file_content") if isinstance(found.get(n), str)), None
        )
        if text is None:
            continue
        if "expected_secret" in found:
            label = found["expected_secret"] is not None
        elif _SECRET_WHEN & found.keys():
            label = bool(found[next(iter(_SECRET_WHEN & found.keys()))])
        elif len(names) == 1:
            label = True  # a list of payloads each test expects to be found
        else:
            continue
        cases.append({"text": text, "label": "secret" if label else "near-miss"})
    for case in cases:
        case.update(source="detect-secrets", family=family)
        if family == "ip_public":
            case["label"] = "out-of-scope"
    return cases


# ---- near-misses still secret-shaped for a person's memory ------------------------------------------------

# A scanner's false positive is one *for that rule*: another provider's key, a key one character too long,
# a real-looking password its rule leaves to the generic rule. In a personal memory those are still
# secrets, so refusing them is right. Each entry: (source, family, a regex the text matches), with why.
SHAPED: list[tuple[str, str, str, str]] = [
    ("gitleaks", "anthropic-.*", r"sk-ant-(?:api|admin)", "an Anthropic key of the other kind or suffix"),
    ("gitleaks", "artifactory-.*", r"wrong(?:Start|Length)|partOfAlong", "a random 60-70 character token"),
    ("gitleaks", "azure-ad-client-secret", r"CloudFront-Signature|USK@", "a signed URL's signature, a key"),
    ("gitleaks", "clickhouse-.*", r"key = adf4", "a random value assigned to key"),
    ("gitleaks", "cloudflare-.*", r".", "another Cloudflare key kind"),
    ("gitleaks", "databricks-api-token", r"DATABRICKS_TOKEN=", "a token with a wrong character"),
    ("gitleaks", "easypost-.*", r".", "a random base64 run"),
    ("gitleaks", "flyio-access-token", r"authenticity_token", "a CSRF token, a session secret"),
    ("gitleaks", "freemius-secret-key", r"\"?secret_key", "a value assigned to secret_key"),
    ("gitleaks", "gcp-api-key", r"AIza(?!a{8}|Syabcdef)|GWw4", "a Google API key (allow-listed by gitleaks)"),
    (
        "gitleaks",
        "generic-api-key",
        r"primaryKey=|foreignKey=|key_down_event=|apiKey:\"6fe|csrf-token=",
        "a random token assigned to a key name",
    ),
    ("gitleaks", "hashicorp-tf-password", r"rootpasswd", "a password"),
    ("gitleaks", "mailchimp-api-key", r"-us18", "a Mailchimp key"),
    ("gitleaks", "cisco-meraki-api-key", r"meraki-api-key|meraki_token", "a Meraki key, wrong suffix"),
    ("gitleaks", "nuget-config-password", r"CleartextPassword1|33f!!|hal\+9", "a password"),
    ("gitleaks", "okta-access-token", r"rookTable", "a random 42-character token"),
    ("gitleaks", "sentry-.*", r"sntry[su]_(?!a{8})", "a Sentry token of the wrong form"),
    ("gitleaks", "settlemint-.*", r"\"[a-z0-9]{16}\"", "a random token assigned to a token name"),
    ("gitleaks", "slack-user-token", r"4ddbc191", "a Slack-like token with a random part"),
    ("gitleaks", "sourcegraph-access-token", r"sgp_local|sgp_78|BcAeb|sgp_652", "a Sourcegraph-like token"),
    ("gitleaks", "sumologic-access-token", r"sumOfExposures", "a random 64-character token"),
    ("gitleaks", "telegram-bot-api-token", r"\d{4,}:A[\w-]{20}", "a Telegram token, wrong bot id length"),
    ("detect-secrets", "discord", r".", "a Discord-like token of the wrong form"),
    ("detect-secrets", "github_token", r"foo_", "a random 36-character token"),
    ("detect-secrets", "gitlab_token", r"ghp_|gldt-", "a GitHub key; a GitLab token of the wrong length"),
    ("detect-secrets", "jwt", r"eyJhbasd|IkpXVCJ\.", "a JWT with a damaged header but a real payload"),
    ("detect-secrets", "mailchimp_key", r"-2$|-al32|ED38357DB", "a Mailchimp key with a wrong suffix"),
    ("detect-secrets", "npm", r"_authToken=743b", "an npm token outside the registry line"),
    ("detect-secrets", "openai", r"sk-proj-", "an OpenAI key with one character changed"),
    ("detect-secrets", "pypi_token", r"pypi-", "a PyPI token of the wrong form"),
    ("detect-secrets", "sendgrid", r"\.", "a SendGrid key of the wrong form"),
    ("detect-secrets", "telegram_token", r":AA", "a Telegram token without the bot id"),
]


# The other way round: a scanner's test "secret" that is a placeholder or not a secret at all (a run of x,
# AWS's documented EXAMPLE key, `username:password`). The rule is that every
# placeholder is stored, so these are relabelled `placeholder` and must be stored.
PLACEHOLDERS: list[tuple[str, str, str, str]] = [
    ("detect-secrets", ".*", r"x{6}|X{6}|Z{8}|EXAMPLE", "a run of x, X or Z; an EXAMPLE key"),
    ("detect-secrets", "basic_auth", r"username:password@", "the words username and password"),
    ("gitleaks", ".*", r"EXAMPLE", "AWS's documented EXAMPLE key"),
    ("gitleaks", "gcp-service-account", r'^"type": "service_account"$', "a JSON field naming a file type"),
]


def mark_placeholders(cases: list[dict[str, Any]]) -> None:
    for case in cases:
        if case["label"] == "secret" and any(
            source == case["source"]
            and re.fullmatch(family, case["family"])
            and re.search(pattern, case["text"])
            for source, family, pattern, _why in PLACEHOLDERS
        ):
            case["label"] = "placeholder"


def mark_shaped(cases: list[dict[str, Any]]) -> None:
    for case in cases:
        case["shaped"] = case["label"] == "near-miss" and any(
            source == case["source"]
            and re.fullmatch(family, case["family"])
            and re.search(pattern, case["text"])
            for source, family, pattern, _why in SHAPED
        )


def main() -> None:
    gitleaks_dir, detect_dir = sys.argv[1:3]
    cases = gitleaks_cases(gitleaks_dir) + detect_secrets_cases(detect_dir)
    seen: set[tuple[str, str, str]] = set()
    unique = []
    for case in cases:
        key = (case["source"], case["label"], case["text"])
        if key not in seen and case["text"].strip():
            seen.add(key)
            unique.append(case)
    mark_placeholders(unique)
    mark_shaped(unique)
    header = {
        "sources": {
            "gitleaks": {
                "url": "https://github.com/gitleaks/gitleaks",
                "licence": "MIT",
                "commit": git(gitleaks_dir, "rev-parse", "HEAD").strip(),
                "files": "cmd/generate/config/rules/*.go (tps, fps)",
            },
            "detect-secrets": {
                "url": "https://github.com/Yelp/detect-secrets",
                "licence": "Apache-2.0",
                "commit": git(detect_dir, "rev-parse", "HEAD").strip(),
                "files": "tests/plugins/*_test.py (pytest.mark.parametrize cases)",
            },
        },
        "built_by": "tests/data/outside/extract.py",
    }
    with OUT.open("w", encoding="utf-8") as out:
        out.write(json.dumps(header) + "\n")
        for case in unique:
            row = {k: case[k] for k in ("source", "family", "label", "shaped", "text")}
            out.write(json.dumps(row, ensure_ascii=False) + "\n")
    counts: dict[str, int] = {}
    for case in unique:
        name = f"{case['source']} {case['label']}{' (shaped)' if case['shaped'] else ''}"
        counts[name] = counts.get(name, 0) + 1
    print(json.dumps(counts, indent=1))


if __name__ == "__main__":
    main()
