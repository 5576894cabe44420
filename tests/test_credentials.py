"""The credential detector against its corpus: every fake secret found, ordinary sentences left alone.

`tests/data/credentials/secrets.txt` holds one fake secret per line as `kind<TAB>sentence<TAB>secret`,
where the third column is the exact value masking must remove; `benign.txt` holds one hard ordinary
sentence per line. Run with `-s` to see recall and the false-refusal rate.
"""

import itertools
import random
import time
from collections import Counter, defaultdict
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from personakit.core import credential_tokens
from personakit.core.credentials import find_credentials, looks_like_credential, mask_credentials

DATA = Path(__file__).parent / "data" / "credentials"
MAX_FALSE_REFUSAL = 0.01


def _words(text: str) -> Counter[str]:
    """The plain words of text, as whitespace-separated tokens without their punctuation."""
    tokens = (token.strip(".,!?:;\"'()") for token in text.split())
    return Counter(token for token in tokens if token.isalpha())


def _lines(name: str) -> list[str]:
    text = (DATA / name).read_text(encoding="utf-8")
    return [line for line in text.splitlines() if line.strip() and not line.startswith("#")]


SECRETS = [tuple(line.split("\t")) for line in _lines("secrets.txt")]
BENIGN = _lines("benign.txt")


def test_corpus_is_large_and_well_formed() -> None:
    assert all(len(row) == 3 and row[2] in row[1] for row in SECRETS), "kind<TAB>sentence<TAB>secret"
    assert len(SECRETS) >= 150
    assert len({kind for kind, _, _ in SECRETS}) >= 40
    assert len(BENIGN) >= 100


def test_recall_and_false_refusal_rate(
    capsys: pytest.CaptureFixture[str], record_property: Callable[[str, object], None]
) -> None:
    missed = [sentence for _, sentence, _ in SECRETS if not looks_like_credential(sentence)]
    refused = [sentence for sentence in BENIGN if looks_like_credential(sentence)]
    recall = 1 - len(missed) / len(SECRETS)
    false_refusal = len(refused) / len(BENIGN)
    report = (
        f"credential recall {recall:.1%} ({len(SECRETS) - len(missed)}/{len(SECRETS)}), "
        f"false refusals {false_refusal:.1%} ({len(refused)}/{len(BENIGN)})"
    )
    record_property("credential_recall", round(recall, 4))
    record_property("false_refusal_rate", round(false_refusal, 4))
    with capsys.disabled():
        print(f"\n{report}")
    assert not missed, f"{report}; missed: {missed}"
    assert false_refusal <= MAX_FALSE_REFUSAL, f"{report}; refused: {refused}"


def test_every_kind_is_detected() -> None:
    found: dict[str, list[bool]] = defaultdict(list)
    for kind, sentence, _ in SECRETS:
        found[kind].append(looks_like_credential(sentence))
    assert {kind for kind, results in found.items() if not all(results)} == set()


def test_mask_removes_each_secret_and_keeps_the_words_around_it() -> None:
    problems = []
    for kind, sentence, secret in SECRETS:
        masked = mask_credentials(sentence)
        lost = _words(sentence.replace(secret, "[secret]")) - _words(masked)
        if secret in masked or "[secret]" not in masked or lost:
            problems.append(f"{kind}: {masked!r} (words lost: {sorted(lost)})")
    assert not problems, "\n".join(problems)


def test_benign_sentences_not_refused_are_served_unchanged() -> None:
    changed = [s for s in BENIGN if not looks_like_credential(s) and mask_credentials(s) != s]
    assert not changed


def test_spans_are_sorted_in_bounds_and_apart() -> None:
    for text in [sentence for _, sentence, _ in SECRETS] + BENIGN + ["\t".join(s for _, s, _ in SECRETS)]:
        spans = find_credentials(text)
        assert all(0 <= start < end <= len(text) for start, end in spans)
        assert all(end < next_start for (_, end), (next_start, _) in itertools.pairwise(spans))


def test_a_multiline_private_key_is_masked_whole() -> None:
    body = "\n".join(["MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7fakeFAKEfake"] * 5)
    key = f"-----BEGIN PRIVATE KEY-----\n{body}\n-----END PRIVATE KEY-----"
    assert mask_credentials(f"key:\n{key}\nthanks") == "key:\n[secret]\nthanks"


def test_a_private_key_header_with_no_body_is_not_a_key() -> None:
    assert not looks_like_credential("grep for '-----BEGIN OPENSSH PRIVATE KEY-----' in the repo")


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        # Hex is a hash unless its context says it is a key.
        ("the commit is 3f2a1b9c8d7e6f5a4b3c2d1e0f9a8b7c6d5e4f3a", None),
        ("datadog api key: 3f2a1b9c8d7e6f5a4b3c2d1e0f9a8b7c", "3f2a1b9c8d7e6f5a4b3c2d1e0f9a8b7c"),
        ("order 550e8400-e29b-41d4-a716-446655440000", None),
        ("HEROKU_API_KEY=550e8400-e29b-41d4-a716-446655440000", "550e8400-e29b-41d4-a716-446655440000"),
        # A connection string needs a password, and a placeholder is not one.
        ("ssh://deploy@example.com:22/srv", None),
        ("redis://:${REDIS_PASSWORD}@cache:6379", None),
        ("amqp://guest:Gu3st-Rabbit@mq.local:5672", "Gu3st-Rabbit"),
        # Code that names a secret is not a secret; a literal is.
        ("password = user_input", None),
        ("token = request.headers['Authorization']", None),
        ('password = "hunter2!"', "hunter2!"),
        ("private_key: Ed25519PrivateKey | None = None", None),
        # Weak words need a value with letters and digits; strong words take a plain word too.
        ("the secret is patience", None),
        ("the token is expired", None),
        ("my password is swordfish", "swordfish"),
        ("set the password to expire in 90 days", None),
        ("I changed my PIN to 6180", "6180"),
        # Public keys and data are not secrets.
        ("ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIFakeFakeFake0123456789abcdefABCDEFxyzXYZ01 me@host", None),
        ("data:image/png;base64," + "iVBORw0KGgoAAAANSUhEUgAAAAEAAAAB" * 40, None),
        ("a1B2c3D4" * 100, None),  # 800 characters of base64 is data, not a key
        # Base64 that decodes to text counts only if the text holds a secret.
        (
            "cG9zdGdyZXM6Ly9hcHA6UzNjcjN0UGFzc0BkYi5leGFtcGxlLmNvbS9wcm9k",
            "cG9zdGdyZXM6Ly9hcHA6UzNjcjN0UGFzc0BkYi5leGFtcGxlLmNvbS9wcm9k",
        ),
        ("SGVsbG8gd29ybGQsIHRoaXMgaXMgYSBsb25nZXIgYmFzZTY0IHRlc3Q=", None),
    ],
)
def test_deliberate_decisions(text: str, secret: str | None) -> None:
    spans = find_credentials(text)
    assert [text[start:end] for start, end in spans] == ([secret] if secret else [])


def test_random_mixtures_of_secret_shaped_fragments_never_fail() -> None:
    fragments = [
        "password", " is ", "=", ":", '"', "'", "`", "sk-ant-", "ghp_", "eyJ", ".", "-----BEGIN ", "PRIVATE KEY",
        "-----", "://", "@", "user", "aB3", "x9", "Bearer ", "Basic ", "dXNlcjpwYXNz", "\n", " ", "$2b$12$",
        "AKIA", "token", "--password ", "set my PIN to ", "==", "/", "_", "ü", "é", "İ", "\u200b", "{", "(",
    ]  # fmt: skip
    generator = random.Random(20240517)
    for _ in range(3000):
        text = "".join(generator.choice(fragments) for _ in range(generator.randrange(1, 60)))
        spans = find_credentials(text)
        assert all(0 <= start < end <= len(text) for start, end in spans)
        assert all(end < next_start for (_, end), (next_start, _) in itertools.pairwise(spans))
        assert looks_like_credential(text) == bool(spans)


def test_empty_text_has_no_credentials() -> None:
    assert find_credentials("") == []
    assert mask_credentials("") == ""


def test_custom_mask() -> None:
    assert mask_credentials("the wifi password is hunter2", mask="***") == "the wifi password is ***"


# Built on demand: twenty megabytes are not worth holding for the whole session.
ADVERSARIAL: dict[str, Callable[[], str]] = {
    "letters": lambda: "a" * 10**6,
    "equals": lambda: "=" * 10**6,
    "base64": lambda: (
        "QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVphYmNkZWZnaGlqa2xtbm9wcXJzdHV2d3h5ejAxMjM0NTY3ODkrLw" * 12_000
    )[: 10**6],
    "base64 words": lambda: "dGhlIHF1aWNrIGJyb3duIGZveA== " * 35_000,
    "digits": lambda: "1" * 10**6,
    "prefixes": lambda: "sk-ant-" * 150_000,
    "jwt parts": lambda: "eyJ" * 330_000,
    "jwt dots": lambda: "eyJabcdefghijk." * 66_000,
    "pem headers": lambda: "-----BEGIN PRIVATE KEY-----" * 37_000,
    "pem labels": lambda: "".join(f"-----BEGIN K{i}-----\n-----END K{i + 1}-----\n" for i in range(25_000)),
    "pem open": lambda: "-----BEGIN RSA PRIVATE KEY-----\n" + "A" * 10**6,
    "schemes": lambda: "://a:" * 200_000,
    "short urls": lambda: "a:// " * 200_000,
    "at signs": lambda: "a:b@" * 250_000,
    "password phrases": lambda: "password is " * 85_000,
    "assignments": lambda: "API_KEY=" * 125_000,
    "bearer": lambda: "Bearer " * 140_000,
    "hex": lambda: "deadbeef" * 125_000,
    "token runs": lambda: ("aB3" * 11 + " ") * 29_000,
    "dashes": lambda: "-_" * 500_000,
    "url": lambda: "https://example.com/" + "a/" * 500_000,
    "spaces": lambda: " " * 10**6,
}


@pytest.mark.parametrize("name", ADVERSARIAL)
def test_one_megabyte_of_adversarial_input_returns(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    text = ADVERSARIAL[name]()
    started = time.perf_counter()
    spans = find_credentials(text)
    elapsed = time.perf_counter() - started
    with capsys.disabled():
        print(f"\n{name}: {len(text):,} chars in {elapsed * 1000:.0f} ms, {len(spans)} spans")
    assert all(0 <= start < end <= len(text) for start, end in spans)


@pytest.mark.parametrize("kind", [kind for kind, _ in credential_tokens.PROVIDER_RES])
def test_every_provider_shape_passes_the_quick_check(kind: str) -> None:
    """Text the quick check lets by skips the provider scans, so nothing a provider pattern matches may
    fail it: a new provider whose secret can be short needs its literal in SHORT_LITERALS."""
    pattern = dict(credential_tokens.PROVIDER_RES)[kind]
    whole = "(?=" not in pattern.pattern  # a lookahead needs text after the match

    @settings(max_examples=60, deadline=None, derandomize=True)
    @given(st.from_regex(pattern, fullmatch=whole, alphabet=st.characters(codec="ascii")))
    def check(example: str) -> None:
        assert credential_tokens.maybe_provider(example, example.lower()), example

    check()
