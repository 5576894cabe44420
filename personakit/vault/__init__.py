"""The vault: the PersonaKit object (`service`) and what it does with the stores: read, propose, take in
hand edits (`intake`), write every change (`writing`), resolve copies (`copies`), link corrections and
near-duplicates (`linking`), build a first index in parallel (`firstindex`), bring an older vault up to
date (`housekeeping`), and finish a move of the work tree that a kill interrupted (`moving`)."""
