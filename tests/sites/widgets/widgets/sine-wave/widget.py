"""A second widget, living only in this test site: sin(k x) for a few frequencies k.

The figure's attributes arrive as strings in ``params``: ``points`` samples per curve
(default 41) and ``top`` the highest frequency (default 4).
"""

import math
from collections.abc import Mapping
from typing import Any


def data(params: Mapping[str, str]) -> dict[str, Any]:
    points = int(params.get("points", "41"))
    top = int(params.get("top", "4"))
    xs = [2 * math.pi * i / (points - 1) for i in range(points)]
    return {
        "frequencies": list(range(1, top + 1)),
        "curves": [[round(math.sin(k * x), 4) for x in xs] for k in range(1, top + 1)],
    }
