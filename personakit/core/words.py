"""How text becomes words: the one definition behind "shares a word".

The index's terms, the question's terms and every "which words matched" explanation come from `words()`,
so a memory matches a question exactly when their word sets intersect. Pure Python, no I/O.

The steps, applied identically to a question and to a memory's text and quotes:

1. NFKC-normalize and case-fold; a contraction's tail ('s, 'd, 'll, 're, 've, 'm, n't) is dropped.
2. Words are runs of Unicode letters and digits. A single letter is not a word; a single digit is.
3. Accents on Latin letters are ignored (Tomás = Tomas, café = cafe); other scripts are left as they are.
4. Stop words are dropped: grammar words, question words, the ways an assistant refers to the owner,
   and fillers (see `STOP_WORDS`).
5. A light English stemmer: plurals, -ing, -ed, -ly, a final e, common irregular forms (ran = run,
   children = child, built = build); British and American spellings meet (colour = color,
   travelling = traveling, centre = center, organise = organize).
6. A short table of words with the same meaning counts them as one word (`SAME_WORDS`: kid = child,
   movie = film, ...).
7. Chinese, Japanese and Korean are written without spaces between words (Korean puts them between
   phrases, with the grammar attached). A run of Han characters, of Hiragana, of Katakana or of Hangul
   becomes its overlapping pairs of characters (緑茶を飲む: 緑茶, 飲; 좋아해요: 좋아, 아해, 해요), so a
   question and a memory share a word when they share two characters in a row. A run of one character is
   a word of its own, except a lone Hiragana or Katakana letter, which is grammar (は, が, を), as a single
   Latin letter is not a word. Runs end where the script changes, so a Japanese verb or adjective meets
   its other forms through its Han stem (飲む, 飲んだ, 飲みます: 飲). Pairs and characters that are only
   grammar or question padding are dropped (`CJK_STOP_WORDS`).
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

# Letters and digits in any script; apostrophes split words, and the pieces they leave are handled below.
_WORD = re.compile(r"[^\W_]+")
_CONTRACTION = re.compile(r"(?:['’](?:s|d|ll|re|ve|m)|n['’]t)\b", re.IGNORECASE)
# Runs of one script written without spaces between words, by group: Han (with the iteration and closing
# marks and ideographic zero), Hiragana, Katakana (with the prolonged sound mark), Hangul.
_CJK_RUN = re.compile(
    "([\u3005-\u3007\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0003134f]+)"
    "|([\u3041-\u309f]+)"
    "|([\u30a0-\u30ff\u31f0-\u31ff]+)"
    "|([\u1100-\u11ff\u3130-\u318f\uac00-\ud7af]+)"
)
_KANA = (2, 3)  # the groups of _CJK_RUN whose lone letters are grammar, not words


def _listed(*groups: str) -> frozenset[str]:
    return frozenset(word for group in groups for word in group.split())


def _forms(table: str) -> dict[str, str]:
    """{form: word} from "word: form form; word: form" entries."""
    pairs = (entry.split(":") for entry in table.split(";") if entry.strip())
    return {form: word.strip() for word, forms in pairs for form in forms.split()}


STOP_WORDS = _listed(
    # grammar words
    """
    a about above after again against all also am an and any are as at be because been before being below
    between both but by can could did do does doing done down during each either else every few for from
    further had has have having he her here hers herself him himself his i if in into is it its itself
    may me might mine more most much must my myself no nor not of off on once one only or other others our
    ours ourselves out over own per quite rather same shall she should so some such than that the their
    theirs them themselves then there these they this those through thus to too under until up upon us
    very was we were will with within without would yes yet you your yours yourself yourselves
    """,
    # question words and the padding around them ("what kind of...", "how does the user feel about...")
    """
    what whatever when whenever where wherever whether which while who whoever whom whose why how many
    ever often usually normally typically generally please tell tells told know knows knew known remember
    remembers remembered recall recalls recalled think thinks feel feels let lets get gets got
    """,
    # vague nouns, and the ways an assistant refers to the owner
    """
    anything something everything nothing someone anyone everyone thing things stuff kind sort owner owners
    user users person persons human assistant
    """,
    # fillers, frequent in casual quotes
    """
    just now really even still already actually basically maybe perhaps probably
    """,
)

# Irregular forms, mapped to the word whose stem they share. Forms that are also a different common word
# are left out on purpose ("left", "rose", "fell", "ground", "lay", "bit", "wound").
_IRREGULAR = _forms(
    """
    run: ran; eat: ate eaten; write: wrote written; speak: spoke spoken; drink: drank drunk;
    take: took taken; give: gave given; see: saw seen; swim: swam swum; fly: flew flown; grow: grew grown;
    begin: began begun; sing: sang sung; ride: rode ridden; drive: drove driven; choose: chose chosen;
    break: broke broken; forget: forgot forgotten; wake: woke woken; wear: wore worn; throw: threw thrown;
    steal: stole stolen; freeze: froze frozen; hide: hid hidden; shake: shook shaken; come: came;
    become: became; make: made; meet: met; keep: kept; sleep: slept; mean: meant; buy: bought;
    bring: brought; teach: taught; catch: caught; fight: fought; build: built; send: sent; spend: spent;
    lend: lent; lose: lost; win: won; pay: paid; say: said; hear: heard; hold: held; sell: sold;
    stand: stood; understand: understood; sit: sat; lead: led; feed: fed; hang: hung; stick: stuck;
    learn: learnt; dream: dreamt; burn: burnt; spill: spilt; child: children; man: men; woman: women;
    mouse: mice; foot: feet; tooth: teeth; goose: geese; wife: wives; knife: knives; half: halves;
    shelf: shelves; wolf: wolves;
    """
)

# Words the suffix rules would turn into a different word: "evening" is not "even" + -ing, nor "early"
# "ear" + -ly, nor "apply" "app" + -ly. Their own inflections still meet them (applies, applied, applying).
_KEEP = _listed(
    """
    evening news early family apply supply reply imply comply multiply ally rally belly jelly bully holy
    silly july italy assembly butterfly anomaly monopoly
    """
)

# Words with the same meaning, counted as one word: British and American vocabulary and spelling that the
# rules in stem() do not already join, and a few everyday synonyms. Each variant counts as its canonical
# word (the key). Kept short and general on purpose: a question should find what its plain words say.
SAME_WORDS: dict[str, tuple[str, ...]] = {
    # British and American vocabulary
    "film": ("movie",),
    "holiday": ("vacation",),
    "coriander": ("cilantro",),
    "courgette": ("zucchini",),
    "aubergine": ("eggplant",),
    "biscuit": ("cookie",),
    "sweet": ("candy",),
    "football": ("soccer",),
    "rubbish": ("trash", "garbage"),
    "lorry": ("truck",),
    "nappy": ("diaper",),
    "pram": ("stroller",),
    "jumper": ("sweater",),
    "petrol": ("gasoline",),
    # British and American spelling of single words
    "grey": ("gray",),
    "licence": ("license",),
    "defence": ("defense",),
    "offence": ("offense",),
    "practice": ("practise",),
    "pyjamas": ("pajamas",),
    "jewellery": ("jewelry",),
    "aluminium": ("aluminum",),
    "mould": ("mold",),
    "moustache": ("mustache",),
    "plough": ("plow",),
    "doughnut": ("donut",),
    "sceptic": ("skeptic",),
    "ageing": ("aging",),
    "cosy": ("cozy",),
    # everyday words with the same meaning
    "child": ("kid",),
    "bike": ("bicycle", "cycle"),
    "sick": ("ill",),
    "mother": ("mum", "mom", "mommy"),
    "father": ("dad", "daddy"),
    "grandmother": ("grandma", "granny"),
    "grandfather": ("grandpa", "granddad", "grandad"),
    "phone": ("telephone", "cellphone", "smartphone"),
    "tv": ("television",),
}

# Grammar and question padding in Chinese, Japanese and Korean, as the pairs and lone characters that
# words() makes of them: question words, pronouns and the ways of saying "the user", copulas, particles
# and polite endings. Kept short: a pair that is also part of a content word stays a word.
CJK_STOP_WORDS = _listed(
    # Chinese (simplified and traditional)
    """
    什么 甚麼 什麼 是吗 是嗎 怎么 怎麼 怎样 怎樣 哪里 哪裡 哪些 哪个 哪個 为什 為什 是否 多少 用户 用戶 主人 我们 我們 你们
    你們 他们 他們 她们 她們 这个 這個 那个 那個 一个 一個 的 了 吗 嗎 呢 吧 啊 是 我 你 他 她 它 在 和 与 與 也 都
    """,
    # Japanese
    """
    何 私 僕 彼 誰 です ます でし まし ませ すか した して てい いる ある あり りま かな のは のが のを には にも
    では でも から まで など これ それ あれ どれ この その あの どの ここ そこ どこ いつ なに なん だれ どう どん
    んな につ つい いて ユー ーザ ザー
    """,
    # Korean
    """
    무엇 뭐 어떤 어떻 떻게 언제 어디 누구 왜 입니 니까 습니 니다 해요 세요 나요 인가 가요 있나 용자 그는 그녀
    녀는 저는 나는
    """,
)

_VOWELS = frozenset("aeiouy")
_VOWEL_RUN = re.compile(r"[aeiouy]+")
_OUR = re.compile(r"(?<=[a-z]{3})our")  # colour, favourite, neighbourhood; not four, hour, tour, flour
_IZE = re.compile(r"(?<=[a-z]{4})([iy])z(?=$|ation|er$)")  # organiz(e), realization, analyz(e)


def fold(token: str) -> str:
    """The token without accents when it is written in Latin letters (Tomás -> tomas); otherwise as is."""
    if token.isascii():
        return token
    bare = "".join(c for c in unicodedata.normalize("NFKD", token) if not unicodedata.combining(c))
    return bare if bare.isascii() else token


def _suffixes(word: str) -> str:
    """Plurals, -ing, -ed, -ly and a final e come off; -ies, -ied and -ie end in y (flies, tried, movie)."""
    if word.endswith(("ies", "ied")) and len(word) > 4:
        word = word[:-3] + "y"
    elif word.endswith("sses"):
        word = word[:-2]
    elif word.endswith("s") and not word.endswith(("ss", "us", "is")) and word not in _KEEP:
        word = word[:-1]
    if word in _KEEP:
        return word
    for suffix in ("ingly", "edly", "ing", "ed", "ly"):
        base = word[: -len(suffix)]
        if word.endswith(suffix) and len(base) >= 3 and _VOWELS & set(base):
            word = base
            if len(word) > 3 and word[-1] == word[-2] and word[-1] not in "flsz":
                word = word[:-1]  # running -> run, stopped -> stop
            break
    else:
        if word.endswith("ie") and len(word) > 3:
            return word[:-2] + "y"  # movie / movies, cookie / cookies
        if word.endswith("e") and len(word) > 3:
            word = word[:-1]  # make / making / makes -> mak
            if word[-1] == word[-2] and word[-1] not in "flsz":
                word = word[:-1]  # programme -> program
        return word
    if word.endswith("e") and len(word) > 3:
        word = word[:-1]
    return word


def _spelling(word: str) -> str:
    """British and American spellings of a stem meet: -our/-or, -re/-er, -ise/-ize, -ll/-l, -ogue/-og."""
    if "our" in word:
        word = _OUR.sub("or", word)
    if word.endswith(("tr", "br")) and len(word) >= 4:
        word = word[:-1] + "er"  # centre, theatre, litre, fibre -> center, theater, liter, fiber
    if "z" in word:
        word = _IZE.sub(r"\1s", word)
    if word.endswith("ll") and len(_VOWEL_RUN.findall(word)) >= 2:
        word = word[:-1]  # travelling, cancelled, modelling, fulfill -> travel, cancel, model, fulfil
    if word.endswith("ogu") and len(word) >= 6:
        word = word[:-1]  # catalogue, dialogue -> catalog, dialog
    return word


def stem(word: str) -> str:
    """A light English stemmer for one case-folded word; non-Latin words and words with digits pass as is."""
    word = _IRREGULAR.get(word, word)
    if len(word) <= 3 or not word.isascii() or not word.isalpha():
        return word
    return _spelling(_suffixes(word))


_SAME = {stem(variant): stem(word) for word, variants in SAME_WORDS.items() for variant in variants}


def _counted(token: str) -> str:
    """The word a token counts as, or "" when it does not count."""
    if len(token) == 1 and not token.isdigit():
        return ""
    token = fold(token)
    if token in STOP_WORDS or _IRREGULAR.get(token) in STOP_WORDS:
        return ""
    word = stem(token)
    return _SAME.get(word, word)


def written_without_spaces(word: str) -> bool:
    """Is word (one of words()) from a script written without spaces: a pair or a lone character?"""
    return _CJK_RUN.search(word) is not None


def _run_words(run: str, kana: bool) -> list[str]:
    """The words of a run of one script written without spaces: its pairs, or a lone character."""
    if len(run) == 1:
        return [] if kana or run in CJK_STOP_WORDS else [run]
    pairs = (run[i : i + 2] for i in range(len(run) - 1))
    return [pair for pair in pairs if pair not in CJK_STOP_WORDS]


# The words of every question pass through this cache, so its size is bounded in bytes whatever an
# assistant asks: at most CACHED_TOKENS entries for tokens of at most CACHED_LENGTH characters (about
# 2.5 MB); a longer token is worked out each time.
CACHED_TOKENS = 8192
CACHED_LENGTH = 32


def _token_words(token: str) -> tuple[str, ...]:
    return _words_of(token) if len(token) > CACHED_LENGTH else _cached_words_of(token)


def _words_of(token: str) -> tuple[str, ...]:
    """The words one token (a run of letters and digits) counts as: one, none, or a run's pairs."""
    if token.isascii() or not _CJK_RUN.search(token):
        word = _counted(token)
        return (word,) if word else ()
    found: list[str] = []
    start = 0
    for run in _CJK_RUN.finditer(token):
        if run.start() > start:
            found += _token_words(token[start : run.start()])
        found += _run_words(run.group(), run.lastindex in _KANA)
        start = run.end()
    if start < len(token):
        found += _token_words(token[start:])
    return tuple(found)


_cached_words_of = lru_cache(maxsize=CACHED_TOKENS)(_words_of)


def words(text: str) -> list[str]:
    """The distinct words of text, in order of first appearance, as the index and the rules count them."""
    text = unicodedata.normalize("NFKC", text).casefold()
    if "'" in text or "’" in text:
        text = _CONTRACTION.sub(" ", text)
    seen: dict[str, None] = {}
    for token in _WORD.findall(text):
        for word in _token_words(token):
            seen[word] = None
    return list(seen)
