"""What a credential looks like: the engine (`engine`), the shapes it knows (one module per family: tokens,
bodies, values, numbers, phrases, contexts, assignments, hints, runs), their data (`patterns`, `words`,
`data/`), the text view it reads through (`textview`) and the lazily compiled patterns (`lazyre`).
Pure rules, no I/O."""
