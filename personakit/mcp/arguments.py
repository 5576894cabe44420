"""Tool arguments the SDK refuses, answered as PersonaKit answers every refusal: one sentence.

The SDK checks a call's arguments against the tool's input schema before the tool runs, and on a
mistake returns pydantic's own report (`1 validation error for personakit_proposeArguments ... For
further information visit https://errors.pydantic.dev/...`). `CheckedTool` is the SDK's `Tool` with
that report turned into one sentence naming each missing or wrong argument and what it should be, still
an `isError` result under the tool's name, so a model can correct its call as it does after any refusal.
"""

from __future__ import annotations

from typing import Any

from mcp.server.mcpserver.exceptions import ToolError
from mcp.server.mcpserver.tools import Tool
from pydantic import ValidationError

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
