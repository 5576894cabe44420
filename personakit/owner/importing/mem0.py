"""A mem0 export, in any of the shapes mem0 gives memories out:

- what `Memory.get_all()` / `MemoryClient.get_all()` return, saved as JSON: `{"results": [{"id",
  "memory", "hash", "metadata", "created_at", "updated_at", "user_id", ...}]}` (or the bare list);
- OpenMemory's backup, `memories.json` in the zip its Export button gives: `{"user", "apps",
  "categories": [{"id", "name"}], "memories": [{"id", "content", "state", "category_ids", ...}], ...}`;
- the `memories.jsonl` in the same zip (gunzipped): one `{"id", "content", "state", "categories"}` a line.

Each memory's `created_at` day is kept as when it was said. Memories mem0 archived, paused or deleted
are listed as skipped. A mem0 category ("user_preferences",
"technology") names the memory's category when it means one of ours.
"""

from __future__ import annotations

import json
from typing import Any

from personakit.errors import PersonaKitError
from personakit.owner.importing import Item, category_for

TEXT_KEYS = ("memory", "content", "text", "data")


def parse(text: str) -> list[Item]:
    records, names = _records(text)
    items = []
    for where, record in records:
        memory = next((record[k] for k in TEXT_KEYS if isinstance(record.get(k), str)), None)
        if memory is None or not memory.strip():
            continue
        state = str(record.get("state") or "active").lower()
        labels = [names.get(str(c), str(c)) for c in record.get("category_ids") or []]
        labels += [str(c) for c in record.get("categories") or [] if isinstance(c, str)]
        found = record.get("metadata")
        metadata: dict[str, Any] = found if isinstance(found, dict) else {}
        labels += [str(metadata[k]) for k in ("category", "type") if isinstance(metadata.get(k), str)]
        category = next((c for c in map(category_for, labels) if c != "other"), "other")
        skip = "" if state == "active" else f"{state} in mem0"
        created = record.get("created_at")
        said = created[:10] if isinstance(created, str) else ""  # ISO 8601: its day, as written
        items.append(Item(memory.strip(), memory, where, category, skip, said))
    return items


def _records(text: str) -> tuple[list[tuple[str, dict[str, Any]]], dict[str, str]]:
    """(where, record) pairs and OpenMemory's category id -> name."""
    try:
        data: Any = json.loads(text)
    except ValueError:
        data = None
    if data is None:  # JSON Lines
        records = []
        for n, line in enumerate(text.splitlines(), 1):
            if line.strip():
                try:
                    record = json.loads(line)
                except ValueError:
                    raise PersonaKitError(f"line {n} is not JSON, so this is not a mem0 export") from None
                if isinstance(record, dict):
                    records.append((f"line {n}", record))
        return records, {}
    names: dict[str, str] = {}
    key = "item"
    if isinstance(data, dict):
        for category in data.get("categories") or []:
            if isinstance(category, dict) and "id" in category:
                names[str(category["id"])] = str(category.get("name", ""))
        key = next((k for k in ("results", "memories") if isinstance(data.get(k), list)), "")
        if not key:
            raise PersonaKitError("this JSON has no 'results' or 'memories' list, so it is not a mem0 export")
        data = data[key]
    if not isinstance(data, list):
        raise PersonaKitError("this JSON is not a list of memories, so it is not a mem0 export")
    return [(f"{key}[{i}]", r) for i, r in enumerate(data) if isinstance(r, dict)], names
