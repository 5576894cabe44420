"""Helpers for the sync tests: a bare repository on local disk as the remote, and devices that clone it.

A `Device` keeps one PersonaKit open (in process, as a server would) and acts as its owner and its
assistants would: proposals, decisions, hand edits in an editor, forgets, and `personakit sync`.
"""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from pathlib import Path

from personakit.core.memory import parse_memory
from personakit.owner.decisions import decide, forget
from personakit.sync.syncing import Report, sync
from personakit.vault.service import PersonaKit, ProposeResult, init_vault


def git(where: Path, *args: str, check: bool = True) -> str:
    done = subprocess.run(["git", "-C", str(where), *args], capture_output=True, text=True, check=False)
    if check and done.returncode:
        raise AssertionError(f"git {' '.join(args)} failed: {done.stderr}")
    return done.stdout


def bare_remote(tmp_path: Path, name: str = "remote.git") -> Path:
    bare = tmp_path / name
    subprocess.run(["git", "init", "-q", "--bare", "-b", "main", str(bare)], check=True)
    return bare


def first_device(tmp_path: Path, bare: Path, name: str = "laptop") -> Path:
    """A new vault whose remote is bare, synced once (so the remote holds the vault)."""
    root = tmp_path / name
    init_vault(root)
    git(root, "remote", "add", "origin", str(bare))
    kit = PersonaKit(root, create=False)
    kit.start()
    try:
        sync(kit)
    finally:
        kit.close()
    return root


TEA = "Drinks green tea in the morning"


def laptop_and_desktop(tmp_path: Path) -> Iterator[tuple[Device, Device]]:
    """Two devices sharing a bare remote: the laptop proposed TEA and synced; the desktop cloned after (its
    start installs the merge driver there). For a fixture to yield from."""
    bare = bare_remote(tmp_path)
    laptop = Device(first_device(tmp_path, bare))
    laptop.propose(TEA)
    laptop.sync()
    desktop = Device(clone(tmp_path, bare, "desktop"))
    try:
        yield laptop, desktop
    finally:
        laptop.close()
        desktop.close()


def clone(tmp_path: Path, bare: Path, name: str) -> Path:
    root = tmp_path / name
    subprocess.run(["git", "clone", "-q", str(bare), str(root)], check=True)
    return root


class Device:
    def __init__(self, root: Path) -> None:
        self.root = root
        self.kit = PersonaKit(root, create=False)
        self.kit.start()

    def close(self) -> None:
        self.kit.close()

    def propose(
        self, text: str, quote: str = "", host: str = "claude-desktop", category: str = "preferences"
    ) -> ProposeResult:
        result = self.kit.propose(text, quote or f"I said: {text.lower()}", category, host=host)
        assert result["stored"], result
        return result

    def decide(self, mid: str, state: str) -> None:
        decide(self.kit, mid, state)  # type: ignore[arg-type]

    def forget(self, mid: str) -> None:
        forget(self.kit, mid)

    def name_of(self, mid: str) -> str:
        return next(name for name, text in self.files().items() if parse_memory(text).id == mid)

    def edit_text(self, mid: str, new_text: str) -> None:
        """Change a memory's text in an editor (the id stays), then let PersonaKit take it in."""
        name = self.name_of(mid)
        path = self.root / "memories" / name
        raw = path.read_text(encoding="utf-8")
        old = parse_memory(raw).text
        path.write_text(raw.replace(f"\n{old}\n", f"\n{new_text}\n"), encoding="utf-8")
        self.kit.sync([name])

    def edit_state(self, mid: str, state: str) -> None:
        """Change a memory's state line in an editor."""
        name = self.name_of(mid)
        path = self.root / "memories" / name
        old = parse_memory(path.read_text(encoding="utf-8")).state
        path.write_text(
            path.read_text(encoding="utf-8").replace(f"state: {old}\n", f"state: {state}\n"), encoding="utf-8"
        )
        self.kit.sync([name])

    def rename(self, mid: str, new_name: str) -> None:
        """Rename a memory's file by hand."""
        name = self.name_of(mid)
        (self.root / "memories" / name).rename(self.root / "memories" / new_name)
        self.kit.sync([name, new_name])

    def delete_file(self, mid: str) -> None:
        """Forget by deleting the file by hand."""
        name = self.name_of(mid)
        (self.root / "memories" / name).unlink()
        self.kit.sync([name])

    def sync(self, **options: object) -> Report:
        return sync(self.kit, **options)  # type: ignore[arg-type]

    def files(self) -> dict[str, str]:
        return {p.name: p.read_text(encoding="utf-8") for p in sorted((self.root / "memories").glob("*.md"))}

    def memories(self) -> dict[str, tuple[str, str]]:
        """id -> (state, text) of every memory file."""
        found: dict[str, tuple[str, str]] = {}
        for name, text in self.files().items():
            memory = parse_memory(text, name)
            found[memory.id] = (memory.state, memory.text)
        return found

    def head(self) -> str:
        return git(self.root, "rev-parse", "HEAD").strip()

    def subjects(self) -> list[str]:
        return git(self.root, "log", "--format=%s").splitlines()

    def clean(self) -> bool:
        return git(self.root, "status", "--porcelain", "--untracked-files=all") == ""
