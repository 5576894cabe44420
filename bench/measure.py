"""Measuring helpers for `run.py`: where servers run, how they are started, called and watched.

A server is spawned with the MCP SDK's own stdio client and `initialize` handshake, exactly as a host
would. Its PID is found among this process's children, so its CPU time (`/proc/PID/stat`) and peak RSS
(`VmHWM`) can be read. Nothing here touches ~/PersonaKit: every process gets a temporary HOME and git
config (see `Env`).
"""

from __future__ import annotations

import fcntl
import json
import math
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import anyio
from mcp import ClientSession
from mcp.client.stdio import StdioServerParameters, get_default_environment, stdio_client

from personakit.store.gitlock import git_working_in

BENCH = Path(__file__).resolve().parent


@dataclass
class Env:
    """Where servers run: a temporary home, git config, logs and vault copies."""

    root: Path
    code: Path | None = None  # a checkout whose personakit the servers and commands run, else this one
    home: Path = field(init=False)
    gitconfig: Path = field(init=False)
    logs: Path = field(init=False)

    def __post_init__(self) -> None:
        self.home = self.root / "home"
        self.logs = self.root / "logs"
        self.gitconfig = self.root / "gitconfig"
        self.home.mkdir(parents=True)
        self.logs.mkdir()
        self.gitconfig.write_text("[user]\n\tname = bench-owner\n\temail = owner@example.invalid\n")

    def variables(self, vault: Path | None = None) -> dict[str, str]:
        extra = {"HOME": str(self.home), "GIT_CONFIG_GLOBAL": str(self.gitconfig), "GIT_CONFIG_NOSYSTEM": "1"}
        if vault is not None:
            extra["PERSONAKIT_VAULT"] = str(vault)
        if self.code is not None:
            extra["PYTHONPATH"] = str(self.code)
        return extra

    def process_env(self, vault: Path | None = None) -> dict[str, str]:
        return get_default_environment() | self.variables(vault)

    # Processes run in the temporary root: `python -m personakit` run in a checkout would import the
    # checkout's own personakit first, whatever PYTHONPATH says (so --code would run the wrong code).
    def personakit(self, vault: Path) -> StdioServerParameters:
        args = ["-m", "personakit", "serve", "--vault", str(vault)]
        return StdioServerParameters(
            command=sys.executable, args=args, env=self.variables(vault), cwd=self.root
        )

    def floor(self) -> StdioServerParameters:
        args = [str(BENCH / "floor_server.py")]
        return StdioServerParameters(command=sys.executable, args=args, env=self.variables(), cwd=self.root)

    def cli(self, vault: Path, *args: str, log: Path) -> float:
        """Wall seconds of `python -m personakit ARGS --vault V`, a whole process as an owner's shell runs it."""
        command = [sys.executable, "-m", "personakit", *args, "--vault", str(vault)]
        start = time.perf_counter()
        with open(log, "a") as errlog:
            done = subprocess.run(
                command, env=self.process_env(vault), cwd=self.root, stdout=subprocess.DEVNULL, stderr=errlog
            )
        elapsed = time.perf_counter() - start
        if done.returncode not in (0, 1):  # doctor exits 1 when it reports a problem
            raise RuntimeError(f"{' '.join(args)} exited {done.returncode}; see {log}")
        return elapsed


def percentile(values: Sequence[float], p: float) -> float:
    """The p-th percentile (0-100) with linear interpolation; nan for no values."""
    if not values:
        return math.nan
    ordered = sorted(values)
    rank = (len(ordered) - 1) * p / 100
    low, high = math.floor(rank), math.ceil(rank)
    return ordered[low] + (ordered[high] - ordered[low]) * (rank - low)


def children(pid: int) -> list[int]:
    found = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            found += [int(c) for c in (task / "children").read_text().split()]
        except OSError:
            continue
    return found


def server_pid(args: Sequence[str]) -> int:
    """The PID of the server this client spawned: its child whose command line ends with args."""
    for pid in sorted(children(os.getpid()), reverse=True):
        try:
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if [a.decode() for a in cmdline if a][-len(args) :] == list(args):
            return pid
    raise RuntimeError(f"cannot find the server process among the children of {os.getpid()}")


def cpu_ticks(pid: int) -> int:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])  # utime + stime, all threads


async def wait_idle(pid: int, quiet: float = 0.2, most: float = 300.0) -> float:
    """Wait until the server has used no CPU for `quiet` seconds (its background work is done)."""
    start = time.perf_counter()
    last, since = cpu_ticks(pid), time.perf_counter()
    while time.perf_counter() - start < most:
        await anyio.sleep(0.02)
        now_ticks = cpu_ticks(pid)
        if now_ticks != last:
            last, since = now_ticks, time.perf_counter()
        elif time.perf_counter() - since >= quiet:
            break
    return time.perf_counter() - start


async def wait_for_git(vault: Path, most: float = 600.0) -> float:
    """Wait until no git process works in vault (PersonaKit may pack the repository in the background)."""
    start = time.perf_counter()
    while time.perf_counter() - start < most and git_running_in(vault):
        await anyio.sleep(0.1)
    return time.perf_counter() - start


async def wait_for_packer(vault: Path, most: float = 3600.0) -> float:
    """Wait until PersonaKit's packer is done in vault (it holds `.git/personakit-pack.lock` while it works,
    including the seconds it waits before removing what a new pack replaces) and no git process works
    there. An older PersonaKit's packer takes the same lock."""
    start = time.perf_counter()
    await anyio.sleep(1.0)  # a packer started by the last commit may not hold the lock yet
    fd = os.open(vault / ".git" / "personakit-pack.lock", os.O_RDWR | os.O_CREAT, 0o600)
    try:
        while time.perf_counter() - start < most:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                await anyio.sleep(0.5)
                continue
            fcntl.flock(fd, fcntl.LOCK_UN)
            if not git_running_in(vault):
                break
            await anyio.sleep(0.5)
    finally:
        os.close(fd)
    return time.perf_counter() - start


def packer_cpu(vault: Path) -> tuple[float, list[dict[str, Any]]]:
    """CPU seconds PersonaKit's packer spent in vault (its own and its git processes'), from its record
    (`.git/personakit-pack.json`), and its runs; NaN when there is no record (an older PersonaKit)."""
    try:
        seen = json.loads((vault / ".git" / "personakit-pack.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return math.nan, []
    return float(seen.get("cpu", math.nan)), list(seen.get("runs", []))


def git_running_in(vault: Path) -> bool:
    return bool(git_working_in(vault))  # processes named git working inside the vault, from /proc


def peak_rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return math.nan


def disk_usage_mb(folder: Path) -> float:
    """What the folder takes on disk (allocated blocks, as `du` counts), in MB."""
    total = 0
    for base, dirs, files in os.walk(folder):
        for name in files + dirs:
            try:
                total += os.lstat(os.path.join(base, name)).st_blocks * 512
            except FileNotFoundError:
                continue
    return total / 1e6


@asynccontextmanager
async def connect(params: StdioServerParameters, log: Path) -> AsyncIterator[tuple[ClientSession, int]]:
    """A session with an initialized server, and the server's PID."""
    with open(log, "a", encoding="utf-8") as errlog:
        async with (
            stdio_client(params, errlog=errlog) as (read, write),
            ClientSession(read, write) as session,
        ):
            await session.initialize()
            yield session, server_pid([params.command, *params.args][1:])


async def cold_start(params: StdioServerParameters, log: Path) -> float:
    """Seconds from spawn to the tools/list reply (closing the server afterwards is not counted)."""
    return (await first_read(params, log, None))[0]


async def first_read(params: StdioServerParameters, log: Path, question: str | None) -> tuple[float, float]:
    """Seconds from spawn to the tools/list reply, and to the answer of a read asked right after it (none
    when question is None): the server answers the handshake while the vault opens (a first index
    included), so a host's first read is what waits for the vault."""
    with open(log, "a", encoding="utf-8") as errlog:
        start = time.perf_counter()
        async with (
            stdio_client(params, errlog=errlog) as (read, write),
            ClientSession(read, write) as session,
        ):
            await session.initialize()
            tools = await session.list_tools()
            listed = answered = time.perf_counter() - start
            if question is not None:
                await call(session, "personakit_read", {"question": question})
                answered = time.perf_counter() - start
    if not tools.tools:
        raise RuntimeError("tools/list came back empty")
    return listed, answered


async def call(session: ClientSession, tool: str, arguments: dict[str, Any]) -> tuple[float, dict[str, Any]]:
    start = time.perf_counter()
    result = await session.call_tool(tool, arguments)
    elapsed = time.perf_counter() - start
    if result.is_error:
        text = " ".join(getattr(block, "text", "") for block in result.content)
        raise RuntimeError(f"{tool} answered isError: {text}")
    return elapsed, result.structured_content or {}


class Profiler:
    """py-spy sampling the server during one phase (only with --py-spy), as collapsed stacks."""

    def __init__(self, folder: Path | None, pid: int, name: str) -> None:
        self.process: subprocess.Popen[bytes] | None = None
        spy = shutil.which("py-spy") or shutil.which("py-spy", path=str(Path(sys.executable).parent))
        if folder is not None:
            if spy is None:
                raise SystemExit("--py-spy needs py-spy (pip install py-spy)")
            folder.mkdir(parents=True, exist_ok=True)
            command = [spy, "record", "--pid", str(pid), "--rate", "250", "--threads", "--idle",
                       "--format", "raw", "--output", str(folder / f"{name}.txt")]  # fmt: skip
            self.process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            time.sleep(0.5)  # let it attach

    def stop(self) -> None:
        if self.process is not None:
            self.process.send_signal(signal.SIGINT)
            self.process.wait(timeout=60)
