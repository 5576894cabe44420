"""Retrieval quality of the real server: the labelled set through `personakit serve`, next to two baselines.

Starts `python -m personakit serve --vault TMP/vault` with the MCP SDK's stdio client, exactly as a host
would; proposes every memory of `memories.jsonl` with `personakit_propose(text, quote, category)` and maps
the returned ids back to the set's keys; then asks every question of `questions.jsonl` with
`personakit_read(question, limit=7)` for recall@1/3/5/7, and again with `limit=20` (the most a read
returns) for MRR, which counts ranks down to 20 as the baselines do. Prints R@1 R@3 R@5 R@7 and MRR for
the tune and heldout splits, ours next to `evaluate.bm25_baseline` and `evaluate.overlap_baseline`, then
R@5 and MRR per question kind.

Every proposal is `unconfirmed`, so the approved fill of a read (approved memories that share no word
filling up to three places) never applies here: a question that shares no word with any memory gets an
empty list. The figures measure the overlap ranking alone.

Nothing touches ~/PersonaKit: the server gets `--vault` in a temporary folder, a temporary HOME and a
temporary GIT_CONFIG_GLOBAL with a bench identity. About a minute: the proposals dominate (each one is a
file, a git commit and an index update).

    python bench/quality/run.py                 # the tables
    python bench/quality/run.py --json out.json # also every figure and every ranking, as JSON
    python bench/quality/run.py --keep          # keep the vault and print where it is
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import anyio
from evaluate import (
    KINDS,
    SPLITS,
    Memory,
    Question,
    bm25_baseline,
    load_set,
    metrics,
    overlap_baseline,
    print_by_kind,
    print_table,
)
from mcp import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

RECALL_LIMIT = 7  # the read's default limit: what an assistant sees
MRR_LIMIT = 20  # the most a read returns


def server_params(root: Path) -> StdioServerParameters:
    home = root / "home"
    home.mkdir(parents=True, exist_ok=True)
    gitconfig = root / "gitconfig"
    gitconfig.write_text("[user]\n\tname = quality-bench\n\temail = quality-bench@example.invalid\n")
    vault = root / "vault"
    env = {
        "HOME": str(home),
        "GIT_CONFIG_GLOBAL": str(gitconfig),
        "GIT_CONFIG_NOSYSTEM": "1",
        "PERSONAKIT_VAULT": str(vault),
    }
    args = ["-m", "personakit", "serve", "--vault", str(vault)]
    return StdioServerParameters(command=sys.executable, args=args, env=env)


async def tool(session: ClientSession, name: str, **arguments: Any) -> dict[str, Any]:
    result = await session.call_tool(name, arguments)
    if result.is_error or result.structured_content is None:
        text = result.content[0].text if result.content else ""  # type: ignore[union-attr]
        raise RuntimeError(f"{name} failed: {text}")
    return result.structured_content


async def through_server(
    root: Path, memories: Sequence[Memory], questions: Sequence[Question]
) -> dict[str, Any]:
    """Propose every memory, then ask every question twice (limits 7 and 20). Keys, not ids, come back."""
    keys: dict[str, str] = {}
    propose_ms: list[float] = []
    read_ms: list[float] = []
    ranked: dict[int, dict[str, list[str]]] = {RECALL_LIMIT: {}, MRR_LIMIT: {}}
    with open(root / "server-stderr.log", "w", encoding="utf-8") as errlog:
        async with stdio_client(server_params(root), errlog=errlog) as (read, write):
            async with ClientSession(read, write) as session:
                await session.initialize()
                for memory in memories:
                    start = time.perf_counter()
                    stored = await tool(
                        session,
                        "personakit_propose",
                        text=memory["text"],
                        quote=memory["quote"],
                        category=memory["category"],
                    )
                    propose_ms.append((time.perf_counter() - start) * 1000)
                    if not stored.get("stored"):
                        raise RuntimeError(f"{memory['key']} was not stored: {stored}")
                    if not stored["new"] or stored["id"] in keys:
                        raise RuntimeError(f"{memory['key']} is the same memory as {keys.get(stored['id'])}")
                    keys[stored["id"]] = memory["key"]
                for question in questions:
                    for limit in (RECALL_LIMIT, MRR_LIMIT):
                        start = time.perf_counter()
                        result = await tool(
                            session, "personakit_read", question=question["question"], limit=limit
                        )
                        read_ms.append((time.perf_counter() - start) * 1000)
                        ranked[limit][question["qid"]] = [
                            keys.get(m["id"], m["id"]) for m in result["memories"]
                        ]
    return {"ranked": ranked, "propose_ms": propose_ms, "read_ms": read_ms}


def combined(at7: dict[str, Any], at20: dict[str, Any]) -> dict[str, Any]:
    """Recall and all@k from the limit-7 reads; MRR from the limit-20 reads (ranks down to 20)."""
    out = json.loads(json.dumps(at7))
    for split in out:
        out[split]["mrr"] = at20[split]["mrr"]
        for kind in out[split]["by_kind"]:
            out[split]["by_kind"][kind]["mrr"] = at20[split]["by_kind"][kind]["mrr"]
    return out


def median_p95(values: Sequence[float]) -> str:
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
    return f"median {statistics.median(ordered):.1f} ms, p95 {p95:.1f} ms"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("--json", metavar="PATH", help="write every figure and ranking to PATH as JSON")
    parser.add_argument("--keep", action="store_true", help="keep the temporary vault and say where it is")
    args = parser.parse_args(argv)

    memories, questions = load_set()
    root = Path(tempfile.mkdtemp(prefix="personakit-quality-"))
    started = time.perf_counter()
    try:
        run = anyio.run(through_server, root, memories, questions)
    finally:
        if not args.keep:
            import shutil

            shutil.rmtree(root, ignore_errors=True)
    elapsed = time.perf_counter() - started

    at7, at20 = run["ranked"][RECALL_LIMIT], run["ranked"][MRR_LIMIT]
    ours = combined(metrics(at7, questions), metrics(at20, questions))
    rows = [
        ("personakit", ours),
        ("bm25", metrics(bm25_baseline(memories, questions), questions)),
        ("overlap", metrics(overlap_baseline(memories, questions), questions)),
    ]
    prefix_differs = [q["qid"] for q in questions if at20[q["qid"]][: len(at7[q["qid"]])] != at7[q["qid"]]]

    print(f"{len(memories)} memories proposed, {len(questions)} questions asked, in {elapsed:.0f} s")
    print(f"propose: {median_p95(run['propose_ms'])}; read: {median_p95(run['read_ms'])}")
    print("personakit: R@k from reads with limit 7, MRR from reads with limit 20; all memories unconfirmed")
    print()
    print_table(rows, columns=("recall@1", "recall@3", "recall@5", "recall@7", "mrr", "all@5"))
    for split in SPLITS:
        print()
        print_by_kind(rows, split=split, column="recall@5")
    print()
    print_by_kind(rows, split="all", column="mrr")
    print()
    unanswerable = ours["all"]["by_kind"]["unanswerable"]["unanswerable_returned"]
    print(f"unanswerable questions: personakit returns {unanswerable:.1f} memories on average (limit 7)")
    if prefix_differs:
        print(
            f"note: {len(prefix_differs)} reads with limit 20 do not start with the limit-7 result: {prefix_differs}"
        )
    if args.keep:
        print(f"vault kept at {root / 'vault'}")

    if args.json:
        payload = {
            "metrics": dict(rows),
            "ranked": {"limit7": at7, "limit20": at20},
            "propose_ms": run["propose_ms"],
            "read_ms": run["read_ms"],
            "kinds": list(KINDS),
        }
        Path(args.json).write_text(json.dumps(payload, indent=1, default=str), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
