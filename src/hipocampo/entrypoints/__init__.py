"""Ways into hipocampo from outside Python: the ``hipocampo`` command line (:mod:`.cli`)."""
