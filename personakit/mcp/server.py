"""`personakit serve`: the stdio MCP server. Two tools, their schemas and annotations; the resources and
the guide prompt are in `resources.py`.

Owner decisions (approve, reject, restrict, forget, edit) are deliberately not tools: there is no path
from a model to them. Tool results are the service's own dicts, so structured content and the text block
carry the same JSON. stdout is the protocol; everything this process says goes to stderr.

Arguments the SDK refuses before a tool runs (missing, or of the wrong type) come back as pydantic's
report (`1 validation error for personakit_proposeArguments ... https://errors.pydantic.dev/...`);
`CheckedTool` turns that into one sentence naming each argument, still an `isError` result, as every
other refusal is.
"""

from __future__ import annotations

import json
import logging
import os
import signal
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from importlib import resources as package_files
from typing import TYPE_CHECKING, Annotated, Any, TypeVar, cast

import anyio
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.server.mcpserver.tools import Tool
from mcp.server.mcpserver.utilities.func_metadata import ArgModelBase, FuncMetadata
from mcp.server.stdio import stdio_server
from mcp.types import CallToolResult, TextContent, ToolAnnotations
from pydantic import Field, ValidationError

from personakit import __version__
from personakit.errors import PersonaKitError
from personakit.mcp.jsonrpc import AnsweredLines
from personakit.mcp.malloc import one_arena
from personakit.mcp.opening import Opening
from personakit.mcp.resources import PersonaKitServer, register
from personakit.mcp.resources import host_of as _host
from personakit.mcp.resources import kit_of as _kit
from personakit.store.files import VaultFiles, resolve_vault

if TYPE_CHECKING:
    from personakit.vault.service import PersonaKit

log = logging.getLogger("personakit")
E = TypeVar("E", bound=BaseException)

ABOUT = """\
PersonaKit is the user's own memory of who they are: preferences, how they work, their tools, background \
and constraints.\
"""

READ_GUIDE = """\
Read: call personakit_read at the start of a task, and whenever knowing the user would change your answer \
(tone, tools, format, scheduling, what to avoid). Ask in plain words about what you need. Memories marked \
confirmed: false are unreviewed; treat them as hints, not facts.\
"""

READ_ONLY_INSTRUCTIONS = f"{ABOUT}\n\n{READ_GUIDE}"  # a read-only server says nothing of proposing

INSTRUCTIONS = f"""\
{ABOUT} The user reviews everything you propose.

{READ_GUIDE}

Propose: call personakit_propose when the user reveals something durable about themselves that would help \
in future conversations. One short statement per memory, about the user, with their own words as the \
quote. Something about a person (or pet) in the user's life that helps the user ("my sister Carla is \
allergic to nuts") goes in with `about: ["Carla"]` and the statement without the name ("Is allergic to \
nuts"). Pass `until` for what holds for a while (a trip, a project), and `said` when proposing from an \
older conversation. Do not propose one-off task details, guesses, or anything sensitive the user would \
not want kept. Never propose passwords, keys, tokens or other secrets: they are refused.

Correct: when the user says something a memory you read is no longer true or was wrong (they moved, \
changed jobs, changed their mind), propose the corrected memory with `replaces` set to that memory's id. \
The user decides; the old memory stays until they approve the correction.\
"""

READ_DESCRIPTION = """\
What PersonaKit knows about the user that bears on a question: name the topic in the user's likely words. \
Memories are ranked by how many distinct words (or words of the same meaning) they share with the question; \
approved memories closest to it fill up to three places when few match (`note` then says so: ask again in \
other words). Restricted memories are never returned, only counted in `withheld`. `confirmed: false` marks \
unreviewed memories.\
"""

PROPOSE_DESCRIPTION = """\
Propose one memory about the user, with a quote of their own words as evidence. It is stored as \
unconfirmed until the user reviews it. Proposing the same memory again adds a new quote and changes \
nothing else. Refused (stored: false) with a reason: empty_text, too_long (over 300 characters), \
credential_shape (looks like a password, key or token), empty_quote. To correct a memory personakit_read \
gave you (the user moved, changed jobs, changed their mind), propose the corrected statement and pass the \
old memory's id as `replaces`; the old one is retired only when the user approves the correction.\
"""

REPLACES_HELP = (
    "Optional: the id (m_...) of a memory personakit_read gave you that this one corrects. Leave it out "
    "for a new fact; an id that cannot be replaced is ignored and the memory is stored as a new one"
)

ABOUT_HELP = (
    'Up to 8 names of others it is about (people, pets, places), e.g. ["Carla"]; omit if about the user'
)
SAID_HELP = "YYYY-MM-DD the user said it, if not today"
UNTIL_HELP = "YYYY-MM-DD after which it no longer holds (a trip, a project)"
_NAMES: dict[str, Any] = {"type": "array", "items": {"type": "string"}}
_DAY: dict[str, Any] = {"type": "string"}

DEFAULT_LIMIT = 7  # core.reading's, which answering tools/list does not import (tests/mcp/test_opening.py)
# Each tool's output schema: `result_schemas()` made it from the service's types.
RESULTS: dict[str, Any] = json.loads((package_files.files("personakit.mcp") / "results.json").read_bytes())

CATEGORY_HELP = (
    "One of communication, work-style, tools, preferences, background, constraints, other; "
    "anything else is stored as other"
)


def build_server(
    vault: str | None, read_only: bool = False, opened: PersonaKit | None = None
) -> MCPServer[Opening]:
    @asynccontextmanager
    async def lifespan(_: MCPServer[Opening]) -> AsyncIterator[Opening]:
        opening = Opening(vault, opened, then=lambda: _typed(tools))
        opening.begin()  # the handshake is answered meanwhile
        _running.append(opening)
        try:
            async with anyio.create_task_group() as group:
                group.start_soon(opening.failure)  # a vault that cannot open ends the session, said
                yield opening
        finally:
            _running.remove(opening)
            kit = opening.opened
            if kit is not None:
                kit.close()

    tools = [
        _tool(
            personakit_read,
            name="personakit_read",
            title="Read what PersonaKit knows about the user",
            description=READ_DESCRIPTION,
            annotations=ToolAnnotations(read_only_hint=True, open_world_hint=False),
        )
    ]
    if not read_only:
        tools.append(
            _tool(
                personakit_propose,
                name="personakit_propose",
                title="Propose a memory about the user",
                description=PROPOSE_DESCRIPTION,
                annotations=ToolAnnotations(
                    read_only_hint=False, destructive_hint=False, idempotent_hint=True, open_world_hint=False
                ),
            )
        )
    server = PersonaKitServer(
        "personakit",
        version=__version__,
        instructions=READ_ONLY_INSTRUCTIONS if read_only else INSTRUCTIONS,
        lifespan=lifespan,
        tools=tools,
    )
    register(server, read_only)  # the resources and the guide prompt
    return server


def personakit_read(
    question: Annotated[str, Field(description="What you are trying to answer, in plain words")],
    ctx: Context,
    limit: Annotated[int, Field(description="Most memories to return; clamped to 1-20")] = DEFAULT_LIMIT,
) -> CallToolResult:  # a ReadResult; its schema is in results.json
    return _answer(_call(lambda: _kit(ctx).read(question, limit, _host(ctx))))


def personakit_propose(
    text: Annotated[str, Field(description="The memory: one short statement about the user")],
    quote: Annotated[str, Field(description="The user's own words that support it")],
    category: Annotated[str, Field(description=CATEGORY_HELP)],
    ctx: Context,
    replaces: Annotated[str | None, Field(description=REPLACES_HELP)] = None,
    # Typed loosely and checked by the service, so a wrong value gets PersonaKit's own sentence.
    about: Annotated[Any, Field(description=ABOUT_HELP, json_schema_extra=_NAMES)] = None,
    said: Annotated[Any, Field(description=SAID_HELP, json_schema_extra=_DAY)] = None,
    until: Annotated[Any, Field(description=UNTIL_HELP, json_schema_extra=_DAY)] = None,
) -> CallToolResult:  # a ProposeResult; its schema is in results.json
    return _answer(
        _call(lambda: _kit(ctx).propose(text, quote, category, _host(ctx), replaces, about, said, until))
    )


def _answer(result: Any) -> CallToolResult:
    """The service's result as structured content and as a text block of the same JSON, compact. The
    SDK's own conversion of a returned dict checks it, copies it and writes the text indented (a third
    more for the host to read): here it is written once, and checked against its type (`_typed`)."""
    text = json.dumps(result, ensure_ascii=False, separators=(",", ":"))
    return CallToolResult(content=[TextContent(type="text", text=text)], structured_content=result)


def _tool(fn: Any, **details: Any) -> Tool:
    """A tool whose output schema is `results.json`'s (see `result_schemas`). Arguments it refuses are
    answered in one sentence (`CheckedTool`). The input schema keeps none of the titles pydantic makes
    from each name ("Question" for `question`): they say nothing the name does not, and every host reads
    tools/list into its model's context."""
    tool = CheckedTool.from_function(fn, **details)
    tool.parameters = _untitled(tool.parameters)
    tool.fn_metadata.output_schema = RESULTS[tool.name]
    return tool


def result_schemas() -> dict[str, Any]:
    """Each tool's output schema, made from the service's result types: what `results.json` holds, so
    that answering tools/list imports none of them (tests/mcp/test_opening.py compares the two;
    `python -c "from personakit.mcp.server import result_schemas as r; import json; print(json.dumps(r(),
    indent=2))"` writes it anew). The `$defs` are written in place: a client checks every result against
    the schema, and the SDK's client (jsonschema) spent most of that check resolving `$ref`s (about 1 ms
    a read). No titles, as for the input schema."""
    made = {}
    for name, kind in _result_types().items():
        schema = FuncMetadata(arg_model=ArgModelBase, output_model=kind).output_schema  # the SDK's own way
        made[name] = _untitled(_inline_defs(cast(dict[str, Any], schema)))
    return made


def _result_types() -> dict[str, Any]:
    from personakit.core.reading import ReadResult
    from personakit.vault.service import ProposeResult

    return {"personakit_read": ReadResult, "personakit_propose": ProposeResult}


def _typed(tools: list[Tool]) -> None:
    """Check each result against its type from now on, as the SDK does for a tool typed in its signature
    (run by the opening thread, once the types are imported, before any call may finish)."""
    kinds = _result_types()
    for tool in tools:
        tool.fn_metadata.output_model = kinds[tool.name]


def _untitled(schema: Any) -> Any:
    """schema without its `title` keywords (a property named "title" would stay)."""
    if isinstance(schema, list):
        return [_untitled(item) for item in schema]
    if not isinstance(schema, dict):
        return schema
    out = {}
    for key, value in schema.items():
        if key == "properties" and isinstance(value, dict):
            out[key] = {name: _untitled(sub) for name, sub in value.items()}
        elif key != "title":
            out[key] = _untitled(value)
    return out


def _inline_defs(schema: dict[str, Any]) -> dict[str, Any]:
    defs = schema.get("$defs", {})

    def inline(node: Any) -> Any:
        if isinstance(node, list):
            return [inline(item) for item in node]
        if not isinstance(node, dict):
            return node
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/$defs/"):  # pydantic's only kind; never recursive here
            node = {**defs[ref.removeprefix("#/$defs/")], **{k: v for k, v in node.items() if k != "$ref"}}
        return {key: inline(value) for key, value in node.items() if key != "$defs"}

    return cast(dict[str, Any], inline(schema))


# -- arguments the SDK refuses, answered as every refusal is: one sentence ----------------------------
# What a JSON value of each pydantic type error should have been, in a model's words.
WANTED = {
    "string_type": "text (a string)",
    "int_type": "a whole number",
    "int_parsing": "a whole number",
    "int_from_float": "a whole number",
}


class CheckedTool(Tool):
    """The SDK's tool, saying in one sentence which arguments were missing or wrong."""

    async def run(self, arguments: dict[str, Any], context: Any, convert_result: bool = False) -> Any:
        try:
            return await super().run(arguments, context, convert_result)
        except ToolError as error:
            if not isinstance(error.__cause__, ValidationError):
                raise
            said = argument_sentence(self.name, error.__cause__)
            raise ToolError(f"Error executing tool {self.name}: {said}") from None


def argument_sentence(tool: str, error: ValidationError) -> str:
    """One sentence for every argument pydantic refused: "personakit_propose was not run: the argument
    quote is missing."""
    missing, wrong = [], []
    for problem in error.errors(include_url=False, include_input=False):
        name = ".".join(str(part) for part in problem["loc"]) or "the arguments"
        if problem["type"] == "missing":
            missing.append(name)
        else:
            wanted = WANTED.get(problem["type"]) or problem["msg"][:1].lower() + problem["msg"][1:]
            wrong.append(f"{name} must be {wanted.removeprefix('input should be ')}")
    parts = []
    if missing:
        parts.append(
            f"the argument {missing[0]} is missing"
            if len(missing) == 1
            else f"the arguments {', '.join(missing[:-1])} and {missing[-1]} are missing"
        )
    parts += wrong
    return f"{tool} was not run: {'; '.join(parts)}; call it again with every argument its schema asks for."


_running: list[Opening] = []


def _call(work: Any) -> Any:
    try:
        return work()
    except PersonaKitError as error:
        raise ToolError(_sentence(str(error))) from None
    except Exception:
        log.exception("a tool call failed")
        raise ToolError(
            "PersonaKit hit an internal error; nothing stored was lost. Details are in its log."
        ) from None


def _sentence(text: str) -> str:
    text = text[:1].upper() + text[1:]
    return text if text.endswith(".") else text + "."


def _terminate(signum: int, frame: object) -> None:
    """SIGTERM or Ctrl-C: let a write in flight finish whole (waiting 5 s at most), then leave at once.

    os._exit ends every thread with the process; git children are only run while the vault lock is
    held, so once close() has the lock, none is running."""
    for kit in [opening.opened for opening in _running]:
        if kit is None:  # still opening: a kill during a start loses nothing
            continue
        try:
            kit.close(wait=5.0)
        except Exception:
            log.exception("could not close the vault cleanly; every write is atomic, so nothing is lost")
    if signum == signal.SIGINT and sys.stderr.isatty():
        sys.stderr.write("\n")  # Ctrl-C in a terminal: the shell's prompt starts on a line of its own
    sys.stderr.flush()
    os._exit(0 if signum == signal.SIGTERM else 128 + signum)


def serve(vault: str | None, read_only: bool = False) -> None:
    """Serve until stdin closes. A vault that cannot be opened or started ends the process with one sentence
    on stderr (raised as PersonaKitError for the command line to print), before or after the handshake."""
    os.environ["GIT_TERMINAL_PROMPT"] = "0"  # no git this process runs may ever wait on a terminal
    one_arena()  # before any thread starts (see personakit.mcp.malloc)
    signal.signal(signal.SIGTERM, _terminate)
    signal.signal(signal.SIGINT, _terminate)
    kit = None
    if not VaultFiles(resolve_vault(vault)).is_vault():
        # No vault there yet: make it now, or say in one sentence, before any protocol, why not (a file, a
        # folder holding other files, no git). A vault that is there opens while the handshake is answered.
        from personakit.vault.service import PersonaKit

        kit = PersonaKit(vault)
    try:
        anyio.run(_serve_stdio, build_server(vault, read_only, kit))
    except BaseExceptionGroup as group:  # the SDK's task groups wrap what the lifespan raised
        found = _first(group, PersonaKitError) or _first(group, Exception)
        if found is None:
            raise
        raise found from None  # the command line turns it into one sentence


def _first(error: BaseException, kind: type[E]) -> E | None:
    """The first exception of kind in error, looking inside exception groups."""
    if isinstance(error, BaseExceptionGroup):
        return next((f for e in error.exceptions if (f := _first(e, kind)) is not None), None)
    return error if isinstance(error, kind) else None


async def _serve_stdio(server: MCPServer[Opening]) -> None:
    """The SDK's `run_stdio_async`, with stdin read through `AnsweredLines`."""
    lines = AnsweredLines()
    async with stdio_server(stdin=cast(Any, lines)) as (read_stream, write_stream):
        lines.answer_with(write_stream)
        lowlevel = server._lowlevel_server  # the SDK offers no other way to give its stdio transport a stdin
        await lowlevel.run(read_stream, write_stream, lowlevel.create_initialization_options())
