"""hipocampo's memory tools over the Model Context Protocol (``hipocampo mcp``), with the official SDK.

Over stdio, :func:`serve_stdio` serves one session, bound to the user the process was started for.
Over streamable HTTP, :func:`serve_http` (or :func:`mcp_asgi_app`, routed inside the HTTP service)
authenticates every request with an API key and serves the user it names.
"""

from ...domain.errors import ConfigurationError

try:
    import mcp  # noqa: F401
except ImportError as exc:  # pragma: no cover - depends on the installed extras
    raise ConfigurationError("the MCP server needs the MCP SDK: pip install 'hipocampo[mcp]'") from exc

from .asgi import McpAsgiApp, mcp_asgi_app, serve_http
from .server import Caller, RecallToolResult, build_server, configured_session, serve_stdio

__all__ = [
    "Caller",
    "McpAsgiApp",
    "RecallToolResult",
    "build_server",
    "configured_session",
    "mcp_asgi_app",
    "serve_http",
    "serve_stdio",
]
