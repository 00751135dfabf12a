"""An example hipocampo plugin. Each provider lives in its own module, so choosing one imports
only that module: the chat model's LangChain import costs nothing to a user of the embedder."""
