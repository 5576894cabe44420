"""What the credential corpus generator makes: fake values of each secret kind.

`KEY_KINDS` is (kind, maker, sentences): maker(rng) returns a fresh fake value and each sentence holds it
at `{k}`. The tuning part uses the first half of a kind's sentences; the held-out part uses
`HELD_OUT_SENTENCES` (written after tuning) where a kind has them, else the second half. Values come from
a seeded generator and were never issued. Benign near-misses are `credential_benign.py`.
"""

from __future__ import annotations

import base64
import hashlib
import json
import random
import re
from collections.abc import Callable
from pathlib import Path

Maker = Callable[[random.Random], str]
_ALPHABETS = {
    "A": "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789",
    "a": "abcdefghijklmnopqrstuvwxyz0123456789",
    "U": "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789",
    "l": "abcdefghijklmnopqrstuvwxyz",
    "h": "0123456789abcdef",
    "H": "0123456789ABCDEF",
    "b": "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-",
    "B": "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/",
    "d": "0123456789",
    "5": "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567",
    "8": "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz",
    "c": "./ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789",
    "e": "QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L",  # bech32
}
_SLOT = re.compile(r"\{(\w):(\d+)\}")


def shape(pattern: str) -> Maker:
    """A maker filling {A:32}-style slots: an alphabet letter and a length."""

    def make(rng: random.Random) -> str:
        while True:
            value = _SLOT.sub(
                lambda m: "".join(rng.choice(_ALPHABETS[m[1]]) for _ in range(int(m[2]))), pattern
            )
            body = "".join(_SLOT.split(pattern)[::3])  # the literal parts
            mixed = sum(any(t(c) for c in value) for t in (str.islower, str.isupper, str.isdigit))
            if mixed >= 2 or not any(k in pattern for k in ("{A", "{b", "{B")) or not body:
                return value

    return make


def _luhn_complete(prefix: str, length: int, rng: random.Random) -> str:
    digits = prefix + "".join(rng.choice("0123456789") for _ in range(length - len(prefix) - 1))
    total = 0
    for index, char in enumerate(reversed(digits)):
        value = int(char) * (2 if index % 2 == 0 else 1)
        total += value - 9 if value > 9 else value
    return digits + str((10 - total % 10) % 10)


def card(rng: random.Random) -> str:
    prefix, length = rng.choice(
        [("4", 16), ("51", 16), ("55", 16), ("2221", 16), ("34", 15), ("37", 15), ("6011", 16), ("35", 16)]
    )
    digits = _luhn_complete(prefix + ("28" if prefix == "35" else ""), length, rng)
    style = rng.choice(["plain", "spaces", "dashes"])
    if length == 15:
        groups = [digits[:4], digits[4:10], digits[10:]]
    else:
        groups = [digits[i : i + 4] for i in range(0, length, 4)]
    return digits if style == "plain" else (" " if style == "spaces" else "-").join(groups)


def iban(rng: random.Random) -> str:
    country, bban = rng.choice(
        [
            ("DE", "{d:18}"),
            ("GB", "{U:4}{d:14}"),
            ("FR", "{d:23}"),
            ("NL", "{U:4}{d:10}"),
            ("ES", "{d:20}"),
            ("IT", "{U:1}{d:22}"),
            ("BE", "{d:12}"),
            ("CH", "{d:17}"),
        ]
    )
    body = shape(bban)(rng).upper()
    number = int("".join(str(int(c, 36)) for c in body + country + "00"))
    compact = f"{country}{98 - number % 97:02d}{body}"
    return compact if rng.random() < 0.5 else " ".join(compact[i : i + 4] for i in range(0, len(compact), 4))


def ssn(rng: random.Random) -> str:
    area = rng.choice([a for a in range(1, 900) if a != 666])
    return f"{area:03d}-{rng.randint(1, 99):02d}-{rng.randint(1, 9999):04d}"


def nino(rng: random.Random) -> str:
    first, second = rng.choice("ABCEGHJKLMNOPRSTWXYZ"), rng.choice("ABCEGHJKLMNPRSTWXYZ")
    if first + second in ("BG", "GB", "NK", "KN", "TN", "NT", "ZZ"):
        first = "A"
    digits = "".join(rng.choice("0123456789") for _ in range(6))
    compact = f"{first}{second}{digits}{rng.choice('ABCD')}"
    return (
        compact
        if rng.random() < 0.5
        else f"{compact[:2]} {digits[:2]} {digits[2:4]} {digits[4:]} {compact[-1]}"
    )


def nir(rng: random.Random) -> str:
    body = f"{rng.choice('12')}{rng.randint(40, 99):02d}{rng.randint(1, 12):02d}{rng.randint(1, 95):02d}{rng.randint(1, 999):03d}{rng.randint(1, 999):03d}"
    key = 97 - int(body) % 97
    return f"{body[0]} {body[1:3]} {body[3:5]} {body[5:7]} {body[7:10]} {body[10:13]} {key:02d}"


def cpf(rng: random.Random) -> str:
    digits = [rng.randint(0, 9) for _ in range(9)]
    for size in (9, 10):
        total = sum(d * w for d, w in zip(digits, range(size + 1, 1, -1), strict=False))
        digits.append(total * 10 % 11 % 10)
    s = "".join(map(str, digits))
    return f"{s[:3]}.{s[3:6]}.{s[6:9]}-{s[9:]}"


def china_id(rng: random.Random) -> str:
    body = f"{rng.randint(110000, 659000)}{rng.randint(1950, 2005)}{rng.randint(1, 12):02d}{rng.randint(1, 28):02d}{rng.randint(0, 999):03d}"
    weights = (7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2)
    return body + "10X98765432"[sum(int(d) * w for d, w in zip(body, weights, strict=True)) % 11]


def korea_rrn(rng: random.Random) -> str:
    body = f"{rng.randint(50, 99):02d}{rng.randint(1, 12):02d}{rng.randint(1, 28):02d}{rng.choice('1234')}{rng.randint(0, 99999):05d}"
    total = sum(int(d) * w for d, w in zip(body, (2, 3, 4, 5, 6, 7, 8, 9, 2, 3, 4, 5), strict=True))
    return f"{body[:6]}-{body[6:]}{(11 - total % 11) % 10}"


def bitlocker(rng: random.Random) -> str:
    return "-".join(f"{rng.randint(0, 65535) * 11:06d}" for _ in range(8))


def dni(rng: random.Random) -> str:
    number = rng.randint(10_000_000, 99_999_999)
    return f"{number}{'TRWAGMYFPDXBNJZSQVHLCKE'[number % 23]}"


_WORDLIST = (
    (Path(__file__).parents[1] / "personakit/core/credentials/data/bip39-english.txt").read_text().split()
)


def seed_phrase(rng: random.Random) -> str:
    words = rng.choice((12, 12, 15, 18, 24))
    entropy = bytes(rng.randrange(256) for _ in range(words * 4 // 3))
    bits = "".join(f"{b:08b}" for b in entropy) + f"{hashlib.sha256(entropy).digest()[0]:08b}"[: words // 3]
    return " ".join(_WORDLIST[int(bits[i : i + 11], 2)] for i in range(0, len(bits), 11))


def wif(rng: random.Random) -> str:
    payload = (
        b"\x80" + bytes(rng.randrange(256) for _ in range(32)) + (b"\x01" if rng.random() < 0.5 else b"")
    )
    raw = payload + hashlib.sha256(hashlib.sha256(payload).digest()).digest()[:4]
    number, out = int.from_bytes(raw, "big"), ""
    while number:
        number, rest = divmod(number, 58)
        out = _ALPHABETS["8"][rest] + out
    return out


def _b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def jwt(rng: random.Random) -> str:
    header = _b64url(json.dumps({"alg": "HS256", "typ": "JWT"}).encode())
    claims = {
        "sub": str(rng.randint(1000, 99999)),
        "name": "Sam Example",
        "iat": rng.randint(1_600_000_000, 1_800_000_000),
    }
    return f"{header}.{_b64url(json.dumps(claims).encode())}.{shape('{b:43}')(rng)}"


def _der_key(rng: random.Random) -> bytes:
    head = rng.choice(
        [
            bytes.fromhex("308204bd020100300d06092a864886f70d0101010500048204a7308204a30201000282010100"),
            bytes.fromhex("308204a40201000282010100"),
            bytes.fromhex("30770201010420"),
            bytes.fromhex("302e020100300506032b657004220420"),
        ]
    )
    return head + bytes(rng.randrange(256) for _ in range(rng.choice((32, 96, 180))))


def pem_key(rng: random.Random) -> str:
    body = base64.b64encode(_der_key(rng)).decode()
    lines = "\n".join(body[i : i + 64] for i in range(0, len(body), 64))
    label = rng.choice(["PRIVATE KEY", "RSA PRIVATE KEY", "EC PRIVATE KEY"])
    return f"-----BEGIN {label}-----\n{lines}\n-----END {label}-----"


def key_body(rng: random.Random) -> str:
    if rng.random() < 0.3:
        return base64.b64encode(b"openssh-key-v1\x00" + bytes(rng.randrange(256) for _ in range(90))).decode()
    return base64.b64encode(_der_key(rng)).decode()


def long_key_body(rng: random.Random) -> str:
    raw = bytes.fromhex("30820944020100300d06092a864886f70d01010105000482092e3082092a0201000282020100")
    return base64.b64encode(raw + bytes(rng.randrange(256) for _ in range(700))).decode()


def password(rng: random.Random) -> str:
    word = rng.choice(
        ["Sonne", "Gato", "river", "Maple", "kiwi", "Otter", "lumen", "Sakura", "Piano", "cobalt"]
    )
    return (
        word
        + rng.choice(["", "_", "-", "."])
        + str(rng.randint(10, 9999))
        + rng.choice(["!", "#", "", "?", "$"])
    )


def pick(*values: str) -> Maker:
    return lambda rng: rng.choice(values)


def join(*parts: Maker | str) -> Maker:
    return lambda rng: "".join(p if isinstance(p, str) else p(rng) for p in parts)


def digits(n: int) -> Maker:
    return lambda rng: "".join(rng.choice("0123456789") for _ in range(n))


def grouped(alphabet: str, size: int, groups: int, sep: str = " ") -> Maker:
    return lambda rng: sep.join(
        "".join(rng.choice(_ALPHABETS[alphabet]) for _ in range(size)) for _ in range(groups)
    )


# fmt: off
KEY = [
    "here it is {k} thanks",
    "use {k} for the bot",
    "I rotated it to {k} yesterday",
    "paste this into the config: {k}",
    "{k}",
    "it starts with {k} and never expires",
    "the deploy job reads {k} from its settings",
    "copy {k} into the vault later",
]
_PROVIDER_SHAPES = {
    "anthropic": "sk-ant-api03-{b:93}AA",
    "openai project": "sk-proj-{b:48}T3BlbkFJ{b:48}",
    "openai": "sk-{A:48}",
    "stripe": "sk_live_{A:99}",
    "stripe restricted": "rk_test_{A:24}",
    "stripe webhook": "whsec_{A:32}",
    "aws access key id": "AKIA{U:16}",
    "github": "ghp_{A:36}",
    "github oauth": "gho_{A:36}",
    "github fine-grained": "github_pat_{A:22}_{A:59}",
    "gitlab": "glpat-{b:20}",
    "slack": "xoxb-{d:12}-{d:13}-{A:24}",
    "slack app": "xapp-1-{U:11}-{d:13}-{h:64}",
    "google api key": "AIza{b:35}",
    "google oauth secret": "GOCSPX-{b:28}",
    "google oauth token": "ya29.{b:120}",
    "npm": "npm_{A:36}",
    "sendgrid": "SG.{b:22}.{b:43}",
    "twilio api key": "SK{h:32}",
    "hugging face": "hf_{A:34}",
    "digitalocean": "dop_v1_{h:64}",
    "shopify": "shpat_{h:32}",
    "mailgun": "key-{h:32}",
    "telegram bot": "{d:10}:AA{b:33}",
    "heroku": "HRKU-{b:36}",
    "pypi": "pypi-AgEIcHlwaS5vcmc{b:60}",
    "docker hub": "dckr_pat_{b:27}",
    "linear": "lin_api_{A:40}",
    "notion": "ntn_{A:46}",
    "atlassian": "ATATT3xFfGF0{b:180}",
    "facebook": "EAA{A:120}",
    "square": "sq0atp-{b:22}",
    "new relic": "NRAK-{U:27}",
    "postman": "PMAK-{h:24}-{h:34}",
    "age": "AGE-SECRET-KEY-1{e:58}",
    "hashicorp vault": "hvs.{b:90}",
    "doppler": "dp.st.{A:40}",
    "pulumi": "pul-{h:40}",
    "grafana service account": "glsa_{A:32}_{h:8}",
    "sentry": "sntrys_{A:60}",
    "figma": "figd_{b:40}",
    "supabase": "sbp_{h:40}",
    "replicate": "r8_{A:37}",
    "groq": "gsk_{A:52}",
    "xai": "xai-{A:80}",
    "perplexity": "pplx-{A:48}",
    "langsmith": "lsv2_pt_{h:32}_{h:10}",
    "databricks": "dapi{h:32}",
    "contentful": "CFPAT-{b:43}",
    "tailscale": "tskey-auth-{A:12}-{A:30}",
    "mapbox secret": "sk.eyJ{b:60}.{b:22}",
    "planetscale": "pscale_tkn_{b:43}",
    "pinecone": "pcsk_{A:6}_{A:60}",
    "rubygems": "rubygems_{h:48}",
    "dynatrace": "dt0c01.{U:24}.{U:64}",
    "alibaba": "LTAI{A:20}",
    "1password secret key": "A3-{U:6}-{U:6}-{U:5}-{U:5}-{U:5}-{U:5}",
    "1password service account": "ops_eyJ{b:120}",
    "netlify": "nfp_{A:40}",
    "resend": "re_{A:8}_{A:24}",
    "airtable": "pat{A:14}.{h:64}",
    "mailchimp": "{h:32}-us{d:2}",
    "adafruit": "aio_{A:28}",
    "duffel": "duffel_live_{b:43}",
    "typeform": "tfp_{A:44}_{A:14}",
    "easypost": "EZAK{A:54}",
    "brevo": "xkeysib-{h:64}-{A:16}",
    "prefect": "pnu_{A:36}",
    "jfrog": "AKCp{A:69}",
    "sonarqube": "sqp_{h:40}",
    "circleci": "CCIPAT_{A:22}_{h:40}",
    "buildkite": "bkua_{a:40}",
    "render": "rnd_{A:32}",
    "azure client secret": "{A:3}8Q~{b:34}",
    "extended private key": "xprv9s21ZrQH143K{8:95}",
    "bcrypt hash": "$2b$12${c:53}",
    "sha512crypt hash": "$6$rounds=5000${c:16}${c:86}",
    "django hash": "pbkdf2_sha256$600000${A:22}${B:43}=",
}
_STRUCTURES: list[tuple[str, Maker, list[str]]] = [
    ("jwt", jwt, KEY),
    ("pem private key", pem_key, ["here is the key\n{k}\nkeep it safe", "{k}"]),
    ("private key body, no header", key_body, ["the body was {k} and nothing else", "key material: {k}"]),
    ("long private key body", long_key_body, ["pasted {k} by mistake", "backup copy {k}"]),
    ("connection string", join("postgres://app:", password, "@db.example.com:5432/prod"), ["DATABASE_URL={k}", "connect with {k} please", "psql {k}", "the app uses {k}"]),
    ("slack webhook", shape("https://hooks.slack.com/services/T{U:8}/B{U:10}/{A:24}"), ["post alerts to {k}", "webhook: {k}"]),
    ("discord webhook", shape("https://discord.com/api/webhooks/{d:18}/{b:68}"), ["send to {k}", "{k} is the channel hook"]),
    ("authorization header", join("Authorization: Bearer ", shape("{b:40}")), ["curl -H '{k}' https://api.example.com", "add the header {k} to every call"]),
    ("basic auth header", lambda r: "Authorization: Basic " + base64.b64encode(f"sam:{password(r)}".encode()).decode(), ["send {k}", "the proxy wants {k}"]),
    ("url query token", join("https://api.example.com/v1/export?format=csv&token=", shape("{A:32}")), ["download from {k}", "the export link is {k}"]),
    ("url query password", join("https://files.example.com/get?user=sam&password=", password), ["open {k}", "bookmark: {k}"]),
    ("url signature", join("https://bucket.example.com/report.pdf?X-Amz-Expires=3600&X-Amz-Signature=", shape("{h:64}")), ["shared {k}", "the signed link {k}"]),
    ("magic link", join("https://app.example.com/magic-link/", shape("{b:43}")), ["log in with {k}", "click {k} to sign in"]),
    ("password reset link", join("https://id.example.com/reset-password/", shape("{A:40}")), ["reset here: {k}", "the reset mail said {k}"]),
    ("otpauth url", join("otpauth://totp/Acme:sam?secret=", shape("{5:32}"), "&issuer=Acme"), ["the QR code was {k}", "authenticator link {k}"]),
    ("mysql cli password", join("mysql -u root -p", password, " shop"), ["run {k}", "I always type {k}"]),
    ("sshpass", join("sshpass -p '", password, "' ssh deploy@10.0.0.5"), ["{k}", "the cron job does {k}"]),
    ("pgpassword", join("PGPASSWORD=", password, " psql -h db -U app"), ["{k}", "backups run {k}"]),
    ("cli long flag", join("--password ", password), ["docker login registry.example.com --username sam {k}", "restic backup {k} /home"]),
    ("wifi join string", join("WIFI:T:WPA;S:HomeNet;P:", password, ";;"), ["the QR code says {k}", "{k}"]),
    ("wifi password phrase", password, ["the wifi password is {k}", "Wi-Fi: HomeNet, password: {k}", "our WLAN key is {k}", "guest wifi pw {k}"]),
    ("framework secret key", join("SECRET_KEY = 'django-insecure-", shape("{b:50}"), "'"), ["settings.py has {k}", "{k}"]),
    ("laravel app key", join("APP_KEY=base64:", shape("{B:43}"), "="), [".env: {k}", "{k}"]),
    ("rails secret key base", join("secret_key_base: ", shape("{h:128}")), ["credentials.yml: {k}", "{k}"]),
    ("short form password", password, ["pw: {k}", "pwd={k}", "pass: {k}", "login sam / pw {k}"]),
    ("password phrase", password, ["my password is {k}", "the router password is {k}", "password: {k}", "set my password to {k}"]),
    ("password de", password, ["Mein Passwort ist {k}", "Das WLAN-Passwort lautet {k}", "Kennwort: {k}", "das Passwort für den Router ist {k}"]),
    ("password fr", password, ["Mon mot de passe est {k}", "mdp : {k}", "le mot de passe du wifi est {k}", "code wifi : {k}"]),
    ("password es", password, ["Mi contraseña es {k}", "la clave del wifi es {k}", "contraseña: {k}", "La contraseña del router es {k}"]),
    ("password it", password, ["La mia password è {k}", "password del wifi: {k}", "la parola d'ordine è {k}", "la password è {k}"]),
    ("password pt", password, ["Minha senha é {k}", "senha: {k}", "a senha do wifi é {k}", "a palavra-passe é {k}"]),
    ("password nl", password, ["Mijn wachtwoord is {k}", "wachtwoord: {k}", "het wifi-wachtwoord is {k}", "Het wachtwoord is {k}"]),
    ("password ru", password, ["Мой пароль — {k}", "пароль: {k}", "пароль от wifi {k}", "Пароль: {k}"]),
    ("password ja", password, ["パスワードは{k}です", "パスワード：{k}", "Wi-Fiのパスワードは{k}", "パスワードは {k} です"]),
    ("password zh", password, ["我的密码是{k}", "密码：{k}", "wifi密码是{k}", "密码是 {k}"]),
    ("password ko", password, ["비밀번호는 {k}입니다", "비밀번호: {k}", "와이파이 비번은 {k}", "비밀번호는 {k} 입니다"]),
    ("pin", digits(4), ["my PIN is {k}", "the card PIN: {k}", "PIN {k} for the SIM", "changed my PIN to {k}"]),
    ("pin de", digits(4), ["Meine PIN ist {k}", "Geheimzahl: {k}", "die PIN lautet {k}", "PIN-Code: {k}"]),
    ("pin fr es", digits(4), ["mon code PIN est {k}", "le digicode est {k}", "mi PIN es {k}", "el código de acceso es {k}"]),
    ("door code", digits(6), ["the door code is {k}", "gate code: {k}", "alarm code {k}", "the lockbox code is {k}"]),
    ("lock combination", join(digits(2), "-", digits(2), "-", digits(2)), ["the locker combination is {k}", "combo: {k}", "bike lock combination {k}", "the safe combination is {k}"]),
    ("verification code", digits(6), ["your verification code is {k}", "OTP: {k}", "2FA code {k}", "the one-time code is {k}"]),
    ("backup codes", lambda r: ", ".join(grouped("d", 4, 2)(r) for _ in range(4)), ["backup codes: {k}", "my recovery codes are {k}", "scratch codes: {k}", "backup codes {k}"]),
    ("totp secret", grouped("5", 4, 8), ["2FA setup key: {k}", "authenticator key: {k}", "TOTP secret: {k}", "the MFA secret is {k}"]),
    ("recovery key", grouped("U", 4, 7, "-"), ["my Apple recovery key is {k}", "recovery key: {k}", "FileVault recovery key {k}", "the recovery key is {k}"]),
    ("bitlocker recovery key", bitlocker, ["{k}", "BitLocker: {k}"]),
    ("password manager secret key", shape("A3-{U:6}-{U:6}-{U:5}-{U:5}-{U:5}-{U:5}"), ["my 1Password secret key is {k}", "Emergency Kit: {k}"]),
    ("bitwarden recovery code", shape("{U:4}-{U:4}-{U:4}-{U:4}-{U:4}-{U:4}-{U:4}-{U:4}"), ["Bitwarden recovery code: {k}", "my two-step recovery code is {k}"]),
    ("labelled hex 32", shape("{h:32}"), ["api key: {k}", "the secret is {k}", "DATADOG_API_KEY={k}", "token = {k}"]),
    ("labelled hex 40", shape("{h:40}"), ["access token: {k}", "the key is {k}", "secret: {k}", "API token {k}"]),
    ("labelled hex 64", shape("{h:64}"), ["encryption key: {k}", "HMAC secret = {k}", "private key: 0x{k}", "signing key: {k}"]),
    ("payment card", card, ["my card number is {k}", "charge {k} please", "{k} exp 09/28", "Visa {k}"]),
    ("iban", iban, ["IBAN: {k}", "send it to {k}", "my account {k}", "transfer to {k} by Friday"]),
    ("us ssn", ssn, ["SSN {k}", "my social is {k}", "{k} is on the form", "social security number: {k}"]),
    ("ssn undashed", digits(9), ["SSN: {k}", "my social security number is {k}"]),
    ("uk nino", nino, ["NI number {k}", "{k}", "national insurance: {k}"]),
    ("france nir", nir, ["numéro de sécurité sociale : {k}", "{k}"]),
    ("italy codice fiscale", shape("RSSMRA{d:2}T{d:2}A{d:3}S"), ["codice fiscale {k}", "{k}"]),
    ("brazil cpf", cpf, ["CPF {k}", "meu CPF é {k}"]),
    ("china resident id", china_id, ["身份证号 {k}", "id {k}"]),
    ("korea rrn", korea_rrn, ["주민등록번호 {k}", "{k}"]),
    ("spain dni", dni, ["DNI {k}", "mi DNI es {k}"]),
    ("passport number", shape("X{d:8}"), ["passport number: {k}", "my passport no. is {k}"]),
    ("seed phrase", seed_phrase, ["{k}", "wallet words: {k}", "seed phrase: {k}", "backup: {k}"]),
    ("bitcoin private key", wif, ["{k}", "the wallet key {k}"]),
    ("xml password", join("<password>", password, "</password>"), ["config.xml has {k}", "{k}"]),
    ("env password", join("MYSQL_PWD=", password), ["export {k}", "{k}"]),
    ("random base64 key", shape("{B:40}"), KEY),
]
KEY_KINDS: list[tuple[str, Maker, list[str]]] = [
    (kind, shape(pattern), KEY) for kind, pattern in _PROVIDER_SHAPES.items()
] + _STRUCTURES
# fmt: on
