"""The domain: entities and pure rules, with no I/O."""
