"""A call with a missing or wrong-typed argument is answered as every refusal is: isError and one
sentence naming the argument, never pydantic's report with its https://errors.pydantic.dev/ link.
Through the real server over stdio."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import call, call_error, connect


@pytest.mark.anyio
async def test_a_missing_or_wrong_argument_gets_one_sentence_naming_it(vault: Path) -> None:
    async with connect(vault) as session:
        said = [
            await call_error(session, "personakit_propose", text="Drinks green tea", category="preferences")
        ]
        assert said[0] == (
            "Error executing tool personakit_propose: personakit_propose was not run: the argument quote is "
            "missing; call it again with every argument its schema asks for."
        )
        said.append(await call_error(session, "personakit_propose", text=["Tea"], quote=5, category="tools"))
        assert "text must be text (a string); quote must be text (a string)" in said[-1]
        said.append(await call_error(session, "personakit_read"))
        assert said[-1].endswith("personakit_read was not run: the argument question is missing; call it again "
                                 "with every argument its schema asks for.")  # fmt: skip
        said.append(await call_error(session, "personakit_read", question="tea", limit="many"))
        assert "limit must be a whole number" in said[-1]
        for sentence in said:
            assert "pydantic" not in sentence and "validation error" not in sentence and "\n" not in sentence
        # The call works once it is right.
        stored = await call(
            session, "personakit_propose", text="Drinks green tea", quote="tea!", category="x"
        )
        assert stored["stored"]
