"""A scripted walk over three devices: random proposals, decisions, hand edits and forgets on each, with
syncs in random order; then every device syncs until quiet, and the rules are checked against a model.

The model knows which events each device had seen when it acted (a device learns what the remote holds
when it syncs), so it can say what the end must look like without re-implementing the merge:

- every device holds the same files and history, git sees each clean, `git fsck` finds nothing;
- a memory exists at the end exactly when one of its latest events (those no other event on it knew of)
  kept it: so no acknowledged proposal is lost and a forget is obeyed. The one exception is the rule
  "forgotten on one side, untouched on the other": a device whose file (perhaps renamed) was, after its
  changes, the very file another device forgot without knowing of them;
- the latest decisions on a memory (those no later decision or forget knew of) set its state: one state
  when they agree; the most private, with a note in some sync's report, when they do not;
- a memory nobody proposed (a second memory for the other device's text) is named in a report.

CI walks 30 steps on each device for two seeds; `PERSONAKIT_FULL=1` walks 200 steps on each, for five.
"""

from __future__ import annotations

import os
import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from personakit.core.memory import STATES, parse_memory
from personakit.core.merging import Note, more_private
from personakit.owner.decisions import recategorize

from devices import Device, bare_remote, clone, first_device, git

FULL = os.environ.get("PERSONAKIT_FULL") == "1"
STEPS = 200 if FULL else 30
SEEDS = [1, 2, 3, 4, 5] if FULL else [1, 2]
KEEPS = {"propose", "decide", "edit", "second"}
TEXTS = [f"Prefers {thing}" for thing in (
    "green tea", "dark mode", "short answers", "tabs over spaces", "morning meetings", "written feedback",
    "Go for services", "Python for scripts", "vim keybindings", "quiet trains", "paper notebooks", "long walks",
    "early flights", "standing desks", "plain text email", "video off in calls", "oat milk", "rainy days",
)]  # fmt: skip
QUOTES = ["I said so", "as I told you", "obviously", "since forever", "my words exactly"]


@dataclass
class Event:
    n: int
    device: str
    kind: str  # propose | decide | edit | forget | second
    mid: str
    state: str | None
    knew: frozenset[int]  # the events on this memory the device had seen when it acted
    text: str | None  # the file as it was after the event (before it, for a forget)


@dataclass
class World:
    devices: dict[str, Device]
    events: list[Event] = field(default_factory=list)
    known: dict[str, set[int]] = field(default_factory=dict)
    remote: set[int] = field(default_factory=set)
    notes: list[Note] = field(default_factory=list)

    def record(self, device: str, kind: str, mid: str, state: str | None, text: str | None) -> None:
        on_it = {e.n for e in self.events if e.mid == mid}
        event = Event(len(self.events), device, kind, mid, state, frozenset(on_it & self.known[device]), text)
        self.events.append(event)
        self.known[device].add(event.n)

    def sync(self, name: str) -> None:
        report = self.devices[name].sync()
        self.notes += report.notes
        self.known[name] |= self.remote
        for note in report.notes:
            if note.kind == "texts":  # a second memory made by the sync, on this device
                self.record(name, "second", note.second, note.kept, None)
        self.remote |= self.known[name]


@pytest.fixture
def world(tmp_path: Path) -> Iterator[World]:
    bare = bare_remote(tmp_path)
    roots = [
        first_device(tmp_path, bare, "laptop"),
        clone(tmp_path, bare, "desktop"),
        clone(tmp_path, bare, "phone"),
    ]
    devices = {root.name: Device(root) for root in roots}
    try:
        yield World(devices, known={name: set() for name in devices})
    finally:
        for device in devices.values():
            device.close()


def step(world: World, rng: random.Random, name: str, counter: list[int]) -> None:
    device = world.devices[name]
    memories = device.memories()
    roll = rng.random()
    if roll < 0.15:
        world.sync(name)
    elif roll < 0.45 or not memories:
        before = device.head()
        result = device.propose(
            rng.choice(TEXTS), quote=rng.choice(QUOTES), host=rng.choice(["claude", "cursor"])
        )
        if device.head() != before:  # a new memory, or a quote it did not have: the file changed
            world.record(name, "propose", result["id"], None, _text(device, result["id"]))
    else:
        mid = rng.choice(sorted(memories))
        state, _ = memories[mid]
        if roll < 0.7:
            new = rng.choice([s for s in STATES if s not in (state, "unconfirmed")])
            device.decide(mid, new) if rng.random() < 0.8 else device.edit_state(mid, new)
            world.record(name, "decide", mid, new, _text(device, mid))
        elif roll < 0.85:
            counter[0] += 1
            if rng.random() < 0.2:  # now and then a text another memory has (or will have) as its own
                text = rng.choice(TEXTS)
            else:
                text = f"Edited on the {name}, edit number {counter[0]}"
            device.edit_text(mid, text)
            world.record(name, "edit", mid, None, _text(device, mid))
        elif roll < 0.9:
            counter[0] += 1
            if rng.random() < 0.5:  # a file renamed is the same memory, unchanged: no event of the model
                device.rename(mid, f"renamed-{counter[0]}.md")
            else:
                category = rng.choice(["tools", "work-style", "other"])
                if recategorize(device.kit, mid, category)[1]:  # type: ignore[arg-type]
                    world.record(name, "edit", mid, None, _text(device, mid))
        else:
            text = _text(device, mid)
            device.forget(mid) if rng.random() < 0.5 else device.delete_file(mid)
            world.record(name, "forget", mid, None, text)


def _text(device: Device, mid: str) -> str:
    return (device.root / "memories" / device.name_of(mid)).read_text(encoding="utf-8")


@pytest.mark.slow
@pytest.mark.parametrize("seed", SEEDS)
def test_three_devices_walk_and_agree_without_losing_or_hiding_anything(world: World, seed: int) -> None:
    rng = random.Random(seed)
    names = sorted(world.devices)
    counter = [0]
    plan = [name for name in names for _ in range(STEPS)]
    rng.shuffle(plan)
    for name in plan:
        step(world, rng, name, counter)
    for _ in range(2):  # everyone syncs until quiet
        for name in names:
            world.sync(name)
    kinds = {e.kind for e in world.events}
    assert len(world.events) > STEPS and kinds >= {"propose", "decide", "edit", "forget"}, kinds  # it walked
    check(world)


def _concurrent(a: Event, b: Event) -> bool:
    return a.n not in b.knew and b.n not in a.knew


def check(world: World) -> None:
    devices = list(world.devices.values())
    first = devices[0]
    for device in devices:
        assert device.files() == first.files() and device.head() == first.head(), device.root.name
        assert device.clean(), git(device.root, "status", "--short")
        assert git(device.root, "fsck", "--no-progress", "--no-dangling", "--strict") == ""
        assert git(device.root, "rev-list", "--merges", "HEAD") == ""
    final = first.memories()
    texts = {parse_memory(t).id: t for t in first.files().values()}
    noted = {(n.kind, n.id) for n in world.notes}
    seconds = {n.second for n in world.notes if n.kind == "texts"}
    problems = []
    for mid in sorted({e.mid for e in world.events}):
        on_it = [e for e in world.events if e.mid == mid]
        latest = [e for e in on_it if not any(e.n in other.knew for other in on_it)]
        kept = [e for e in latest if e.kind in KEEPS]
        if mid not in final:
            forgets = [f for f in on_it if f.kind == "forget"]
            untouched = all(any(_concurrent(e, f) and e.text == f.text for f in forgets) for e in kept)
            if kept and not untouched:
                problems.append(f"{mid} is gone, but its latest events kept it: {kept}")
            continue
        if not kept:
            problems.append(f"{mid} exists, but its latest events all forgot it: {latest}")
        deciding = [e for e in on_it if e.kind in ("decide", "forget")]
        decided = [e for e in deciding if e.kind == "decide" and not any(e.n in o.knew for o in deciding)]
        states = {e.state for e in decided if e.state}
        if len(states) == 1 and final[mid][0] != next(iter(states)):
            problems.append(f"{mid} is {final[mid][0]}, but its latest decision was {states}: {texts[mid]}")
        if len(states) > 1:
            most = next(iter(states))
            for state in states:
                most = more_private(most, state)
            if final[mid][0] != most:
                problems.append(f"{mid} is {final[mid][0]}, but the decisions {states} make it {most}")
            if ("decisions", mid) not in noted:
                problems.append(f"{mid}: decided {states} on different devices, and no report said so")
    for mid in final:
        if not any(e.mid == mid for e in world.events) and mid not in seconds:
            problems.append(f"{mid} exists, but nobody proposed it and no report named it")
    assert not problems, "\n".join(problems)
