"""The server's threads share one glibc arena (`personakit.mcp.malloc`): counted with glibc's own report."""

from __future__ import annotations

import contextlib
import os
import platform
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import call, connect

pytestmark = pytest.mark.skipif(platform.libc_ver()[0] != "glibc", reason="glibc's arenas only")
HEAP = 64 << 20  # glibc's HEAP_MAX_SIZE on 64-bit systems

# Four threads allocate blocks malloc serves from an arena (bigger than pymalloc's 512 bytes, smaller than
# malloc's mmap threshold), all at once; then glibc's malloc_info says how many arenas (heaps) there are.
SCRIPT = """
import ctypes, sys, threading
from personakit.mcp.malloc import one_arena
if sys.argv[2] == "one":
    assert one_arena()
ready = threading.Barrier(4)
def allocate():
    kept = [bytearray(4000) for _ in range(50)]
    ready.wait()
threads = [threading.Thread(target=allocate) for _ in range(4)]
for t in threads:
    t.start()
for t in threads:
    t.join()
libc = ctypes.CDLL(None)
libc.fopen.restype = ctypes.c_void_p
libc.fopen.argtypes = [ctypes.c_char_p, ctypes.c_char_p]
libc.malloc_info.argtypes = [ctypes.c_int, ctypes.c_void_p]
libc.fclose.argtypes = [ctypes.c_void_p]
report = libc.fopen(sys.argv[1].encode(), b"w")
libc.malloc_info(0, report)
libc.fclose(report)
print("ready", flush=True)
sys.stdin.readline()  # alive while the test reads its maps
"""


def arenas(tmp_path: Path, how: str) -> tuple[int, int]:
    """The arenas glibc reports (the main one included), and the other arenas `heaps_of` finds."""
    report = tmp_path / f"{how}.xml"
    with subprocess.Popen(
        [sys.executable, "-c", SCRIPT, str(report), how],
        env={k: v for k, v in os.environ.items() if not k.startswith("MALLOC_")},  # glibc's own defaults
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    ) as process:
        assert process.stdout is not None and process.stdin is not None
        assert process.stdout.readline() == "ready\n"
        found = heaps_of(process.pid)
        process.stdin.close()
    assert process.returncode == 0
    return report.read_text().count("<heap nr="), found


def test_threads_allocate_from_one_arena(tmp_path: Path) -> None:
    reported, found = arenas(tmp_path, "default")  # each thread an arena of its own, as glibc makes them
    assert reported > 1 and found == reported - 1
    assert arenas(tmp_path, "one") == (1, 0)


def heaps_of(pid: int) -> int:
    """glibc's arenas other than the main one, from the process's maps: each is a region of 64 MiB aligned
    on 64 MiB, its used part read-write and the rest reserved (---p). A thread's stack has its guard page
    below it, not above, and is 8 MiB."""
    rows = []
    for line in Path(f"/proc/{pid}/maps").read_text().splitlines():
        fields = line.split()
        low, high = (int(x, 16) for x in fields[0].split("-"))
        rows.append((low, high, fields[1], len(fields) > 5))
    count = 0
    for (low, high, modes, named), after in zip(rows, [*rows[1:], None], strict=True):
        if low % HEAP or modes != "rw-p" or named:
            continue
        end = after[1] if after is not None and after[0] == high and after[2] == "---p" else high
        count += end - low == HEAP
    return count


def server_pid(vault: Path) -> int:
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError):
                args = (entry / "cmdline").read_bytes().split(b"\0")
                if b"serve" in args and str(vault).encode() in args:
                    return int(entry.name)
    raise AssertionError("the server's process was not found")


@pytest.mark.anyio
async def test_the_server_runs_on_one_arena(vault: Path) -> None:
    async with connect(vault) as session:
        await call(session, "personakit_propose", text="Prefers tea to coffee", quote="I prefer tea",
                   category="preferences")  # fmt: skip
        for question in ("what does the user drink?", "tea or coffee?", "anything about the morning?"):
            await call(session, "personakit_read", question=question)
        pid = server_pid(vault)
        assert heaps_of(pid) == 0
