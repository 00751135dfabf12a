"""Adapters: one module per backend or provider."""
