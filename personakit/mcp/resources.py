"""MCP resources and the guide prompt, beside the two tools in `server.py`.

- `personakit://memory/{id}` (a resource template): one approved or unconfirmed memory, as JSON, with its
  evidence and its history as dated one-liners. Restricted, rejected and unknown ids, and anything that
  is not an id, get the SDK's own "Unknown resource" error, word for word, so a host cannot tell a
  private memory from one that does not exist.
- `personakit://profile`: the approved memories as Markdown, what holds for now (an `until` ahead) apart
  from what lasts (grouped by category, newest first), with the names they are about, within about
  2,000 tokens, with a line counting those left out; past memories are left out.
- `personakit://about/{name}` (a resource template): what the user approved about one person (or pet,
  place, thing), by a name or an alias from its people note, as Markdown bounded like the profile, past
  memories left out. A name with no approved memory (unknown, only unconfirmed, only private) gets the
  same "Unknown resource" as a name nobody uses: only the visible memories are even looked at.
- `personakit-guide` (a prompt): when to read, what is worth proposing and what never to propose; the
  text is `guide.md`, which `docs/skill.md` repeats for hosts that load skill files. A read-only server
  gives only its parts about reading.

What leaves the process is made by `core.masking`. The history lines say what happened and who did it
(an assistant by its host's name, the owner as "the owner"), never what a commit's subject says: a
subject carries the memory's text as it was then, which the owner may have edited away, possibly while
the memory was restricted. Every resource read is one line in the read ledger, as a tool read is.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from datetime import UTC, date
from functools import partial
from importlib import resources as package_files
from typing import Any, cast
from urllib.parse import unquote

import anyio
from mcp.server.lowlevel.helper_types import ReadResourceContents
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ResourceNotFoundError
from mcp.server.mcpserver.prompts import Prompt
from mcp.server.mcpserver.resources import FunctionResource
from mcp.shared.exceptions import MCPError
from mcp_types import INVALID_PARAMS

from personakit.core.masking import PROFILE_MOST_CHARS, masked_names, present_detail, present_profile
from personakit.core.memory import VISIBLE_STATES, Memory
from personakit.core.people import clean_name, key
from personakit.core.when import is_past
from personakit.core.words import words
from personakit.owner.audit import Event, event
from personakit.vault.copies import effective
from personakit.vault.service import PersonaKit, host_name, now

MEMORY_TEMPLATE = "personakit://memory/{id}"
ABOUT_TEMPLATE = "personakit://about/{name}"
PROFILE_URI = "personakit://profile"
GUIDE_NAME = "personakit-guide"
_ID = re.compile(r"m_[0-9a-f]{12}")


class PersonaKitServer(MCPServer[PersonaKit]):
    """MCPServer, whose static resources cannot see the request; the profile needs it (the vault, and
    the host's name for the ledger), so its reads are served here with the request's context."""

    async def read_resource(self, uri: Any, context: Any = None) -> Any:
        if str(uri) == PROFILE_URI and context is not None:
            text = await anyio.to_thread.run_sync(partial(read_profile, kit_of(context), host_of(context)))
            return [ReadResourceContents(content=text, mime_type="text/markdown")]
        return await super().read_resource(uri, context)

    # The SDK answers an unknown prompt or a wrong argument with JSON-RPC code 0, and an unknown tool with
    # an isError result; the MCP spec asks for -32602 (invalid params) for all three.
    async def get_prompt(
        self, name: str, arguments: dict[str, Any] | None = None, context: Any = None
    ) -> Any:
        prompt = self._prompt_manager.get_prompt(name)
        if prompt is None:
            raise MCPError(INVALID_PARAMS, f"Unknown prompt: {name}; this server has {GUIDE_NAME}")
        takes = {a.name for a in prompt.arguments or []}
        extra = sorted(set(arguments or {}) - takes)
        if extra:
            wanted = f"it takes {', '.join(sorted(takes))}" if takes else "it takes none"
            raise MCPError(INVALID_PARAMS, f"Unexpected argument for {name}: {', '.join(extra)}; {wanted}")
        missing = sorted(
            a.name for a in prompt.arguments or [] if a.required and a.name not in (arguments or {})
        )
        if missing:
            raise MCPError(INVALID_PARAMS, f"Missing argument for {name}: {', '.join(missing)}")
        return await super().get_prompt(name, arguments, context)

    async def call_tool(self, name: str, arguments: dict[str, Any], context: Any = None) -> Any:
        if self._tool_manager.get_tool(name) is None:
            tools = ", ".join(t.name for t in self._tool_manager.list_tools())
            raise MCPError(INVALID_PARAMS, f"Unknown tool: {name}; this server has {tools}")
        return await super().call_tool(name, arguments, context)


def register(server: MCPServer[PersonaKit], read_only: bool) -> None:
    """Add the resources and the guide prompt to server."""
    server.resource(
        MEMORY_TEMPLATE,
        name="memory",
        title="One memory about the user",
        description=(
            "One memory by its id (from personakit_read): its text, category, whether the user approved it, "
            "its evidence, when and by whom it was proposed, and its history. Private memories are unknown."
        ),
        mime_type="application/json",
    )(read_memory)
    server.resource(
        ABOUT_TEMPLATE,
        name="about",
        title="What the user approved about one person",
        description=(
            "What the user approved about one person, pet or place, by name or alias (the names a memory's "
            "`about` gives), as Markdown."
        ),
        mime_type="text/markdown",
    )(read_about)
    server.add_resource(
        FunctionResource(
            uri=PROFILE_URI,
            name="profile",
            title="What the user approved",
            description=(
                "Everything the user approved, as Markdown grouped by category, newest first, within about "
                "2,000 tokens."
            ),
            mime_type="text/markdown",
            fn=lambda: "",  # never called: PersonaKitServer serves this URI with the request's context
        )
    )

    def guide() -> str:
        return guide_text(read_only)

    server.add_prompt(
        Prompt.from_function(
            guide,
            name=GUIDE_NAME,
            title="How to use PersonaKit",
            description=(
                "When to read what PersonaKit knows about the user"
                + ("." if read_only else ", what is worth proposing, and what never to propose.")
            ),
        )
    )


# -- personakit://memory/{id} -------------------------------------------------------------------------
def read_memory(id: str, ctx: Context) -> str:  # the template names it {id}
    kit = kit_of(ctx)
    uri = MEMORY_TEMPLATE.format(id=id)
    memory = visible_memory(kit, id)
    record(kit, host_of(ctx), uri, [memory.id] if memory else [])
    if memory is None:
        raise ResourceNotFoundError(f"Unknown resource: {uri}")  # the SDK's words for a URI it has not
    detail = present_detail(memory, one_liners(history(kit, memory)), date.today())
    return json.dumps(detail, ensure_ascii=False, indent=2)


def visible_memory(kit: PersonaKit, ref: str) -> Memory | None:
    """The memory with exactly this id, as its file says now, when an assistant may see it. A memory
    with two files (a copy made by hand) is visible only when every copy is: the most private one wins."""
    if not _ID.fullmatch(ref):
        return None
    kit.wait_until_synced()
    copies = [kit.current(hit) for hit in kit.indexed(lambda: kit.index.by_id(ref))]
    found = [m for m in copies if m is not None and m.id == ref]
    if not found or any(m.state not in VISIBLE_STATES for m in found):
        return None
    return found[0]


def history(kit: PersonaKit, memory: Memory) -> list[Event]:
    """The commits whose message names the memory's id, oldest first: every commit PersonaKit makes does
    (proposals, decisions, hand edits it takes in, imports). Not `owner.audit.memory_history`, which also
    follows the file through git's rename detection: limiting `git log` to a path diffs every commit's
    tree, ~2.7 s of CPU at 10k commits, while searching messages alone took 0.05 s."""
    return [event(c) for c in reversed(kit.history.commits("--fixed-strings", f"--grep={memory.id}"))]


def one_liners(events: Iterable[Event]) -> list[str]:
    """'2026-11-12 proposed by claude-desktop', '2026-11-13 approved by the owner': what happened, when
    (UTC date) and who; never a commit's subject."""
    lines = []
    for e in events:
        what = e.what
        if what == "commit":
            what = "imported" if e.subject.startswith("import ") else "changed with git"
        who = e.who.removesuffix(" (assistant)") if e.who.endswith(" (assistant)") else "the owner"
        lines.append(f"{e.when.astimezone(UTC).date().isoformat()} {what} by {who}")
    return lines


# -- personakit://profile -----------------------------------------------------------------------------
def read_profile(kit: PersonaKit, host: str) -> str:
    kit.wait_until_synced()
    total = kit.indexed(lambda: kit.index.count("approved"))
    wanted = 200  # more only while they all fit: an entry takes at least 4 characters
    while True:
        hits = kit.indexed(partial(kit.index.newest, "approved", wanted))
        # The most private copy wins here too: a memory with a restricted copy is not in the profile.
        approved = [m for m in effective(kit, hits) if m is not None and m.state == "approved"]
        text, ids = present_profile(approved, total, PROFILE_MOST_CHARS, date.today())
        if len(ids) < len(approved) or len(hits) < wanted or wanted >= PROFILE_MOST_CHARS // 4:
            break
        wanted *= 4
    record(kit, host, PROFILE_URI, ids)
    return text


# -- personakit://about/{name} -------------------------------------------------------------------------
def read_about(name: str, ctx: Context) -> str:
    kit = kit_of(ctx)
    uri = ABOUT_TEMPLATE.format(name=name)
    text, ids = about_page(kit, unquote(name))
    record(kit, host_of(ctx), uri, ids)
    if not ids:
        raise ResourceNotFoundError(f"Unknown resource: {uri}")  # as for a name nobody uses: no oracle
    return text


def about_page(kit: PersonaKit, name: str) -> tuple[str, list[str]]:
    """The page of one name or alias, and the ids it shows (none: nothing approved and current)."""
    wanted = clean_name(name)
    person = next((p for p in kit.people.all() if key(wanted) in p.name_keys()), None)
    keys = person.name_keys() if person else {key(wanted)}
    terms = list(dict.fromkeys(w for n in (person.names() if person else (wanted,)) for w in words(n)))
    if not terms:
        return "", []
    kit.wait_until_synced()
    today = date.today()
    hits = kit.indexed(lambda: kit.index.search(terms, None))  # visible memories only: never the private
    found: dict[str, Memory] = {}
    for memory in map(kit.current, hits):
        if memory is not None and memory.state == "approved" and {key(n) for n in memory.about} & keys:
            found.setdefault(memory.id, memory)
    if not any(not is_past(m.until, today) for m in found.values()):
        return "", []
    shown = masked_names(person.names() if person else (wanted,))
    also = f" (also called {', '.join(shown[1:])})" if len(shown) > 1 else ""
    title = f"# About {shown[0]}\n\nWhat the user approved in PersonaKit about {shown[0]}{also}."
    return present_profile(list(found.values()), None, PROFILE_MOST_CHARS, today, title)


# -- personakit-guide -----------------------------------------------------------------------------------
def guide_text(read_only: bool = False) -> str:
    """guide.md; for a read-only server, without its sections about proposing."""
    text = (package_files.files("personakit.mcp") / "guide.md").read_text(encoding="utf-8")
    if not read_only:
        return text
    sections = re.split(r"(?m)^(?=## )", text)
    return "".join(s for s in sections if "propos" not in s.split("\n", 1)[0].lower()).rstrip() + "\n"


# -- shared with server.py ------------------------------------------------------------------------------
def kit_of(ctx: Context) -> PersonaKit:
    return cast(PersonaKit, ctx.request_context.lifespan_context)


def host_of(ctx: Context) -> str:
    params = getattr(ctx.session, "client_params", None)
    info = getattr(params, "client_info", None)
    return host_name(getattr(info, "name", None))


def record(kit: PersonaKit, host: str, uri: str, ids: list[str]) -> None:
    """One line in the read ledger: which resource a host opened and which memories it was given."""
    if kit.writable:
        kit.ledger.record({"at": now(), "host": host, "resource": uri, "ids": ids, "withheld": 0})
