"""Real formulas from public ML posts convert at least as often as KaTeX manages.

The corpus and KaTeX's verdicts are committed (``tests/data/math_corpus*.jsonl``,
see its README); nothing runs KaTeX here. The held-out file holds one blog's
formulas that were not looked at while the rewrites were written.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from site_builder.markdown.math.coverage import measure

DATA = Path(__file__).parent / "data"


@pytest.mark.parametrize("name", ["math_corpus.jsonl", "math_corpus_heldout.jsonl"])
def test_converts_at_least_as_often_as_katex(name: str) -> None:
    result = measure(DATA / name)
    assert result.full.total > 1000
    for label, tally in (("with preambles", result.full), ("bare", result.bare),
                         ("display", result.display)):  # fmt: skip
        assert tally.ours >= tally.katex, (label, tally, result.failures.most_common(10))
