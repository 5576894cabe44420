"""Secrets and addresses through the real server: disguised secrets refused, a key cut between text and
quote refused, and every form of email address masked in evidence an owner typed by hand; the shapes the
outside corpus taught (code assignments, placeholders, prose) and the look-alikes that must pass."""

from __future__ import annotations

from pathlib import Path

import pytest
from git import Repo

from personakit.core.memory import Memory, render_memory
from personakit.core.naming import memory_id, slug

from conftest import call, connect

pytestmark = pytest.mark.anyio
KEY = "sk-ant-api03-Zq8RtY2pWx4Lm6NbFAKEk3Jd9QvTg7HsXc1Ue5Ao0Bi2Cy4Dz6Ew8Fv"  # fake, never issued
TOKEN = "ghp_Zq8RtY2pWx4Lm6NbFAKEk3Jd9QvTg7HsXc1U"  # fake; neither half of it is a key on its own
DISGUISED = [
    ("Uses the Anthropic API", f"my key is {KEY[:20]}\u200b{KEY[20:]}"),  # a zero-width space inside
    ("Uses the Anthropic API", "my key is " + "".join(chr(ord(c) + 0xFEE0) for c in KEY)),  # full width
    ("Has a home router", "the wifi раssword іs Tr0ub4dor&3"),  # Cyrillic look-alike letters
    ("Has a home router", "WIFI:T:WPA;S:HomeNet;P:Hazelnut_63;;"),
    ("Speaks German", "Mein Passwort ist Kaffeetasse88!"),
    ("Backs up the database", "mysql -u root -pS3cretRoot! shop"),
    ("Owns some bitcoin", "legal winner thank year wave sausage worth useful legal winner thank yellow"),
    ("Shops online", "my card is 4539 1488 0343 6467, exp 08/27"),
    ("Uses two-factor authentication", "authenticator setup key: JBSW Y3DP EHPK 3PXP"),
    ("Uses the Anthropic API", "key: " + " ".join(KEY[i : i + 4] for i in range(0, len(KEY), 4))),  # spaced
]
ALLOWED = [
    ("Has a gym pass", "my gym pass is the gold tier"),
    ("Collects enamel pins", "my favourite enamel pin is a little fox"),
    ("Bakes sourdough", "the secret to good bread is time"),
    ("Keeps a spare key", "the key to the shed is under the mat"),
    ("Uses Stripe", "the publishable key pk_test_TYooMQauvdEDq54NiTphI7jx goes in the page"),
]
EMAILS = [
    "write to sam＠example.com",
    "write to sa\u200bm@example.com",
    'write to "sam smith"@example.com',
    "write to sam@[192.0.2.1]",
    "write to sam@bücher.de",
    "write to sam@xn--bcher-kva.de",
    "write to mailto:%73%61%6D%40example.com",
    "write to sam at example dot com",
    "write to sam [at] example [dot] com",
]


async def test_disguised_secrets_are_refused_and_near_misses_stored(vault: Path) -> None:
    async with connect(vault) as session:
        for text, quote in DISGUISED:
            result = await call(session, "personakit_propose", text=text, quote=quote, category="other")
            assert result == {"stored": False, "reason": "credential_shape"}, quote
        for text, quote in ALLOWED:
            result = await call(session, "personakit_propose", text=text, quote=quote, category="other")
            assert result["stored"] is True, quote
    history = Repo(vault).git.log("-p")
    assert "Hazelnut" not in history and "Kaffeetasse" not in history and "JBSW" not in history


async def test_a_key_cut_between_text_and_quote_is_refused(vault: Path) -> None:
    async with connect(vault) as session:
        cut = await call(
            session,
            "personakit_propose",
            text=f"Uses {TOKEN[:20]}",
            quote=f"{TOKEN[20:]} for bots",
            category="tools",
        )
        reversed_cut = await call(
            session,
            "personakit_propose",
            text=f"{TOKEN[20:]} for bots",
            quote=f"token {TOKEN[:20]}",
            category="tools",
        )
        said = await call(
            session,
            "personakit_propose",
            text="The router password is",
            quote="Tr0ub4dor&3",
            category="other",
        )
    assert cut == reversed_cut == said == {"stored": False, "reason": "credential_shape"}
    assert TOKEN[20:] not in Repo(vault).git.log("-p")


def _write(vault: Path, text: str, evidence: tuple[str, ...]) -> Path:
    memory = Memory(memory_id(text), text, "other", "approved", evidence, "test", "2026-01-01T00:00:00Z")  # type: ignore[arg-type]
    path = vault / "memories" / f"{slug(text)}.md"
    path.write_text(render_memory(memory))
    return path


async def test_a_read_masks_every_form_of_address_typed_by_hand(vault: Path) -> None:
    for index, quote in enumerate(EMAILS):
        _write(vault, f"Reachable by email, way {index}", (quote,))
    repo = Repo(vault)
    repo.git.add("-A")
    repo.git.commit("-qm", "typed by hand")
    async with connect(vault) as session:
        read = await call(session, "personakit_read", question="reachable email way", limit=20)
    served = [quote for memory in read["memories"] for quote in memory["evidence"]]
    assert len(served) == len(EMAILS)
    assert all(quote == "write to [email]" for quote in served), served


async def test_a_key_cut_between_text_and_quote_by_hand_is_masked_and_not_committed(vault: Path) -> None:
    _write(vault, "Uses the OpenAI API for side projects", ("I build bots",))
    repo = Repo(vault)
    repo.git.add("-A")
    repo.git.commit("-qm", "setup")
    path = _write(vault, f"Uses the GitHub API with {TOKEN[:20]}", (f"{TOKEN[20:]} rotates yearly",))
    async with connect(vault) as session:
        read = await call(session, "personakit_read", question="github api", limit=5)
    served = str(read)
    assert TOKEN[:20] not in served and TOKEN[20:] not in served and "[secret]" in served
    assert f"memories/{path.name}" not in repo.git.ls_files().splitlines()  # seen, and left uncommitted


OUTSIDE = [  # issue 21: refused through the server, and never in git
    ("Keeps the deploy config", 'var stripeToken string = "Xq7pLm2vR9kT4wZ8"'),
    ("Keeps the deploy config", '$stripeToken .= "Xq7pLm2vR9kT4wZ8"'),
    ("Keeps the deploy config", 'System.setProperty("STRIPE_TOKEN", "Xq7pLm2vR9kT4wZ8")'),
    ("Has a home router", "the wifi password is Tr0ub4dor&3${HOME}"),
    ("Uses Netflix", "Netflix: Sunflower!2024"),
    ("Has a passphrase", "my password is correct horse battery staple"),
]
PASSING = [  # placeholders and look-alikes: stored
    ("Documents the GitHub setup", "export GITHUB_TOKEN=ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"),
    ("Documents the AWS setup", "aws_access_key_id = AKIAIOSFODNN7EXAMPLE"),
    ("Documents the curl call", 'curl --user "$1:$2" https://api.example.com'),
    ("Deployed the fix", "9fceb02d0ae598e95dc970b74767f19372d61af8"),
    ("Uses functools", "The decorator @functools.cache made it fast."),
]


async def test_outside_shapes_are_refused_and_placeholders_stored(vault: Path) -> None:
    async with connect(vault) as session:
        for text, quote in OUTSIDE:
            result = await call(session, "personakit_propose", text=text, quote=quote, category="other")
            assert result == {"stored": False, "reason": "credential_shape"}, quote
        for text, quote in PASSING:
            result = await call(session, "personakit_propose", text=text, quote=quote, category="other")
            assert result["stored"] is True, quote
        read = await call(session, "personakit_read", question="functools decorator fast", limit=5)
    history = Repo(vault).git.log("-p")
    assert (
        "Xq7pLm2vR9kT4wZ8" not in history and "Sunflower" not in history and "battery staple" not in history
    )
    served = [quote for memory in read["memories"] for quote in memory["evidence"]]
    assert "The decorator @functools.cache made it fast." in served  # not taken for an address


async def test_a_read_masks_spelled_out_addresses_typed_by_hand(vault: Path) -> None:
    forms = ["reach me: orrin dot vale at example dot com", "priya at example.in is my personal one"]
    for index, quote in enumerate(forms):
        _write(vault, f"Has a personal address, number {index}", (quote,))
    repo = Repo(vault)
    repo.git.add("-A")
    repo.git.commit("-qm", "typed by hand")
    async with connect(vault) as session:
        read = await call(session, "personakit_read", question="personal address number", limit=5)
    served = sorted(quote for memory in read["memories"] for quote in memory["evidence"])
    assert served == ["[email] is my personal one", "reach me: [email]"], served
