"""One vault on every device: `personakit sync` (`syncing`), the per-memory integration of two histories
(`integration`), the decisions that stand on each side (`standing`), and the merge driver a plain
`git pull` runs (`driver`)."""
