"""Recall: keyword scoring, fusion and boosts, calibrated relevance, and the budgeted context."""
