"""A maintained scanner as a dependency? detect-secrets against our own check, on both corpora.

    python bench/secret_scanners.py                       # our check only
    /path/to/venv-with-detect-secrets/bin/python bench/secret_scanners.py --with detect-secrets

Run with an interpreter that has `detect-secrets` (1.5.0, 2024) or its fork `bc-detect-secrets` (1.5.x,
2026) installed; both install the module `detect_secrets`. For each corpus (the outside corpus,
`tests/data/outside/`, and our own, `tests/credential_corpus.py`, both parts) it prints, for our check,
the scanner alone (every plugin, default filters, each line of text and quote), and the two together
(refused when either refuses): secrets refused, near-misses or benign sentences refused, and the cost
of one 300-character check (CPU time, fastest of several runs; the machine is shared, so read ratios).
Nothing here asserts; read the table.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from personakit.core.credentials.engine import holds_credential  # noqa: E402

PROSE_300 = (
    "We talked about the trip to Lisbon in May: flights on the 14th, the small hotel near the river that "
    "Ana liked, and dinner with her cousins on Saturday. She prefers window seats and tea without sugar, "
    "and wants the museum pass for three days. Remind me to book the train to Sintra before Friday."
)


_KEPT: list[object] = []  # the settings' context, held open (a dropped one resets the settings)


def scanner(name: str) -> Callable[[str, str], bool]:
    if name == "personakit":
        return lambda text, quote: holds_credential(text, quote)
    from detect_secrets.core.scan import _is_filtered_out, _scan_line, get_code_snippet, get_plugins
    from detect_secrets.settings import default_settings, get_settings

    _KEPT.append(default_settings())  # every plugin, the default filters, for the whole run
    _KEPT[-1].__enter__()  # type: ignore[attr-defined]
    get_settings().disable_filters("detect_secrets.filters.common.is_invalid_file")
    plugins = list(get_plugins())

    def found(line: str) -> bool:
        context = get_code_snippet(lines=[line], line_number=1)
        return any(
            not _is_filtered_out(
                required_filter_parameters=["context"],
                filename=secret.filename,
                secret=secret.secret_value,
                plugin=plugin,
                line=line,
                context=context,
            )
            for plugin in plugins
            for secret in _scan_line(
                plugin=plugin,
                filename="adhoc-string-scan",
                line=line,
                line_number=0,
                enable_eager_search=False,  # as when scanning files; eager flags plain words
                context=context,
            )
        )

    return lambda text, quote: any(found(line) for part in (text, quote) for line in part.splitlines())


def outside() -> list[tuple[str, str, str]]:
    """(group, text, quote) of the outside corpus, as `tests/outside_corpus.py` proposes them."""
    from outside_corpus import MEMORY_TEXT, cases

    return [(c.group, MEMORY_TEXT, c.text) for c in cases() if c.label != "out-of-scope"]


def own() -> list[tuple[str, str, str]]:
    from credential_corpus import PARTS, benign, secrets

    rows: list[tuple[str, str, str]] = []
    for part in PARTS:
        rows += [(f"{part} secret", s.text, s.quote) for s in secrets(part)]
        rows += [(f"{part} benign", b.text, b.quote) for b in benign(part)]
    return rows


def cost(check: Callable[[str, str], bool]) -> float:
    """Microseconds for one 300-character check: the fastest of 5 runs of 200."""
    best = float("inf")
    for _ in range(5):
        start = time.process_time()
        for _ in range(200):
            check(PROSE_300, "")
        best = min(best, (time.process_time() - start) / 200)
    return best * 1e6


def _release() -> None:
    while _KEPT:
        _KEPT.pop().__exit__(None, None, None)  # type: ignore[attr-defined]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--with", dest="other", default="")
    args = parser.parse_args()
    checks = {"personakit": scanner("personakit")}
    if args.other:
        other = scanner(args.other)
        checks[args.other] = other
        checks["both"] = lambda text, quote: checks["personakit"](text, quote) or other(text, quote)
    corpora = {"outside": outside(), "own": own()}
    results: dict[str, dict[str, list[int]]] = {}
    for name, check in checks.items():
        for corpus, rows in corpora.items():
            for group, text, quote in rows:
                tally = results.setdefault(name, {}).setdefault(f"{corpus} {group}", [0, 0])
                tally[0] += check(text, quote)
                tally[1] += 1
    groups = sorted({g for per in results.values() for g in per})
    print("| group | " + " | ".join(checks) + " |\n|---|" + "---|" * len(checks))
    for group in groups:
        cells = [f"{r[0] / r[1]:.1%} ({r[0]}/{r[1]})" for r in (results[n][group] for n in checks)]
        print(f"| {group} refused | " + " | ".join(cells) + " |")
    print("| 300-char check, µs | " + " | ".join(f"{cost(c):.0f}" for c in checks.values()) + " |")
    print(json.dumps({"python": sys.version.split()[0]}))
    _release()


if __name__ == "__main__":
    main()
