"""The temperature-slider figure's data: one query, "was", over a grid of temperatures.

This is the site's widget ``attention-temperature`` (see the README's "Writing a
widget"): the build calls :func:`data` and writes its JSON beside the post,
``fallback.html`` shows the weights at τ = 1 without JavaScript, and
``widget.js`` adds the slider.

The sentence is "The cat that chased the mouse yesterday was tired after the
long chase". The query "was" needs its subject, and the subject is "cat", six
words back across a relative clause; "mouse" is the nearer noun, the classic
distractor. The figure asks what "was" reads from its context, so the keys it
may see are the seven tokens before it (the post says "the seven tokens before
it", so the uniform limit is log2 7 ≈ 2.81 bits). The causal mask hides the
five tokens after it; its own key is left out too, so that exactly seven
remain.

Why the numbers are what they are. Each vector has d = 4 hand-named features,
so the scores can be read off by eye:

====  =================================================================
dim   feature (1 = has it)
====  =================================================================
0     a noun: "cat", "mouse", "chase"; "yesterday" is a noun used as an
      adverb, so it gets half
1     outside the relative clause "that chased the mouse yesterday", i.e.
      in the main clause, where the subject of "was" must be
2     a verb
3     a function word: "The", "that", "the", "after"
====  =================================================================

The query of "was" asks mostly for a noun (4), then for the main clause (2),
a little for a verb (1) and barely for a function word (0.5). With
``1/sqrt(4) = 1/2`` the scores are cat 3, mouse 2, The 1.25, yesterday 1,
chased 0.5, that 0.25, the 0.25: "cat" wins because it is the only noun in
the main clause, "mouse" comes second as a noun in the wrong clause. At
τ = 1 "cat" gets about half the weight (entropy ≈ 2.06 bits), which leaves
room to move both ways. The gap of 1 between "cat" and "mouse" puts the
entropy within 0.02 bits of 0 by τ ≈ 0.1; the score spread puts it within
0.02 bits of log2 7 by τ ≈ 6. The grid spans 0.05 to 50, so both limits are
reached with margin. "chase" would tie with "cat" if it were visible: the
mask, not the numbers, keeps the future out.

Everything here is a pure function of the constants below, so two builds
write the same bytes.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np

from .attention import attention, entropy_bits

TOKENS = (
    "The", "cat", "that", "chased", "the", "mouse", "yesterday",
    "was",
    "tired", "after", "the", "long", "chase",
)  # fmt: skip
QUERY = TOKENS.index("was")

#        noun  main  verb  function
KEYS = (
    (0.0, 1.0, 0.0, 1.0),  # The
    (1.0, 1.0, 0.0, 0.0),  # cat
    (0.0, 0.0, 0.0, 1.0),  # that
    (0.0, 0.0, 1.0, 0.0),  # chased
    (0.0, 0.0, 0.0, 1.0),  # the
    (1.0, 0.0, 0.0, 0.0),  # mouse
    (0.5, 0.0, 0.0, 0.0),  # yesterday
    (0.0, 1.0, 1.0, 0.0),  # was
    (0.0, 1.0, 0.0, 0.0),  # tired
    (0.0, 1.0, 0.0, 1.0),  # after
    (0.0, 1.0, 0.0, 1.0),  # the
    (0.0, 1.0, 0.0, 0.0),  # long
    (1.0, 1.0, 0.0, 0.0),  # chase
)
QUERY_VECTOR = (4.0, 2.0, 1.0, 0.5)

# Log-spaced temperatures, 20 per decade, from 10^-1.3 ≈ 0.05 to 10^1.7 ≈ 50.
# Integer exponents make τ = 1 an exact grid point (index TAU_ONE).
STEPS_PER_DECADE = 20
_EXPONENTS = range(-26, 35)
TAU_ONE = _EXPONENTS.index(0)
DECIMALS = 6


@dataclass(frozen=True)
class TemperatureData:
    tokens: tuple[str, ...]
    query: int
    masked: tuple[bool, ...]  # hidden by the causal mask: after the query
    taus: tuple[float, ...]
    weights: tuple[tuple[float, ...], ...]  # per τ, one weight per token (0 off the context)
    entropy: tuple[float, ...]  # bits, per τ
    tau_one: int

    def to_dict(self) -> dict[str, Any]:
        """Rounded floats (the build writes sorted keys, compact): the same bytes every build."""
        return {
            "tokens": list(self.tokens),
            "query": self.query,
            "masked": list(self.masked),
            "taus": [_round(t) for t in self.taus],
            "weights": [[_round(w) for w in row] for row in self.weights],
            "entropy": [_round(h) for h in self.entropy],
            "tau_one": self.tau_one,
        }


def data(params: Mapping[str, str]) -> dict[str, Any]:
    """The widget's entry point: the figure takes no parameters."""
    return compute().to_dict()


def _round(x: float) -> float:
    value = round(float(x), DECIMALS)
    return 0.0 if value == 0 else value  # no "-0.0"


def temperatures() -> np.ndarray:
    return np.array([10.0 ** (e / STEPS_PER_DECADE) for e in _EXPONENTS])


def context_mask() -> np.ndarray:
    """True for the keys the query may read: the tokens before it."""
    return np.arange(len(TOKENS)) < QUERY


def weights_at(tau: float) -> np.ndarray:
    """Attention weights of "was" over every token at temperature τ (scores / τ)."""
    q = np.array([QUERY_VECTOR])
    k = np.array(KEYS)
    scale = 1.0 / (math.sqrt(k.shape[-1]) * tau)
    mask = context_mask()[None, :]
    _, weights = attention(q, k, np.eye(len(TOKENS)), causal=False, scale=scale, mask=mask)
    row: np.ndarray = weights[0]
    return row


@lru_cache(maxsize=1)
def compute() -> TemperatureData:
    taus = temperatures()
    rows = np.stack([weights_at(float(t)) for t in taus])
    return TemperatureData(
        tokens=TOKENS,
        query=QUERY,
        masked=tuple(bool(j > QUERY) for j in range(len(TOKENS))),
        taus=tuple(float(t) for t in taus),
        weights=tuple(tuple(float(w) for w in row) for row in rows),
        entropy=tuple(float(h) for h in entropy_bits(rows)),
        tau_one=TAU_ONE,
    )
