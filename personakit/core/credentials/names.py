"""Names that hold a secret in code and configuration, and how a placeholder key looks, as data.

Read by `assignments` (a literal assigned to a name such as `stripeToken`, `DB_PASSWORD`,
`api_key`) and `values` (placeholders). Names are cut into segments at `_`, `-`, `.` and
case changes (`ETSYToken` is ETSY + TOKEN); segments are compared upper-cased.
"""

from __future__ import annotations

# Segments that name a password: any literal assigned to them is one, if it is not a word or a reference.
PASSWORD_SEGMENTS = (
    "PASSWORD PASSWORDS PASSWD PASSPHRASE PWD PSW PASS PASSWORT SECRETE CREDENTIAL CREDENTIALS CREDS"
)
# Segments that name a token or a secret key: the literal must look like a key (long, with digits).
TOKEN_SEGMENTS = "TOKEN TOKENS SECRET SECRETS APIKEY APIKEYS SECRETKEY PRIVATEKEY ACCESSKEY AUTHORIZATION"
# Glued at the end of a longer segment (PGPASSWORD, MYSQL_PWD, SSHPASS, CLIENTSECRET, XAPIKEY).
GLUED_ENDINGS = ("PASSWORD", "PASSWD", "PASSPHRASE", "SECRET", "TOKEN", "APIKEY", "SSHPASS")
# "KEY" is a secret after these segments (API_KEY, secretKey, cloudflare_api_key); after any other it
# must look random (ibm_key, sumoKey), and after NOT_SECRET_KEYS words (primaryKey) it is never one.
KEY_AFTER = """API SECRET PRIVATE ACCESS APP AUTH MASTER ENCRYPTION SIGNING LICENSE LICENCE HMAC JWT WEBHOOK CRYPT
    CIPHER DECRYPTION CLIENT CONSUMER ACCOUNT SERVICE CLOUD IAM STORAGE SHARED SESSION BOT DEPLOY"""
KEY_SEGMENTS = "KEY KEYS"
# Segments after the secret word that make the name something else: an id, a path, a length, a switch.
NOT_AFTER = """ID IDS PATH FILE FILES DIR URL URI URLS NAME NAMES USER USERNAME HOST PORT TYPE LENGTH LEN TTL EXPIRY
    EXPIRES EXPIRATION EXPIRE PREFIX HEADER HEADERS FIELD FIELDS ENABLED REQUIRED MIN MAX POLICY ROTATION
    VERSION REGION ALGORITHM ALG FORMAT LOCATION ENV VAR VARIABLE COUNT TIMEOUT RESET HINT ROUNDS COST EMAIL
    SCOPE SCOPES AUDIENCE ISSUER CHARS MODE ARN MANAGER STORE LIMIT LIMITS SIZE LABEL METHOD PROVIDER
    ENDPOINT HASH HASHES SALT PROMPT MESSAGE MSG TEXT PLACEHOLDER INPUT FORM FORMS RULE RULES POLICY VALIDATOR
    VALIDATION STRENGTH CHANGED CONFIRM CONFIRMATION SET UPDATED CHECK COLUMN TABLE STATUS EVENT EVENTS
    TEMPLATE TEMPLATES DIGEST FINGERPRINT PUB PUBLIC REF REFS SELECTOR PARAM PARAMS KIND CLASS
    FUNCTION FN HANDLER ERROR ERRORS TIME TIMESTAMP DATE AT LIFETIME VAULT"""
# Segments before the secret word that make it public or no secret (publicToken, public_key, csrf? no).
NOT_BEFORE = "PUBLIC PUBLISHABLE PUB NEXT PAGE PAGINATION CONTINUATION CANCELLATION SORT"

# A value is a placeholder when it holds one of these words (case-insensitive) ...
PLACEHOLDER_MARKS = (
    "xxxx",
    "example",
    "dummy",
    "sample",
    "placeholder",
    "redacted",
    "your_",
    "your-",
    "yourkey",
    "yourtoken",
    "yoursecret",
    "yourpassword",
    "_here",
    "-here",
    "here_",
    "insert",
    "replace",
    "*****",
    "#####",
    ".....",
    "…",
    "<",
    ">",
    "randomstring",
)
# "fake" in lower case: `somefakekey`, `a-fake-api-key` (our own corpus marks its keys with FAKE in capitals).
PLACEHOLDER_CASED = ("fake",)
# ... and a key also when it holds a run of the alphabet or the digits, or is mostly one character.
PLACEHOLDER_RUNS = ("abcdefghij", "123456789", "deadbeef", "cafebabe")
