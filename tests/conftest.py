"""Shared fixtures: the project root, a fresh copy of a site, and a built copy of this site."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from site_builder.build import build
from site_builder.config import load_config

ROOT = Path(__file__).resolve().parent.parent


def copy_site(dest: Path, source: Path = ROOT) -> Path:
    """Copy a site's inputs (not its output or tooling) to ``dest``."""
    dest.mkdir(parents=True, exist_ok=True)
    for name in ("site.yaml", "content", "templates", "static", "widgets"):
        src = source / name
        if src.is_dir():
            shutil.copytree(src, dest / name)
        elif src.exists():
            shutil.copy2(src, dest / name)
    return dest


@pytest.fixture(scope="session")
def built_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """This repository's site, built once per test session into a temporary directory."""
    site = copy_site(tmp_path_factory.mktemp("site"))
    build(load_config(site), site / "public")
    return site / "public"


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """Close the Chromium the browser tests shared (``tests/browser.py``)."""
    from tests.browser import close_browser

    close_browser()
