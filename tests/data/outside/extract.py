"""Build `secrets.jsonl`: the public secret scanners' own test strings, as an outside corpus.

    python tests/data/outside/extract.py GITLEAKS_GIT_DIR DETECT_SECRETS_GIT_DIR

Each argument is a git directory (a bare clone or a mirror); files are read from its HEAD with `git show`.

- **gitleaks** (MIT): every rule under `cmd/generate/config/rules/*.go` lists true positives (`tps`) and
  false positives (`fps`) as Go expressions, most of them generated from a regex; `gitleaks.py` evaluates
  them with a seeded random generator, so the file is the same at every run.
- **detect-secrets** (Apache-2.0): every `pytest.mark.parametrize` case under `tests/plugins/`, with its
  label (`should_flag`, an expected secret or None, or the name of the list it sits in).

Each line: source, family (rule id or plugin), label (`secret`, `near-miss`, `placeholder`, `public`), `shaped`
(a near-miss that is still a secret to a person: another provider's key, a key with a wrong suffix), and
the text. A scanner's "secret" that is a placeholder (`AP6xxxxxxxxxx`, AWS's EXAMPLE key) is labelled
`placeholder`: stored, like every other; a key its provider documents as public is `public`. Both lists are `marks.py`. The first line holds the licences and
commits. Families outside what PersonaKit calls a credential (public IP addresses) are kept with
`label: out-of-scope` and reported apart.
"""

from __future__ import annotations

import ast
import json
import sys
from pathlib import Path
from typing import Any

from gitleaks import git, gitleaks_cases
from marks import mark_placeholders, mark_shaped

HERE = Path(__file__).parent
OUT = HERE / "secrets.jsonl"


# ---- detect-secrets: the parametrized cases of tests/plugins ---------------------------------------------

_SECRET_WHEN = {"should_flag", "should_be_caught", "is_secret"}


def detect_secrets_cases(git_dir: str) -> list[dict[str, Any]]:
    cases: list[dict[str, Any]] = []
    files = git(git_dir, "ls-tree", "--name-only", "HEAD", "tests/plugins/").split()
    for path in sorted(f for f in files if f.endswith("_test.py")):
        family = Path(path).stem.removesuffix("_test")
        tree = ast.parse(git(git_dir, "show", f"HEAD:{path}"))
        namespace: dict[str, Any] = {"__builtins__": __builtins__}
        exec("import base64, random, textwrap, string\nfrom random import randint\nrandom.seed(0)", namespace)
        for node in tree.body:
            if isinstance(node, ast.Assign | ast.FunctionDef):  # constants, and helpers like parse_test_cases
                try:
                    exec(compile(ast.Module([node], []), path, "exec"), namespace)
                except Exception:  # a constant built from the plugin itself: not a case
                    pass
        for call in ast.walk(tree):
            if not (isinstance(call, ast.Call) and ast.unparse(call.func).endswith("mark.parametrize")):
                continue
            names = [n.strip() for n in ast.literal_eval(call.args[0]).split(",")]
            try:
                values = eval(compile(ast.Expression(call.args[1]), path, "eval"), namespace)
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
