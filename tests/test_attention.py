"""The NumPy attention module against torch, and the temperature figure's exported data.

Both live in the site, as the widget ``widgets/attention-temperature/`` (``attention.py``
beside ``widget.py``), and are imported from there as the build imports them.
"""

from __future__ import annotations

import itertools
import json
import math
from pathlib import Path

import numpy as np
import pytest

from site_builder import widgets
from tests.conftest import ROOT

temperature = widgets.load_module(ROOT, "attention-temperature")
_attention = widgets.load_module(ROOT, "attention-temperature", "attention")
attention, entropy_bits, softmax = _attention.attention, _attention.entropy_bits, _attention.softmax
DATA_FILE = "attention-temperature.json"

SHAPE = (2, 4, 128, 64)  # the seed's check.py: (batch, heads, n, d)
LOG2_7 = math.log2(7)


def random_qkv(dtype: type = np.float64) -> tuple[np.ndarray, ...]:
    rng = np.random.default_rng(20261129)
    return tuple(rng.standard_normal(SHAPE).astype(dtype) for _ in range(3))


# --- attention --------------------------------------------------------------------------


def test_causal_weights_are_lower_triangular_rows_of_one() -> None:
    q, k, v = (x[:1, :1, :16] for x in random_qkv())
    out, weights = attention(q, k, v)
    assert np.allclose(weights.sum(-1), 1.0)
    assert np.all(np.triu(weights[0, 0], k=1) == 0)
    assert np.allclose(out, weights @ v)


def test_softmax_is_stable_for_large_scores() -> None:
    assert np.allclose(softmax([1000.0, 1000.0]), [0.5, 0.5])
    assert np.allclose(softmax([-1000.0, 0.0]), [0.0, 1.0])


def test_fully_masked_row_gives_zeros_not_nan() -> None:
    q, k, v = (x[0, 0, :4] for x in random_qkv())
    mask = np.ones((4, 4), dtype=bool)
    mask[2] = False
    out, weights = attention(q, k, v, causal=False, mask=mask)
    assert not np.isnan(out).any() and not np.isnan(weights).any()
    assert np.all(weights[2] == 0) and np.all(out[2] == 0)
    assert np.allclose(weights[[0, 1, 3]].sum(-1), 1.0)


def test_entropy_in_bits() -> None:
    assert entropy_bits([1.0, 0.0, 0.0]) == 0
    assert math.isclose(float(entropy_bits(np.full(7, 1 / 7))), LOG2_7)


# --- against torch -----------------------------------------------------------------------
#
# torch is not installed by `make test` (hundreds of MB). Its outputs for small seeded
# inputs are recorded in tests/data/sdpa_reference.json (tools/make_sdpa_reference.py)
# and checked here on every run; `make test-torch` installs torch and adds the live checks.

REFERENCE_FILE = Path(__file__).resolve().parent / "data" / "sdpa_reference.json"
REFERENCE = json.loads(REFERENCE_FILE.read_text(encoding="utf-8"))
# float64: torch and NumPy differ only in summation order; float32: torch's rounding.
TOLERANCE = {"float64": 1e-12, "float32": 1e-6}
torch_reason = "torch is not installed: `make test-torch` runs the live torch comparison"


def reference_inputs(case: dict) -> dict[str, np.ndarray]:
    inputs = {key: np.asarray(value) for key, value in case["inputs"].items()}
    if "mask" in inputs:
        inputs["mask"] = inputs["mask"].astype(bool)
    return inputs


@pytest.mark.parametrize("case", REFERENCE["cases"], ids=lambda case: case["name"])
def test_matches_the_recorded_torch_reference(case: dict) -> None:
    inputs = reference_inputs(case)
    ours, _ = attention(
        inputs["q"],
        inputs["k"],
        inputs["v"],
        causal=case.get("is_causal", False),
        scale=case.get("scale"),
        mask=inputs.get("mask"),
    )
    expected = np.asarray(case["output"])
    assert ours.shape == expected.shape == (*case["shape"][:3], inputs["v"].shape[-1])
    diff = float(np.abs(ours - expected).max())
    assert diff < TOLERANCE[case["dtype"]], (case["name"], diff)


def test_the_reference_names_its_torch_and_covers_each_knob() -> None:
    assert REFERENCE["torch"].startswith("2.13.0"), "regenerate with the pinned torch"
    cases = REFERENCE["cases"]
    assert {c["dtype"] for c in cases} == {"float32", "float64"}
    assert any("scale" in c for c in cases) and any("mask" in c["inputs"] for c in cases)
    assert any(c.get("is_causal") for c in cases) and any("keys" in c for c in cases)


@pytest.mark.torch
def test_torch_still_reproduces_the_recording() -> None:
    """The live torch gives what the file says: the recording is not stale."""
    pytest.importorskip("torch", reason=torch_reason)
    import importlib.util

    path = Path(__file__).resolve().parent.parent / "tools" / "make_sdpa_reference.py"
    spec = importlib.util.spec_from_file_location("make_sdpa_reference", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    live = module.reference()
    for recorded, fresh in zip(REFERENCE["cases"], live["cases"], strict=True):
        assert recorded["inputs"] == fresh["inputs"], recorded["name"]
        diff = float(np.abs(np.asarray(recorded["output"]) - np.asarray(fresh["output"])).max())
        assert diff < TOLERANCE[recorded["dtype"]], (recorded["name"], diff)


@pytest.mark.torch
@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_matches_torch_scaled_dot_product_attention(dtype: str) -> None:
    torch = pytest.importorskip("torch", reason=torch_reason)
    # float32 inputs as in the seed's check.py; ours computes in float64 from the
    # same float32 numbers, so the difference is torch's float32 rounding (~1e-7).
    q, k, v = random_qkv(np.float64 if dtype == "float64" else np.float32)
    ours, _ = attention(q, k, v, causal=True)
    tq, tk, tv = (torch.from_numpy(x) for x in (q, k, v))
    ref = torch.nn.functional.scaled_dot_product_attention(tq, tk, tv, is_causal=True)
    assert ref.dtype == getattr(torch, dtype)
    diff = float(np.abs(ours - ref.double().numpy()).max())
    assert diff < 1e-5, diff


@pytest.mark.torch
def test_weights_match_the_seed_torch_function() -> None:
    torch = pytest.importorskip("torch", reason=torch_reason)
    q, k, v = (torch.from_numpy(x) for x in random_qkv())
    d = q.shape[-1]
    scores = q @ k.transpose(-2, -1) / math.sqrt(d)
    n = scores.shape[-1]
    scores = scores.masked_fill(torch.ones(n, n, dtype=torch.bool).triu(1), float("-inf"))
    ref_weights = scores.softmax(dim=-1)
    ours_out, ours_weights = attention(q.numpy(), k.numpy(), v.numpy())
    assert float(np.abs(ours_weights - ref_weights.numpy()).max()) < 1e-12
    assert float(np.abs(ours_out - (ref_weights @ v).numpy()).max()) < 1e-12


# --- the temperature figure's data -------------------------------------------------------


@pytest.fixture(scope="module")
def data() -> dict:
    return json.loads(widget_json())


def widget_json() -> bytes:
    """The figure's data file, made as the build makes it, from a fresh computation."""
    temperature.compute.cache_clear()
    widgets._MEMO.clear()
    (spec,) = [s for s in widgets.discover(ROOT) if s.name == "attention-temperature"]
    return widgets.run(spec, ROOT, {}).data


def test_seven_visible_tokens_before_was(data: dict) -> None:
    tokens, query = data["tokens"], data["query"]
    assert tokens[query] == "was"
    assert query == 7
    assert any(data["masked"]) and not any(data["masked"][: query + 1])
    assert all(data["masked"][query + 1 :])


def test_rows_sum_to_one_and_hidden_tokens_get_nothing(data: dict) -> None:
    query = data["query"]
    for row in data["weights"]:
        assert math.isclose(sum(row), 1.0, abs_tol=1e-5)
        assert all(w == 0 for w in row[query:]), "the query and masked tokens have no weight"
        assert all(w >= 0 for w in row)


def test_entropy_matches_the_weights_and_grows_with_tau(data: dict) -> None:
    taus, entropy = data["taus"], data["entropy"]
    assert taus == sorted(taus) and len(set(taus)) == len(taus)
    assert taus[data["tau_one"]] == 1.0
    for row, h in zip(data["weights"], entropy, strict=True):
        assert math.isclose(float(entropy_bits(row)), h, abs_tol=1e-4)
    assert all(a < b for a, b in itertools.pairwise(entropy))


def test_log_spaced_grid(data: dict) -> None:
    ratios = np.diff(np.log(data["taus"]))
    assert np.allclose(ratios, math.log(10) / 20, atol=1e-4)


def test_entropy_limits(data: dict) -> None:
    assert data["entropy"][0] < 0.02
    assert LOG2_7 - data["entropy"][-1] < 0.02
    assert 1.0 < data["entropy"][data["tau_one"]] < LOG2_7 - 0.3, "non-trivial at τ = 1"


def test_cat_scores_highest(data: dict) -> None:
    cat = data["tokens"].index("cat")
    low = data["weights"][0]
    assert max(range(len(low)), key=low.__getitem__) == cat
    assert low[cat] > 0.999
    at_one = data["weights"][data["tau_one"]]
    assert max(range(len(at_one)), key=at_one.__getitem__) == cat
    assert 0.3 < at_one[cat] < 0.7


def test_json_is_deterministic() -> None:
    first = widget_json()
    second = widget_json()
    assert first == second
    doc = json.loads(first)
    assert list(doc) == sorted(doc)
    assert json.dumps(doc, sort_keys=True, separators=(",", ":"), ensure_ascii=False) + "\n" == (
        first.decode("utf-8")
    )


def test_build_writes_the_json_beside_the_post(built_site: Path) -> None:
    written = built_site / "posts/attention-from-the-softmax-up" / DATA_FILE
    assert written.read_bytes() == widget_json()
