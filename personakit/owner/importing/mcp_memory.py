"""The official MCP memory server's knowledge graph: `memory.jsonl` (formerly `memory.json`), one JSON
object a line, `{"type": "entity", "name", "entityType", "observations": [...]}` or
`{"type": "relation", "from", "to", "relationType"}`; or its `read_graph` answer,
`{"entities": [...], "relations": [...]}`.

The graph holds people, places and projects; PersonaKit keeps only what is about the owner. The owner
is the entity its README tells assistants to use, `default_user` (or one named `user` or `me`, or of
type `user`); failing that, the only entity of type `person`. Each of the owner's observations is a
memory, and so is each relation from the owner ("default_user works_at Acme" becomes "Works at Acme").
Everything else is listed as skipped, with whom it is about.
"""

from __future__ import annotations

import json
import re
from typing import Any

from personakit.errors import PersonaKitError
from personakit.owner.importing import Item

OWNER_NAMES = frozenset({"default_user", "user", "me", "myself", "self"})


def parse(text: str) -> list[Item]:
    entities, relations = _graph(text)
    owner = _owner(entities)
    items: list[Item] = []
    for where, entity in entities:
        name = str(entity.get("name", ""))
        about = f"about {name} ({entity.get('entityType', 'no type')}), not about you"
        if owner is None:
            about += " (no entity is named default_user, so none is taken to be you)"
        for observation in entity.get("observations") or []:
            if isinstance(observation, str) and observation.strip():
                skip = "" if name == owner else about
                items.append(Item(observation.strip(), observation, f"{where} ({name})", skip=skip))
    for where, relation in relations:
        source = f"{relation.get('from', '')} {relation.get('relationType', '')} {relation.get('to', '')}"
        if relation.get("from") != owner or not relation.get("to"):
            items.append(Item(source, source, where, skip="a relation that does not start from you"))
            continue
        verb = re.sub(r"[_-]+", " ", str(relation.get("relationType", ""))).strip()
        text = f"{verb[:1].upper()}{verb[1:]} {relation['to']}".replace("_", " ")
        items.append(Item(text, source, where))
    return items


def _graph(text: str) -> tuple[list[tuple[str, dict[str, Any]]], list[tuple[str, dict[str, Any]]]]:
    """(where, entity) and (where, relation) pairs, from JSON Lines or one read_graph object."""
    entities: list[tuple[str, dict[str, Any]]] = []
    relations: list[tuple[str, dict[str, Any]]] = []
    try:
        whole = json.loads(text)
    except ValueError:
        whole = None
    if isinstance(whole, dict) and ("entities" in whole or "relations" in whole):
        entities = [
            (f"entities[{i}]", e) for i, e in enumerate(whole.get("entities") or []) if isinstance(e, dict)
        ]
        relations = [
            (f"relations[{i}]", r) for i, r in enumerate(whole.get("relations") or []) if isinstance(r, dict)
        ]
        return entities, relations
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except ValueError:
            raise PersonaKitError(
                f"line {n} is not JSON, so this is not an MCP memory file (one JSON object a line)"
            ) from None
        if isinstance(record, dict) and record.get("type") == "entity":
            entities.append((f"line {n}", record))
        elif isinstance(record, dict) and record.get("type") == "relation":
            relations.append((f"line {n}", record))
    return entities, relations


def _owner(entities: list[tuple[str, dict[str, Any]]]) -> str | None:
    """The name of the entity that stands for the owner, if one does."""
    for _, entity in entities:
        name = str(entity.get("name", ""))
        if name.strip().lower().replace(" ", "_") in OWNER_NAMES:
            return name
    for _, entity in entities:
        if str(entity.get("entityType", "")).strip().lower() in ("user", "self", "me"):
            return str(entity.get("name", ""))
    people = [e for _, e in entities if str(e.get("entityType", "")).strip().lower() == "person"]
    return str(people[0].get("name", "")) if len(people) == 1 else None
