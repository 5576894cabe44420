"""The credential check's cost: this checkout against `main`, measured in the same run.

For each of the two, a fresh interpreter imports `personakit.core` (main's from `git archive main`).
Each figure is CPU time, the fastest of several runs, over three rounds that alternate the two checkouts
(the machine is shared). For each checkout:

- the check of one string (`looks_like_credential`) at 300 characters and at 100 kB, for prose with no
  hint, prose full of secret words, prose in other scripts, random base64, and a sentence holding a key;
- masking a 300-character memory as a read does (`masking.mask`, emails and credentials);
- masking's first scan of a memory as a read shows it (text and quotes, the seams between them), the mean
  over 500 memories of `zipf.py`'s shape and of `generate.py`'s, with no word's hints kept from before;
- a whole proposal check (`check_proposal`) with a 300-character text and a 1 MB quote, in ASCII prose
  and in prose in other scripts;
- with `--adversarial`, the check of 1 MB built to be slow (the shapes `tests/core/test_credentials.py`
  feeds it), once each.

    python bench/credentials.py              # main vs this checkout
    python bench/credentials.py --only here  # just this checkout
    python bench/credentials.py --adversarial  # also 1 MB of pathological text

Nothing here asserts a time; read the table.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
_WORDS_TEXT = (
    "the a of and to in is was for on that with as by at from my our we it be this are or have an they "
    "which one you were her all she there would their will when who him been has more if no out so said "
    "what up its about into than them can only other new some could time these two may then do first any "
    "like now my favourite coffee morning meeting notes project garden bread weekend sister flight Berlin "
    "prefers writes works evenings quietly budget dinner review draft"
)
WORDS = _WORDS_TEXT.split()
OTHER = (
    "Das Treffen ist am Montag um zehn Uhr im Büro. 我喜欢在早上喝咖啡，然后去公园散步。 "
    "Мы встречаемся в пятницу вечером у Анны. 日曜日は家族と過ごすのが好きです。 "
    "Il préfère les réunions courtes et les notes écrites. 주말에는 등산을 자주 갑니다. "
)
HINTS = (
    "my password manager keeps the key to the shed, the token for the bus pass and the secret of the "
    "pin badge; the code review is at noon and the passcode policy changed. "
)


def _prose(size: int, seed: int) -> str:
    generator = random.Random(seed)
    parts: list[str] = []
    length = 0
    while length < size:
        sentence = " ".join(generator.choice(WORDS) for _ in range(generator.randrange(6, 18)))
        if generator.random() < 0.2:
            sentence += f" at {generator.randrange(1, 12)}:{generator.randrange(10, 60)}"
        sentence = sentence.capitalize() + ". "
        parts.append(sentence)
        length += len(sentence)
    return "".join(parts)[:size]


def _repeat(unit: str, size: int) -> str:
    return (unit * (size // len(unit) + 1))[:size]


def _random_base64(size: int, seed: int) -> str:
    generator = random.Random(seed)
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
    return "".join(generator.choice(alphabet) for _ in range(size))


def _key_sentence(size: int) -> str:
    key = "sk-ant-api03-" + _random_base64(80, 7).replace("+", "x").replace("/", "y")
    return (_prose(size, 3)[: max(0, size - len(key) - 20)] + " my key is " + key)[:size]


def _time(function: Callable[[], object], budget: float = 0.6) -> float:
    """The fastest of as many runs as fit the budget (at least 5), in CPU time of this process: the
    machine is shared, and time spent waiting for a core is not the check's."""
    function()  # warm caches (compiled patterns, lazily loaded tables)
    runs: list[float] = []
    started = time.perf_counter()
    while len(runs) < 5 or (time.perf_counter() - started < budget and len(runs) < 2000):
        begin = time.process_time()
        function()
        runs.append(time.process_time() - begin)
    return min(runs)


ADVERSARIAL: dict[str, Callable[[], str]] = {
    "1 MB adversarial: letters": lambda: "a" * 10**6,
    "1 MB adversarial: digits": lambda: "1" * 10**6,
    "1 MB adversarial: base64": lambda: _random_base64(10**6, 4),
    "1 MB adversarial: password phrases": lambda: "password is " * 85_000,
    "1 MB adversarial: pem headers": lambda: "-----BEGIN PRIVATE KEY-----" * 37_000,
    "1 MB adversarial: schemes": lambda: "://a:" * 200_000,
    "1 MB adversarial: assignments": lambda: "API_KEY=" * 125_000,
    "1 MB adversarial: bearer": lambda: "Bearer " * 140_000,
    "1 MB adversarial: token runs": lambda: ("aB3" * 11 + " ") * 29_000,
    "1 MB adversarial: url": lambda: "https://example.com/" + "a/" * 500_000,
    "1 MB adversarial: key words": lambda: "my api key token secret pin code " * 30_000,
}


def measure(adversarial: bool) -> dict[str, float]:
    from personakit.core.credentials.engine import looks_like_credential
    from personakit.core.masking import mask
    from personakit.core.proposal import check_proposal

    samples: dict[str, Callable[[int], str]] = {
        "prose": lambda n: _prose(n, 1),
        "prose with secret words": lambda n: _repeat(HINTS, n),
        "other scripts": lambda n: _repeat(OTHER, n),
        "random base64": lambda n: _random_base64(n, 2),
        "holding a key": _key_sentence,
    }
    results: dict[str, float] = {}
    for size, label in ((300, "300 chars"), (100_000, "100 kB")):
        for name, make in samples.items():
            text = make(size)
            results[f"check {label}: {name}"] = _time(lambda t=text: looks_like_credential(t))  # type: ignore[misc]
    memory = _prose(300, 5)
    results["mask a 300-char memory (uncached)"] = _time(lambda: mask(memory))
    for shape, memories in _memories(500).items():
        results[f"first scan of a memory, {shape} (mean of 500)"] = _time(lambda m=memories: _scan(m)) / 500  # type: ignore[misc]
    text = _prose(300, 6)
    for name, quote in (("ASCII prose", _prose(10**6, 8)), ("other scripts", _repeat(OTHER, 10**6))):
        results[f"proposal: 300-char text, 1 MB quote, {name}"] = _time(
            lambda q=quote: check_proposal(text, q, "other"),  # type: ignore[misc]
            budget=3.0,
        )
    if adversarial:
        for name, make in ADVERSARIAL.items():
            text = make()
            begin = time.process_time()
            looks_like_credential(text)
            results[name] = time.process_time() - begin
    return results


def _memories(n: int) -> dict[str, list[tuple[str, tuple[str, ...]]]]:
    """n memories of each vault shape, as a read shows them: the text and the first quotes."""
    import itertools

    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import generate
    import zipf

    from personakit.core.masking import MAX_QUOTES

    return {
        name: [(m.text, tuple(m.evidence[:MAX_QUOTES])) for m in itertools.islice(make(n), n)]
        for name, make in (("zipf.py", zipf.memories), ("generate.py", generate.memories))
    }


def _scan(memories: list[tuple[str, tuple[str, ...]]]) -> None:
    from personakit.core.credentials import hints
    from personakit.core.masking import _masked

    if hasattr(hints, "_word_hints"):
        hints._word_hints.cache_clear()  # each run starts with no word's hints kept
    for text, quotes in memories:
        _masked.__wrapped__(text, quotes)


def _run(pythonpath: Path, adversarial: bool) -> dict[str, float]:
    env = {**os.environ, "PYTHONPATH": str(pythonpath), "PYTHONDONTWRITEBYTECODE": "1"}
    command = [sys.executable, __file__, "--child", *(["--adversarial"] if adversarial else [])]
    output = subprocess.run(
        command, env=env, check=True, capture_output=True, text=True, cwd=pythonpath
    ).stdout
    return json.loads(output)


def _format(seconds: float) -> str:
    if seconds < 1e-3:
        return f"{seconds * 1e6:.0f} µs"
    return f"{seconds * 1e3:.1f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--only", choices=["here", "main"])
    parser.add_argument("--adversarial", action="store_true", help="also time 1 MB of pathological text")
    parser.add_argument(
        "--rounds", type=int, default=3, help="runs of each checkout, alternating (default 3)"
    )
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(measure(args.adversarial)))
        return
    columns: dict[str, dict[str, float]] = {}
    with tempfile.TemporaryDirectory() as folder:
        paths = {}
        if args.only != "here":
            archive = Path(folder) / "main.tar"
            subprocess.run(["git", "archive", "-o", str(archive), "main", "personakit"], cwd=ROOT, check=True)
            with tarfile.open(archive) as tar:
                tar.extractall(Path(folder) / "main", filter="data")
            paths["main"] = Path(folder) / "main"
        if args.only != "main":
            paths["here"] = ROOT
        for _ in range(args.rounds):  # alternate, so a busy minute on the machine hits both
            for name, path in paths.items():
                run = _run(path, args.adversarial)
                columns[name] = {k: min(v, columns.get(name, run)[k]) for k, v in run.items()}
    names = list(next(iter(columns.values())))
    print("| measure | " + " | ".join(columns) + (" | here / main |" if len(columns) == 2 else " |"))
    print("|---|" + "---|" * (len(columns) + (len(columns) == 2)))
    for name in names:
        cells = [_format(column[name]) for column in columns.values()]
        if len(columns) == 2:
            cells.append(f"{columns['here'][name] / columns['main'][name]:.2f}x")
        print(f"| {name} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
