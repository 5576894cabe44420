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

This module registers them and is light: the server answers its host's handshake before the vault is
open (`opening.py`). What each one shows is made by `pages.py` once it is, which imports the service.
"""

from __future__ import annotations

import re
from functools import partial
from importlib import resources as package_files
from typing import TYPE_CHECKING, Any, cast
from urllib.parse import unquote

import anyio
from mcp.server.lowlevel.helper_types import ReadResourceContents
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ResourceNotFoundError
from mcp.server.mcpserver.prompts import Prompt
from mcp.server.mcpserver.resources import FunctionResource
from mcp.shared.exceptions import MCPError
from mcp_types import INVALID_PARAMS

from personakit.mcp.opening import Opening

if TYPE_CHECKING:
    from personakit.vault.service import PersonaKit

MEMORY_TEMPLATE = "personakit://memory/{id}"
ABOUT_TEMPLATE = "personakit://about/{name}"
PROFILE_URI = "personakit://profile"
GUIDE_NAME = "personakit-guide"


class PersonaKitServer(MCPServer[Opening]):
    """MCPServer, whose static resources cannot see the request; the profile needs it (the vault, and
    the host's name for the ledger), so its reads are served here with the request's context."""

    async def read_resource(self, uri: Any, context: Any = None) -> Any:
        if str(uri) == PROFILE_URI and context is not None:
            text = await anyio.to_thread.run_sync(partial(read_profile, context))
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


def register(server: MCPServer[Opening], read_only: bool) -> None:
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


# -- what each resource shows: `pages`, imported by the opening thread before any call may use it ---------
def read_memory(id: str, ctx: Context) -> str:  # the template names it {id}
    from personakit.mcp.pages import memory_page

    uri = MEMORY_TEMPLATE.format(id=id)
    text = memory_page(kit_of(ctx), host_of(ctx), uri, id)
    if text is None:
        raise ResourceNotFoundError(f"Unknown resource: {uri}")  # the SDK's words for a URI it has not
    return text


def read_profile(ctx: Context) -> str:
    from personakit.mcp.pages import profile_page

    return profile_page(kit_of(ctx), host_of(ctx), PROFILE_URI)


def read_about(name: str, ctx: Context) -> str:
    from personakit.mcp.pages import about_text

    uri = ABOUT_TEMPLATE.format(name=name)
    text = about_text(kit_of(ctx), host_of(ctx), uri, unquote(name))
    if text is None:
        raise ResourceNotFoundError(f"Unknown resource: {uri}")  # as for a name nobody uses: no oracle
    return text


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
    """The open vault, waiting while it opens (calls run on worker threads)."""
    return cast(Opening, ctx.request_context.lifespan_context).kit()


def host_of(ctx: Context) -> str:
    from personakit.vault.service import host_name  # imported by the opening thread: kit_of came first

    params = getattr(ctx.session, "client_params", None)
    info = getattr(params, "client_info", None)
    return host_name(getattr(info, "name", None))
