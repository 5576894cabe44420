"""Git's objects written by PersonaKit itself, without git's index: blobs and trees (`trees`), commit
objects (`commits`), and whether the owner's config asks for them to be signed (`signing`); the index
PersonaKit commits from (`gitindex`), and git's own, as the owner's tools read it (`ownerindex`). They
import no git library: `store/history.py` runs git for them, and reads what they cannot write themselves."""
