"""The HTTP service (``hipocampo serve``): a FastAPI app over :class:`~hipocampo.AsyncMemory`."""

from .app import create_app

__all__ = ["create_app"]
