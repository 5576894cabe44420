"""The word tables behind `core.relations`: data only, in plain English words.

The engine passes every word here through `core.words.words()` when it loads, so a table entry is
stemmed and folded exactly as a memory's text is ("prefers" and "preferred" meet "prefer"). Each table
says what it is for; change a table, then run `python bench/relations/report.py` to see what it did.
"""

from __future__ import annotations

# Rewritten before anything is counted (lower case, straight apostrophes): idioms whose words mislead.
PHRASES: dict[str, str] = {
    "can't stand": "hates",
    "cannot stand": "hates",
    "can not stand": "hates",
    "no longer": "not",
    "not anymore": "not",
    "gave up": "quit",
    "given up": "quit",
    "night owl": "nightowl",
    "evening person": "nightowl",
    "early riser": "morningperson",
    "early bird": "morningperson",
    "morning person": "morningperson",
    "from home": "remotely",
    "wfh": "remotely",
    "in person": "office",
    "work out": "exercise",
    "works out": "exercises",
    "working out": "exercising",
    "get up": "wake up",
    "gets up": "wakes up",
    "getting up": "waking up",
    "every day": "daily",
    "each day": "daily",
    "years old": "yearsold",
    "year old": "yearsold",
    "year-old": "yearsold",
    "years-old": "yearsold",
    "more than": "over",
    "rather than": "over",
    "instead of": "over",
}

# How the one-word forms above are shown in a reason.
SHOWN = {"morningperson": "morning person", "nightowl": "night owl", "yearsold": "years old"}

# Words that say no: an odd number of them (with the negative verbs below) makes a statement negative.
NEGATORS = "not no never none nor neither"

# Verbs of liking and disliking. They set the statement's polarity and are not content words, so
# "Likes jazz" and "Dislikes jazz" are about the same thing, jazz, with opposite signs.
POSITIVE = "like love enjoy prefer adore want fond fan keen fine appreciate favor"
NEGATIVE = "dislike hate avoid detest despise loathe skip refuse quit stop"

# Words that carry little of a memory's meaning: left out when comparing two memories.
WEAK = """
    use have own get goes do make take keep always daily everywhere every currently mostly mainly
    generally regularly definitely strongly totally absolutely product anymore
"""

# Words that mean the same for relations (on top of `core.words.SAME_WORDS`, which the index uses too):
# each key stands for the words after it.
SAME: dict[str, str] = {
    "live": "based reside resides residing settled",
    "work": "employed employ employs",
    "answer": "reply replies response responses",
    "short": "brief concise terse",
    "long": "verbose lengthy",
    "casual": "informal relaxed",
    "blunt": "direct frank candid straightforward",
    "learn": "study studies studying",
    "async": "asynchronous",
    "allergic": "allergy allergies",
    "intolerant": "intolerance",
    "main": "primary default preferred",
    "big": "large",
    "savory": "savoury",
    "text": "texting",
}

# Pairs that cannot both be true of the same thing (after SAME): "short answers" / "long answers",
# "Is an introvert" / "Is an extrovert".
OPPOSITES = """
    short:long  formal:casual  dark:light  quiet:loud  quiet:noisy  introvert:extrovert  left:right
    morningperson:nightowl  single:married  tab:space  metric:imperial  celsius:fahrenheit  spicy:mild
    big:small  fast:slow
"""

# Pairs that clash only as preferences, when both memories like or dislike: "Prefers working in the
# morning" / "Prefers working late at night" clash, "Drinks tea in the morning" / "in the afternoon" do not.
PREFERENCE_OPPOSITES = """
    early:late  morning:night  morning:evening  morning:afternoon  afternoon:night  day:night  hot:cold
    warm:cold  warm:cool  hot:cool  remote:office  aisle:window  sweet:savory  summer:winter
"""

# Words that limit when a fact holds: "Wakes up at 6am" and "Wakes up at 9am on weekends" do not clash.
QUALIFIERS = """
    weekend weekday workday monday tuesday wednesday thursday friday saturday sunday summer winter
    holiday vacation travel trip sometimes occasionally
"""

# Number words, for "Has two cats" / "Has 3 cats".
NUMBERS: dict[str, str] = {
    "zero": "0", "one": "1", "two": "2", "three": "3", "four": "4", "five": "5", "six": "6",
    "seven": "7", "eight": "8", "nine": "9", "ten": "10", "eleven": "11", "twelve": "12",
    "thirteen": "13", "fourteen": "14", "fifteen": "15", "sixteen": "16", "seventeen": "17",
    "eighteen": "18", "nineteen": "19", "twenty": "20", "thirty": "30", "forty": "40", "fifty": "50",
    "sixty": "60", "seventy": "70", "eighty": "80", "ninety": "90", "hundred": "100", "dozen": "12",
    "once": "1", "twice": "2",
}  # fmt: skip

# Words that put a statement in the past: a past fact does not clash with a present one.
PAST = "used previously formerly ago had lived worked growing childhood was were"

# Single-valued facts: (label, pattern). A pattern matches at the start of a memory (after words such as
# "The user", "Currently", "Is"); the value is what follows it, up to a comma or a word such as "with".
# Two memories with the same frame and values sharing no word likely clash. The value kind:
# "name" (written with a capital: "Lives in Lisbon", not "Lives in a flat"), "any", or "year/name".
FRAMES: tuple[tuple[str, str, str], ...] = (
    ("lives in", "name", r"(?:lives?|living|resides?|based|settled|home is) (?:in|out of)"),
    ("lives in", "name", r"(?:moved|relocated)(?: from .+?)? to"),
    ("works at", "name", r"(?:works?|working) (?:at|for)"),
    ("works at", "name", r"employed (?:at|by)"),
    ("works at", "name", r"(?:joined|started (?:a new job |working )?at)"),
    ("works as", "any", r"(?:works?|working) as(?: an?)?"),
    ("grew up in", "name", r"grew up in"),
    ("born in", "year/name", r"(?:was )?born in"),
    ("native language", "any", r"(?:native|first|mother) (?:language|tongue) is"),
    ("partner", "name", r"married to"),
    (
        "partner",
        "name",
        r"(?:wife|husband|partner|spouse|girlfriend|boyfriend)(?:'s name is| is called| is named| is)",
    ),
    (
        "name",
        "name",
        r"(?:(?:prefers|wants|likes) to be(?: called| addressed as)?|goes by|(?:first )?name is)",
    ),
    ("wakes up at", "any", r"(?:wakes?|gets?) up (?:at|around|by|about)"),
    ("goes to bed at", "any", r"goes to (?:bed|sleep) (?:at|around|by|about)"),
    ("drives", "name", r"drives an?"),
    ("time zone", "any", r"(?:in|on|uses) the (?P<v>[\w+:-]+(?: [\w+:-]+)?) time ?zone"),
    ("time zone", "any", r"time ?zone is"),
)

# Frames true for life: a past tense does not retire them ("Was born in 1988").
TIMELESS = ("grew up in", "born in", "native language")

# Where a frame's value ends.
VALUE_ENDS = """
    with and but since for as on during because while where who when in last this until near from at
    after before to most every each or so which that
"""

# "<attribute> is <value>" ("Favourite colour is green", "Blood type is O negative") is a frame when the
# attribute names one of these, or starts with a word saying it is the one (favourite, main).
ATTRIBUTES = """
    color band food editor language type size name browser shell os team book film song sport drink
    city number height weight age birthday timezone zone keyboard phone laptop car bank doctor
    pronoun pronouns job title role
"""
ONE_OF_A_KIND = "favorite favourite fave main primary default preferred"

# Ways a memory starts before its frame: the subject and softening words.
LEADS = """
    the user user user's they she he i my their his her currently now still also usually mostly generally normally
    typically is are am has have been
"""
