"""How long `personakit sync` takes on a big vault with changes on two devices.

Two devices share a bare repository on local disk. In each round, each device makes CHANGES changes
through PersonaKit (proposals, decisions and one hand edit, half of them on memories the other device
also touches), then device A syncs (sending its changes), then device B (bringing A's in, integrating
its own on top, sending), then A again (bringing B's in). Each sync is the owner's command,
`python -m personakit sync`, timed as a whole process. The reference, in the same minutes on the same
vaults: a plain clone of the same size doing what an owner would do by hand with git for the same
change counts (`git pull --rebase` then `git push`), which neither merges memories nor checks anything.

    python bench/sync.py              # 10,000 memories, 10 changes on each side, 3 rounds
    python bench/sync.py --size 1000 --rounds 1
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from generate import bench_gitconfig, cached_vault, copy_vault

from personakit.core.memory import parse_memory
from personakit.owner.decisions import decide
from personakit.vault.service import PersonaKit

CHANGES = 10


def git(root: Path, *args: str) -> None:
    subprocess.run(["git", "-C", str(root), *args], check=True, capture_output=True)


def timed(command: list[str], cwd: Path | None = None) -> float:
    t0 = time.perf_counter()
    done = subprocess.run(command, cwd=cwd, capture_output=True, text=True, check=False)
    took = time.perf_counter() - t0
    if done.returncode:
        raise SystemExit(f"{' '.join(command)} failed:\n{done.stdout}\n{done.stderr}")
    return took


def sync(root: Path) -> float:
    return timed([sys.executable, "-m", "personakit", "sync", "--vault", str(root)])


def change(root: Path, rng: random.Random, shared: list[str], tag: str, changes: int) -> None:
    """changes changes on the device at root: proposals, decisions on shared memories, a hand edit."""
    kit = PersonaKit(root, create=False)
    kit.start()
    try:
        names = sorted(os.listdir(root / "memories"))
        for i in range(changes // 2):
            kit.propose(f"Device {tag} round fact {rng.randrange(10**9)} number {i}", f"I said {i}", "facts")
        for mid in shared[: changes // 2 - 1]:
            decide(kit, mid, rng.choice(["approved", "rejected", "restricted"]))
        path = root / "memories" / rng.choice([n for n in names if n.endswith(".md")])
        raw = path.read_text(encoding="utf-8")
        path.write_text(raw.rstrip("\n") + f" (edited on {tag})\n", encoding="utf-8")
        kit.sync([path.name])
    finally:
        kit.close()


def plain_round(a: Path, b: Path, rng: random.Random, changes: int) -> list[float]:
    """The same change counts committed by hand in two plain clones, then pull --rebase and push."""
    took = []
    for root, tag in ((a, "a"), (b, "b")):
        for i in range(changes):
            (root / "memories" / f"plain-{tag}-{rng.randrange(10**9)}-{i}.md").write_text(f"{tag} {i}\n")
            git(root, "add", "memories")
            git(root, "commit", "-q", "-m", f"plain {tag} {i}")
    for root in (a, b, a):
        took.append(
            timed(["git", "pull", "-q", "--rebase", "origin", "main"], root)
            + timed(["git", "push", "-q", "origin", "HEAD:main"], root)
        )
    return took


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--size", type=int, default=10_000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--changes", type=int, default=CHANGES)
    options = parser.parse_args()
    os.environ["GIT_CONFIG_GLOBAL"] = str(bench_gitconfig())
    os.environ["GIT_CONFIG_NOSYSTEM"] = "1"
    source = cached_vault(options.size)
    rng = random.Random(7)
    load = os.getloadavg()
    with tempfile.TemporaryDirectory(prefix="personakit-sync-bench-") as scratch:
        top = Path(scratch)
        for bare in ("remote.git", "plain-remote.git"):  # the plain pair has its own remote
            subprocess.run(["git", "clone", "-q", "--bare", str(source), str(top / bare)], check=True)
        devices = {}
        for name in ("a", "b", "plain-a", "plain-b"):
            root = copy_vault(source, top / name)
            bare = top / ("plain-remote.git" if name.startswith("plain") else "remote.git")
            git(root, "remote", "add", "origin", str(bare))
            git(root, "fetch", "-q", "origin")
            git(root, "branch", "-q", "--set-upstream-to=origin/main")
            devices[name] = root
        a, b = devices["a"], devices["b"]
        ids = [
            parse_memory((a / "memories" / n).read_text()).id
            for n in sorted(os.listdir(a / "memories"))[1:40]
        ]
        times: dict[str, list[float]] = {"A sends": [], "B brings and sends": [], "A brings": []}
        plain: list[list[float]] = []
        for _ in range(options.rounds):
            shared = rng.sample(ids, 10)
            change(a, rng, shared, "a", options.changes)
            change(b, rng, shared, "b", options.changes)
            for label, root in zip(times, (a, b, a), strict=True):
                times[label].append(sync(root))
            plain.append(plain_round(devices["plain-a"], devices["plain-b"], rng, options.changes))
        heads = {subprocess.run(["git", "-C", str(r), "rev-parse", "HEAD"], capture_output=True, text=True).stdout
                 for r in (a, b)}  # fmt: skip
    print(f"# personakit sync, {options.size:,} memories, {options.changes} changes on each device, "
          f"{options.rounds} rounds; load average at the start {load[0]:.1f}, at the end {os.getloadavg()[0]:.1f}")  # fmt: skip
    print()
    print("| sync | personakit sync (median) | git pull --rebase + push by hand (median) | ratio |")
    print("|---|---:|---:|---:|")
    for i, (label, values) in enumerate(times.items()):
        mine, theirs = statistics.median(values), statistics.median(p[i] for p in plain)
        print(f"| {label} | {mine:.2f} s | {theirs:.2f} s | {mine / theirs:.1f}x |")
    print()
    print("both devices at one commit after each round's last sync:", "yes" if len(heads) == 1 else "NO")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
