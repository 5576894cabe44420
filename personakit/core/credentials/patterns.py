"""What a credential looks like, as data: provider key shapes, what is public, and where secrets hide.

Read by `credential_tokens`, `credential_phrases` and `credential_numbers`; the engine is
`credentials`. Patterns are matched against a `textview` view (NFKC, no invisible characters, look-alike
letters folded), so they are written for plain ASCII.
"""

from __future__ import annotations

# Provider keys with a published prefix, and structured secrets. A named group `secret` marks the part
# that is the secret when the pattern holds more (a webhook's host, a connection string's user).
PROVIDERS: tuple[tuple[str, str], ...] = (
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
    ("1password secret key", r"A3-[A-Z0-9]{6}-(?:[A-Z0-9]{11}|[A-Z0-9]{6}-[A-Z0-9]{5})(?:-[A-Z0-9]{5}){3}"),
    ("cloudflare origin ca", r"v1\.0-[a-f0-9]{24}-[a-f0-9]{146}"),
    ("netlify", r"nfp_[A-Za-z0-9]{36,}"),
    ("jwt", r"eyJ(?<![A-Za-z0-9_-]eyJ)[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}"),
    ("bcrypt", r"\$2[abxy]?\$\d\d\$[./A-Za-z0-9]{53}"),
    ("argon2", r"\$argon2(?:id|i|d)\$v=\d+\$m=\d+,t=\d+,p=\d+\$[A-Za-z0-9+/]{8,}\$[A-Za-z0-9+/]{16,}"),
    ("crypt", r"\$[56]\$(?:rounds=\d+\$)?[./A-Za-z0-9]{1,16}\$[./A-Za-z0-9]{43,86}"),
    ("connection string", r"://[^\s:/@?#'\"<>]{0,128}:(?P<secret>[^\s/@'\"<>]{1,256})@(?=[\w\[])"),
    ("curl user", r"-(?:u|-user)[\s=]+['\"]?(?P<user>[^\s:'\"]{0,64})['\"]?:['\"]?(?P<secret>[^\s'\"]{1,128})"),
    ("netrc", r"machine\s+\S{1,256}\s+login\s+\S{1,256}\s+password\s+(?P<secret>\S{1,256})"),
    ("authorization", r"authorization[\"']?\s*[:=]\s*[\"']?(?:bearer|basic|token|bot)\s+"
     r"(?P<secret>[A-Za-z0-9._~+/:-]{8,}=*)"),
    ("bearer", r"bearer\s+(?P<secret>[A-Za-z0-9._~+/-]{16,}=*)"),
    ("basic auth", r"basic\s+(?P<secret>[A-Za-z0-9+/]{8,}={0,2})(?![A-Za-z0-9+/=])"),
    ("resend", r"re_[A-Za-z0-9]{8}_[A-Za-z0-9]{16,}"),
    ("fly.io", r"fo1_[A-Za-z0-9_-]{40,}"),
    ("fly.io macaroon", r"fm[12][ar]?_[A-Za-z0-9+/=_-]{60,}"),
    ("airtable", r"pat[A-Za-z0-9]{14}\.[a-f0-9]{64}"),
    ("mailchimp", r"-us\d{1,2}(?![A-Za-z0-9])"),
    ("adafruit", r"aio_[A-Za-z0-9]{28}(?![A-Za-z0-9])"),
    ("clojars", r"CLOJARS_[a-z0-9]{60}"),
    ("duffel", r"duffel_(?:test|live)_[A-Za-z0-9_-]{40,}"),
    ("shippo", r"shippo_(?:live|test)_[a-f0-9]{40}"),
    ("typeform", r"tfp_[A-Za-z0-9_.=-]{40,}"),
    ("dropbox", r"sl\.[A-Za-z0-9_-]{130,}"),
    ("frame.io", r"fio-u-[A-Za-z0-9_=-]{64}"),
    ("easypost", r"EZ[AT]K[A-Za-z0-9]{54}"),
    ("brevo", r"xkeysib-[a-f0-9]{64}-[A-Za-z0-9]{16}"),
    ("prefect", r"pnu_[A-Za-z0-9]{36}"),
    ("readme", r"rdme_[a-z0-9]{70}"),
    ("flutterwave", r"FLWSECK(?:_TEST)?-[a-h0-9]{32}-X"),
    ("flutterwave encryption key", r"FLWSECK_TEST-?[a-h0-9]{12}(?![A-Za-z0-9])"),
    ("hashicorp vault service", r"s\.[A-Za-z0-9]{24}(?![A-Za-z0-9_.-])"),
    ("42 intra", r"s-s4t2(?:ud|af)-[a-f0-9]{64}"),
    ("adobe client secret", r"p8e-[A-Za-z0-9]{32}(?![A-Za-z0-9])"),
    ("gitlab runner", r"GR1348941[A-Za-z0-9_-]{20,}"),
    ("gitlab agent", r"gl(?:agent|oas)-[A-Za-z0-9_-]{50,}"),
    ("jfrog", r"AKCp[A-Za-z0-9]{69}"),
    ("octopus deploy", r"API-[A-Z0-9]{26,}(?![A-Za-z0-9])"),
    ("sonarqube", r"sq[pau]_[a-f0-9]{40}"),
    ("nuget", r"oy2[a-z0-9]{43}(?![a-z0-9])"),
    ("circleci", r"CCIPAT_[A-Za-z0-9]{22}_[a-f0-9]{40}"),
    ("buildkite", r"bkua_[a-z0-9]{40}"),
    ("render", r"rnd_[A-Za-z0-9]{32,}"),
    ("plaid", r"access-(?:sandbox|development|production)-[a-f0-9]{8}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{12}"),
    ("azure client secret", r"Q~[A-Za-z0-9_~.-]{31,34}(?![A-Za-z0-9_~.-])"),
    ("firebase messaging", r"AAAA[A-Za-z0-9_-]{7}:APA91b[A-Za-z0-9_-]{100,}"),
    ("minisign secret key", r"RWRTY0Iy[A-Za-z0-9+/]{100,}={0,2}"),
    ("extended private key", r"prv[1-9A-HJ-NP-Za-km-z]{100,112}"),
    ("putty private key", r"Private-Lines: \d{1,3}\s+(?P<secret>[A-Za-z0-9+/=]{40,}(?:\s+[A-Za-z0-9+/=]{4,}){0,40})"),
    ("openai admin", r"sk-admin-[A-Za-z0-9_-]{20,}"),
    ("langfuse", r"sk-lf-[a-f0-9-]{36}"),
    ("posthog personal", r"phx_[A-Za-z0-9]{40,}"),
    ("sentry auth", r"sntrys_eyJ[A-Za-z0-9+/=_-]{40,}"),
    ("pscale", r"pscale_[a-z]+_[A-Za-z0-9_]{32,}"),
    ("django hash", r"pbkdf2_sha(?:1|256)\$\d{3,7}\$[A-Za-z0-9+/=]{4,}\$[A-Za-z0-9+/=]{20,}"),
    ("apr1", r"\$apr1\$[./A-Za-z0-9]{1,8}\$[./A-Za-z0-9]{22}"),
    ("md5crypt", r"\$1\$[./A-Za-z0-9]{1,8}\$[./A-Za-z0-9]{22}"),
    ("yescrypt", r"\$y\$[./A-Za-z0-9]{1,30}\$[./A-Za-z0-9]{1,86}\$[./A-Za-z0-9]{43}"),
    ("ldap ssha", r"\{S?SHA(?:256|512)?\}[A-Za-z0-9+/]{20,}={0,2}"),
)  # fmt: skip

# Prefixes generic enough to occur in prose ("sk-learn", "secret_sauce") need a digit as well.
NEEDS_DIGIT = frozenset(
    {"openai", "notion", "mailgun", "bearer", "authorization", "octopus deploy", "hashicorp vault service"}
)  # fmt: skip
# Not CamelCase words after the prefix: hf_requiredCharacteristicTypes is a method name.
NOT_CAMEL = frozenset({"hugging face"})
# Every class (lower, upper, digit): "s." and "p8e-" are too short a prefix for less.
ALL_CLASSES = frozenset({"hashicorp vault service"})
# Matches that are a structure rather than a key body: no mixed-classes check.
STRUCTURES = frozenset(
    {"connection string", "curl user", "netrc", "bcrypt", "argon2", "crypt", "basic auth", "django hash",
     "apr1", "md5crypt", "yescrypt", "ldap ssha", "putty private key", "plaid", "flutterwave", "mailchimp"}
)  # fmt: skip
# Passwords written inside a structure, where documentation uses placeholders ("user:password@host").
WRITTEN_PASSWORDS = frozenset({"connection string", "curl user", "netrc"})
# Written in any case ("Authorization: bearer"), so matched against the text lower-cased (same length).
ANY_CASE = frozenset({"authorization", "bearer", "basic auth", "netrc"})
# Parts of a key that come before its literal: (characters, fewest, most). Scanning back in Python keeps
# the regex literal-first.
LEADS = {
    "telegram bot": ("0123456789", 6, 12),
    "terraform cloud": ("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789", 14, 14),
    "mailchimp": ("0123456789abcdef", 32, 32),
    "azure client secret": ("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_~.", 4, 4),
    "extended private key": ("xtyzuv", 1, 1),
}
# Keys their provider documents as safe to publish (in a web page or an app): never refused.
PUBLISHABLE = (
    "pk_live_",
    "pk_test_",
    "sb_publishable_",
    "pk.",  # Mapbox: public tokens start pk., secret ones sk.
    "phc_",
    "pk-lf-",
    "rzp_live_",
    "rzp_test_",
)

# Query-string keys whose value is a secret: any value not a placeholder (password=hunter2) ...
QUERY_PASSWORDS = frozenset(
    [
        "password",
        "passwd",
        "pwd",
        "pass",
        "secret",
        "client_secret",
        "clientsecret",
        "private_token",
        "privatetoken",
        "api_key",
        "apikey",
        "api-key",
        "apisecret",
        "api_secret",
        "access_key",
        "accesskey",
        "secret_key",
        "secretkey",
        "app_secret",
        "consumer_secret",
        "auth_key",
        "authkey",
        "private_key",
    ]
)
# ... and keys whose value is a secret when it looks random: a token, a signature, a session.
QUERY_TOKENS = frozenset(
    [
        "token",
        "access_token",
        "accesstoken",
        "auth",
        "auth_token",
        "authtoken",
        "sig",
        "signature",
        "x-amz-signature",
        "x-goog-signature",
        "x-amz-security-token",
        "session",
        "sessionid",
        "session_id",
        "sid",
        "jwt",
        "id_token",
        "refresh_token",
        "code",
        "key",
        "otp",
        "magic",
        "login_token",
        "reset_token",
        "resettoken",
        "invite_token",
        "verification_token",
        "confirm_token",
        "ticket",
        "hash_token",
        "oauth_token",
        "oauth_verifier",
        "st",
        "se",
        "sk",
        "license_key",
        "licensekey",
    ]
)
# Path words after which a random segment is a one-click login (a magic link, a password reset).
MAGIC_PATH_WORDS = [
    "magic-link",
    "magic_link",
    "magiclink",
    "magic",
    "login",
    "signin",
    "sign-in",
    "sign_in",
    "auth",
    "verify",
    "verification",
    "confirm",
    "confirmation",
    "activate",
    "activation",
    "reset",
    "reset-password",
    "password-reset",
    "passwordless",
    "invite",
    "invitation",
    "token",
    "otp",
    "unlock",
    "sso",
    "session",
    "access",
    "onetime",
    "one-time",
]

# Command-line tools and what follows them up to the password, in the same command. Glued flags
# ("mysql -pSECRET") are the only way those tools take a password on the command line ("-p db" is not).
CLI_TOOLS = {
    "mysql mysqldump mysqladmin mysqlimport mysqlsh mariadb mariadb-dump mycli": r"\s-p(?P<value>[^\s'\"]\S*|'[^'\n]+'|\"[^\"\n]+\")",
    "7z 7za 7zz rar unrar": r"\s-p(?P<value>[^\s'\"]\S*|'[^'\n]+'|\"[^\"\n]+\")",
    "sshpass": r"\s-p\s*(?P<value>\S+)",
    "zip unzip": r"\s-P\s+(?P<value>\S+)",
    "redis-cli": r"\s-a\s+(?P<value>\S+)",
    "ldapsearch ldapmodify ldapadd ldapdelete ldappasswd ldapwhoami": r"\s-w\s+(?P<value>\S+)",
    "sqlcmd bcp isql osql": r"\s-P\s+(?P<value>\S+)",
    "docker podman nerdctl helm buildah skopeo oras": r"\slogin\b[^\n]*?\s-p\s+(?P<value>\S+)",
    "ssh-keygen": r"\s-N\s+(?P<value>\S+)",
    "mongosh mongo mongodump mongorestore mongoexport mongoimport": r"\s-p\s+(?P<value>\S+)",
    "smbclient smbmap crackmapexec nxc": r"\s-U\s+[^\s%]+%(?P<value>\S+)",
    "htpasswd": r"\s-\w*b\w*\s+\S+\s+\S+\s+(?P<value>\S+)",
    "xfreerdp wlfreerdp sdl-freerdp": r"\s/p:(?P<value>\S+)",
    "rdesktop psexec paexec": r"\s-p\s+(?P<value>\S+)",
    "wpa_passphrase": r"\s+(?:\"[^\"\n]+\"|\S+)\s+(?P<value>\S+)",
    "nmcli": r"\s(?:password|wifi-sec\.psk|802-11-wireless-security\.psk)\s+(?P<value>\S+)",
    "net": r"\s+use\s+\S+\s+(?P<value>[^\s/]\S*)\s+/user:",
    "aws": r"\s+configure\s+set\s+\S*(?:secret|token|password)\S*\s+(?P<value>\S+)",
}
# Long flags that take a secret anywhere: --password x, --password=x, -storepass x.
CLI_SECRET_FLAGS = (
    r"--?(?:password|passwd|pass|pwd|db-password|db-pass|admin-password|root-password|passphrase|new-password"
    r"|token|api-?key|api-token|access-token|auth-token|secret|client-secret|secret-key|access-key|private-key"
    r"|storepass|keypass|srcstorepass|deststorepass|http-password|ftp-password|proxy-password"
    r"|registry-password|vault-password|become-password|ssh-pass|sudo-password|wifi-password|sasl-password)"
)
CLI_OPENSSL_PASS = r"-pass(?:in|out)?\s+(?:pass|env|file):"

# IBAN: its length in each country (ISO 13616 registry), checked before mod 97.
IBAN_LENGTHS = {
    "AD": 24, "AE": 23, "AL": 28, "AT": 20, "AZ": 28, "BA": 20, "BE": 16, "BG": 22, "BH": 22, "BR": 29,
    "BY": 28, "CH": 21, "CR": 22, "CY": 28, "CZ": 24, "DE": 22, "DK": 18, "DO": 28, "EE": 20, "EG": 29,
    "ES": 24, "FI": 18, "FO": 18, "FR": 27, "GB": 22, "GE": 22, "GI": 23, "GL": 18, "GR": 27, "GT": 28,
    "HR": 21, "HU": 28, "IE": 22, "IL": 23, "IQ": 23, "IS": 26, "IT": 27, "JO": 30, "KW": 30, "KZ": 20,
    "LB": 28, "LC": 32, "LI": 21, "LT": 20, "LU": 20, "LV": 21, "MC": 27, "MD": 24, "ME": 22, "MK": 19,
    "MR": 27, "MT": 31, "MU": 30, "NL": 18, "NO": 15, "PK": 24, "PL": 28, "PS": 29, "PT": 25, "QA": 29,
    "RO": 24, "RS": 22, "SA": 24, "SC": 31, "SE": 24, "SI": 19, "SK": 24, "SM": 27, "ST": 25, "SV": 28,
    "TL": 23, "TN": 24, "TR": 26, "UA": 29, "VA": 22, "VG": 24, "XK": 20, "LY": 25, "SD": 18, "BI": 27,
    "DJ": 27, "RU": 33, "SO": 23, "NI": 28, "MN": 20, "FK": 18, "OM": 23, "YE": 30, "HN": 28,
}  # fmt: skip

# Payment cards: (first digits, lowest, highest, lengths). Luhn decides among these.
CARD_RANGES = (
    (1, 4, 4, (16, 19)),  # Visa (13-digit Visa cards are no longer issued)
    (2, 51, 55, (16,)),  # Mastercard
    (4, 2221, 2720, (16,)),  # Mastercard 2-series
    (2, 34, 34, (15,)), (2, 37, 37, (15,)),  # American Express
    (4, 6011, 6011, (16, 19)), (2, 65, 65, (16, 19)), (3, 644, 649, (16, 19)),  # Discover
    (4, 3528, 3589, (16, 17, 18, 19)),  # JCB
    (3, 300, 305, (14, 16, 19)), (2, 36, 36, (14, 16, 19)), (2, 38, 39, (14, 16, 19)),  # Diners Club
    (2, 62, 62, (16, 17, 18, 19)),  # UnionPay
    (2, 50, 50, (16, 17, 18, 19)), (2, 56, 58, (16, 17, 18, 19)), (2, 67, 67, (16, 17, 18, 19)),  # Maestro
    (4, 2200, 2204, (16, 17, 18, 19)),  # Mir
)  # fmt: skip

# Labels that, before a number, say it is an identity number (the unlabelled shapes are in
# `credential_numbers`, with their check digits).
ID_LABELS = (
    r"ssn|social\s+security(?:\s+(?:number|no\.?|#))?|itin|tax\s+id|tin|ein|national\s+insurance"
    r"(?:\s+(?:number|no\.?))?|nino|ni\s+number|social\s+insurance\s+number|sin|bsn|burgerservicenummer"
    r"|steuer-?id|steueridentifikationsnummer|insee|nir|numero\s+de\s+securite\s+sociale|dni|nie|nif"
    r"|codice\s+fiscale|cpf|aadhaa?r|pan|my\s*number|マイナンバー|passport(?:\s+(?:number|no\.?|#))?"
    r"|driver'?s?\s+licen[cs]e(?:\s+(?:number|no\.?|#))?|licen[cs]e\s+number|medicare(?:\s+number)?"
    r"|personnummer|pesel|身份证(?:号码?)?|주민(?:등록)?번호|rrn|cnp|oib|egn|jmbg|amka|hetu|cpr"
)
