"""What a credential looks like.

A proposal whose text or quote looks like a password, key, token or private key is refused
(`credential_shape`), and credentials an owner typed into a memory file by hand are masked in anything
served. Both need one answer to "where are the secrets in this text?", given here as character spans.

What counts, from the most certain to the least:

1. **Provider keys** with a published prefix (`sk-ant-`, `AKIA`, `ghp_`, `xoxb-`, `glpat-`, ...). The
   prefix makes them near-certain; the key must still mix letters and digits, so prose such as
   `sk-learn-compatible` is not one.
2. **Structured secrets**: JWTs, PEM private-key blocks, password hashes (bcrypt, argon2, crypt),
   the password of a connection string (`scheme://user:pass@host`), `Authorization` headers, `.netrc`
   lines.
3. **A value said or assigned to a secret word**: `password is hunter2`, `API_KEY=...`,
   `"token": "..."`, `--password x`, `changed my PIN to 4821`. The value has to look like one: quoted,
   or holding a digit or symbol, or (after strong words such as "password") a word that is not ordinary
   English. So "the password is in the vault" and "password is required" are not credentials, nor are
   code references (`os.environ[...]`, `settings.SECRET_KEY`, `getpass()`) or placeholders (`<token>`,
   `${API_KEY}`, `xxxx`, `YOUR_API_KEY`).
4. **Any other long random token**: 32 to 512 characters of the base64/base64url alphabet holding
   letters and digits, with Shannon entropy of at least 0.72 bits per bit of log2(length), frequent
   switches between upper case, lower case and digits, and not made of words (identifiers, slugs and
   file names have long, vowel-rich segments; random strings do not).

Deliberately not credentials: hex of any length (commit hashes, SHA-256 digests, MD5 sums: a secret in
hex is caught only by its prefix or its context, as in "api key: <hex>"), UUIDs, tokens in the path of
a URL (document ids), SSH public keys, certificates and other public PEM blocks, Subresource-Integrity
hashes, base64 runs longer than 512 characters (data, not keys), and IPFS and Bitcoin identifiers.

Only the secret value is reported, so "password is hunter2" masks to "password is [secret]". Every
regex is compiled once at import and scans in linear time: each starts with a literal or has bounded
repeats, so a 1 MB adversarial quote is checked in a fraction of a second.
"""

import base64
import binascii
import bisect
import itertools
import math
import re
from collections import Counter

Span = tuple[int, int]

_B64URL = "[A-Za-z0-9_-]"

# (kind, pattern). A group named "secret" is the part to mask; without one, the whole match.
_PROVIDERS: tuple[tuple[str, str], ...] = (
    ("anthropic", r"sk-ant-[A-Za-z0-9_-]{32,}"),
    ("openai", r"sk-(?:proj-|svcacct-|admin-|or-v1-)?[A-Za-z0-9_-]{20,}"),
    ("stripe", r"(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}"),
    ("stripe webhook", r"whsec_[A-Za-z0-9+/=]{24,}"),
    ("aws access key id", r"(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}(?![A-Za-z0-9])"),
    ("github", r"gh[pousr]_[A-Za-z0-9]{36,}"),
    ("github fine-grained", r"github_pat_[A-Za-z0-9_]{40,}"),
    ("gitlab", r"gl(?:pat|dt|rt|ptt|ft|soat|cbt|imt)-[A-Za-z0-9_-]{20,}"),
    ("slack", r"xox[abposre]-[A-Za-z0-9-]{10,}"),
    ("slack app", r"xapp-\d-[A-Za-z0-9-]{10,}"),
    ("slack webhook", r"hooks\.slack\.com/(?P<secret>(?:services|workflows|triggers)/[A-Za-z0-9/_-]{20,})"),
    ("discord webhook", r"discord(?:app)?\.com/api/webhooks/\d{5,25}/(?P<secret>[A-Za-z0-9_-]{40,})"),
    ("teams webhook", r"webhook\.office\.com/webhookb2/(?P<secret>[A-Za-z0-9@/_-]{40,})"),
    ("google api key", r"AIza[A-Za-z0-9_-]{35}"),
    ("google oauth secret", r"GOCSPX-[A-Za-z0-9_-]{24,}"),
    ("google oauth token", r"ya29\.[A-Za-z0-9_-]{30,}"),
    ("google refresh token", r"1//0[A-Za-z0-9_-]{30,}"),
    ("npm", r"npm_[A-Za-z0-9]{36,}"),
    ("sendgrid", r"SG\.[A-Za-z0-9_-]{16,32}\.[A-Za-z0-9_-]{16,64}"),
    ("twilio", r"(?:SK|AC)[0-9a-fA-F]{32}(?![A-Za-z0-9])"),
    ("azure storage", r"(?:AccountKey|SharedAccessKey)=(?P<secret>[A-Za-z0-9+/]{20,}={0,2})"),
    ("azure sas", r"[?&]sig=(?P<secret>[A-Za-z0-9%+/]{20,})"),
    ("hugging face", r"(?:hf_|api_org_)[A-Za-z0-9]{30,}"),
    ("digitalocean", r"do[por]_v1_[a-f0-9]{64}"),
    ("shopify", r"shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}"),
    ("mailgun", r"key-[0-9a-f]{32}(?![A-Za-z0-9])"),
    ("discord bot", r"[MNO][A-Za-z0-9_-]{23,27}\.[A-Za-z0-9_-]{6,7}\.[A-Za-z0-9_-]{27,40}"),
    ("telegram bot", r"(?:bot)?(?P<secret>\d{6,12}:AA[A-Za-z0-9_-]{33})(?![A-Za-z0-9_-])"),
    ("heroku", r"HRKU-[A-Za-z0-9_-]{20,}"),
    ("pypi", r"pypi-AgE[A-Za-z0-9_-]{40,}"),
    ("docker hub", r"dckr_pat_[A-Za-z0-9_-]{20,}"),
    ("linear", r"lin_(?:api|oauth)_[A-Za-z0-9]{32,}"),
    ("notion", r"(?:secret_[A-Za-z0-9]{43}(?![A-Za-z0-9])|ntn_[A-Za-z0-9]{40,})"),
    ("atlassian", r"AT(?:ATT|CTT|BB)[A-Za-z0-9_=-]{28,}"),
    ("square or facebook", r"EAA[A-Za-z0-9_-]{40,}"),
    ("square", r"sq0(?:atp|csp|idp)-[A-Za-z0-9_-]{20,}"),
    ("paypal braintree", r"access_token\$(?:production|sandbox)\$[0-9a-z]{16}\$[0-9a-f]{32}"),
    ("new relic", r"NR(?:AK|AA|II|JS|IQ)-[A-Z0-9]{20,}"),
    ("postman", r"PMAK-[a-f0-9]{24}-[a-f0-9]{34}"),
    ("age", r"AGE-SECRET-KEY-1[02-9AC-HJ-NP-Z]{58}"),
    ("hashicorp vault", r"hv[sbr]\.[A-Za-z0-9_-]{24,}"),
    ("terraform cloud", r"[A-Za-z0-9]{14}\.atlasv1\.[A-Za-z0-9_-]{60,}"),
    ("doppler", r"dp\.(?:pt|st|ct|scim|audit)\.[A-Za-z0-9]{30,}"),
    ("pulumi", r"pul-[a-f0-9]{40}"),
    ("grafana", r"(?:glc_[A-Za-z0-9+/]{32,}={0,2}|glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8})"),
    ("sentry", r"sntry[su]_[A-Za-z0-9+/=_-]{40,}"),
    ("figma", r"figd_[A-Za-z0-9_-]{30,}"),
    ("supabase", r"(?:sbp_[a-f0-9]{40}|sb_secret_[A-Za-z0-9_-]{20,})"),
    ("replicate", r"r8_[A-Za-z0-9]{37}"),
    ("groq", r"gsk_[A-Za-z0-9]{40,}"),
    ("xai", r"xai-[A-Za-z0-9]{60,}"),
    ("perplexity", r"pplx-[A-Za-z0-9]{40,}"),
    ("langsmith", r"lsv2_(?:pt|sk)_[a-f0-9]{32}_[a-f0-9]{10}"),
    ("databricks", r"dapi[a-f0-9]{32}(?:-\d)?"),
    ("contentful", r"CFPAT-[A-Za-z0-9_-]{40,}"),
    ("tailscale", r"tskey-[a-z]+-[A-Za-z0-9]{6,}-[A-Za-z0-9]{20,}"),
    ("mapbox", r"sk\.eyJ[A-Za-z0-9_-]{20,}\.[A-Za-z0-9_-]{20,}"),
    ("planetscale", r"pscale_(?:tkn|pw|oauth)_[A-Za-z0-9_.-]{30,}"),
    ("pinecone", r"pcsk_[A-Za-z0-9_]{40,}"),
    ("rubygems", r"rubygems_[a-f0-9]{48}"),
    ("dynatrace", r"dt0c01\.[A-Z0-9]{24}\.[A-Z0-9]{64}"),
    ("alibaba", r"LTAI[A-Za-z0-9]{12,20}(?![A-Za-z0-9])"),
    ("twitter bearer", r"AAAAAAAAAAAAAAAAAAAAA[A-Za-z0-9%]{30,}"),
    ("1password", r"(?:ops_eyJ[A-Za-z0-9_-]{50,}|A3-[A-Z0-9]{6}-[A-Z0-9]{6}(?:-[A-Z0-9]{5}){4})"),
    ("cloudflare origin ca", r"v1\.0-[a-f0-9]{24}-[a-f0-9]{146}"),
    ("netlify", r"nfp_[A-Za-z0-9]{36,}"),
    ("jwt", r"eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}"),
    ("bcrypt", r"\$2[abxy]?\$\d\d\$[./A-Za-z0-9]{53}"),
    ("argon2", r"\$argon2(?:id|i|d)\$v=\d+\$m=\d+,t=\d+,p=\d+\$[A-Za-z0-9+/]{8,}\$[A-Za-z0-9+/]{16,}"),
    ("crypt", r"\$[56]\$(?:rounds=\d+\$)?[./A-Za-z0-9]{1,16}\$[./A-Za-z0-9]{43,86}"),
    ("connection string", r"://[^\s:/@?#'\"<>]{0,128}:(?P<secret>[^\s/@?#'\"<>]{1,256})@(?=[\w\[])"),
    ("curl user", r"(?:\s-u|--user)\s+['\"]?[^\s:'\"]{1,64}:(?P<secret>[^\s'\"@]{1,128})"),
    ("netrc", r"(?i:machine)\s+\S{1,256}\s+(?i:login)\s+\S{1,256}\s+(?i:password)\s+(?P<secret>\S{1,256})"),
    ("authorization", r"(?i:authorization)[\"']?\s*[:=]\s*[\"']?(?i:bearer|basic|token|bot)\s+"
     r"(?P<secret>[A-Za-z0-9._~+/:-]{8,}=*)"),
    ("bearer", r"(?i:bearer)\s+(?P<secret>[A-Za-z0-9._~+/-]{16,}=*)"),
    ("basic auth", r"(?i:basic)\s+(?P<secret>[A-Za-z0-9+/]{8,}={0,2})(?![A-Za-z0-9+/=])"),
)  # fmt: skip
_PROVIDER_RES = tuple((kind, re.compile(pattern)) for kind, pattern in _PROVIDERS)
# Prefixes generic enough to occur in prose ("sk-learn", "secret_sauce") need a digit as well.
_NEEDS_DIGIT = frozenset({"openai", "notion", "mailgun", "bearer", "authorization"})
# Matches that are a structure, not a key body, are not checked for mixed character classes.
_NO_SHAPE_CHECK = frozenset(
    {"connection string", "curl user", "netrc", "bcrypt", "argon2", "crypt", "azure sas", "basic auth"}
)

_PEM_BEGIN = re.compile(r"-----BEGIN ([A-Z0-9 ]{1,60})-----")
_PEM_BODY = re.compile(r"[A-Za-z0-9+/=\s\\:,-]*")
_PEM_KEY_LINE = re.compile(r"[A-Za-z0-9+/=]{20,}")  # a mention of the header alone is not a key
_PEM_MAX = 65536  # the largest PGP private key block is far smaller

# -- values said or assigned to a secret word --------------------------------------------------
_STRONG = (
    r"pass(?:word|wd|phrase|[ _-]phrase)|pwd"
    r"|api[ _.-]?(?:key|token|secret)|apikey"
    r"|(?:secret|access|private|master|encryption|signing|license|account|app|application)[ _-]?key"
    r"|(?:client|consumer|webhook|app|api|shared)[ _-]?secret|app[ _-]?password"
    r"|(?:auth|access|refresh|bearer|bot|oauth|personal[ _-]access)[ _-]?token"
)
_PIN = (
    r"pin(?:[ _-]?(?:code|number))?|pass[ _-]?code"
    r"|(?:door|gate|alarm|garage|lock|safe|entry|security|unlock|recovery|backup)[ _-]codes?"
)
_WEAK = r"token|secret|session[ _-]?(?:id|token|key)"
_VALUE = r"""(?P<value>"[^"\n]{1,200}"|'[^'\n]{1,200}'|`[^`\n]{1,200}`|“[^”\n]{1,200}”|(?:[^\s"'`,;&<>]|&(?!\w{1,30}=)){1,200})"""
_SEPARATOR = (
    r"[\"'`*_]{0,3}(?P<sep>"
    r"\s*:\s*[A-Za-z_][\w.\[\]| ]{0,30}?\s*=(?!=)"  # password: str = "..."
    r"|\s*(?:=>|:=|==|=|:|->)"
    r"|(?:'s|’s|\s+(?:is|was))(?:\s+(?:now|still|just|actually|literally|set\s+to|changed\s+to))?\s*:?"
    r")[*_]{0,2}\s*"
)
_ASSIGNED = re.compile(
    rf"(?i)(?<![A-Za-z])(?:(?P<strong>{_STRONG})|(?P<pin>{_PIN})|(?P<weak>{_WEAK}))(?![A-Za-z])"
    r"(?:\s+(?:for|to|of|on|at)(?:\s+[\w'.@-]{1,30}){1,3}?)?"  # "the password for the router is ..."
    rf"{_SEPARATOR}{_VALUE}"
)
_SET_TO = re.compile(
    r"(?i)(?<![A-Za-z])(?:set|change[ds]?|reset|update[ds]?)\s+(?:[\w'-]{1,20}\s+){0,3}?"
    rf"(?:(?P<strong>{_STRONG})|(?P<pin>{_PIN}))\s+(?:to|as)\s+{_VALUE}"
)
_CLI_FLAG = re.compile(
    r"--(?:password|passwd|pass|token|api-?key|secret|client-secret|auth-token|access-token)\s+"
    r"(?P<value>[^\s\"'-][^\s\"']{0,199}|\"[^\"\n]{1,200}\"|'[^'\n]{1,200}')"
)
_SAID = re.compile(r"'s|’s|\s+(?:is|was)")
_KEYWORD_ALONE = re.compile(rf"(?i)(?:{_STRONG}|{_PIN}|{_WEAK}|pass|passwords|key|credentials?|none)")
_REFERENCE = re.compile(
    r"\$\{?[A-Za-z_][\w.]*\}?|%\w+%|%[sdr]|(?:/|~/|\.\.?/|https?://|op://|env:|vault:|file:).*"
)
_CODE_WORDS_TEXT = """
    none null nil true false str string bytes int optional required undefined empty secretstr n/a tbd
    raise return pass continue break if else elif for while yield await async def class import from try
    except finally with lambda not and or is in del global assert print self cls this let const var new
"""
_CODE_WORDS = frozenset(_CODE_WORDS_TEXT.split())
_ENV_NAME = re.compile(r"[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+")
_DOTTED_NAME = re.compile(r"[A-Za-z_]+(?:\.[A-Za-z_]+)+")
_IDENTIFIER = re.compile(r"[a-z]+(?:_[a-z]+)+|[a-z]+(?:[A-Z][a-z]*)+")
_PLACEHOLDER = re.compile(r"(?i)[x*.•_#?-]+|…|your[\w-]*|[\w-]*_here|redacted|hidden|masked|placeholder")
_ORDINARY_SUFFIX = re.compile(
    r"(?i)[a-z]{2,}(?:ed|ing|ly|able|ible|ive|ous|ful|less|ness|ment|tion|sion|ity|ent|ant|ure|al|ic)"
)
# Words that follow "password is" in ordinary sentences; any other plain word there is taken as a value.
_ORDINARY_WORDS = """
    a an the this that these those it its my your our their his her mine yours ours theirs one same other
    another some any no not none nothing something anything everything all both each either neither every
    is was be been being are were am do does did has have had will would can could should must may might
    shall in on at to of for from by with without within into onto over under about above below near
    behind between through during after before since until till via per like as than then so too very
    quite rather pretty really just only also still even now already always never ever often usually here
    there where when what which who whom why how if else but and or nor yet because though although while
    unless whether up down out off away back again once twice just soon later today tomorrow new old same
    different good bad fine great okay ok right wrong true false correct incorrect valid invalid weak
    strong long short simple easy hard tough safe unsafe secure insecure solid sound private public secret
    hidden personal shared common default blank empty missing lost gone forgotten set unset written typed
    sent saved stored kept known unknown visible shown locked changed reset expired required optional
    needed necessary mandatory case sensitive complex complicated random unique generic obvious clear
    plain hashed encrypted salted stolen leaked compromised protected longer shorter stronger weaker
    better worse easier harder safer simpler bigger smaller newer older best worst strongest weakest
    longest shortest easiest hardest least most more less enough somewhere anywhere everywhere elsewhere
    nowhere inside outside upstairs downstairs online offline vault manager keychain keyring file folder
    drive note notes email emails text message inbox app phone laptop computer desk drawer wallet paper
    envelope card sticker label fridge board wall office written printed taped attached included listed
    below above following same usual standard what whatever whoever somebody someone anyone everyone
    nobody me you him her us them mine yes no maybe probably possibly definitely certainly almost nearly
    barely hardly about around exactly actually basically literally seriously honestly apparently
    supposedly wrong stale fresh temporary permanent current previous next last first second third final
    ready done finished pending active inactive disabled enabled broken fixed working valid too easy
    guessable weak short obvious predictable simple one two three four five six seven eight nine ten
    twelve sixteen twenty characters chars digits letters words numbers symbols tied linked synced
    associated connected different separate required due going getting use see check ask try find look
    open type enter click copy paste call text contact 1password bitwarden lastpass dashlane keepass
    keepassxc passbolt keeper enpass auto self pre non semi multi well user machine system
"""
_ORDINARY = frozenset(_ORDINARY_WORDS.split())

# -- long random tokens ---------------------------------------------------------------------------
_RUN = re.compile(r"[A-Za-z0-9+/_=-]{32,}")
_URL = re.compile(r"://[^\s<>\"'`]+|www\.[^\s<>\"'`]+")
_NOT_RANDOM = re.compile(
    r"(?:0x)?[0-9a-fA-F]+|[0-9a-fA-F-]+|[0-9/_=-]+"  # hex digests, UUIDs, numbers
    r"|sha(?:256|384|512)-.*|AAAA.*"  # Subresource Integrity, SSH public keys
    r"|Qm[1-9A-HJ-NP-Za-km-z]{44}|baf[a-z2-7]{50,}"  # IPFS
    r"|bc1[a-z0-9]{25,90}|[13][1-9A-HJ-NP-Za-km-z]{25,34}"  # Bitcoin
)
_SEGMENT = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|[0-9]+")
_CAPITALIZED_WORD = re.compile(r"[A-Z][a-z]{2,}")
_INNER_EQUALS = re.compile(r"=+(?=[^=])")
_WORD_BREAK = re.compile(r"[\s-]+")
_RUN_MIN, _RUN_MAX = 32, 512
# Calibrated on 3,000 random keys per alphabet (base62, base64, lower/upper+digits, base32) of 32-128
# characters: the 1st percentile sits above both thresholds; identifiers and slugs sit below the second.
_ENTROPY_PER_LOG2 = 0.72
_MIN_SWITCHES = 0.1


def find_credentials(text: str) -> list[Span]:
    """Spans (start, end) of credential-shaped substrings in text, sorted, non-overlapping."""
    if not text:
        return []
    spans = _provider_spans(text)
    private, public = _pem_spans(text)
    spans += private
    spans += _assigned_spans(text)
    spans += _random_token_spans(text, excluded=public + _url_spans(text) + private)
    return _merge(spans)


def looks_like_credential(text: str) -> bool:
    """True when text holds anything credential-shaped."""
    return bool(find_credentials(text))


def mask_credentials(text: str, mask: str = "[secret]") -> str:
    """text with every credential span replaced by mask."""
    parts: list[str] = []
    last = 0
    for start, end in find_credentials(text):
        parts += [text[last:start], mask]
        last = end
    parts.append(text[last:])
    return "".join(parts)


def _provider_spans(text: str) -> list[Span]:
    spans: list[Span] = []
    for kind, pattern in _PROVIDER_RES:
        for match in pattern.finditer(text):
            start = match.start()
            # A key glued to a longer word is part of that word (patterns start with a literal, which
            # is what keeps them fast, so the boundary is checked here rather than by a lookbehind).
            if start > 0 and text[start - 1].isalnum() and match.group()[0].isalnum():
                continue
            has_secret_group = "secret" in pattern.groupindex and match.group("secret") is not None
            span = match.span("secret") if has_secret_group else match.span()
            value = text[span[0] : span[1]]
            if kind in _NEEDS_DIGIT and not any(c.isdigit() for c in value):
                continue
            if kind not in _NO_SHAPE_CHECK and not _mixed(value):
                continue
            if kind in {"connection string", "curl user", "netrc"} and _is_placeholder(value):
                continue
            if kind == "basic auth" and not _is_basic_credential(value):
                continue
            spans.append(span)
    return spans


def _pem_spans(text: str) -> tuple[list[Span], list[Span]]:
    """Private-key blocks (secrets) and public blocks such as certificates (not secrets)."""
    private: list[Span] = []
    public: list[Span] = []
    next_end: dict[str, int] = {}  # per label, the next END marker found so far (-1: none left)
    pos = 0
    while match := _PEM_BEGIN.search(text, pos):
        label = match.group(1)
        marker = f"-----END {label}-----"
        if next_end.get(label, 0) != -1 and next_end.get(label, 0) < match.end():
            next_end[label] = text.find(marker, match.end())
        end = next_end[label] if next_end.get(label, -1) != -1 else -1
        if end != -1 and end - match.end() <= _PEM_MAX:
            stop = end + len(marker)
            body = text[match.end() : end]
        else:
            body_match = _PEM_BODY.match(text, match.end())
            stop = body_match.end() if body_match else match.end()
            body = text[match.end() : stop]
        if _PEM_KEY_LINE.search(body):
            (private if "PRIVATE" in label else public).append((match.start(), stop))
        pos = max(stop, match.end())
    return private, public


def _assigned_spans(text: str) -> list[Span]:
    spans: list[Span] = []
    for pattern in (_ASSIGNED, _SET_TO, _CLI_FLAG):
        for match in pattern.finditer(text):
            groups = match.groupdict()
            strength = next((name for name in ("strong", "pin", "weak") if groups.get(name)), "strong")
            start, end = match.span("value")
            raw = match.group("value")
            quoted = raw[0] in "\"'`“" and len(raw) >= 2
            if quoted:
                start, end, value = start + 1, end - 1, raw[1:-1]
            else:
                value = raw.rstrip(".,!?:;)]}'\"")
                end = start + len(value)
            said = bool(groups.get("sep") and _SAID.match(groups["sep"]))
            code_like = pattern is not _SET_TO and not said
            plain_words = quoted or pattern is not _SET_TO  # "set the password to expire" is a verb
            if _is_value(value, strength=strength, code_like=code_like, plain_words=plain_words):
                spans.append((start, end))
    return spans


def _is_value(value: str, *, strength: str, code_like: bool, plain_words: bool = True) -> bool:
    """Whether the thing said or assigned to a secret word is an actual secret, not a word or a reference."""
    if len(value) < 4 or _is_placeholder(value) or _is_reference(value, code_like=code_like):
        return False
    has_digit = any(c.isdigit() for c in value)
    if strength == "weak":
        return len(value) >= 8 and has_digit and any(c.isalpha() for c in value) and not _ordinary(value)
    if strength == "pin":
        return has_digit and not _ordinary(value)
    if not plain_words and value.replace(" ", "").isalpha():
        return False
    return not _ordinary(value)


def _is_placeholder(value: str) -> bool:
    return bool(
        _PLACEHOLDER.fullmatch(value)
        or _KEYWORD_ALONE.fullmatch(value)
        or _REFERENCE.fullmatch(value)
        or "<" in value
        or ">" in value
    )


def _is_reference(value: str, *, code_like: bool) -> bool:
    """Code that names a secret kept elsewhere: a call, an index, an attribute, an environment variable."""
    return bool(
        any(c in value for c in "()[]{}")
        or value.lower() in _CODE_WORDS
        or _ENV_NAME.fullmatch(value)
        or _DOTTED_NAME.fullmatch(value)
        or (code_like and _IDENTIFIER.fullmatch(value))
    )


def _ordinary(value: str) -> bool:
    """True when every word of value is ordinary English or too short to be a secret ("2fa-protected")."""
    for part in re.split(_WORD_BREAK, value):
        word = part.strip(".,!?'’\"")
        if len(word) <= 3:
            continue
        if not word.replace("'", "").isalpha():
            return False
        if word.lower() not in _ORDINARY and not _ORDINARY_SUFFIX.fullmatch(word):
            return False
    return True


def _is_basic_credential(value: str) -> bool:
    """A Basic authorization value is base64 of "user:password"."""
    try:
        decoded = base64.b64decode(value + "=" * (-len(value) % 4), validate=True).decode("ascii")
    except (binascii.Error, UnicodeDecodeError, ValueError):
        return False
    _user, colon, password = decoded.partition(":")
    return bool(colon) and decoded.isprintable() and bool(password) and not _is_placeholder(password)


def _mixed(value: str) -> bool:
    """At least two of lower case, upper case and digits, as every generated key has."""
    classes = (
        any(c.islower() for c in value),
        any(c.isupper() for c in value),
        any(c.isdigit() for c in value),
    )
    return sum(classes) >= 2


def _url_spans(text: str) -> list[Span]:
    spans: list[Span] = []
    for match in _URL.finditer(text):
        start = match.start()
        if match.group().startswith("://"):
            while (
                start > 0
                and match.start() - start < 32
                and (text[start - 1].isalnum() or text[start - 1] in "+.-")
            ):
                start -= 1
        spans.append((start, match.end()))
    return spans


def _random_token_spans(text: str, excluded: list[Span]) -> list[Span]:
    """Long random-looking tokens outside URLs and public key blocks."""
    zones = _merge(excluded)
    zone_starts = [start for start, _ in zones]
    spans: list[Span] = []
    for run in _RUN.finditer(text):
        index = bisect.bisect_right(zone_starts, run.end() - 1) - 1
        if index >= 0 and zones[index][1] > run.start():
            continue
        if text[max(0, run.start() - 7) : run.start()] == "base64,":
            continue  # a data URI: content, not a key
        if "/" in run.group() and run.start() > 0 and text[run.start() - 1] == ".":
            continue  # the path after a bare domain, as in docs.google.com/document/d/<id>
        offset = run.start()
        for piece in _INNER_EQUALS.split(run.group()):
            token = piece.strip("-_/+=")
            token_start = offset + piece.find(token) if token else offset
            if token and _looks_random(token):
                spans.append((token_start, token_start + len(token)))
            offset += len(piece) + 1
    return spans


def _looks_random(token: str) -> bool:
    """Long, mixed, high-entropy and not made of words. Thresholds are calibrated on random keys."""
    length = len(token)
    if not _RUN_MIN <= length <= _RUN_MAX or _NOT_RANDOM.fullmatch(token):
        return False
    if not any(c.isdigit() for c in token) or not any(c.isalpha() for c in token):
        return False
    counts = Counter(token)
    entropy = -sum(n / length * math.log2(n / length) for n in counts.values())
    if entropy < _ENTROPY_PER_LOG2 * math.log2(min(length, 64)):
        return False
    kinds = [_char_kind(c) for c in token if c.isalnum()]
    switches = sum(a != b for a, b in itertools.pairwise(kinds)) / max(1, len(kinds) - 1)
    if switches < _MIN_SWITCHES:
        return False
    decoded = _decoded_text(token)
    if decoded is not None:
        return looks_like_credential(decoded)  # base64 of words or JSON, unless it hides a secret
    letters = [c for c in token if c.isalpha()]
    vowels = sum(c in "aeiouAEIOU" for c in letters) / len(letters)
    segments = _SEGMENT.findall(token)
    mean_segment = sum(map(len, segments)) / len(segments)
    capitalized = sum(map(len, _CAPITALIZED_WORD.findall(token))) / length  # CamelCase identifiers
    return not ((vowels >= 0.3 and mean_segment >= 3.0) or (vowels >= 0.25 and capitalized >= 0.6))


def _decoded_text(token: str) -> str | None:
    """The text token is base64 of, if it decodes to printable text (a JWT header, a sentence)."""
    if len(token) % 4 == 1:
        return None
    padded = token + "=" * (-len(token) % 4)
    try:
        raw = (
            base64.b64decode(padded, altchars=b"-_", validate=True)
            if "-" in token or "_" in token
            else (base64.b64decode(padded, validate=True))
        )
        decoded = raw.decode("utf-8")
    except (binascii.Error, UnicodeDecodeError, ValueError):
        return None
    return decoded if decoded.isprintable() else None


def _char_kind(c: str) -> int:
    return 0 if c.isdigit() else 1 if c.isupper() else 2


def _merge(spans: list[Span]) -> list[Span]:
    merged: list[Span] = []
    for start, end in sorted(spans):
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], end))
        elif end > start:
            merged.append((start, end))
    return merged
