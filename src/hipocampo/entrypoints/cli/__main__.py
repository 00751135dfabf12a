"""``python -m hipocampo.entrypoints.cli``: the same command line as ``hipocampo``."""

from . import main

main()
