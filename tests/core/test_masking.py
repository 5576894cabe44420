"""What leaves the process: email addresses in every form a reader knows, secrets cut between texts, and
the reading of text as a person would (`textview`), whose spans must land on the text as written."""

from __future__ import annotations

import pytest

from personakit.core.credentials.engine import find_credentials, mask_together
from personakit.core.credentials.textview import fold, read
from personakit.core.masking import mask, mask_emails


@pytest.mark.parametrize(
    "text",
    [
        "sam@example.com",
        "sam＠example.com",  # full-width at sign
        "sam﹫example.com",  # small commercial at
        "sa\u200bm@exa\u200dmple.com",  # zero-width characters inside
        "ｓａｍ＠ｅｘａｍｐｌｅ．ｃｏｍ",  # all full width
        '"sam smith"@example.com',  # quoted local part
        "sam@[192.0.2.1]",  # IP literal
        "sam@[IPv6:2001:db8::1]",
        "sam@bücher.de",  # international domain
        "用户@例子.广告",
        "sam@xn--bcher-kva.de",  # punycode
        "user@example.xn--p1ai",
        "mailto:%73%61%6D%40example.com",  # percent-encoded mailto
        "sam%40example.com",
        "sam at example dot com",  # spelled out
        "sam [at] example [dot] com",
        "sam(at)example(dot)com",
        "sam {at} example {dot} com",
        "sam AT example DOT com",
        "sam @ example.com",
        "sam.smith+news@mail.example.co.uk",
        # disguises (issue 21)
        "jordan at example.com",
        "jordan AT example.com",
        "jordan @ example . com",
        "jordan[@]example[.]com",
        "jordan(@)example.com",
        "jordan@example[.]com",
        "jordan&#64;example.com",
        "jordan%2540example.com",
        "jordan@example dot com",
        "j o r d a n @ e x a m p l e . c o m",
        "\u202emoc.elpmaxe@nadroj\u202c",  # shown right to left: reads jordan@example.com
        "orrin dot vale at example dot com",
        "jordan dot lee at example dot com",
        "priya at example.in",
    ],
)
def test_every_form_of_an_address_is_masked(text: str) -> None:
    masked = mask_emails(f"write to {text} soon")
    assert masked == "write to [email] soon", masked


@pytest.mark.parametrize(
    "text",
    [
        "I work at example.com now",
        "meet me at noon at the station",
        "a@b is not an address",
        "ping @sam on the chat",
        "the price is 5 @ 3.20 each",
        "we met at the conference dot com party",
        "The decorator @functools.cache made it fast.",
        "ping @sam.lee about it",
        "I bought it at amazon.com",
        "She interned at example.org last year",
        "the handle is @jordan_lee everywhere",
    ],
)
def test_what_is_not_an_address_is_left_alone(text: str) -> None:
    assert mask_emails(text) == text


def test_a_key_cut_between_texts_is_masked_in_each_part() -> None:
    key = "ghp_Zq8RtY2pWx4Lm6NbFAKEk3Jd9QvTg7HsXc1U"  # fake; neither half is a key alone
    text, quote = f"Uses {key[:20]}", f"{key[20:]} daily"
    assert find_credentials(text) == [] and find_credentials(quote) == []
    masked_text, masked_quote = mask_together([text, quote])
    assert key[:20] not in masked_text and key[20:] not in masked_quote
    assert masked_text.startswith("Uses ") and masked_quote.endswith(" daily")


def test_ordinary_texts_together_are_unchanged() -> None:
    texts = ["Prefers direct, practical feedback", "give me blunt feedback, skip the padding", "no fluff"]
    assert mask_together(texts) == tuple(texts)


def test_mask_masks_addresses_and_secrets() -> None:
    assert mask("mail sam@example.com, the wifi password is Tr0ub4dor&3") == (
        "mail [email], the wifi password is [secret]"
    )


@pytest.mark.parametrize(
    ("written", "read_as"),
    [
        ("ｓｋ－ａｎｔ", "sk-ant"),  # full width
        ("pass\u200bword", "password"),  # zero width
        ("раѕѕwоrd", "password"),  # Cyrillic look-alikes
        ("ΑΚΙΑ", "AKIA"),  # Greek capitals
        ("contraseña", "contrasena"),  # accents off Latin letters
        ("ｶ", "カ"),  # half-width katakana
        ("①②", "12"),
        ("٤٥٦", "456"),  # Arabic-Indic digits
        ("a\u0301\ufe0f", "a"),  # a loose accent and a variation selector
        ("ﬁle", "file"),  # a ligature, one character read as two
        ("İstanbul", "Istanbul"),
    ],
)
def test_text_is_read_as_a_person_reads_it(written: str, read_as: str) -> None:
    view = read(written)
    assert view.text == read_as
    assert len(view.lower) == len(view.text) and view.lower == view.text.lower()


def test_spans_map_back_to_the_text_as_written() -> None:
    written = (
        "key: ｓｋ－ａｎｔ－\u200bapi03-" + "Zq8RtY2pWx4Lm6NbFAKEk3Jd9QvTg7HsXc1Ue5Ao0Bi2Cy4Dz6Ew8Fv" + " ﬁne"
    )
    [(start, end)] = find_credentials(written)
    assert written[start:end].startswith("ｓｋ－") and written[end:] == " ﬁne"


def test_folding_keeps_both_cases_of_a_letter_together() -> None:
    """Tables are folded with `fold` and matched case-insensitively, so a letter's two cases must fold to
    one letter's two cases."""
    for char in "авекмнорстухіјѕһԁԛԝӏьѵαβεζηικμνορτυχϳ":
        assert fold(char.upper()).lower() == fold(char), char


def test_a_spelled_out_address_in_a_sentence_is_masked_whole() -> None:
    assert mask_emails("reach me: orrin dot vale at example dot com") == "reach me: [email]"
    assert mask_emails("priya at example.in is my personal one") == "[email] is my personal one"
