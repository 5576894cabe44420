"""What `pip install .`, `pipx install .` and `uv tool install .` ship: a wheel holding every module and
the files the package reads, that makes a vault and serves without the source checkout beside it."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PIP = [sys.executable, "-m", "pip", "--disable-pip-version-check", "-q"]


def test_a_built_wheel_carries_every_module_the_guide_and_the_vault_template(tmp_path: Path) -> None:
    wheels, target = tmp_path / "wheels", tmp_path / "site"
    subprocess.run([*PIP, "wheel", "--no-deps", "-w", str(wheels), str(ROOT)], check=True, cwd=tmp_path)
    wheel = next(wheels.glob("personakit-*.whl"))
    shipped = set(zipfile.ZipFile(wheel).namelist())
    source = {p.relative_to(ROOT).as_posix() for p in (ROOT / "personakit").rglob("*.py")}
    assert source - shipped == set()  # a package missing from pyproject's list breaks the installed command
    assert {"personakit/mcp/guide.md", "personakit/mcp/results.json"} <= shipped  # results.json: tools/list
    meaning = {
        f"personakit/core/meaning/{name}"
        for name in ("related.tsv", "topics.txt", "kinds.txt", "LICENSE-WordNet.txt")
    }
    assert meaning <= shipped  # the related-words table, and the WordNet licence it must ship with
    assert wheel.stat().st_size < 25_000_000
    subprocess.run([*PIP, "install", "--no-deps", "--target", str(target), str(wheel)], check=True)
    script = (
        "import sys; from personakit.store.files import template_dir; from personakit.vault.service import init_vault;"
        "from personakit.mcp.resources import guide_text; assert guide_text().startswith('# Using PersonaKit');"
        "from personakit.mcp.server import RESULTS; assert set(RESULTS) == {'personakit_read', 'personakit_propose'};"
        "t = template_dir(); assert str(t).startswith(sys.argv[1]), t;"
        "init_vault(__import__('pathlib').Path(sys.argv[2]));"
        "from personakit.core.credentials.engine import looks_like_credential as found;"  # reads core/data/
        "assert found('legal winner thank year wave sausage worth useful legal winner thank yellow');"
        "from personakit.core.meaning import same_words; assert 'allergic' in same_words('allergy')"
    )
    env = {**os.environ, "PYTHONPATH": str(target)}
    vault = tmp_path / "vault"
    subprocess.run([sys.executable, "-c", script, str(target), str(vault)], check=True, env=env, cwd=tmp_path)
    state = (".git", ".personakit")  # git and PersonaKit's machine state (its lock, its own git index)
    made = sorted(p.relative_to(vault).as_posix() for p in vault.rglob("*") if not set(state) & set(p.parts))
    assert made == [".gitattributes", ".gitignore", "README.md", "memories", "memories/.gitkeep"]
    helped = subprocess.run(
        [sys.executable, "-m", "personakit", "import", "--help"], env=env, cwd=tmp_path,
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    assert "--dry-run" in helped.stdout


def _tool(name: str) -> str | None:
    beside = Path(sys.executable).parent / name
    return str(beside) if beside.exists() else shutil.which(name)


@pytest.mark.slow
@pytest.mark.parametrize("installer", ["pipx", "uv"])
def test_installed_like_an_app_the_command_needs_no_virtual_environment_path(
    installer: str, tmp_path: Path
) -> None:
    """`pipx install .` and `uv tool install .` from a clone, each into a home of its own; then the
    `personakit` they put on PATH makes a vault and answers an MCP host. Needs pipx and uv (the test
    extra installs them) and the package registry, for the dependencies."""
    tool = _tool(installer)
    if tool is None:
        pytest.skip(f"{installer} is not installed (pip install pipx uv)")
    bin_dir = tmp_path / "bin"
    env = {
        **os.environ, "HOME": str(tmp_path), "PIPX_HOME": str(tmp_path / "pipx"), "PIPX_BIN_DIR": str(bin_dir),
        "UV_TOOL_DIR": str(tmp_path / "uv-tools"), "UV_TOOL_BIN_DIR": str(bin_dir),
    }  # fmt: skip
    command = [tool, "install", str(ROOT)] if installer == "pipx" else [tool, "tool", "install", str(ROOT)]
    done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    personakit = bin_dir / "personakit"
    assert personakit.exists()
    # A host starts `personakit` by name, from its own folder, with a short PATH.
    host_env = {**env, "PATH": f"{bin_dir}:/usr/bin:/bin"}
    vault = tmp_path / "vault"
    request = (
        '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25",'
        '"capabilities":{},"clientInfo":{"name":"host","version":"1"}}}\n'
    )
    served = subprocess.run(
        ["personakit", "serve", "--vault", str(vault)], input=request, env=host_env, cwd="/",
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert '"serverInfo":{"name":"personakit"' in served.stdout.replace(" ", ""), served.stderr
    assert (vault / "memories").is_dir()


def test_the_readme_says_how_to_get_pipx_or_uv_when_neither_is_installed() -> None:
    quick_start = (ROOT / "README.md").read_text().split("## Quick start")[1].split("\n## ")[0]
    assert "Neither installed yet?" in quick_start
    for way in ("apt install pipx", "brew install pipx", "pipx ensurepath", "astral.sh/uv/install.sh"):
        assert way in quick_start, way
