"""Embedders: one module per model or provider, each implementing :class:`hipocampo.ports.Embedder`.

Modules import their heavy dependency inside the constructor, so importing one costs nothing.
"""
