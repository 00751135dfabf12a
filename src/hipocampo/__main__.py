"""`python -m hipocampo` runs the CLI."""

from .entrypoints.cli import main

main()
