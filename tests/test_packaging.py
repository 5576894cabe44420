"""What `pip install .` ships: a wheel that can make a vault without the source checkout beside it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_a_built_wheel_carries_the_vault_template(tmp_path: Path) -> None:
    wheels, target = tmp_path / "wheels", tmp_path / "site"
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check", "-q"]
    subprocess.run([*pip, "wheel", "--no-deps", "-w", str(wheels), str(ROOT)], check=True, cwd=tmp_path)
    wheel = next(wheels.glob("personakit-*.whl"))
    subprocess.run([*pip, "install", "--no-deps", "--target", str(target), str(wheel)], check=True)
    script = (
        "import sys; from personakit.store.files import template_dir; from personakit.service import init_vault;"
        "t = template_dir(); assert str(t).startswith(sys.argv[1]), t;"
        "init_vault(__import__('pathlib').Path(sys.argv[2]))"
    )
    env = {**os.environ, "PYTHONPATH": str(target)}
    vault = tmp_path / "vault"
    subprocess.run([sys.executable, "-c", script, str(target), str(vault)], check=True, env=env, cwd=tmp_path)
    made = sorted(p.relative_to(vault).as_posix() for p in vault.rglob("*") if ".git" not in p.parts)
    assert made == [".gitignore", "README.md", "memories", "memories/.gitkeep"]
