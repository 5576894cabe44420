"""How text becomes words: the one definition of "shares a word"."""

from __future__ import annotations

import pytest

from personakit.core.words import _IRREGULAR, SAME_WORDS, STOP_WORDS, stem, words


def same(*texts: str) -> bool:
    """Do all texts count as the same words?"""
    return all(words(t) == words(texts[0]) for t in texts)


def test_question_words_and_owner_references_are_dropped() -> None:
    assert words("What does the owner usually drink in the morning?") == ["drink", "morn"]
    assert words("the user's dietary restrictions") == ["dietary", "restriction"]
    assert words("How does the user feel about rainy bike rides?") == words("rainy bike rides")
    assert words("Where does she usually go on holiday?") == words("go holiday")
    assert words("Works in Go")[-1] == "go"  # a programming language too: go is a word
    assert words("Do you know what the owner thinks of it, maybe?") == []


def test_words_are_distinct_in_order_of_first_appearance() -> None:
    assert words("Coffee, tea, COFFEE and teas") == [stem("coffee"), stem("tea")]


def test_inflections_meet() -> None:
    assert stem("running") == stem("runs") == stem("run") == stem("ran")
    assert stem("meetings") == stem("meeting") == stem("meet") == stem("met")
    assert stem("stopped") == stem("stop")
    assert stem("children") == stem("child")
    assert stem("makes") == stem("making") == stem("make") == stem("made")
    assert stem("built") == stem("builds") == stem("building") == stem("build")
    assert stem("flies") == stem("flying") == stem("flew") == stem("flown") == stem("fly")
    assert stem("learnt") == stem("learned") == stem("learns")
    assert stem("staffed") == stem("staff") and stem("stuffing") == stem("stuff")
    assert stem("installing") == stem("install")
    assert stem("married") == stem("marries") == stem("marry")
    assert stem("tried") == stem("tries") == stem("trying") == stem("try")
    assert stem("movies") == stem("movie") and stem("cookies") == stem("cookie")
    assert stem("families") == stem("family") and stem("applied") == stem("applies") == stem("apply")


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ("evening", "even"),  # not even + -ing
        ("news", "new"),
        ("early", "ear"),  # not ear + -ly
        ("apply", "app"),
        ("reply", "rep"),
        ("left", "leave"),  # a direction too: irregular forms that are other words stay apart
        ("rose", "rise"),
        ("spelt", "spell"),
        ("hour", "hor"),  # -our only after three letters
        ("four", "for"),
        ("prize", "prise"),  # -ize only after four letters
        ("ill", "I'll"),
    ],
)
def test_different_words_stay_apart(one: str, other: str) -> None:
    assert words(one) != words(other)


@pytest.mark.parametrize(
    "variants",
    [
        ("colour", "color", "colours", "colored"),
        ("favourite", "favorite", "favourites"),
        ("neighbourhood", "neighborhood"),
        ("centre", "center", "centres", "centered"),
        ("theatre", "theater"),
        ("organise", "organize", "organised", "organizing"),
        ("organisation", "organization"),
        ("analyse", "analyze", "analysing"),
        ("travelling", "traveling", "travelled", "travel"),
        ("cancelled", "canceled", "cancel"),
        ("modelling", "modeling", "model"),
        ("catalogue", "catalog"),
        ("programme", "program", "programmes", "programming"),
        ("grey", "gray"),
        ("licence", "license"),
    ],
)
def test_british_and_american_spellings_meet(variants: tuple[str, ...]) -> None:
    assert same(*variants)


@pytest.mark.parametrize(
    "variants",
    [
        ("kid", "kids", "child", "children"),
        ("movie", "film", "films"),
        ("cilantro", "coriander"),
        ("vacation", "holiday"),
        ("mum", "mom", "mother"),
        ("bicycle", "bike", "cycling"),
        ("ill", "sick"),
        ("television", "TV"),
    ],
)
def test_words_of_the_same_meaning_count_as_one(variants: tuple[str, ...]) -> None:
    assert same(*variants)


def test_the_same_meaning_table_is_small_and_never_chains() -> None:
    variants = [v for group in SAME_WORDS.values() for v in group]
    assert len(variants) < 60
    assert len(set(variants)) == len(variants)
    assert not set(variants) & set(SAME_WORDS)  # a canonical word is never itself a variant
    for word, group in SAME_WORDS.items():
        assert word not in STOP_WORDS and not set(group) & STOP_WORDS
        assert all(words(v) == words(word) != [] for v in group)


def test_irregular_forms_lead_to_real_words() -> None:
    for form, base in _IRREGULAR.items():
        assert form.isalpha() and base.isalpha() and form != base
        assert base not in _IRREGULAR and form not in STOP_WORDS
        assert stem(form) == stem(base)


def test_unicode_words_are_kept_case_folded_and_distinct() -> None:
    assert same("Café", "CAFÉ", "café", "cafe")
    assert same("Tomás's", "tomas", "TOMÁS")
    assert same("Straße", "strasse")
    assert words("مرحبا بالعالم") == ["مرحبا", "بالعالم"]
    assert words("東京に住んでいる") != []
    assert words("мой") != words("мои")  # accents are only ignored on Latin letters
    assert words("Søren") == ["søren"]
    assert words("🎉🎉🎉") == []


def test_digits_and_times_are_words() -> None:
    assert words("No calls before 10am, 9 or 10") == ["call", "10am", "9", "10"]


def test_names_are_ordinary_words() -> None:
    assert same("Who is Noor?", "noor's")
    assert words("Lili and Bence") == [stem("lili"), stem("bence")]
    assert words("Kralingen Kamerorkest")[1] == stem("kamerorkest")


def test_words_without_vowels_pass_unchanged() -> None:
    # bench/run.py relies on it to plant words a read must find
    assert words("zqbcdfghjk") == ["zqbcdfghjk"]


def test_stop_words_are_lowercase_single_words() -> None:
    assert all(w == w.casefold() and w.isascii() and w.isalpha() for w in STOP_WORDS)


def test_scripts_without_spaces_become_pairs_of_characters() -> None:
    assert words("喜欢喝绿茶") == ["喜欢", "欢喝", "喝绿", "绿茶"]
    assert words("緑茶を飲む") == ["緑茶", "飲"]  # a lone Hiragana letter is grammar; a lone Han is a word
    assert words("飲んだ")[0] == words("飲みます")[0] == "飲"  # a verb meets its forms through its stem
    assert words("녹차를 좋아해요") == ["녹차", "차를", "좋아", "아해"]
    assert words("コーヒー") == ["コー", "ーヒ", "ヒー"]
    assert words("Likes 寿司, sushi") == ["lik", "寿司", "sushi"]
    assert words("abc東京def") == ["abc", "東京", "def"]  # a run ends where the script changes
    assert words("ＡＢＣ　東京") == ["abc", "東京"]  # full-width Latin and spaces are folded (NFKC)
    assert words("什么？是吗？") == [] and words("ユーザーは何ですか") == []  # question padding


# Each question, and the index of the memory that shares the most words with it (and no other as many).
CJK = {
    "zh": (
        ["喜欢喝绿茶，不加糖", "每天早上跑步五公里", "住在上海浦东", "对花生过敏", "周末常去爬山",
         "女儿叫小雨，今年七岁", "不喜欢开视频会议"],
        [("他喜欢喝什么茶？", 0), ("住在哪里？", 2), ("有什么过敏吗？", 3), ("周末做什么？", 4),
         ("女儿几岁？", 5), ("喜欢视频会议吗？", 6), ("早上跑步吗", 1)],
    ),
    "ja": (
        ["緑茶をよく飲む", "東京の世田谷に住んでいる", "朝は会議を入れないでほしい", "猫を二匹飼っている",
         "ピーナッツアレルギーがある", "週末はよく山に登る", "娘は七歳で、ピアノを習っている"],
        [("どこに住んでいますか？", 1), ("会議は何時からがいいですか？", 2), ("猫を飼っていますか？", 3),
         ("アレルギーはありますか？", 4), ("週末は何をしますか？", 5), ("娘さんは何歳ですか？", 6)],
    ),
    "ko": (
        ["녹차를 좋아한다", "서울 마포구에 산다", "아침 회의는 싫어한다", "고양이 두 마리를 키운다",
         "땅콩 알레르기가 있다", "주말마다 등산을 간다", "딸은 일곱 살이고 피아노를 배운다"],
        [("어떤 차를 좋아해요?", 0), ("회의는 언제가 좋아요?", 2), ("고양이를 키워요?", 3),
         ("알레르기가 있어요?", 4), ("주말에 뭐 해요?", 5), ("딸은 몇 살이에요?", 6)],
    ),
}  # fmt: skip


@pytest.mark.parametrize("language", sorted(CJK))
def test_questions_in_chinese_japanese_and_korean_find_their_memory(language: str) -> None:
    memories, questions = CJK[language]
    known = [set(words(m)) for m in memories]
    for question, answer in questions:
        shared = [len(set(words(question)) & mine) for mine in known]
        best = max(shared)
        assert best > 0 and shared.index(best) == answer and shared.count(best) == 1, (question, shared)
