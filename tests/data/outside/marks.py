"""Which of the scanners' cases are not what their label says, for a person's memory (data for `extract.py`).

Each entry: (source, family regex, text regex, why).
"""

from __future__ import annotations

import re
from typing import Any

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
    (
        "detect-secrets",
        "keyword",
        r"m\{\{h\}o\)p",
        "the same secret, in quotes another language would not use",
    ),
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
    (
        "detect-secrets",
        ".*",
        r"1234567890abcdef|abcdefghij|ABCDEFGHIJK|511111111",
        "a run of the digits or alphabet",
    ),
    (
        "gitleaks",
        ".*",
        r"12345678-?ABCD|12345678ABCDEFH|Q{20}|cafebabe:deadbeef|511111111|123456789012",
        "runs, one letter, cafebabe",
    ),
]
# Keys their provider documents as public (PersonaKit stores them by design, docs/tools.md): a Mapbox
# `pk.` token is the public one; its secret tokens start `sk.`.
PUBLIC: list[tuple[str, str, str, str]] = [
    ("gitleaks", "mapbox-api-token", r"\bpk\.", "a Mapbox public token"),
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
        elif case["label"] == "secret" and any(
            source == case["source"]
            and re.fullmatch(family, case["family"])
            and re.search(pattern, case["text"])
            for source, family, pattern, _why in PUBLIC
        ):
            case["label"] = "public"


def mark_shaped(cases: list[dict[str, Any]]) -> None:
    for case in cases:
        case["shaped"] = case["label"] == "near-miss" and any(
            source == case["source"]
            and re.fullmatch(family, case["family"])
            and re.search(pattern, case["text"])
            for source, family, pattern, _why in SHAPED
        )
