"""The facade's calls grouped by concept, mixed into :class:`~hipocampo.client.AsyncMemory`.

Entry points (HTTP, CLI, MCP), the agent and the integrations reach the core only through
``AsyncMemory``; these mixins keep that one class readable by giving each concern its own module.
Every method is a thin call into ``services/`` over the memory's private ports (``self._deps``):
no rule lives here.
"""
