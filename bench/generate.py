"""Generate benchmark vaults of N memories, and the questions and proposals the benchmark sends them.

Texts come from per-category templates whose slots are filled from vocabularies (foods, tools, places,
people, activities, times, ...). Each vocabulary is sampled with Zipf-like weights, so a few words are
in many memories and most words are in few; synthetic project code names and optional qualifiers add a
long tail of rare words. Everything is seeded: the same N gives the same vault.

A vault is written straight to disk with `personakit.core.memory.render_memory` (no service, no index),
committed once with the git CLI, repacked, and cached under `bench/out/vaults/` keyed by N and the
generator version. Benchmarks copy the cached vault (`pristine_copy`) and never touch the cache itself.

    python bench/generate.py 1000 10000 100000     # build (or reuse) the cached vaults
    python bench/generate.py 1000 --force           # rebuild one
"""

from __future__ import annotations

import argparse
import functools
import itertools
import os
import random
import shutil
import string
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import cast

from personakit.core.memory import CATEGORIES, Category, Memory, State, memory_id, render_memory, slug

GENERATOR_VERSION = 2  # bump when the output changes, so cached vaults are rebuilt (2: split git index)
BENCH_DIR = Path(__file__).resolve().parent
OUT = BENCH_DIR / "out"
VAULTS = OUT / "vaults"
GIT_IDENTITY = ["-c", "user.name=bench", "-c", "user.email=bench@example.invalid"]
STATE_WEIGHTS = {"approved": 50, "unconfirmed": 30, "restricted": 15, "rejected": 5}
HOSTS = ["claude-desktop", "cursor", "chatgpt-desktop", "zed", "vscode-copilot", "owner"]


def _words(text: str) -> list[str]:
    return [w.replace("_", " ") for w in text.split()]


FOODS = _words("""
    coffee tea pizza sushi ramen pasta salad tacos curry dumplings pho oatmeal bagels croissants yogurt
    chocolate espresso matcha kimchi falafel hummus burritos risotto paella tofu tempeh granola pancakes
    waffles lasagna gnocchi bibimbap shakshuka pierogi goulash borscht ceviche empanadas arepas poutine
    baklava tiramisu churros mochi kombucha kefir sourdough brioche focaccia gazpacho tabbouleh couscous
    tagine biryani dal naan samosas pakoras laksa satay rendang adobo lumpia congee baozi jiaozi udon
    soba tempura okonomiyaki takoyaki onigiri miso natto halloumi feta burrata pecorino gruyere raclette
    fondue rosti spaetzle schnitzel bratwurst pretzels herring gravlax smorrebrod lutefisk pavlova
    lamingtons vegemite marmite scones crumpets haggis kippers porridge muesli quinoa lentils chickpeas
    edamame seitan jackfruit avocados mangoes papaya durian lychee persimmons figs dates pomegranates
    blueberries cherries apricots peanuts almonds pistachios cashews walnuts hazelnuts sesame wasabi
    sriracha harissa chimichurri pesto aioli tahini gochujang sambal zaatar sumac saffron cardamom
""")
MEALS = _words("breakfast lunch dinner brunch snacks dessert late-night_snacks team_lunches")
DRINKS = _words("coffee tea water sparkling_water oat_milk lattes green_tea beer wine cider juice smoothies")
TOOLS = _words("""
    vim neovim emacs vscode pycharm intellij zed sublime helix nano git mercurial docker podman
    kubernetes terraform ansible make bazel cmake poetry uv pip conda pytest hypothesis tox nox ruff
    black mypy pyright eslint prettier webpack vite esbuild npm pnpm yarn bun deno node tmux zsh fish
    bash ripgrep fzf jq sqlite postgres mysql redis kafka rabbitmq grafana prometheus sentry jira linear
    notion obsidian logseq slack discord zoom figma excalidraw miro trello asana todoist github gitlab
    bitbucket jenkins circleci buildkite airflow dbt spark pandas polars numpy jupyter marimo rstudio
    excel sheets keynote powerpoint latex overleaf zotero anki raycast alfred homebrew nix guix
""")
LANGUAGES = _words("""
    python go rust typescript javascript java kotlin swift c c++ haskell ocaml elixir erlang clojure
    scala ruby php perl lua julia r zig nim crystal dart fortran cobol sql bash
""")
TASKS = _words("""
    scripting data_analysis web_backends frontend_work infrastructure code_review writing_docs
    prototyping machine_learning testing refactoring debugging deployment note_taking planning
    research bookkeeping budgeting slide_decks grant_writing teaching interviews on-call
""")
PLACES = _words("""
    Lisbon Porto Berlin Munich Hamburg Vienna Zurich Geneva Paris Lyon Marseille Madrid Barcelona
    Valencia Seville Rome Milan Naples Turin Athens Istanbul Prague Budapest Warsaw Krakow Vilnius Riga
    Tallinn Helsinki Stockholm Oslo Copenhagen Amsterdam Rotterdam Utrecht Brussels Antwerp Dublin Cork
    London Manchester Edinburgh Glasgow Cardiff Reykjavik Toronto Montreal Vancouver Calgary Seattle
    Portland Oakland Denver Austin Chicago Boston Brooklyn Philadelphia Atlanta Miami Nashville
    Minneapolis Detroit Pittsburgh Baltimore Tucson Albuquerque Honolulu Anchorage Mexico_City Oaxaca
    Guadalajara Bogota Medellin Lima Cusco Santiago Valparaiso Buenos_Aires Montevideo Sao_Paulo
    Salvador Recife Nairobi Kampala Lagos Accra Dakar Casablanca Marrakech Tunis Cairo Addis_Ababa
    Johannesburg Cape_Town Durban Tel_Aviv Beirut Amman Dubai Doha Mumbai Pune Bangalore Chennai
    Hyderabad Kolkata Delhi Kathmandu Colombo Dhaka Bangkok Chiang_Mai Hanoi Saigon Manila Cebu Jakarta
    Bali Singapore Kuala_Lumpur Taipei Tainan Seoul Busan Tokyo Osaka Kyoto Sapporo Fukuoka Shanghai
    Beijing Chengdu Shenzhen Hong_Kong Sydney Melbourne Brisbane Perth Hobart Auckland Wellington
    Christchurch the_Alps the_Dolomites Patagonia the_Highlands the_Azores Crete Sardinia Sicily
""")
FIRST_NAMES = _words("""
    Alex Sam Maria Jordan Priya Wei Chen Ana Luca Noah Emma Olivia Liam Mateo Sofia Yuki Hana Kenji
    Aisha Omar Fatima Ibrahim Zara Leila Tomas Jakub Katarzyna Piotr Anna Elena Ivan Olga Dmitri Sven
    Ingrid Lars Astrid Freya Bjorn Niamh Ciaran Siobhan Aoife Rohan Ananya Arjun Kavya Diego Camila
    Valentina Joaquin Lucia Thiago Beatriz Rafael Gabriel Chloe Louis Manon Hugo Lea Jonas Mia Felix
    Lena Paul Clara Moritz Hannah Erik Nora Oscar Ella Theo Ruby Jack Grace Henry Isla Leo Alice Max
    Amara Kofi Ama Kwame Chidi Ngozi Tunde Zanele Thabo Mei Jun Hiro Sora Min-jun Ji-woo Seo-yeon
    Tuan Linh Anh Somchai Malee Rizal Putri Dewi Arash Darius Shirin Nima Yasmin Tariq Layla Kai Remy
""")
RELATIONS = _words("""
    partner wife husband sister brother daughter son mother father cousin friend manager colleague
    mentor roommate neighbor landlord dentist doctor therapist trainer coach co-founder
""")
PETS = _words("dog cat parrot rabbit hamster tortoise goldfish ferret horse chickens bees gecko")
ACTIVITIES = _words("""
    running cycling swimming climbing bouldering hiking yoga pilates rowing kayaking surfing skiing
    snowboarding tennis padel squash badminton chess go poker gardening baking cooking knitting
    woodworking pottery painting sketching photography birdwatching fishing sailing diving dancing salsa
    tango choir piano guitar violin cello drums ukulele podcasts audiobooks crosswords sudoku puzzles
    journaling meditation volunteering calligraphy origami juggling skateboarding archery fencing judo
    karate boxing crossfit triathlons marathons orienteering geocaching astronomy beekeeping foraging
""")
TIMES = _words("""
    mornings evenings weekends Mondays Tuesdays Wednesdays Thursdays Fridays Saturdays Sundays
    lunchtime afternoons late_nights early_mornings holidays summers winters weekdays
""")
CLOCK = _words("7am 8am 9am 10am 11am noon 1pm 2pm 3pm 4pm 5pm 6pm 7pm 8pm 9pm")
MEETINGS = _words("""
    calls meetings standups one-on-ones interviews demos retros reviews workshops offsites
    video_calls pairing_sessions check-ins planning_sessions
""")
CHANNELS = _words("email Slack text_messages phone_calls voice_notes Signal WhatsApp Telegram letters")
STYLES = _words("""
    blunt direct gentle detailed short concise written bulleted candid specific encouraging
    technical plain-spoken structured informal formal
""")
SUBJECTS = _words("""
    physics mathematics biology chemistry history philosophy economics linguistics music
    architecture law medicine nursing literature sociology anthropology geography statistics
    design journalism accounting engineering astronomy psychology
""")
THINGS = _words("""
    vinyl_records fountain_pens stamps coins mechanical_keyboards sneakers houseplants postcards
    vintage_cameras comic_books board_games tea_sets maps succulents lego_sets watches
""")
FEARS = _words("heights spiders flying needles crowds deep_water public_speaking small_talk")
QUALIFIERS = [
    "",
    "",
    "",
    "",
    "",
    " on {time}",
    " at home",
    " at work",
    " when travelling",
    " since {year}",
    " in {place}",
    " with {person}",
    " for the {project} project",
    " during {meeting}",
    " before {clock}",
    " after {clock}",
    " especially with {food}",
    " most {time}",
]
SYLLABLES = _words("ka ro vin tel mar zu pe lo dri san bo ne qua fi gor ul ta mi rex on bel tor ash qui nox")
NONSENSE = _words("zqx vlorp frimble quaxo drebble snorkum plivet wuzzle grontic blivet")

# (category, text template, quote template); slots are {vocabulary} names, a trailing 2 means "another one".
TEMPLATES: list[tuple[str, str, str]] = [
    ("preferences", "Prefers {food} over {food2} for {meal}", "I'd pick {food} over {food2} any day"),
    ("preferences", "Likes {activity} on {time}", "I try to fit in some {activity} on {time} if I can"),
    ("preferences", "Dislikes {food}", "please, no {food}, I really can't stand it"),
    ("preferences", "Drinks {drink} with {meal}", "I always have {drink} with {meal}"),
    ("preferences", "Enjoys {activity} and {activity2}", "{activity} and {activity2} keep me sane"),
    ("preferences", "Favourite food is {food} from {place}", "nothing beats the {food} I had in {place}"),
    ("tools", "Uses {tool} for {task}", "for {task} I just use {tool}, it's what I know"),
    ("tools", "Writes {lang} in {tool}", "most of my {lang} happens in {tool}"),
    ("tools", "Prefers {lang} over {lang2} for {task}", "I'd rather do {task} in {lang} than {lang2}"),
    ("tools", "Moved from {tool} to {tool2}", "I switched from {tool} to {tool2} and never looked back"),
    ("tools", "Keeps notes in {tool}", "everything goes into {tool}, otherwise I lose it"),
    ("work-style", "Works best in the {daypart}", "I get my real work done in the {daypart}"),
    ("work-style", "Blocks {time} for deep work", "{time} are for focus, I don't take {meeting} then"),
    ("work-style", "Likes to plan the week on {day}", "I sit down on {day} and plan the whole week"),
    ("work-style", "Prefers async {channel} over {meeting}", "just send me {channel}, skip the {meeting}"),
    ("work-style", "Does {task} in short bursts", "I do {task} in 25 minute bursts with breaks"),
    ("communication", "Wants {style} feedback", "give me {style} feedback, skip the padding"),
    ("communication", "Prefers {channel} over {channel2}", "{channel} works, {channel2} I tend to miss"),
    ("communication", "Likes {style} and {style2} answers", "keep it {style} and {style2}, please"),
    ("communication", "Replies to {channel} in the {daypart}", "I only check {channel} in the {daypart}"),
    ("communication", "Writes to {person} in {language_spoken}", "{person} and I write in {language_spoken}"),
    ("background", "Grew up in {place}", "I grew up in {place}, moved away at eighteen"),
    ("background", "Studied {subject} in {place}", "I did my degree in {subject} back in {place}"),
    ("background", "Has a {relation} named {person}", "my {relation} {person} would love this"),
    ("background", "Lived in {place} for {years} years", "I spent {years} years in {place}"),
    ("background", "Speaks {language_spoken} and {language_spoken2}", "I grew up speaking {language_spoken}"),
    ("background", "Used to work as a {job} in {place}", "back when I was a {job} in {place}"),
    ("constraints", "Never schedule {meeting} before {clock}", "no {meeting} before {clock}, I mean it"),
    ("constraints", "Allergic to {food}", "I'm allergic to {food}, so keep it out of any recipe"),
    ("constraints", "Unavailable on {time}", "{time} are family time, I'm offline"),
    ("constraints", "Cannot travel to {place} this year", "{place} is off the table for me this year"),
    ("constraints", "Avoids {food} for health reasons", "my doctor told me to cut out {food}"),
    ("constraints", "Has a fear of {fear}", "I'm terrified of {fear}, honestly"),
    ("other", "Has a {pet} named {person}", "my {pet} {person} is sitting on my keyboard again"),
    ("other", "Collects {thing}", "I've been collecting {thing} for years"),
    ("other", "Is training for a {event} in {place}", "I signed up for the {event} in {place}"),
    ("other", "Volunteers at a {venue} on {time}", "I help out at the {venue} on {time}"),
    ("other", "Supports {team} at {sport}", "{team} forever, even when they lose at {sport}"),
]
EXTRA = {
    "daypart": _words("morning afternoon evening night early_morning"),
    "day": _words("Sunday Monday Friday Saturday"),
    "language_spoken": _words("""
        English Spanish Portuguese French German Italian Dutch Polish Czech Swedish Norwegian Danish
        Finnish Greek Turkish Arabic Hebrew Hindi Bengali Tamil Urdu Mandarin Cantonese Japanese Korean
        Vietnamese Thai Indonesian Swahili Yoruba Zulu Amharic Farsi Ukrainian Russian Catalan Basque
        Welsh Irish Icelandic
    """),
    "job": _words("""
        teacher nurse barista chef carpenter electrician journalist translator pharmacist
        librarian paramedic architect accountant mechanic photographer lifeguard tour_guide
    """),
    "event": _words("marathon half_marathon triathlon century_ride 10k swim_meet climbing_competition"),
    "venue": _words("food_bank animal_shelter library community_garden repair_cafe school hospice"),
    "team": _words("the_Lions the_Rovers the_Comets the_Harbour_Club the_Wolves the_Saints"),
    "sport": _words("football rugby cricket basketball hockey baseball volleyball"),
    "years": [str(n) for n in range(2, 25)],
    "year": [str(n) for n in range(1995, 2027)],
}
QUESTION_TEMPLATES = [
    "What does the user like to eat for {meal}?",
    "Is the user ok with {food}?",
    "Any food allergies I should know about before suggesting {food}?",
    "Which editor does the user use for {lang}?",
    "What tools does the user use for {task}?",
    "Should I write this {task} script in {lang} or {lang2}?",
    "How should I give feedback on their draft?",
    "When can I schedule a {meeting} with them?",
    "Is {clock} on a {day} too early for a call?",
    "Where did the user grow up?",
    "What did they study?",
    "Does the user know anyone in {place}?",
    "Who is {person}?",
    "What should I know about their {relation}?",
    "What hobbies does the user have?",
    "Plan a weekend of {activity} in {place}",
    "Suggest a gift: they like {thing} and {activity}",
    "How does the user prefer to be contacted, {channel} or {channel2}?",
    "What languages does the user speak?",
    "Recommend a restaurant in {place} for {meal}",
    "What time of day does the user do deep work?",
    "Anything to avoid when planning travel to {place}?",
    "Summarize the user's preferences about {meeting} and {channel}",
    "Draft a {style} reply to {person} about the {project} project",
    "Which {lang} testing tools does the user like, {tool} or {tool2}?",
    "What is the user's {pet} called?",
    "What constraints apply on {time}?",
    "{nonsense} {nonsense2} calibration",
    "How do I configure the {nonsense} {nonsense2} module?",
    "Explain {nonsense} to me",
    "What is the capital of {nonsense}?",
]


def _zipf_sampler(items: Sequence[str], rng: random.Random, exponent: float = 1.05) -> Callable[[], str]:
    """A sampler over items (in a seeded shuffled order) with weight 1/rank**exponent."""
    order = list(items)
    random.Random(f"order-{len(order)}-{order[0]}").shuffle(order)
    weights = list(itertools.accumulate(1.0 / (rank + 1) ** exponent for rank in range(len(order))))
    return lambda: rng.choices(order, cum_weights=weights)[0]


@functools.cache
def _slots(template: str) -> tuple[str, ...]:
    """The slot names of template, each {name} before its {name2}."""
    names = [field for _, field, _, _ in string.Formatter().parse(template) if field]
    return tuple(sorted(dict.fromkeys(names), key=lambda name: name.endswith("2")))


class Vocabulary:
    """Zipf-weighted samplers for every template slot, sharing one seeded random source."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        lists: dict[str, Sequence[str]] = {
            "food": FOODS, "meal": MEALS, "drink": DRINKS, "tool": TOOLS, "lang": LANGUAGES, "task": TASKS,
            "place": PLACES, "person": FIRST_NAMES, "relation": RELATIONS, "pet": PETS,
            "activity": ACTIVITIES, "time": TIMES, "clock": CLOCK, "meeting": MEETINGS,
            "channel": CHANNELS, "style": STYLES, "subject": SUBJECTS, "thing": THINGS, "fear": FEARS,
            "nonsense": NONSENSE, **EXTRA,
        }  # fmt: skip
        self.samplers = {name: _zipf_sampler(items, rng) for name, items in lists.items()}

    def project(self) -> str:
        """A synthetic code name: thousands of possible rare words."""
        return "".join(self.rng.choice(SYLLABLES) for _ in range(self.rng.randint(2, 3))).capitalize()

    def fill(self, template: str, values: dict[str, str] | None = None) -> str:
        """template with each {slot} (and {slot2}, a different pick of the same slot) filled in.

        Slots already in values keep their value, and new picks are added to it, so a text and its quote
        can share what they talk about.
        """
        values = {} if values is None else values
        for slot in _slots(template):
            if slot in values:
                continue
            if slot == "project":
                values[slot] = self.project()
            elif slot.endswith("2"):
                first = values.get(slot[:-1]) or self.pick(slot[:-1])
                second = self.pick(slot[:-1])
                for _ in range(5):
                    if second != first:
                        break
                    second = self.pick(slot[:-1])
                values[slot] = second
            else:
                values[slot] = self.pick(slot)
        return template.format(**values)

    def pick(self, name: str) -> str:
        return self.samplers[name]()


@dataclass(frozen=True)
class Draft:
    text: str
    quote: str
    category: str


def drafts(seed: int) -> Iterator[Draft]:
    """An endless stream of distinct (by memory id) memory drafts."""
    rng = random.Random(seed)
    vocab = Vocabulary(rng)
    seen: set[str] = set()
    while True:
        category, text_t, quote_t = rng.choice(TEMPLATES)
        qualifier = rng.choice(QUALIFIERS)
        values: dict[str, str] = {}
        text = vocab.fill(text_t + qualifier, values)
        mid = memory_id(text)
        if mid in seen:
            continue
        seen.add(mid)
        quote = vocab.fill(quote_t, values) if rng.random() < 0.8 else vocab.fill(quote_t)
        yield Draft(text[0].upper() + text[1:], quote[0].upper() + quote[1:], category)


def memories(n: int, seed: int = 1) -> Iterator[Memory]:
    """n memories with mixed states, hosts, evidence counts and creation times, unique file names."""
    rng = random.Random(seed * 7919)
    states, weights = list(STATE_WEIGHTS), list(STATE_WEIGHTS.values())
    start = datetime(2024, 1, 1, tzinfo=UTC)
    span = int(timedelta(days=700).total_seconds())
    vocab = Vocabulary(random.Random(seed * 104729))
    names: set[str] = set()
    for draft in itertools.islice(drafts(seed), n):
        mid = memory_id(draft.text)
        evidence = [draft.quote]
        if rng.random() < 0.2:  # a second quote, sometimes with an email address in it (masked on read)
            extra = vocab.fill(rng.choice(TEMPLATES)[2])
            if rng.random() < 0.15:
                extra += f", cc {vocab.pick('person').lower()}@example.com"
            evidence.append(extra)
        name = f"{slug(draft.text)}.md"
        if name in names:
            name = f"{slug(draft.text)}-{mid[2:8]}.md"
        names.add(name)
        created = start + timedelta(seconds=rng.randrange(span))
        yield Memory(
            id=mid, text=draft.text, category=cast(Category, draft.category if draft.category in CATEGORIES else "other"),
            state=cast(State, rng.choices(states, weights)[0]), evidence=tuple(evidence), proposed_by=rng.choice(HOSTS),
            created=created.strftime("%Y-%m-%dT%H:%M:%SZ"), name=name,
        )  # fmt: skip


def questions(k: int, seed: int = 2) -> list[str]:
    """k varied questions from the same vocabularies; about one in six matches nothing."""
    rng = random.Random(seed)
    vocab = Vocabulary(rng)
    return [vocab.fill(rng.choice(QUESTION_TEMPLATES)) for _ in range(k)]


def proposals(k: int, exclude: set[str], seed: int = 3) -> list[Draft]:
    """k drafts whose ids are not in exclude (the vault's ids): each one is a new memory."""
    out: list[Draft] = []
    for draft in drafts(seed * 1_000_003):
        if memory_id(draft.text) not in exclude:
            out.append(draft)
            exclude = exclude | {memory_id(draft.text)}
        if len(out) == k:
            return out
    raise AssertionError("unreachable")


# -- the cached vaults ---------------------------------------------------------------------------------
def vault_dir(n: int) -> Path:
    return VAULTS / f"n{n}-g{GENERATOR_VERSION}"


def _git(root: Path, *args: str) -> None:
    subprocess.run(["git", *GIT_IDENTITY, *args], cwd=root, check=True, stdout=subprocess.DEVNULL)


def bench_gitconfig() -> Path:
    """A git config with an identity, used as GIT_CONFIG_GLOBAL so nothing reads the user's own."""
    path = OUT / "gitconfig"
    if not path.exists():
        OUT.mkdir(parents=True, exist_ok=True)
        path.write_text("[user]\n\tname = bench\n\temail = bench@example.invalid\n[gc]\n\tauto = 0\n")
    return path


def build_vault(n: int, root: Path, seed: int = 1) -> dict[str, float]:
    """Write a vault of n memories at root (which must not exist). Returns seconds per phase."""
    from personakit.service import init_vault  # imported late: only building needs the service

    os.environ["GIT_CONFIG_GLOBAL"] = str(bench_gitconfig())
    os.environ["GIT_CONFIG_NOSYSTEM"] = "1"
    times: dict[str, float] = {}
    t0 = time.perf_counter()
    init_vault(root)
    memories_dir = root / "memories"
    ids = []
    for memory in memories(n, seed):
        (memories_dir / memory.name).write_text(render_memory(memory), encoding="utf-8")
        ids.append(memory.id)
    (root.parent / f"{root.name}.ids").write_text("\n".join(ids) + "\n")
    times["write files"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    _git(root, "add", "-A")
    _git(root, "commit", "-q", "-m", f"bench: {n} generated memories")
    times["git add + commit"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    _git(root, "repack", "-a", "-d", "-q")
    times["git repack"] = time.perf_counter() - t0
    return times


def cached_vault(n: int, force: bool = False, quiet: bool = False) -> Path:
    """The cached vault of n memories, built when missing (or when force)."""
    root = vault_dir(n)
    done = root.parent / f"{root.name}.done"
    if done.exists() and root.is_dir() and not force:
        return root
    shutil.rmtree(root, ignore_errors=True)
    done.unlink(missing_ok=True)
    root.parent.mkdir(parents=True, exist_ok=True)
    if not quiet:
        print(f"generating a vault of {n:,} memories at {root} ...", file=sys.stderr, flush=True)
    times = build_vault(n, root)
    done.write_text(repr(times) + "\n")
    if not quiet:
        shown = ", ".join(f"{k} {v:.1f} s" for k, v in times.items())
        print(f"  {n:,} memories: {shown}", file=sys.stderr, flush=True)
    return root


def vault_ids(n: int) -> set[str]:
    root = cached_vault(n)
    return set((root.parent / f"{root.name}.ids").read_text().split())


def pristine_copy(n: int, dest: Path) -> Path:
    """A fresh copy of the cached vault of n memories at dest (replaced if it exists)."""
    source = cached_vault(n)
    if dest.exists():
        shutil.rmtree(dest)
    dest.parent.mkdir(parents=True, exist_ok=True)
    subprocess.run(["cp", "-a", str(source), str(dest)], check=True)
    # The copy's files have new inodes and ctimes; refresh git's stat cache now, as the original had it,
    # so the first `git status` a server runs does not re-hash every file (a cost no real vault pays).
    env = os.environ | {"GIT_CONFIG_GLOBAL": str(bench_gitconfig()), "GIT_CONFIG_NOSYSTEM": "1"}
    subprocess.run(["git", "update-index", "-q", "--refresh"], cwd=dest, env=env, check=False)
    # The refresh records every entry's new stat in the split part of git's index (the whole index,
    # again, on every commit); share them again, as the original's index had them.
    subprocess.run(["git", "update-index", "--split-index"], cwd=dest, env=env, check=False)
    return dest


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("sizes", nargs="*", type=int, default=[1000, 10000])
    parser.add_argument("--force", action="store_true", help="rebuild even when a cached vault exists")
    parser.add_argument("--sample", type=int, default=0, help="print this many memories and questions")
    args = parser.parse_args(argv)
    if args.sample:
        for memory in memories(args.sample):
            print(f"[{memory.state:11}] {memory.category:13} {memory.text}  <- {memory.evidence}")
        for question in questions(args.sample):
            print(f"Q: {question}")
        return 0
    for n in args.sizes:
        print(cached_vault(n, force=args.force))
    return 0


if __name__ == "__main__":
    sys.exit(main())
