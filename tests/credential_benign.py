"""Benign near-misses for the credential corpus: values that look like secrets and must stay allowed.

`BENIGN_KINDS` is (kind, maker, sentences), as in `credential_kinds.py`; `PAIRS` are a memory's text and
a quote that must stay allowed when joined both ways (the first half for tuning, the rest held out).
"""

from __future__ import annotations

import base64
import random

from credential_kinds import Maker, digits, pick, shape


# fmt: off
def _isbn13(rng: random.Random) -> str:
    body = "978" + "".join(rng.choice("0123456789") for _ in range(9))
    check = (10 - sum(int(d) * (1 if i % 2 == 0 else 3) for i, d in enumerate(body)) % 10) % 10
    return f"{body[:3]}-{body[3]}-{body[4:8]}-{body[8:12]}-{check}"


def _not_luhn(rng: random.Random) -> str:
    while True:
        value = "4" + "".join(rng.choice("0123456789") for _ in range(15))
        total = sum(
            (int(c) * 2 - 9 if int(c) * 2 > 9 else int(c) * 2) if i % 2 else int(c) for i, c in enumerate(reversed(value))
        )
        if total % 10:
            return " ".join(value[i : i + 4] for i in range(0, 16, 4))


def _uuid(rng: random.Random) -> str:
    h = shape("{h:32}")(rng)
    return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-a{h[17:20]}-{h[20:]}"


def _base64_text(rng: random.Random) -> str:
    line = rng.choice(["Hello from the garden club newsletter", "Meeting notes for the Tuesday review", "See you at the bakery at noon"])
    return base64.b64encode(line.encode()).decode()


def _publishable(rng: random.Random) -> str:
    return rng.choice(
        [shape("pk_live_51{A:60}")(rng), shape("pk_test_{A:40}")(rng), shape("sb_publishable_{b:30}")(rng),
         shape("pk.eyJ1Ijoic2FtIiwiYSI6Im{b:20}.{b:22}")(rng), shape("phc_{A:43}")(rng)]
    )  # fmt: skip


BENIGN_KINDS: list[tuple[str, Maker, list[str]]] = [
    ("commit hash", shape("{h:40}"), ["fixed in commit {k}", "git show {k}", "the merge commit is {k}"]),
    ("short commit", shape("{h:7}"), ["reverted {k} yesterday", "see {k} for the fix"]),
    ("uuid", _uuid, ["order {k} shipped", "the ticket id is {k}", "request_id={k}"]),
    ("version", lambda r: f"{r.randint(0, 12)}.{r.randint(0, 30)}.{r.randint(0, 99)}", ["upgraded to v{k}", "pin the package to {k}", "Python {k} works"]),
    ("isbn", _isbn13, ["ISBN {k}", "the book is {k}"]),
    ("tracking number", lambda r: rng_choice(r, [shape("1Z{U:16}")(r), shape("9400 1{d:3} {d:4} {d:4} {d:4} {d:2}")(r), shape("{d:12}")(r)]), ["tracking number {k}", "the parcel is {k}"]),
    ("phone number", lambda r: rng_choice(r, [f"+1 (415) 555-{r.randint(1000, 9999)}", f"+44 20 7946 {r.randint(1000, 9999)}", f"030 {r.randint(1000000, 9999999)}", f"+33 6 12 34 {r.randint(10, 99)} {r.randint(10, 99)}"]), ["call me on {k}", "my number is {k}", "phone: {k}"]),
    ("card-like, fails luhn", _not_luhn, ["my loyalty card is {k}", "member number {k}"]),
    ("publishable key", _publishable, ["the publishable key is {k}", "STRIPE_PUBLISHABLE_KEY={k}", "public key {k} goes in the page"]),
    ("digest", shape("sha256:{h:64}"), ["image digest {k}", "pulled {k}"]),
    ("base64 of text", _base64_text, ["the payload was {k}", "decoded {k}"]),
    ("document url", shape("https://docs.google.com/document/d/{b:44}/edit"), ["the draft is at {k}", "open {k}"]),
    ("video url", shape("https://www.youtube.com/watch?v={b:11}"), ["watch {k}", "the talk: {k}"]),
    ("ip address", lambda r: f"{r.randint(10, 223)}.{r.randint(0, 255)}.{r.randint(0, 255)}.{r.randint(1, 254)}", ["the printer is at {k}", "ssh into {k}"]),
    ("date and time", lambda r: f"2026-{r.randint(1, 12):02d}-{r.randint(1, 28):02d} {r.randint(0, 23):02d}:{r.randint(0, 59):02d}", ["booked for {k}", "the call is at {k}"]),
    ("price", lambda r: f"${r.randint(1, 9999)}.{r.randint(0, 99):02d}", ["it cost {k}", "the budget is {k}"]),
    ("gym pass", pick("gold", "silver", "off-peak", "student", "annual"), ["my gym pass is the {k} tier", "the bus pass is {k} this year"]),
    ("enamel pin", pick("enamel", "lapel", "cloisonné", "heart-shaped"), ["my favourite {k} pin is from Lisbon", "I collect {k} pins"]),
    ("secret to", pick("good bread", "a calm morning", "sourdough", "tomatoes"), ["the secret to {k} is time", "the secret to {k} is patience"]),
    ("key to", pick("shed", "garage", "bike lock", "flat"), ["the key to the {k} is under the mat", "the key to the {k} is with my neighbour"]),
    ("seat and gate", lambda r: f"{r.randint(1, 40)}{r.choice('ABCDEF')}", ["boarding pass: seat {k}", "my boarding pass says gate {k}"]),
    ("error code", digits(3), ["the error code is {k}", "status code {k} again"]),
    ("zip code", digits(5), ["my zip code is {k}", "postcode {k}"]),
    ("access level", pick("read-only", "admin", "guest", "editor"), ["my access level is {k}", "the token scope is {k}"]),
]
PAIRS: list[tuple[str, str]] = [
    ("Prefers direct, practical feedback", "give me blunt feedback, skip the padding"),
    ("Uses a password manager", "I said: uses a password manager"),
    ("Keeps the spare key with a neighbour", "the key to the flat is with Anna next door"),
    ("Has a gym pass", "my gym pass is the off-peak one"),
    ("Collects enamel pins", "my favourite enamel pin is the little fox"),
    ("Bakes sourdough", "the secret to good bread is time"),
    ("Works in Go and Python", "our services are Go, the glue scripts are Python"),
    ("Prefers passphrases over passwords", "I use long passphrases, four words at least"),
    ("Rotates API keys every 90 days", "we rotate the API keys every quarter"),
    ("Uses two-factor authentication everywhere", "2FA on everything, with an authenticator app"),
    ("Lives in Berlin", "we moved to Berlin in 2019"),
    ("Commits often", "I commit every 20 minutes or so"),
    ("Reads on a Kindle", "my Kindle is full of sci-fi"),
    ("Drinks tea, not coffee", "Tea, never coffee"),
    ("Uses the token bucket pattern", "token bucket for rate limits, always"),
    ("Runs PostgreSQL 16", "we're on Postgres 16.2 now"),
    ("Owns a 2014 bike", "my bike is a 2014 Trek"),
    ("Prefers SSH keys", "SSH keys only, no passwords on servers"),
    ("Keeps the PIN policy strict", "PINs must be six digits at work"),
    ("Uses a YubiKey", "YubiKey 5C on my keyring"),
    ("Writes release notes", "release notes for v2.3.1 went out Monday"),
    ("Tracks parcels", "the parcel 1Z999AA10123456784 arrived"),
    ("Calls on Fridays", "call me Friday at 14:30"),
    ("Uses Stripe", "we use Stripe; the publishable key goes in the page"),
    ("Likes sci-fi", "Le Guin and Banks, mostly"),
    ("Has a standing desk", "my desk goes up at 11"),
    ("Speaks German", "Ich spreche Deutsch, seit 2010"),
    ("Avoids meetings before 10", "no calls before 10am please"),
    ("Keeps a paper notebook", "A5 dotted notebook, always"),
    ("Prefers dark mode", "dark mode everywhere"),
    ("Uses Vim", "vim, with a tiny vimrc"),
    ("Plays piano", "piano lessons on Tuesdays"),
    ("Likes hiking", "hiked the GR20 in 2022"),
    ("Vegetarian", "no meat since 2015"),
    ("Uses Linux", "Debian 12 on the laptop"),
    ("Ships on Thursdays", "release train leaves Thursday 16:00"),
    ("Prefers short meetings", "25 minutes max"),
    ("Learns Japanese", "JLPT N4 next year"),
    ("Has two cats", "two cats, Miso and Tofu"),
    ("Cycles to work", "12 km each way"),
]


def rng_choice(rng: random.Random, options: list[str]) -> str:
    return rng.choice(options)
# fmt: on
