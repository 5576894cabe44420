"""Every common git reads the vault: the command line, libgit2 (pygit2) and isomorphic-git (what Obsidian
Git uses). New vaults keep git's index at version 2 without a split index, and a 0.1 vault's split
version-4 index is converted at start.

The isomorphic-git check needs node and npm (and the npm registry, once per run: about 5 s); it is skipped
when they are missing. Run it alone with: python -m pytest tests/store/test_git_readers.py -k isomorphic
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pygit2
import pytest
from owner import cli, git, propose

Capsys = pytest.CaptureFixture[str]


def a_vault_as_0_1_left_it(vault: Path) -> None:
    """0.1's init: core.splitIndex and index.version 4 in the vault's config, and its index written so."""
    git(vault, "config", "core.splitIndex", "true")
    git(vault, "config", "index.version", "4")
    git(vault, "update-index", "--index-version", "4")
    git(vault, "update-index", "--split-index")
    with pytest.raises(pygit2.GitError):
        pygit2.Repository(str(vault)).index.read()  # what Obsidian-side tools met


def index_version(vault: Path) -> int:
    return int.from_bytes((vault / ".git" / "index").read_bytes()[4:8], "big")


def test_libgit2_reads_a_new_vault_and_a_converted_one(vault: Path, capsys: Capsys) -> None:
    a_vault_as_0_1_left_it(vault)
    tea, _ = propose(vault, "Drinks green tea", "Drinks black coffee")  # the first start converts it
    assert cli(capsys, "approve", tea, "--vault", str(vault))[0] == 0
    assert git(vault, "config", "--local", "--list").count("splitindex") == 0
    assert index_version(vault) == 2 and git(vault, "rev-parse", "--shared-index-path").strip() == ""

    repo = pygit2.Repository(str(vault))
    repo.index.read()
    paths = {entry.path for entry in repo.index}
    assert {"memories/drinks-green-tea.md", "memories/drinks-black-coffee.md", "README.md"} <= paths
    assert str(repo.head.target) == git(vault, "rev-parse", "HEAD").strip()
    blob = repo.revparse_single("HEAD:memories/drinks-green-tea.md")
    assert blob.data == (vault / "memories" / "drinks-green-tea.md").read_bytes()
    assert "state: approved" in blob.data.decode()
    assert repo.status() == {}  # clean, as libgit2 sees it

    assert cli(capsys, "init", str(vault.parent / "fresh"))[0] == 0  # a new vault never splits it
    assert index_version(vault.parent / "fresh") == 2
    pygit2.Repository(str(vault.parent / "fresh")).index.read()


READ_JS = """
const git = require('isomorphic-git'); const fs = require('fs');
(async () => {
  const [dir, path] = process.argv.slice(2);
  const head = await git.resolveRef({ fs, dir, ref: 'HEAD' });
  const files = await git.listFiles({ fs, dir });
  const matrix = await git.statusMatrix({ fs, dir });
  const { blob } = await git.readBlob({ fs, dir, oid: head, filepath: path });
  console.log(JSON.stringify({ head, files, matrix, blob: Buffer.from(blob).toString('utf8') }));
})().catch(e => { console.error(String(e)); process.exit(1); });
"""


@pytest.fixture(scope="session")
def isomorphic_git(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if not (shutil.which("node") and shutil.which("npm")):
        pytest.skip("isomorphic-git needs node and npm")
    folder = tmp_path_factory.mktemp("isomorphic-git")
    done = subprocess.run(
        ["npm", "install", "--silent", "--no-audit", "--no-fund", "isomorphic-git@1"],
        cwd=folder, capture_output=True, text=True, timeout=180, check=False,
    )  # fmt: skip
    if done.returncode != 0:
        pytest.skip(f"could not install isomorphic-git from npm: {done.stderr.strip()[-200:]}")
    (folder / "read.js").write_text(READ_JS)
    return folder / "read.js"


def test_isomorphic_git_reads_a_converted_vault(vault: Path, capsys: Capsys, isomorphic_git: Path) -> None:
    a_vault_as_0_1_left_it(vault)
    (tea,) = propose(vault, "Drinks green tea")
    assert cli(capsys, "approve", tea, "--vault", str(vault))[0] == 0
    done = subprocess.run(
        ["node", str(isomorphic_git), str(vault), "memories/drinks-green-tea.md"],
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    seen = json.loads(done.stdout)
    assert seen["head"] == git(vault, "rev-parse", "HEAD").strip()
    assert "memories/drinks-green-tea.md" in seen["files"] and "README.md" in seen["files"]
    assert all(row[1:] == [1, 1, 1] for row in seen["matrix"]), seen["matrix"]  # unchanged everywhere
    assert "state: approved" in seen["blob"]
