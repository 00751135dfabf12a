"""Memory that tells the truth about what changed: reconciling new facts with stored ones, and marking
what a later fact replaced."""
