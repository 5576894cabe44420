from personakit.cli import run

run()
