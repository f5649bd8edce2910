"""Every page of the test sites is valid HTML to the W3C Nu checker.

One run of the checker reads every site (``Sites.html_errors``): each run starts a JVM
and loads the schemas, which costs more than checking a small site.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import ROOT, VALIDATED, Sites


@pytest.mark.parametrize("source", VALIDATED, ids=lambda s: "this-site" if s == ROOT else s.name)
def test_every_page_is_valid_html(sites: Sites, source: Path) -> None:
    assert sites.html_errors(source) == ""
