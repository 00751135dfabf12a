"""SQLite adapters: the embedded default. One file holds the log, memories, indexes and outbox."""
