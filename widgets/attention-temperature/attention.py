"""Scaled dot-product attention in NumPy: the seed post's ``attention`` function.

Written for reading, like the post's PyTorch version, and held to
``torch.nn.functional.scaled_dot_product_attention`` by ``tests/test_attention.py``.
The figure code calls it with its own ``scale`` (to turn the temperature) and
``mask`` (to hide tokens), the same two knobs torch's function has.
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import ArrayLike, NDArray

Array = NDArray[np.float64]


def softmax(scores: ArrayLike, axis: int = -1) -> Array:
    """A softmax that neither overflows nor turns a fully masked row into NaNs.

    Subtracting the row maximum keeps ``exp`` in range. A row of only ``-inf``
    has no maximum to subtract (``-inf - -inf`` is NaN), so such rows are given
    zero weight everywhere instead: the seed's first note says a real
    implementation must not produce NaNs there.
    """
    x = np.asarray(scores, dtype=np.float64)
    top = np.max(x, axis=axis, keepdims=True)
    top = np.where(np.isfinite(top), top, 0.0)
    e = np.exp(x - top)
    total = np.sum(e, axis=axis, keepdims=True)
    out: Array = np.divide(e, total, out=np.zeros_like(e), where=total > 0)
    return out


def attention(
    q: ArrayLike,
    k: ArrayLike,
    v: ArrayLike,
    causal: bool = True,
    *,
    scale: float | None = None,
    mask: ArrayLike | None = None,
) -> tuple[Array, Array]:
    """``(weights @ v, weights)`` for q ``(..., n, d)``, k ``(..., m, d)``, v ``(..., m, d_v)``.

    ``scale`` defaults to ``1 / sqrt(d)``. ``causal`` hides keys after each
    query's position (the mask ``M`` of the post's equation); ``mask`` is a
    boolean array broadcastable to the scores, True where a key may be seen,
    as torch's boolean ``attn_mask``. Computed in float64.
    """
    q = np.asarray(q, dtype=np.float64)
    k = np.asarray(k, dtype=np.float64)
    v = np.asarray(v, dtype=np.float64)
    d = q.shape[-1]
    factor = 1.0 / math.sqrt(d) if scale is None else scale
    scores = (q @ np.swapaxes(k, -2, -1)) * factor
    allowed = np.ones(scores.shape[-2:], dtype=bool)
    if causal:
        allowed = np.tril(allowed)  # query i sees keys 0..i (top-left, as torch's is_causal)
    if mask is not None:
        allowed = allowed & np.asarray(mask, dtype=bool)
    scores = np.where(allowed, scores, -np.inf)
    weights = softmax(scores, axis=-1)
    return weights @ v, weights


def entropy_bits(weights: ArrayLike, axis: int = -1) -> Array:
    """Shannon entropy in bits; ``0 log 0`` counts as 0, so masked keys add nothing."""
    p = np.asarray(weights, dtype=np.float64)
    logs = np.log2(p, out=np.zeros_like(p), where=p > 0)
    return np.asarray(-np.sum(p * logs, axis=axis), dtype=np.float64)
