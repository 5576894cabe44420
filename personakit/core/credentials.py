"""What a credential looks like.

A proposal whose text or quote looks like a password, key, token or private key is refused
(`credential_shape`), and credentials an owner typed into a memory file by hand are masked in anything
served. Both need one answer to "where are the secrets in this text?", given here as character spans.

What counts, from the most certain to the least:

1. **Provider keys** with a published prefix (`sk-ant-`, `AKIA`, `ghp_`, `xoxb-`, `glpat-`, ...). The
   prefix makes them near-certain; the key must still mix character classes, so prose such as
   `sk-learn-compatible` is not one.
2. **Structured secrets**: JWTs, PEM private-key blocks, password hashes (bcrypt, argon2, crypt),
   the password of a connection string (`scheme://user:pass@host`, but not `user@host`),
   `Authorization` headers, `curl -u user:pass`, `.netrc` lines.
3. **A value said or assigned to a secret word**: `password is hunter2`, `API_KEY=...`,
   `"token": "..."`, `--password x`, `changed my PIN to 4821`. The value has to look like one: quoted,
   or holding a digit or symbol, or (after strong words such as "password") a word that is not ordinary
   English. So "the password is in the vault" and "password is required" are not credentials, nor are
   code references (`os.environ[...]`, `settings.SECRET_KEY`, `getpass()`) or placeholders (`<token>`,
   `${API_KEY}`, `xxxx`, `your-key-here`). Weak words ("token", "secret") need a value with letters
   and digits, so "the secret is patience" stays ordinary.
4. **Any other long random token**: 32 to 512 characters of the base64/base64url alphabet holding
   letters and digits, with high Shannon entropy, frequent switches between upper case, lower case and
   digits, and not made of words (identifiers, slugs and file names have long, vowel-rich segments;
   random strings do not). Base64 that decodes to readable text counts only if that text does.

Deliberately not credentials: hex of any length (commit hashes, SHA-256 digests, MD5 sums; a secret in
hex is caught only by its prefix or its context, as in "api key: <hex>"), UUIDs, tokens in the path of
a URL (document ids), SSH public keys, certificates and other public PEM blocks, Subresource-Integrity
hashes, base64 runs longer than 512 characters (data, not keys), IPFS and Bitcoin identifiers, and
payment card numbers (not a password, key or token).

Only the secret value is reported, so "password is hunter2" masks to "password is [secret]".

Speed: every regex is compiled once at import and runs in linear time. Provider patterns start with a
literal (a word boundary is checked in Python, because a leading lookbehind makes `re` try every
position) and have no nested repeats; where a required part follows a repeat that could also match the
literal (a JWT's dots), a lookbehind placed after the literal lets each run be scanned once. The secret-word patterns run only in windows around a cheap literal hint ("pass", "key",
"token", ...) found in the text lower-cased. A 300-character proposal takes about 60 microseconds; 1 MB
of ordinary or random text about 0.1 s, and 1 MB packed with secret words about a second at worst.
"""

import base64
import binascii
import bisect
import itertools
import math
import re
import string
from collections import Counter

Span = tuple[int, int]

_PROVIDERS: tuple[tuple[str, str], ...] = (
    ("anthropic", r"sk-ant-[A-Za-z0-9_-]{32,}"),
    ("openai", r"sk-(?:proj-|svcacct-|admin-|or-v1-)?[A-Za-z0-9_-]{20,}"),
    ("stripe", r"sk_(?:live|test)_[A-Za-z0-9]{16,}"),
    ("stripe restricted", r"rk_(?:live|test)_[A-Za-z0-9]{16,}"),
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
    ("twilio api key", r"SK[0-9a-fA-F]{32}(?![A-Za-z0-9])"),
    ("twilio account", r"AC[0-9a-fA-F]{32}(?![A-Za-z0-9])"),
    ("azure storage", r"AccountKey=(?P<secret>[A-Za-z0-9+/]{20,}={0,2})"),
    ("azure service bus", r"SharedAccessKey=(?P<secret>[A-Za-z0-9+/]{20,}={0,2})"),
    ("azure sas", r"sig=(?P<secret>[A-Za-z0-9%+/]{20,})"),
    ("hugging face", r"hf_[A-Za-z0-9]{30,}"),
    ("hugging face org", r"api_org_[A-Za-z0-9]{30,}"),
    ("digitalocean", r"do[por]_v1_[a-f0-9]{64}"),
    ("shopify", r"shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}"),
    ("mailgun", r"key-[0-9a-f]{32}(?![A-Za-z0-9])"),
    ("discord bot", r"[MNO][A-Za-z0-9_-]{23,27}\.[A-Za-z0-9_-]{6,7}\.[A-Za-z0-9_-]{27,40}"),
    ("telegram bot", r":AA[A-Za-z0-9_-]{33}(?![A-Za-z0-9_-])"),
    ("heroku", r"HRKU-[A-Za-z0-9_-]{20,}"),
    ("pypi", r"pypi-AgE[A-Za-z0-9_-]{40,}"),
    ("docker hub", r"dckr_pat_[A-Za-z0-9_-]{20,}"),
    ("linear", r"lin_(?:api|oauth)_[A-Za-z0-9]{32,}"),
    ("notion", r"secret_[A-Za-z0-9]{43}(?![A-Za-z0-9])"),
    ("notion new", r"ntn_[A-Za-z0-9]{40,}"),
    ("atlassian", r"AT(?:ATT|CTT|BB)[A-Za-z0-9_=-]{28,}"),
    ("square or facebook", r"EAA[A-Za-z0-9_-]{40,}"),
    ("square", r"sq0(?:atp|csp|idp)-[A-Za-z0-9_-]{20,}"),
    ("paypal braintree", r"access_token\$(?:production|sandbox)\$[0-9a-z]{16}\$[0-9a-f]{32}"),
    ("new relic", r"NR(?:AK|AA|II|JS|IQ)-[A-Z0-9]{20,}"),
    ("postman", r"PMAK-[a-f0-9]{24}-[a-f0-9]{34}"),
    ("age", r"AGE-SECRET-KEY-1[02-9AC-HJ-NP-Z]{58}"),
    ("hashicorp vault", r"hv[sbr]\.[A-Za-z0-9_-]{24,}"),
    ("terraform cloud", r"\.atlasv1\.[A-Za-z0-9_-]{60,}"),
    ("doppler", r"dp\.(?:pt|st|ct|scim|audit)\.[A-Za-z0-9]{30,}"),
    ("pulumi", r"pul-[a-f0-9]{40}"),
    ("grafana cloud", r"glc_[A-Za-z0-9+/]{32,}={0,2}"),
    ("grafana service account", r"glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}"),
    ("sentry", r"sntry[su]_[A-Za-z0-9+/=_-]{40,}"),
    ("figma", r"figd_[A-Za-z0-9_-]{30,}"),
    ("supabase", r"sbp_[a-f0-9]{40}"),
    ("supabase secret", r"sb_secret_[A-Za-z0-9_-]{20,}"),
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
    ("1password service account", r"ops_eyJ[A-Za-z0-9_-]{50,}"),
    ("1password secret key", r"A3-[A-Z0-9]{6}-[A-Z0-9]{6}(?:-[A-Z0-9]{5}){4}"),
    ("cloudflare origin ca", r"v1\.0-[a-f0-9]{24}-[a-f0-9]{146}"),
    ("netlify", r"nfp_[A-Za-z0-9]{36,}"),
    ("jwt", r"eyJ(?<![A-Za-z0-9_-]eyJ)[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}"),
    ("bcrypt", r"\$2[abxy]?\$\d\d\$[./A-Za-z0-9]{53}"),
    ("argon2", r"\$argon2(?:id|i|d)\$v=\d+\$m=\d+,t=\d+,p=\d+\$[A-Za-z0-9+/]{8,}\$[A-Za-z0-9+/]{16,}"),
    ("crypt", r"\$[56]\$(?:rounds=\d+\$)?[./A-Za-z0-9]{1,16}\$[./A-Za-z0-9]{43,86}"),
    ("connection string", r"://[^\s:/@?#'\"<>]{0,128}:(?P<secret>[^\s/@?#'\"<>]{1,256})@(?=[\w\[])"),
    ("curl user", r"-(?:u|-user)\s+['\"]?[^\s:'\"]{1,64}:(?P<secret>[^\s'\"@]{1,128})"),
    ("netrc", r"machine\s+\S{1,256}\s+login\s+\S{1,256}\s+password\s+(?P<secret>\S{1,256})"),
    ("authorization", r"authorization[\"']?\s*[:=]\s*[\"']?(?:bearer|basic|token|bot)\s+"
     r"(?P<secret>[A-Za-z0-9._~+/:-]{8,}=*)"),
    ("bearer", r"bearer\s+(?P<secret>[A-Za-z0-9._~+/-]{16,}=*)"),
    ("basic auth", r"basic\s+(?P<secret>[A-Za-z0-9+/]{8,}={0,2})(?![A-Za-z0-9+/=])"),
)  # fmt: skip

_PROVIDER_RES = tuple((kind, re.compile(pattern)) for kind, pattern in _PROVIDERS)
# Every provider shape has a run of 14 token characters (its prefix and body), or one of the literals
# of the shapes whose secret may be short. Text without any (most prose) skips the 84 scans: a memory's
# text and quotes are checked on every read that returns them.
_MAYBE_PROVIDER = re.compile(
    r"[A-Za-z0-9_+/=.$%~:-]{14,}|://|-u\s|--user|(?i:machine|authorization|bearer|basic)"
)
# Prefixes generic enough to occur in prose ("sk-learn", "secret_sauce") need a digit as well.
_NEEDS_DIGIT = frozenset({"openai", "notion", "mailgun", "bearer", "authorization"})
# Matches that are a structure rather than a key body: no mixed-classes check.
_STRUCTURES = frozenset(
    {"connection string", "curl user", "netrc", "bcrypt", "argon2", "crypt", "basic auth"}
)
# Passwords written inside a structure, where documentation uses placeholders ("user:password@host").
_WRITTEN_PASSWORDS = frozenset({"connection string", "curl user", "netrc"})
# Written in any case ("Authorization: bearer"), so matched against the text lower-cased (same length).
_ANY_CASE = frozenset({"authorization", "bearer", "basic auth", "netrc"})
# Parts of a key that come before its literal: (characters, fewest, most). Scanning back in Python keeps
# the regex literal-first.
_LEADS = {
    "telegram bot": (string.digits, 6, 12),
    "terraform cloud": (string.ascii_letters + string.digits, 14, 14),
}

_PEM_BEGIN = re.compile(r"-----BEGIN ([A-Z0-9 ]{1,60})-----")
_PEM_END = re.compile(r"-----END ([A-Z0-9 ]{1,60})-----")
_PEM_BODY = re.compile(r"[A-Za-z0-9+/=\s\\:,-]*")  # base64 lines, "\n" escapes, Proc-Type headers
_PEM_KEY_LINE = re.compile(r"[A-Za-z0-9+/=]{20,}")  # a mention of the header alone is not a key
_PEM_MAX = 65536  # private-key blocks are far smaller; a farther END belongs to something else

# -- values said or assigned to a secret word -----------------------------------------------------------
_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")  # keeps length
_HINT = re.compile(r"pass|pwd|key|secret|token|pin|code|session")  # on lower-cased text: literal, so fast
_WINDOW_BEFORE, _WINDOW_AFTER = 80, 420  # around a hint: the words before it and the longest value
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
_WEAK = r"token|secret|pass|session[ _-]?(?:id|token|key)"
_VALUE = (
    r"""(?P<value>[a-z]{4} [a-z]{4} [a-z]{4} [a-z]{4}(?![a-z])"""  # an app password: "abcd efgh ijkl mnop"
    r"""|"[^"\n]{1,200}"|'[^'\n]{1,200}'|`[^`\n]{1,200}`|“[^”\n]{1,200}”"""
    r"""|(?:[^\s"'`,;&<>]|&(?!\w{1,30}=)){1,200})"""  # '&' ends a value only where a query parameter starts
)
_SEPARATOR = (
    r"[\"'`*_]{0,3}(?P<sep>"
    r"\s*:\s*[A-Za-z_][\w.\[\]| ]{0,30}?\s*=(?!=)"  # password: str = "..."
    r"|\s*(?:=>|:=|==|=|:|->)"
    r"|(?:'s|’s|\s+(?:is|was))(?:\s+(?:now|still|just|actually|literally|set\s+to|changed\s+to))?\s*:?"
    r")[*_]{0,2}\s*"
)
_ASSIGNED = re.compile(
    rf"(?i)(?<![A-Za-z])(?:(?P<strong>{_STRONG})|(?P<pin>{_PIN})|(?P<weak>{_WEAK}))(?![A-Za-z])"
    r"(?:\s+(?:for|to|of|on|at)(?:\s+[\w'.@-]{1,30}){1,4}?)?"  # "the password for the router is ..."
    rf"{_SEPARATOR}{_VALUE}"
)
_SET_TO = re.compile(
    r"(?i)(?<![A-Za-z])(?:set|change[ds]?|reset|update[ds]?)\s+(?:[\w'-]{1,20}\s+){0,3}?"
    rf"(?:(?P<strong>{_STRONG})|(?P<pin>{_PIN}))\s+(?:to|as)\s+{_VALUE}"
)
_CLI_FLAG = re.compile(
    r"(?<![\w-])--(?:password|passwd|pass|token|api-?key|secret|client-secret|auth-token|access-token)\s+"
    r"(?P<value>[^\s\"'-][^\s\"']{0,199}|\"[^\"\n]{1,200}\"|'[^'\n]{1,200}')"
)
_SAID = re.compile(r"'s|’s|\s+(?:is|was)")
_KEYWORD_ALONE = re.compile(rf"(?i)(?:{_STRONG}|{_PIN}|{_WEAK}|pass|passwords|key|credentials?)")
_REFERENCE = re.compile(
    r"\$\{?[A-Za-z_][\w.]*\}?|%\w+%|%[sdr]|(?:/|~/|\.\.?/|https?://|op://|env:|vault:|file:).*"
    r"|ssh-(?:rsa|ed25519|dss)|ecdsa-sha2-[\w-]+|sk-ssh-[\w@.-]+"  # the type that opens a public key
)
_CODE_WORDS_TEXT = """
    none null nil true false str string bytes int bool float dict list any object optional required undefined
    empty secretstr n/a tbd
    raise return pass continue break if else elif for while yield await async def class import from try
    except finally with lambda not and or is in del global assert print self cls this let const var new
"""
_CODE_WORDS = frozenset(_CODE_WORDS_TEXT.split())
_ENV_NAME = re.compile(r"[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+")
_DOTTED_NAME = re.compile(r"[A-Za-z_]+(?:\.[A-Za-z_]\w*)+")  # settings.SECRET_KEY, not p4ss.w0rd
_IDENTIFIER = re.compile(r"[a-z]+(?:_[a-z]+)+|[a-z]+(?:[A-Z][a-z]*)+")
_TYPE_NAME = re.compile(r"(?:[A-Za-z_]\w*\.)*[A-Z]\w*")  # private_key: Ed25519PrivateKey | None
_AFTER_TYPE = re.compile(r"\s*(?:[,)|=\]]|->|$)")
_PLACEHOLDER = re.compile(r"(?i)[x*.•_#?-]+|…|your[\w-]*|[\w-]*_here|redacted|hidden|masked|placeholder")
_WORD_BREAK = re.compile(r"[\s-]+")
_ORDINARY_SUFFIX = re.compile(
    r"(?i)[a-z]{2,}(?:ed|ing|ly|able|ible|ive|ous|ful|less|ness|ment|tion|sion|ity|ent|ant|ure|al|ic)"
)
# Words that follow "password is" in ordinary sentences; any other plain word there is taken as a value.
_ORDINARY_WORDS = """
    a an the this that these those it its my your our their his her mine yours ours theirs one same other
    another some any no not none nothing something anything everything all both each either neither every is
    was be been being are were am do does did has have had will would can could should must may might shall
    in on at to of for from by with without within into onto over under about above below near behind between
    through during after before since until till via per like as than then so too very quite rather pretty
    really just only also still even now already always never ever often usually here there where when what
    which who whom why how if else but and or nor yet because though although while unless whether up down
    out off away back again once twice soon later today tomorrow new old different good bad fine great okay
    ok right wrong true false correct incorrect valid invalid weak strong long short simple easy hard tough
    safe unsafe secure insecure solid sound private public secret hidden personal shared common default blank
    empty missing lost gone forgotten set unset written typed sent saved stored kept known unknown visible
    shown locked changed reset expired required optional needed necessary mandatory case sensitive complex
    complicated random unique generic obvious clear plain hashed encrypted salted stolen leaked compromised
    protected longer shorter stronger weaker better worse easier harder safer simpler bigger smaller newer
    older best worst strongest weakest longest shortest easiest hardest least most more less enough somewhere
    anywhere everywhere elsewhere nowhere inside outside upstairs downstairs online offline vault manager
    keychain keyring file folder drive note notes email emails text message inbox app phone laptop computer
    desk drawer wallet paper envelope card sticker label fridge board wall office printed taped attached
    included listed following usual standard whatever whoever somebody someone anyone everyone nobody me you
    him us them yes maybe probably possibly definitely certainly almost nearly barely hardly around exactly
    actually basically literally seriously honestly apparently supposedly stale fresh temporary permanent
    current previous next last first second third final ready done finished pending active inactive disabled
    enabled broken fixed working guessable predictable two three four five six seven eight nine ten twelve
    sixteen twenty characters chars digits letters words numbers symbols tied linked synced associated
    connected separate due going getting use see check ask try find look open type enter click copy paste
    call contact 1password bitwarden lastpass dashlane keepass keepassxc passbolt keeper enpass given taken
    chosen frozen made found used held told seen left auto self pre non semi multi well user machine system
"""
_ORDINARY = frozenset(_ORDINARY_WORDS.split())

# -- long random tokens -----------------------------------------------------------------------------------
_RUN = re.compile(r"[A-Za-z0-9+/_=-]{32,}")
_URL = re.compile(r"://[^\s<>\"'`]+|www\.[^\s<>\"'`]+")
_SCHEME_CHARS = frozenset(string.ascii_letters + string.digits + "+.-")
_NOT_RANDOM = re.compile(
    r"(?:0x)?[0-9a-fA-F]+|[0-9a-fA-F-]+|[0-9/_=-]+"  # hex digests, UUIDs, numbers
    r"|sha(?:256|384|512)-.*|AAAA.*"  # Subresource Integrity, SSH public keys
    r"|Qm[1-9A-HJ-NP-Za-km-z]{44}|baf[a-z2-7]{50,}"  # IPFS
    r"|bc1[a-z0-9]{25,90}|[13][1-9A-HJ-NP-Za-km-z]{25,34}"  # Bitcoin
)
_SEGMENT = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|[0-9]+")
_CAPITALIZED_WORD = re.compile(r"[A-Z][a-z]{2,}")
_NAME_BREAK = re.compile(r"[_/-]+")
_RUN_MIN, _RUN_MAX = 32, 512
# Calibrated on thousands of random keys per alphabet (base62, base64, lower or upper case with digits,
# base32) of 32 to 128 characters: their 1st percentile lies above both thresholds.
_ENTROPY_PER_LOG2 = 0.72  # bits per character, as a share of log2(length) (log2(64) at most)
_MIN_SWITCHES = 0.1  # share of neighbouring characters that switch between upper, lower and digit


def find_credentials(text: str) -> list[Span]:
    """Spans (start, end) of credential-shaped substrings in text, sorted, non-overlapping."""
    if not text:
        return []
    lowered = text.translate(_ASCII_LOWER)
    private, public = _pem_spans(text)
    spans = _provider_spans(text, lowered) + private + _assigned_spans(text, lowered)
    spans += _random_token_spans(text, excluded=public + private + _url_spans(text))
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


def _provider_spans(text: str, lowered: str) -> list[Span]:
    spans: list[Span] = []
    if not _MAYBE_PROVIDER.search(text):
        return spans
    for kind, pattern in _PROVIDER_RES:
        for match in pattern.finditer(lowered if kind in _ANY_CASE else text):
            start, end = match.span("secret") if "secret" in pattern.groupindex else match.span()
            if kind in _LEADS:
                start = _lead_start(text, start, *_LEADS[kind])
                if start < 0:
                    continue
            elif start > 0 and text[start - 1].isalnum() and text[start].isalnum():
                continue  # glued to a longer word, so part of that word
            value = text[start:end]
            if kind in _NEEDS_DIGIT and not any(c.isdigit() for c in value):
                continue
            if kind not in _STRUCTURES and not _mixed(value):
                continue
            if kind in _WRITTEN_PASSWORDS and _is_placeholder(value):
                continue
            if kind == "basic auth" and not _is_basic_credential(value):
                continue
            spans.append((start, end))
    return spans


def _lead_start(text: str, start: int, chars: str, fewest: int, most: int) -> int:
    """Where the lead before a key's literal begins, or -1 when it is too short."""
    lead = start
    while lead > 0 and start - lead < most and text[lead - 1] in chars:
        lead -= 1
    return lead if start - lead >= fewest else -1


def _pem_spans(text: str) -> tuple[list[Span], list[Span]]:
    """Private-key blocks (secrets) and public blocks such as certificates (not secrets)."""
    ends: dict[str, list[int]] = {}
    for end in _PEM_END.finditer(text):
        ends.setdefault(end.group(1), []).append(end.start())
    private: list[Span] = []
    public: list[Span] = []
    pos = 0
    while begin := _PEM_BEGIN.search(text, pos):
        label = begin.group(1)
        positions = ends.get(label, [])
        index = bisect.bisect_left(positions, begin.end())
        if index < len(positions) and positions[index] - begin.end() <= _PEM_MAX:
            body = text[begin.end() : positions[index]]
            stop = positions[index] + len(f"-----END {label}-----")
        else:  # cut short: the key runs as far as its base64 does
            body_match = _PEM_BODY.match(text, begin.end())
            stop = body_match.end() if body_match else begin.end()
            body = text[begin.end() : stop]
        if _PEM_KEY_LINE.search(body):
            (private if "PRIVATE" in label else public).append((begin.start(), stop))
        pos = max(stop, begin.end())
    return private, public


def _assigned_spans(text: str, lowered: str) -> list[Span]:
    windows = _merge(
        [
            (max(0, hint.start() - _WINDOW_BEFORE), hint.start() + _WINDOW_AFTER)
            for hint in _HINT.finditer(lowered)
        ]
    )
    spans: list[Span] = []
    for window_start, window_end in windows:
        window = lowered[window_start:window_end]
        patterns = [_ASSIGNED]
        if "set" in window or "chang" in window or "updat" in window:
            patterns.append(_SET_TO)
        if "--" in window:
            patterns.append(_CLI_FLAG)
        for pattern in patterns:
            for match in pattern.finditer(text, window_start, window_end):
                span = _assigned_value(text, pattern, match)
                if span:
                    spans.append(span)
    return spans


def _assigned_value(text: str, pattern: re.Pattern[str], match: re.Match[str]) -> Span | None:
    """The span of the value said or assigned in match, if it is a secret."""
    groups = match.groupdict()
    strength = "pin" if groups.get("pin") else "weak" if groups.get("weak") else "strong"
    start, end = match.span("value")
    raw = match.group("value")
    quoted = len(raw) >= 2 and raw[0] in "\"'`“"
    if quoted:
        start, end, value = start + 1, end - 1, raw[1:-1]
    else:
        value = raw.rstrip(".,:;)]}'\"")  # sentence punctuation; "!" and "?" may belong to the password
        end = start + len(value)
    separator = groups.get("sep") or ""
    said = bool(_SAID.match(separator))
    code_like = pattern is not _SET_TO and not said
    if not quoted and "=" in separator and value.replace("_", "").isalpha():
        return None  # password = user_input: a variable (an .env file's plain-word password is missed)
    if not quoted and ":" in separator and _is_type_annotation(text, value, end):
        return None
    # After "set my password to" a plain word is usually a verb ("to expire"), after "--password" a noun
    # ("--password options"); after "password is" it may well be the password.
    plain_words = quoted or pattern is _ASSIGNED
    if _is_value(value, strength=strength, code_like=code_like, plain_words=plain_words):
        return start, end
    return None


def _is_value(value: str, *, strength: str, code_like: bool, plain_words: bool) -> bool:
    """Whether what was said or assigned to a secret word is a secret, not a word or a reference."""
    if len(value) < 4 or _is_placeholder(value) or _is_reference(value, code_like=code_like):
        return False
    has_digit = any(c.isdigit() for c in value)
    if strength == "weak":
        has_alpha = any(c.isalpha() for c in value)
        return (
            len(value) >= 8 and has_digit and has_alpha and not _ordinary(value) and not _made_of_names(value)
        )
    if strength == "pin":
        return has_digit and not _ordinary(value)
    if not plain_words and value.replace(" ", "").isalpha():
        return False
    return not _ordinary(value)


def _is_type_annotation(text: str, value: str, end: int) -> bool:
    """private_key: SSHPrivateKeyTypes, ...: a CamelCase type name where code expects one."""
    if not _TYPE_NAME.fullmatch(value) or not _AFTER_TYPE.match(text, end):
        return False
    last = value.rsplit(".", 1)[-1]  # non-empty: the pattern ends with a name
    return sum(map(len, _CAPITALIZED_WORD.findall(last))) >= len(last) / 2


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
    for part in _WORD_BREAK.split(value):
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
    decoded = _decoded_text(value)
    if decoded is None:
        return False
    _user, colon, password = decoded.partition(":")
    return bool(colon and password) and not _is_placeholder(password)


def _mixed(value: str) -> bool:
    """At least two of lower case, upper case and digits, as every generated key has."""
    return sum(any(test(c) for c in value) for test in (str.islower, str.isupper, str.isdigit)) >= 2


def _url_spans(text: str) -> list[Span]:
    spans: list[Span] = []
    for match in _URL.finditer(text):
        start = floor = match.start()
        if text.startswith("://", start):  # take in the scheme
            floor = max(0, start - 32)
        while start > floor and text[start - 1] in _SCHEME_CHARS:
            start -= 1
        spans.append((start, match.end()))
    return spans


def _random_token_spans(text: str, excluded: list[Span]) -> list[Span]:
    """Long random-looking tokens outside URLs and public key blocks."""
    zones = _merge(excluded)
    zone_starts = [start for start, _ in zones]
    spans: list[Span] = []
    for run in _RUN.finditer(text):
        if run.end() - run.start() > 4 * _RUN_MAX:
            continue  # data, such as an inlined image
        index = bisect.bisect_right(zone_starts, run.end() - 1) - 1
        if index >= 0 and zones[index][1] > run.start():
            continue
        if text.endswith("base64,", 0, run.start()):
            continue  # a data URI: content, not a key
        if "/" in run.group() and text.endswith(".", 0, run.start()):
            continue  # the path after a bare domain, as in docs.google.com/document/d/<id>
        offset = run.start()
        for piece in run.group().split("="):  # KEY=value; trailing padding leaves empty pieces
            if len(piece) >= _RUN_MIN and _looks_random(piece):
                spans.append((offset, offset + len(piece)))
            offset += len(piece) + 1
    return spans


def _looks_random(token: str) -> bool:
    """Long, mixed, high-entropy and not made of words."""
    length = len(token)
    if length > _RUN_MAX or _NOT_RANDOM.fullmatch(token):
        return False
    if not any(c.isdigit() for c in token) or not any(c.isalpha() for c in token):
        return False
    entropy = -sum(n / length * math.log2(n / length) for n in Counter(token).values())
    if entropy < _ENTROPY_PER_LOG2 * math.log2(min(length, 64)):
        return False
    kinds = [0 if c.isdigit() else 1 if c.isupper() else 2 for c in token if c.isalnum()]
    if sum(a != b for a, b in itertools.pairwise(kinds)) / max(1, len(kinds) - 1) < _MIN_SWITCHES:
        return False
    if _made_of_names(token):
        return False
    decoded = _decoded_text(token)
    if decoded is not None:
        return looks_like_credential(decoded)  # base64 of words or JSON, unless they hide a secret
    letters = [c for c in token if c.isalpha()]
    vowels = sum(c in "aeiouAEIOU" for c in letters) / len(letters)
    segments = _SEGMENT.findall(token)
    mean_segment = sum(map(len, segments)) / len(segments)
    capitalized = sum(map(len, _CAPITALIZED_WORD.findall(token))) / length  # CamelCase identifiers
    return not ((vowels >= 0.3 and mean_segment >= 3.0) or (vowels >= 0.25 and capitalized >= 0.6))


def _made_of_names(token: str) -> bool:
    """TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA256, deps/openssl/crypto/x509: parts that each keep one case.

    A random key's separators cut it into parts that mix upper and lower case; a constant, a path or
    an advisory id is made of words, acronyms, numbers and hashes, each in one case.
    """
    parts = [part for part in _NAME_BREAK.split(token) if part]
    if len(parts) < 3:
        return False
    mixed = sum(len(part) for part in parts if not _one_case(part))
    return mixed <= 0.25 * len(token)


def _one_case(part: str) -> bool:
    """SHA256, x509, 2024, Policy, SecurityPolicy: a word, acronym or number rather than random text."""
    if part.isupper() or part.islower() or part.isdigit() or part.istitle():
        return True
    return sum(map(len, _CAPITALIZED_WORD.findall(part))) >= 0.6 * len(part)


def _decoded_text(token: str) -> str | None:
    """The text that token is base64 of, if it decodes to printable text (a JWT header, a sentence)."""
    if len(token.rstrip("=")) % 4 == 1:
        return None
    padded = token.rstrip("=") + "=" * (-len(token.rstrip("=")) % 4)
    altchars = b"-_" if "-" in token or "_" in token else None
    try:
        decoded = base64.b64decode(padded, altchars=altchars, validate=True).decode("utf-8")
    except (binascii.Error, UnicodeDecodeError, ValueError):
        return None
    return decoded if decoded.isprintable() else None


def _merge(spans: list[Span]) -> list[Span]:
    merged: list[Span] = []
    for start, end in sorted(spans):
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], end))
        elif end > start:
            merged.append((start, end))
    return merged
