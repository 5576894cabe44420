"""A text and its quote are read alone, then joined at their seam, so that a key cut in two is still found.
What the seam must not do: glue a word to the other text's token and call the result a key (issue 23)."""

from __future__ import annotations

import base64

import pytest

from personakit.core.credentials.engine import holds_credential, looks_like_credential, mask_together
from personakit.core.masking import _masked

LOOK_ALIKES = [
    ("Deployed the fix in commit", "9fceb02d0ae598e95dc970b74767f19372d61af8"),
    ("Stripe publishable key", "pk_live_51HqLyjWDarjtT1zdp7dcXGbK9vTzQeLrX"),
    ("Donations go to", "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq"),
    ("Donations go to", "1BoatSLRHtKNngkdXEeobR76b53LETtpyT"),
    ("The note, encoded", base64.b64encode(b"Remember to water the plants on Tuesday and Friday").decode()),
    ("My GPG key fingerprint", "4A7F29C18E2B0D9371C45B6EA0F293D16C8B2E47"),
]


@pytest.mark.parametrize(("text", "quote"), LOOK_ALIKES)
def test_a_harmless_look_alike_stays_harmless_at_the_seam(text: str, quote: str) -> None:
    assert not looks_like_credential(text) and not looks_like_credential(quote)
    assert not holds_credential(text, quote)
    assert not holds_credential(quote, text)


def test_a_key_cut_between_text_and_quote_is_still_found() -> None:
    assert holds_credential("deploy with ghp_Zq8RtY2pWx4Lm6Nb", "FAKEk3Jd9QvTg7HsXc1UaB0")
    assert holds_credential("Password: riv", "er5542#")  # a password cut inside a word


def test_masking_a_code_hides_the_code_and_not_the_words_beside_it() -> None:
    text, quotes = _masked("Front door code is 4821", ("front door code is 4821",))
    assert text == "Front door code is [secret]"
    assert quotes == ("front door code is [secret]",)
    assert mask_together(["Wifi password: Otter.9872?", "Noted for the guests"]) == (
        "Wifi password: [secret]",
        "Noted for the guests",
    )
