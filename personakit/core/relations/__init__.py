"""Near-duplicates and likely clashes between memories: `pairs` (the rules and the vault-wide search),
`statements` (a text read once into its parts) and `vocabulary` (the word tables they use)."""
