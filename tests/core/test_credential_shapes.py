"""Shapes the outside corpus and an independent prose corpus found missing or over-refused (issue 21),
each as it was reported: refused now, or stored now."""

from __future__ import annotations

import pytest

from personakit.core.credentials.engine import find_credentials, holds_credential

MEMORY = "Notes kept from a chat about setting up the build."

REFUSED = [  # (text, what must be masked)
    # values split at $, {, _ and -
    ("password = Xq7pLm2vR9${x}", "Xq7pLm2vR9"),
    ("the wifi password is Tr0ub4dor&3${HOME}", "Tr0ub4dor&3"),
    ("adafruit_token: 68xlvs7fzj_vnyxikkxnlfjcyl97hy", "68xlvs7fzj_vnyxikkxnlfjcyl97hy"),
    ("adafruit_token: 68xlvs7fzj-vnyxikkxnlfjcyl97hy", "68xlvs7fzj-vnyxikkxnlfjcyl97hy"),
    # assignment shapes
    ('$stripeToken .= "w9k2asv8yy3rs5vo1umd8c65"', "w9k2asv8yy3rs5vo1umd8c65"),
    ('var atlassianToken string = "w9k2asv8yy3rs5vo1umd8c65"', "w9k2asv8yy3rs5vo1umd8c65"),
    ('System.setProperty("ATLASSIAN_TOKEN", "w9k2asv8yy3rs5vo1umd8c65")', "w9k2asv8yy3rs5vo1umd8c65"),
    ('ATLASSIAN_TOKEN := "w9k2asv8yy3rs5vo1umd8c65"', "w9k2asv8yy3rs5vo1umd8c65"),
    ('ATLASSIAN_TOKEN ::= "w9k2asv8yy3rs5vo1umd8c65"', "w9k2asv8yy3rs5vo1umd8c65"),
    ('ATLASSIAN_TOKEN ?= "w9k2asv8yy3rs5vo1umd8c65"', "w9k2asv8yy3rs5vo1umd8c65"),
    (
        "<herokuToken>\n    e70424a5-a98a-d74f-158b-3ebf9eb49062\n</herokuToken>",
        "e70424a5-a98a-d74f-158b-3ebf9eb49062",
    ),
    # kinds
    ("A3-ASWWYB-798JRYLJVD4-23DC2-86TVM-H43EB", "A3-ASWWYB-798JRYLJVD4-23DC2-86TVM-H43EB"),
    ("curl --user kevin:'pRf7vG2h1L8nQkW9' -iX PATCH", "pRf7vG2h1L8nQkW9"),
    ('curl -u ":d2LkV78zLx!t" https://localhost:9200', "d2LkV78zLx!t"),
    ("token: s.ZC9Ecf4M5g9o34Q6RkzGsj0z", "s.ZC9Ecf4M5g9o34Q6RkzGsj0z"),
    ("apiVersion: v1\nkind: Secret\ndata:\n  extra: YWRtaW46cGFzc3dvcmQ=\n", "YWRtaW46cGFzc3dvcmQ="),
    ("-----BEGIN RSA PRIVATE KEY-----\nsuper secret private key here\n-----END RSA PRIVATE KEY-----", None),
    # prose in other languages and shapes
    ("Le code PIN de ma carte bleue est le 8089", "8089"),
    ("Senha do Wi-Fi da casa de praia: Gaivota#2291", "Gaivota#2291"),
    ("Пароль администратора — Zx9!kPq2", "Zx9!kPq2"),
    ("Код от сейфа: 378488", "378488"),
    ("psw: Blue42horse", "Blue42horse"),
    ("pass: raspberry", "raspberry"),
    ("my password is correct horse battery staple", "correct horse battery staple"),
    ("Netflix: Sunflower!2024", "Sunflower!2024"),
    ("I log into my bank with sam.rivera / Quarry#Stone9", "Quarry#Stone9"),
    ("Tr0ub4dor&3 is the password for everything lol", "Tr0ub4dor&3"),
    ("I always use Tr0ub4dor&3 for everything, it's my go-to", "Tr0ub4dor&3"),
    ("the password is the dog's name plus 99: Biscuit99", "Biscuit99"),
    ("My password? It's Sunflower2024", "Sunflower2024"),
    ("I use the same password, Quarry#Stone9, on every site", "Quarry#Stone9"),
    ("the key's Sunflower2024", "Sunflower2024"),
    ("Slack sign-in code: OKB-VZ5", "OKB-VZ5"),
    ("sk_live_ pvKh OwZX W2Hg 8rTq Lm4N Yb7C", "sk_live_ pvKh OwZX W2Hg 8rTq Lm4N Yb7C"),
    ("AKIA 3VC2A HENZT HA5GE 7", "AKIA 3VC2A HENZT HA5GE 7"),
    (
        "seed: 1.gas 2.jacket 3.orbit 4.glide 5.velvet 6.ocean 7.spin 8.forest 9.magic 10.donkey 11.trophy 12.rule",
        None,
    ),
]

STORED = [
    # placeholders, empty values, variables
    "ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
    "glpat-XXXXXXXXXXX-XXXXXXXX",
    "xoxb-xxxxxxxxx-xxxxxxxxxx-xxxxxxxxxxxx",
    "AKIAIOSFODNN7EXAMPLE",
    "curl -u username:token",
    'password = "somefakekey"',
    "api_key = <your-api-key-here>",
    "token: your-token-here",
    "SECRET=********",
    "GITHUB_API_KEY=\nDYNATRACE_API_KEY=",
    'curl --user "$1:$2"',
    # public keys and a JWT header alone
    'public_key = "9Cnzj4p4WGeKLs1Pt8QuKUpRKfFLfRYC9AIKjbJTWit"',
    "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9",
    # harmless look-alikes
    "routing number 021000021",
    "mysql -P 3307 -h 127.0.0.1 -u app -p",
    "Password1 is the most common password in the breach data.",
    "I use Python3 for everything",
    "The flight confirmation code is QX7PLM.",
    "- (id)hf_requiredCharacteristicTypesForDisplayMetadata;",
    "private_key: Ed25519PrivateKey | None = None",
    "-----BEGIN PRIVATE KEY-----\nanything\n-----END PRIVATE KEY-----",
]


@pytest.mark.parametrize(("text", "secret"), REFUSED)
def test_refused(text: str, secret: str | None) -> None:
    assert holds_credential(MEMORY, text), text
    if secret is not None:
        assert secret in [text[start:end] for start, end in find_credentials(text)]


@pytest.mark.parametrize("text", STORED)
def test_stored(text: str) -> None:
    assert not holds_credential(MEMORY, text), [text[s:e] for s, e in find_credentials(text)]
