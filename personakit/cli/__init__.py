"""`personakit`: the owner's command line. Each command is a thin wrapper over the service and `owner`.

Every decision is one git commit. Every command but `doctor` first takes in what changed since the last
one (hand edits are committed as the owner's, the index catches up), so the audit trail has no holes even
when no server is running. `app` is the frame; each module beside it registers its commands.
"""

from personakit.cli import (  # noqa: F401  (registers their commands, in this order)
    memories,
    owner,
    people,
    relations,
    sync,
    transfer,
    vault,
)
from personakit.cli.app import COMMANDS, main, run

__all__ = ["COMMANDS", "main", "run"]
