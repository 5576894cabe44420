# Makes the vault template a package, so a normal (non-editable) install ships it inside personakit.
