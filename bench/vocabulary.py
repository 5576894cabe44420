"""The benchmark's vocabularies and templates: data only (`generate.py` is the engine that fills them).

Slots in templates are `{vocabulary}` names; a trailing 2 means "another pick of the same vocabulary".
`COMMON_NOUNS` and `COMMON_VERBS` are everyday words, Zipf-weighted like every list here: the clauses that
carry them go into most memories' quotes, so at 10k memories the common ones are shared by thousands of
memories, and conversational questions are made of them.
"""

from __future__ import annotations


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

# -- everyday words: shared by thousands of memories, and what conversational questions are made of -----
COMMON_NOUNS = _words("""
    time work day week people team project home family friends morning night meeting plan schedule
    email call notes list book food music weekend trip travel house kitchen office desk phone computer
    code doc report budget money plans ideas help feedback questions answers news game sport show film
    city town country place school class course job career boss client customer partner kids parents
    dinner lunch breakfast coffee break holiday birthday party gift present garden dog walk run ride
    car bike train flight hotel room bed sleep health doctor gym diet weight body mind stress energy
    focus habit routine goal task deadline calendar message chat thread channel tool app website
    photo picture video story article paper letter card note reminder bill rent tax bank account
    order delivery package shop store market price deal brand style colour clothes
    shoes jacket bag hair skin weather rain snow sun summer winter spring autumn year month hour minute
""")
COMMON_VERBS = _words("""
    work make use need want try start finish write read send check plan keep help bring cook eat
    drink buy pay call meet move share change learn teach build fix clean watch listen play walk run
    travel visit book cancel remember forget prefer like love hate avoid enjoy find choose decide
    organise prepare review schedule answer reply ask explain describe follow improve practise save
    spend wait sleep wake stay leave arrive open close print sign order return track handle manage
    discuss note test ship deploy release draft edit sort pack carry drive ride fly swim paint draw
""")
CLAUSES = [
    "when I {verb} the {noun}",
    "because the {noun} takes so much {noun2}",
    "it helps me {verb} my {noun}",
    "so I can {verb} the {noun} and {verb2} the {noun2}",
    "especially when the {noun} needs to {verb}",
    "otherwise I never {verb} any {noun}",
    "my {noun} and my {noun2} both depend on it",
    "that's how I {verb} {noun} every {noun2}",
    "after I {verb} the {noun}",
    "the {noun} is easier to {verb} that way",
]
ASK_OPENERS = _words("""
    Can_you_help_me Could_you I_want_to I'm_trying_to What's_a_good_way_to Any_ideas_on_how_to Help_me
    I_need_to Remind_me_how_I Should_I Please Quick_question,_how_do_I Do_you_think_I_should
    Is_it_a_good_idea_to Tell_me_how_to Can_we
""")
ASK_CORES = [
    "{verb} the {noun}",
    "{verb} my {noun}",
    "{verb} a {noun} for the {noun2}",
    "{verb} the {noun} with my {noun2}",
    "{verb} some {noun} about {specific}",
    "{verb} {specific} for the {noun}",
    "{verb} the {noun} before the {noun2}",
    "{verb} {specific} with {specific2}",
    "{verb} my {noun} around {specific}",
]
ASK_JOINERS = _words("and also then and_maybe but_first so_that_I_can while_I and_then_help_me")
ASK_CLOSERS = _words("""
    this_week tomorrow today for_next_week before_Friday if_that_makes_sense thanks please
    for_the_weekend in_a_way_that_suits_me the_way_I_usually_do without_too_much_fuss
""")
SPECIFIC_VOCABULARIES = (
    "food",
    "tool",
    "place",
    "activity",
    "lang",
    "meeting",
    "channel",
    "drink",
    "task",
    "thing",
)
