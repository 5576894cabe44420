"""Where a served read's time goes: the SDK and the result on both ends, and the read itself.

Five servers, each over stdio with the SDK's own client, called in turn with the same question:

- `floor`: `floor_server.py`, one trivial `echo` tool (the reference of every read ratio);
- `sdk, answer`: the SDK's own server answering every read with one PersonaKit answer taken beforehand
  (the warm-up answer of median size), without an output schema: what the answer's size costs;
- `sdk, answer + schema`: the same with PersonaKit's output schema, which the client checks every
  result against (the SDK's `ClientSession` runs jsonschema over it);
- `personakit, answer`: PersonaKit's own server and vault, its read replaced by that answer;
- `personakit`: PersonaKit reading.

So `personakit, answer` is the time of a read that costs nothing: the ratio a read cannot go under.

    python bench/overhead.py 10000                  # zipf vault, 600 questions, two rounds
    python bench/overhead.py 10000 --shape generated --rounds 1
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import sys
import tempfile
from contextlib import AsyncExitStack
from pathlib import Path

import anyio
import generate
import zipf
from mcp import StdioServerParameters
from measure import BENCH, Env, call, connect, percentile
from reads import load

WARM_UP = 100


async def run(args: argparse.Namespace) -> None:
    root = Path(tempfile.mkdtemp(prefix="personakit-overhead-"))
    try:
        env = Env(root, args.code)
        source = zipf.cached_vault(args.size) if args.shape == "zipf" else generate.cached_vault(args.size)
        asked = zipf.questions if args.shape == "zipf" else generate.conversational
        questions = asked(WARM_UP + args.reads)
        vault = generate.copy_vault(source, root / "vault")
        twin = generate.copy_vault(source, root / "twin")  # for the canned PersonaKit: its own vault
        log = root / "servers.log"
        for folder in (vault, twin):
            env.cli(folder, "reindex", log=log)
        async with AsyncExitStack() as stack:
            ours, _ = await stack.enter_async_context(connect(env.personakit(vault), log))
            answers = [(await call(ours, "personakit_read", {"question": q}))[1] for q in questions[:WARM_UP]]
            answer = sorted(answers, key=lambda a: len(json.dumps(a)))[len(answers) // 2]
            canned = root / "answer.json"
            canned.write_text(json.dumps(answer))
            floor = (await stack.enter_async_context(connect(env.floor(), log)))[0]
            servers = {"floor": (floor, "echo")}
            for name, mode, folder in (("sdk, answer", "sdk", None), ("sdk, answer + schema", "sdk-schema", None),
                                       ("personakit, answer", "personakit", twin)):  # fmt: skip
                variables = env.variables(folder) | {"PK_CANNED": str(canned)}
                params = StdioServerParameters(command=sys.executable, args=[str(BENCH / "canned_server.py"), mode],
                                               env=variables, cwd=root)  # fmt: skip
                servers[name] = (await stack.enter_async_context(connect(params, log)))[0], "personakit_read"
            servers["personakit"] = ours, "personakit_read"
            for q in questions[:WARM_UP]:  # every server warm, and the canned PersonaKit's vault open
                for session, tool in servers.values():
                    await call(session, tool, arguments(tool, q))
            size = len(json.dumps(answer))
            print(f"{args.size:,} memories ({args.shape}), {args.reads} questions a round, an answer of "
                  f"{len(answer.get('memories', []))} memories and {size:,} bytes; load {load()}")  # fmt: skip
            for round_ in range(1, args.rounds + 1):
                times: dict[str, list[float]] = {name: [] for name in servers}
                for q in questions[WARM_UP:]:
                    for name, (session, tool) in servers.items():
                        times[name].append((await call(session, tool, arguments(tool, q)))[0])
                report(round_, times)
    finally:
        shutil.rmtree(root, ignore_errors=True)


def arguments(tool: str, question: str) -> dict[str, str]:
    return {"text": question} if tool == "echo" else {"question": question}


def report(round_: int, times: dict[str, list[float]]) -> None:
    f50, f99 = percentile(times["floor"], 50), percentile(times["floor"], 99)
    print(f"\nround {round_} (load {load()})")
    print("| server | p50 ms | / floor | p99 ms | / floor | mean ms |\n|---|---:|---:|---:|---:|---:|")
    for name, values in times.items():
        p50, p99 = percentile(values, 50), percentile(values, 99)
        print(f"| {name} | {p50 * 1e3:.2f} | {p50 / f50:.2f}x | {p99 * 1e3:.2f} | {p99 / f99:.2f}x | "
              f"{statistics.mean(values) * 1e3:.2f} |")  # fmt: skip
    sys.stdout.flush()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("size", type=int)
    parser.add_argument("--shape", choices=["zipf", "generated"], default="zipf")
    parser.add_argument("--reads", type=int, default=600)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--code", type=Path, help="run the personakit of this checkout")
    anyio.run(run, parser.parse_args())
    return 0


if __name__ == "__main__":
    sys.exit(main())
