"""Write ``tests/data/sdpa_reference.json``: torch's scaled dot-product attention, recorded.

``widgets/attention-temperature/attention.py`` (the site's temperature widget) is held to
``torch.nn.functional.scaled_dot_product_attention``. Installing torch for every
``make test`` costs hundreds of megabytes (gigabytes with a CUDA wheel), so the
comparison is split: this script records torch's outputs for a few small,
seeded inputs once, ``tests/test_attention.py`` checks the NumPy module against
the recording on every run, and ``make test-torch`` repeats the comparison
against a live torch (and checks that torch still reproduces the recording).

Regenerate, in a throwaway venv so the project's own stays small::

    python3 -m venv /tmp/torchvenv
    /tmp/torchvenv/bin/pip install torch==2.13.0 numpy
    /tmp/torchvenv/bin/python tools/make_sdpa_reference.py

Output is deterministic for a given torch build: fixed seeds, inputs and outputs
as exact decimal floats (``repr``), sorted keys, no timestamps.
"""

from __future__ import annotations

import argparse
import json
import platform
from pathlib import Path
from typing import Any

import numpy as np

OUT = Path(__file__).resolve().parent.parent / "tests" / "data" / "sdpa_reference.json"
SEED = 20261129

# Small on purpose (the file is committed): each case exercises one argument of
# torch's function that the figure code relies on.
CASES: list[dict[str, Any]] = [
    # The seed post's call: causal, float64, batch and heads.
    {"name": "causal-float64", "shape": [2, 2, 6, 4], "dtype": "float64", "is_causal": True},
    # The seed's check.py ran in float32: torch rounds, ours computes in float64.
    {"name": "causal-float32", "shape": [1, 2, 6, 4], "dtype": "float32", "is_causal": True},
    # No mask at all, value width != key width.
    {"name": "full-dv3", "shape": [1, 1, 5, 4], "dv": 3, "dtype": "float64", "is_causal": False},
    # The temperature figure's knob: an explicit scale.
    {
        "name": "scale-0.05",
        "shape": [1, 1, 5, 4],
        "dtype": "float64",
        "is_causal": True,
        "scale": 0.05,
    },
    # The figure's other knob: a boolean attn_mask (True = may attend), broadcast over heads;
    # every row keeps at least one key (torch gives NaN for a fully masked row, ours zeros).
    {"name": "bool-mask", "shape": [1, 2, 5, 4], "dtype": "float64", "mask": True},
    # More keys than queries: torch's is_causal aligns the mask top-left, as ours does.
    {
        "name": "causal-rect",
        "shape": [1, 1, 3, 4],
        "keys": 5,
        "dtype": "float64",
        "is_causal": True,
    },
]


def case_inputs(case: dict[str, Any], rng: np.random.Generator) -> dict[str, np.ndarray]:
    """Seeded inputs for ``case``; float32 cases are rounded to float32 here, once."""
    b, h, n, d = case["shape"]
    m = case.get("keys", n)
    dtype = np.dtype(case["dtype"])
    arrays = {
        "q": rng.standard_normal((b, h, n, d)),
        "k": rng.standard_normal((b, h, m, d)),
        "v": rng.standard_normal((b, h, m, case.get("dv", d))),
    }
    if case.get("mask"):
        mask = rng.random((n, m)) < 0.6
        mask[np.arange(n), rng.integers(0, m, n)] = True  # no fully masked row
        arrays["mask"] = mask
    return {key: value.astype(dtype) if key != "mask" else value for key, value in arrays.items()}


def record(case: dict[str, Any], inputs: dict[str, np.ndarray]) -> list[Any]:
    """torch's output for ``case`` as nested lists of Python floats."""
    import torch

    tensors = {key: torch.from_numpy(value) for key, value in inputs.items()}
    out = torch.nn.functional.scaled_dot_product_attention(
        tensors["q"],
        tensors["k"],
        tensors["v"],
        attn_mask=tensors.get("mask"),
        is_causal=case.get("is_causal", False),
        scale=case.get("scale"),
    )
    assert str(out.dtype) == f"torch.{case['dtype']}", out.dtype
    result: list[Any] = out.double().numpy().tolist()
    return result


def reference() -> dict[str, Any]:
    """The whole recording; ``make test-torch`` calls this to compare with the file."""
    import torch

    rng = np.random.default_rng(SEED)
    cases = []
    for case in CASES:
        inputs = case_inputs(case, rng)
        entry = dict(case)
        entry["inputs"] = {
            key: value.tolist() if key == "mask" else value.astype(np.float64).tolist()
            for key, value in inputs.items()
        }
        entry["output"] = record(case, inputs)
        cases.append(entry)
    return {
        "about": "torch.nn.functional.scaled_dot_product_attention on seeded inputs; "
        "regenerate with tools/make_sdpa_reference.py",
        "torch": torch.__version__,
        "numpy": np.__version__,
        "machine": platform.machine(),
        "seed": SEED,
        "cases": cases,
    }


def dumps(data: dict[str, Any]) -> str:
    """Readable JSON: one line per array, floats as ``repr`` (an exact round trip)."""

    def block(value: dict[str, Any], indent: str) -> str:
        lines = []
        for key in sorted(value):
            item = value[key]
            if isinstance(item, dict):
                text = block(item, indent + "  ")
            elif isinstance(item, list) and item and isinstance(item[0], dict):
                inner = indent + "    "
                text = "[\n" + ",\n".join(inner + block(x, inner) for x in item)
                text += "\n" + indent + "  ]"
            else:
                text = json.dumps(item)
            lines.append(f"{indent}  {json.dumps(key)}: {text}")
        return "{\n" + ",\n".join(lines) + "\n" + indent + "}"

    return block(data, "") + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    args.out.write_text(dumps(reference()), encoding="utf-8")
    print(f"Wrote {args.out}")


if __name__ == "__main__":
    main()
