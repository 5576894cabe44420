"""PersonaKit: a personal memory vault that AI assistants read and add to, and that its owner controls."""

__version__ = "0.1.0"
