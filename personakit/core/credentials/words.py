"""Words around secrets, as data: what names a secret in thirty languages, and what ordinary words follow.

Read by `credential_phrases`. Every table is matched against a `textview` view, so accents and look-alike
letters need no variants here: `contraseña` also finds `contrasena` and a Cyrillic `раssword`, and
`пароль` is folded the same way as the text it is looked for in. Word lists are case-insensitive.
"""

from __future__ import annotations

# English words that name a secret. Strong ones take a plain word as their value ("password is swordfish");
# pins need a digit; weak ones need letters and digits ("the secret is patience" is not one).
STRONG = (
    r"pass(?:word|wd|phrase|[ _-]phrase)|pwd|pswd|psw|p/w|pword|one[ -]time[ -]password|master[ _-]password"
    r"|api[ _.-]?(?:key|token|secret)|apikey|secret[ _-]?key[ _-]?base"
    r"|(?:secret|access|private|master|encryption|signing|license|licence|account|app|application|recovery"
    r"|network|wifi|wi-fi|wlan|wpa2?|wpa3|psk|pre[ _-]?shared|decryption|hmac|jwt)[ _-]?key"
    r"|(?:client|consumer|webhook|app|api|shared|jwt|session|cookie|totp|otp|2fa|mfa|signing)[ _-]?secret"
    r"|app[ _-]?password|wpa[ _-]?passphrase|psk|credentials|creds|login[ _-]?details"
    r"|(?:auth|access|refresh|bearer|bot|oauth|personal[ _-]access|id|session|csrf|api|github|gitlab|slack"
    r"|discord|telegram|npm|pypi)[ _-]?token"
    r"|(?:2fa|mfa|totp|otp|authenticator)[ _-]?(?:seed|key|setup[ _-]key)|setup[ _-]key"
    r"|(?:seed|recovery|mnemonic|secret|backup)[ _-]?(?:phrase|words)|mnemonic"
)
PIN = (
    r"pin(?:[ _-]?(?:code|number|no\.?))?|pass[ _-]?code|cvv2?|cvc2?|csc|card[ _-]?security[ _-]?code"
    r"|(?:door|gate|alarm|garage|lock|locker|safe|entry|security|unlock|recovery|backup|access|keypad|building"
    r"|lockbox|key[ _-]?safe|padlock|verification|one[ -]time|2fa|mfa|otp|totp|sms|login|sign[ -]?in|auth"
    r"|authentication|authenticator|confirmation|scratch|emergency|reset|activation|voicemail|alarm[ _-]panel)"
    r"[ _-]codes?"
    r"|otp|totp|2fa|mfa|(?:lock|locker|safe|padlock|bike[ _-]lock|suitcase|luggage)?[ _-]?(?:combination|combo)"
    r"|ssn|social[ _-]security(?:[ _-]number)?|itin|national[ _-]insurance(?:[ _-]number)?"
    r"|(?:bank[ _-])?account[ _-]?(?:number|no\.?|#)|acct[ _-]?(?:number|no\.?|#)?|iban"
    r"|codes?(?=\s+(?:for|to|of|on)\s)"  # "the code for the gate is 4821"
    r"|(?:door|gate|garage|safe|alarm|keypad|lockbox)(?=\s*(?::|=|\s+is\s))"  # "door: 4812#", "the safe is 19-44-03"
    r"|account(?=\s+\d{6})"  # "routing 021000021 account 000123456789": the account, not the routing
)
WEAK = r"token|secret|pass|session[ _-]?(?:id|token|key)|key|seed|pat"

# "Is" in English: what joins a secret word to its value.
SAID = r"'s|’s|\s+(?:is|was|are|were)|\s+[-–—]\s+"  # "password — hunter2" too
SAID_MORE = r"now|still|just|actually|literally|currently|set\s+to|changed\s+to|always|simply"

# What opens the windows the phrase and context checks read, found among the distinct words of the
# lower-cased view (letters only). Stems are looked for inside words; short words must be whole words
# ("pin", not "opinion"); literals hold other characters and are looked for in the text. The first word
# of each phrase in the languages below is added to the stems.
HINT_STEMS = """
    pass pword pswd code secret token session cred wifi wlan seed mnemonic combination combo social iban
    account routing insurance login phrase key auth verif confirm
    wort geheim zugang digicode contrase clave senha codi combin wacht toegang sleutel chiave chave parola
    hasl heslo salasana losen kodeord adgangs sifre sandi
    mysql mariadb redis ldap sqlcmd docker podman nerdctl buildah skopeo keygen mongo smbclient smbmap
    crackmapexec freerdp rdesktop psexec paexec nmcli configure
    passport driver licen medicare personnummer pesel aadha codice securite steuer burgerservice jmbg
"""
HINT_WORDS = """
    door gate garage safe alarm keypad lockbox
    pat pw pwd pws psw pin pins otp otps totp psk wpa cvv cvc csc tax ssn itin tin ein nino sin bsn nir dni nie nif cpf pan
    rrn cnp oib egn amka hetu cpr inn acct mfa sig sigs jwt mdp zip unzip rar unrar bcp isql osql nxc aws
    net helm oras mycli kod kode cle tfa
"""
HINT_LITERALS = ("2fa", "p/w", "wi-fi", "7z")
# Hints that say an identity number may follow, and hints that name a command-line tool.
ID_HINTS = """
    tax ssn itin tin ein nino sin bsn nir dni nie nif cpf pan rrn cnp oib egn amka hetu cpr inn social insurance
    passport driver licen medicare personnummer pesel aadha codice securite steuer burgerservice jmbg
    account acct routing
"""
TOOL_HINTS = """
    mysql mariadb mycli redis ldap sqlcmd bcp isql osql docker podman nerdctl helm buildah skopeo oras keygen
    mongo smbclient smbmap crackmapexec nxc freerdp rdesktop psexec paexec nmcli configure zip unzip rar
    unrar net aws 7z pass passphrase wpa htpasswd sshpass
"""

# Other languages. `secret` words take a value that looks like one; `pin` words need a digit. `said`
# joins word and value ("ist", "est", "是"); `link` opens a qualifier ("für das WLAN", "del wifi").
# `ordinary`: words after "password:" that are not a password. Values after `said` in these languages
# need a digit, a symbol, quotes or mixed case: "Das Passwort ist sicher" is not a password.
LANGUAGES: dict[str, dict[str, str]] = {
    "de": {
        "secret": "passwort|passwörter|kennwort|kennworte|wlan-passwort|wlan passwort|wlan-schlüssel|"
        "netzwerkschlüssel|passphrase|zugangsdaten|masterpasswort|master-passwort|app-passwort|einmalpasswort",
        "pin": "pin|pin-code|pincode|pin-nummer|geheimzahl|geheimnummer|zugangscode|türcode|torcode|"
        "alarmcode|tresorcode|zahlenkombination|kombination|sicherheitscode|bestätigungscode|einmalcode|"
        "verifizierungscode|freischaltcode|wiederherstellungscode|sozialversicherungsnummer|steuer-id",
        "said": "ist|lautet|war|heißt|heisst|ist jetzt|lautet jetzt",
        "link": "für|fürs|vom|von|zum|zur|des|der|meines|meiner|am|im|bei|unseres|unserer",
        "ordinary": "im in der die das ein eine nicht zu sehr falsch richtig sicher unsicher geheim neu alt "
        "abgelaufen geändert gespeichert vergessen leer kurz lang stark schwach gleich derselbe dasselbe "
        "dieselbe immer noch jetzt auch hier dort unten oben auf am beim nur mein meine dein sein ihr unser "
        "erforderlich notwendig nötig pflicht optional bekannt unbekannt gültig ungültig gesperrt siehe "
        "zurückgesetzt besser schlecht gut einfach leicht komplex zufällig verschlüsselt privat tresor "
        "passwortmanager zettel irgendwo weg fehlt keins keines keine kein steht liegt",
    },
    "fr": {
        "secret": "mot de passe|mots de passe|mot-de-passe|mdp|phrase secrète|phrase de passe|clé wifi|"
        "clé wpa|clé de sécurité|clé réseau|identifiants|code wifi",
        "pin": "code pin|code secret|code d'accès|code d’accès|code confidentiel|digicode|code de la porte|"
        "code porte|code de l'alarme|code alarme|combinaison|code de vérification|code de confirmation|"
        "code à usage unique|code de sécurité|cryptogramme|code de récupération|code de secours|"
        "numéro de sécurité sociale",
        "said": "est|était|c'est|c’est|est maintenant|sera",
        "link": "du|de|de la|de l'|des|pour|à|au|sur|chez|de mon|de ma",
        "ordinary": "dans le la les un une sur trop très faux correct sûr nouveau changé oublié expiré "
        "enregistré requis obligatoire vide court long fort faible même identique noté écrit caché secret "
        "privé partagé gestionnaire coffre toujours encore aussi ici là pas plus perdu inconnu voir",
    },
    "es": {
        "secret": "contraseña|contraseñas|clave del wifi|clave wifi|clave de wifi|clave de acceso|clave|"
        "palabra clave|frase de contraseña|credenciales",
        "pin": "pin|código pin|código de acceso|código de seguridad|código de verificación|"
        "código de confirmación|combinación|código secreto|código de recuperación|código de la puerta|"
        "número de seguridad social",
        "said": "es|era|será|es ahora|sigue siendo",
        "link": "de|del|de la|para|en|al|de mi",
        "ordinary": "en el la los las un una muy demasiado incorrecta correcta segura insegura nueva "
        "vieja cambiada olvidada expirada guardada obligatoria requerida vacía corta larga fuerte débil "
        "misma igual secreta privada compartida gestor siempre todavía también aquí allí no más perdida "
        "paciencia",
    },
    "it": {
        "secret": "password|parola d'ordine|parola d’ordine|parola chiave|chiave wifi|chiave di rete|passphrase|"
        "credenziali",
        "pin": "pin|codice pin|codice di accesso|codice segreto|codice di sicurezza|codice di verifica|"
        "combinazione|codice del cancello|codice della porta|codice di recupero|codice fiscale",
        "said": "è|e'|era|sarà|è ora",
        "link": "del|della|dello|di|per|dell'|al|alla|dei",
        "ordinary": "nel nella il lo la un una troppo molto sbagliata giusta sicura nuova vecchia cambiata "
        "dimenticata scaduta salvata obbligatoria vuota corta lunga forte debole stessa segreta privata "
        "sempre ancora anche qui non più persa",
    },
    "pt": {
        "secret": "senha|senhas|palavra-passe|palavra passe|chave wifi|chave do wifi|chave de acesso|"
        "credenciais",
        "pin": "pin|código pin|código de acesso|código de segurança|código de verificação|combinação|"
        "código secreto|código de recuperação|cpf",
        "said": "é|era|será|é agora",
        "link": "do|da|de|para|no|na|do meu|da minha",
        "ordinary": "no na o a um uma muito errada certa segura nova velha alterada esquecida expirada "
        "salva obrigatória vazia curta longa forte fraca mesma secreta privada sempre ainda também aqui não "
        "mais perdida",
    },
    "nl": {
        "secret": "wachtwoord|wachtwoorden|wifi-wachtwoord|paswoord|netwerksleutel|wifi-sleutel|inloggegevens",
        "pin": "pincode|pin|toegangscode|beveiligingscode|verificatiecode|combinatie|deurcode|alarmcode|"
        "herstelcode|bsn|burgerservicenummer",
        "said": "is|was|luidt|is nu",
        "link": "van|voor|bij|op|van de|van het",
        "ordinary": "in de het een te erg fout juist veilig nieuw oud gewijzigd vergeten verlopen opgeslagen "
        "verplicht leeg kort lang sterk zwak hetzelfde dezelfde geheim altijd nog ook hier daar niet meer kwijt",
    },
    "ru": {
        "secret": "пароль|пароля|паролем|пароли|кодовое слово|парольная фраза|сид-фраза|seed-фраза",
        "pin": "пин|пин-код|пинкод|код доступа|код от двери|код домофона|код подтверждения|"
        "проверочный код|одноразовый код|комбинация|код безопасности|код восстановления|снилс|инн|код",
        "said": "это|был|была|будет|теперь|такой|такая",
        "link": "от|для|к|на|у",
        "ordinary": "в на от не очень слишком неверный правильный надёжный новый старый изменён забыт истёк "
        "сохранён обязателен пустой короткий длинный тот же простой сложный секретный где здесь там есть нет",
    },
    "pl": {
        "secret": "hasło|haslo|hasła|hasla",
        "pin": "pin|kod pin|kod dostępu|kod weryfikacyjny|kombinacja|pesel",
        "said": "to|jest|brzmi",
        "link": "do|od|dla",
        "ordinary": "w na do nie bardzo za złe dobre nowe stare zmienione zapomniane",
    },
    "sv": {
        "secret": "lösenord|lösenordet",
        "pin": "pinkod|pin|kod|säkerhetskod|verifieringskod|personnummer",
        "said": "är|var",
        "link": "till|för|på",
        "ordinary": "i på till inte för fel rätt säkert nytt gammalt ändrat glömt",
    },
    "da-no": {
        "secret": "adgangskode|adgangskoden|kodeord|passord|passordet",
        "pin": "pinkode|pin|kode|sikkerhedskode|sikkerhetskode|cpr-nummer|fødselsnummer",
        "said": "er|var",
        "link": "til|for|på",
        "ordinary": "i på til ikke for feil forkert rigtig riktig sikker ny gammel ændret endret glemt",
    },
    "fi": {
        "secret": "salasana|salasanani|salasanan",
        "pin": "pin-koodi|pin|tunnusluku|henkilötunnus",
        "said": "on|oli",
        "link": "",
        "ordinary": "väärä oikea uusi vanha vaihdettu unohtunut liian",
    },
    "cs": {
        "secret": "heslo|hesla",
        "pin": "pin|kód|rodné číslo",
        "said": "je|bylo",
        "link": "k|na|od|pro",
        "ordinary": "v na k ne příliš špatné správné nové staré",
    },
    "tr": {
        "secret": "şifre|şifrem|şifresi|parola|parolası|parolam",
        "pin": "pin|pin kodu|doğrulama kodu|tc kimlik no",
        "said": "de|da|ise",
        "link": "",
        "ordinary": "yanlış doğru yeni eski değişti unuttum",
    },
    "id": {
        "secret": "kata sandi|katasandi|sandi",
        "pin": "pin|kode verifikasi|kode otp",
        "said": "adalah|ialah|yaitu",
        "link": "untuk|dari",
        "ordinary": "salah benar baru lama",
    },
    "vi": {
        "secret": "mật khẩu",
        "pin": "mã pin|mã otp|mã xác nhận|mã xác thực",
        "said": "là",
        "link": "của|cho",
        "ordinary": "sai đúng mới cũ",
    },
    "el": {
        "secret": "κωδικός|κωδικός πρόσβασης|συνθηματικό",
        "pin": "pin|κωδικός pin",
        "said": "είναι|ήταν",
        "link": "για|του|της",
        "ordinary": "λάθος σωστός νέος παλιός",
    },
    "he": {
        "secret": "סיסמה|סיסמא|הסיסמה|הסיסמא",
        "pin": "קוד|קוד סודי",
        "said": "היא|הוא",
        "link": "",
        "ordinary": "",
    },
    "ar": {
        "secret": "كلمة المرور|كلمة السر|الرقم السري",
        "pin": "رمز التحقق|الرمز السري",
        "said": "هي|هو",
        "link": "",
        "ordinary": "",
    },
    "hi": {"secret": "पासवर्ड", "pin": "पिन|ओटीपी", "said": "है|हैं", "link": "", "ordinary": ""},
    # No spaces between words: the word needs no boundary, and a value ends at the first CJK letter.
    "ja": {
        "secret": "パスワード|ワンタイムパスワード|合言葉|パスフレーズ",
        "pin": "暗証番号|パスコード|pinコード|暗証コード|認証コード|確認コード|セキュリティコード|"
        "マイナンバー|ピン",
        "said": "は|が|は、|が、",
        "link": "",
        "ordinary": "",
    },
    "zh": {
        "secret": "密码|密碼|口令|无线密码|支付密码",
        "pin": "pin码|验证码|驗證碼|校验码|动态码|门禁码|开锁密码|身份证号|身份证号码",
        "said": "是|为|為|是：|就是",
        "link": "",
        "ordinary": "",
    },
    "ko": {
        "secret": "비밀번호|비번|암호|패스워드",
        "pin": "핀번호|pin|인증번호|인증 코드|인증코드|보안코드|확인 코드|주민등록번호|주민번호",
        "said": "는|은|가|이|는요",
        "link": "",
        "ordinary": "",
    },
}
CJK_LANGUAGES = frozenset({"ja", "zh", "ko"})

# Words that follow "password is" in ordinary English sentences; any other plain word there is a value.
ORDINARY = """
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
    patience time love practice consistency butter salt timing fermentation trust kindness humour humor
    gold silver bronze platinum premium basic annual monthly weekly daily valid expiring renewed
    under beneath inside behind mat doormat pot plant shed garage porch neighbour neighbor landlord
"""
# In code: values that name a type, a keyword or nothing, never a secret.
CODE_WORDS = """
    none null nil true false str string bytes int bool float dict list any object optional required undefined
    empty secretstr n/a tbd
    raise return pass continue break if else elif for while yield await async def class import from try
    except finally with lambda not and or is in del global assert print self cls this let const var new
"""
# Names in configuration that hold a secret when they are assigned a literal (PGPASSWORD=..., APP_KEY=...):
# parts that may be glued to a prefix, and parts that must be a whole segment of the name.
SECRET_NAME_GLUED = "PASSWORD PASSWD PASSPHRASE PWD SECRET TOKEN APIKEY SSHPASS"
SECRET_NAME_SEGMENTS = """
    PASS API_KEY PRIVATE_KEY ACCESS_KEY APP_KEY MASTER_KEY ENCRYPTION_KEY SIGNING_KEY AUTH_KEY LICENSE_KEY
    HMAC_KEY JWT_KEY WEBHOOK_KEY SECRET_KEY_BASE CREDENTIALS CREDENTIAL DECRYPTION_KEY CRYPT_KEY CIPHER_KEY
"""
# Name segments that say the value is no secret: public keys, ids, paths, lengths, switches.
NOT_SECRET_NAME_SEGMENTS = """
    PUBLIC PUBLISHABLE ID IDS PATH FILE DIR URL URI NAME USER USERNAME HOST PORT TYPE LENGTH LEN TTL EXPIRY
    EXPIRES EXPIRATION PREFIX HEADER FIELD ENABLED REQUIRED MIN MAX POLICY ROTATION VERSION REGION ALGORITHM
    ALG FORMAT LOCATION ENV VAR COUNT TIMEOUT RESET HINT ROUNDS COST EMAIL SCOPE SCOPES AUDIENCE ISSUER CHARS
    MODE ARN MANAGER STORE LIMIT LIMITS SIZE FIELDS LABEL METHOD PROVIDER ENDPOINT
"""
# Words before "code" that make it no secret: a postcode, a dress code, a discount.
NOT_SECRET_CODES = """
    postal post zip area country dress source error status promo promotional discount coupon voucher qr bar
    region language currency tax product sku airport station course colour color morse machine exit return
    response http html country's referral invite invitation gift class cheat
"""
# Words before "key" that make it no secret: the key to a table, a map or a door.
NOT_SECRET_KEYS = """
    public publishable primary foreign sort partition cache object idempotency composite unique natural surrogate hash
    lookup map dictionary dict row column index registry gpg pgp ssh host house car door front back spare
    shed garage room office locker bike music piano keyboard answer success happiness secret main
    signing-key-id fingerprint press hot short shortcut escape enter shift function arrow allen skeleton
"""

# ---- names in code and configuration, and placeholders (read by `assignments` and `values`) ----------------
# A name is cut into segments at `_`, `-`, `.` and case changes (`ETSYToken` is ETSY + TOKEN); segments are
# compared upper-cased.

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
    "randomstring",
)
# "fake" in lower case: `somefakekey`, `a-fake-api-key` (our own corpus marks its keys with FAKE in capitals).
PLACEHOLDER_CASED = ("fake",)
# ... and a key also when it holds a run of the alphabet or the digits, or is mostly one character.
PLACEHOLDER_RUNS = ("abcdefghij", "123456789", "deadbeef", "cafebabe")
