"""Deploy day, rehearsed: the Pages workflow lints clean and its build job runs here.

The dry run reads ``.github/workflows/pages.yml`` and does what the runner
would with the build job: each ``run:`` step through ``bash -e`` with the
step's ``env:`` (its ``${{ }}`` expressions filled in from a small context) and
a ``$GITHUB_OUTPUT`` file, in a copy of the checkout. The ``uses:`` steps are
stood in for (the checkout is the copy; Python is this one). Then it serves the
uploaded directory under the base URL's path, as Pages would, and crawls it.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
import yaml

from tests.browser import serve_directory
from tests.crawl import crawl

ROOT = Path(__file__).resolve().parent.parent
WORKFLOW = ROOT / ".github" / "workflows" / "pages.yml"
BIN = Path(sys.executable).parent
EXPRESSION = re.compile(r"\$\{\{\s*([^}]*?)\s*\}\}")
# What a checkout holds that `make build` reads (not the output, caches or the venv).
CHECKOUT = ("Makefile", "pyproject.toml", "site.yaml", "content", "templates", "static", "widgets")


def test_actionlint_reports_nothing() -> None:
    """`make test` runs this too (`make lint-workflows`); a current actionlint knows which
    action majors still run on the deprecated Node 20 and that `vars` is a context."""
    actionlint, shellcheck = BIN / "actionlint", BIN / "shellcheck"
    if not actionlint.exists():
        pytest.skip("actionlint is not installed: `make test` installs the test extras")
    workflows = sorted(str(p) for p in (ROOT / ".github" / "workflows").glob("*.yml"))
    command = [str(actionlint), *workflows]
    if shellcheck.exists():
        command.insert(1, f"-shellcheck={shellcheck}")
    result = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=False)
    assert result.returncode == 0 and not result.stdout, result.stdout + result.stderr


def fill(text: str, context: dict[str, str]) -> str:
    """Replace each ``${{ name }}``; an expression this stand-in does not know fails the test
    (a new one in the workflow must be added to the dry run's context on purpose)."""

    def value(match: re.Match[str]) -> str:
        name = match.group(1)
        assert name in context, f"the dry run does not know ${{{{ {name} }}}}"
        return context[name]

    return EXPRESSION.sub(value, text)


def checkout(dest: Path) -> Path:
    """A copy of what actions/checkout would lay down, with this venv standing in for the
    one `make build` creates (its stamp is newer than pyproject.toml, so nothing installs)."""
    dest.mkdir()
    for name in CHECKOUT:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, dest / name)
        else:
            shutil.copy2(source, dest / name)
    (dest / "site_builder").symlink_to(ROOT / "site_builder")  # `make build` compiles it
    venv_bin = dest / ".venv" / "bin"
    venv_bin.mkdir(parents=True)
    for tool in ("python", "site-builder"):
        (venv_bin / tool).symlink_to(BIN / tool)
    (dest / ".venv" / ".installed").touch()
    return dest


def run_build_job(workspace: Path, context: dict[str, str]) -> dict[str, Any]:
    """Run the build job's steps; returns the ``with:`` of the upload step."""
    job = yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))["jobs"]["build"]
    upload: dict[str, Any] = {}
    for number, step in enumerate(job["steps"]):
        uses = step.get("uses", "")
        if uses.startswith("actions/upload-pages-artifact@"):
            upload = {key: fill(str(value), context) for key, value in step["with"].items()}
            continue
        if uses:
            continue  # checkout, setup-python, configure-pages: stood in for above
        output = workspace.parent / f"output-{number}"
        output.touch()
        env = {
            "PATH": os.environ["PATH"],
            "HOME": os.environ.get("HOME", str(workspace)),
            "GITHUB_OUTPUT": str(output),
            "CI": "true",
            **{key: fill(str(value), context) for key, value in step.get("env", {}).items()},
        }
        result = subprocess.run(
            ["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", fill(step["run"], context)],
            cwd=workspace,
            env=env,
            capture_output=True,
            text=True,
            check=False,
        )
        assert result.returncode == 0, f"step {step.get('name', number)}:\n{result.stderr}"
        assert "Traceback" not in result.stderr
        for line in output.read_text().splitlines():
            name, _, value = line.partition("=")
            context[f"steps.{step['id']}.outputs.{name}"] = value
    return upload


@pytest.mark.parametrize(
    ("owner", "repo", "override", "expected"),
    [
        ("Ojus1", "ojus1.github.io", "", "https://ojus1.github.io/"),  # a user site
        ("Ojus1", "ml-notes", "", "https://ojus1.github.io/ml-notes/"),  # a project site
        ("ojus1", "ml-notes", "https://notes.example.org/ml/", "https://notes.example.org/ml/"),
    ],
    ids=["user-site", "project-site", "SITE_BASE_URL"],
)
def test_deploy_dry_run(
    tmp_path: Path, owner: str, repo: str, override: str, expected: str
) -> None:
    workspace = checkout(tmp_path / "checkout")
    context = {
        "vars.SITE_BASE_URL": override,
        "github.repository_owner": owner,
        "github.event.repository.name": repo,
    }
    upload = run_build_job(workspace, context)
    assert context["steps.base.outputs.url"] == expected
    artifact = workspace / upload["path"]
    assert (artifact / "index.html").is_file()
    # upload-pages-artifact v4+ drops dotfiles unless asked; .nojekyll must reach Pages.
    assert upload["include-hidden-files"] == "True" and (artifact / ".nojekyll").is_file()

    prefix = urlsplit(expected).path
    index = (artifact / "index.html").read_text(encoding="utf-8")
    assert f'<link rel="canonical" href="{expected}">' in index
    with serve_directory(artifact, prefix=prefix) as base:
        result = crawl([base, base + "404.html", base + "feed.xml", base + "sitemap.xml"])
    assert not result.broken, "\n".join(result.broken)
    fetched = set(result.fetched)
    assert f"{base}static/css/site.css" in fetched
    assert any(url.startswith(f"{base}posts/") for url in fetched)
    assert all(urlsplit(url).path.startswith(prefix) for url in fetched)
