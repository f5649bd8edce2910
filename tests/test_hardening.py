"""Hostile input, damaged caches and failing disks (issue 13).

Each test is the regression test for one defect: nothing the author wrote is
silently lost, nothing outside the site is published, a damaged cache never
changes a byte of output, and a failure is one ``path:line: message`` line with
``public/`` as it was.
"""

from __future__ import annotations

import contextlib
import errno
import os
import random
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from site_builder import bibliography
from site_builder.cli import main
from tests.conftest import ROOT, SITES, make_site, tree_digest

SCHOLAR = SITES / "scholar"  # citations, math, a folder post


def run(site: Path, *args: str) -> int:
    """One CLI build, as a new process would start it: no .bib parsed earlier in memory."""
    bibliography._MEMO.clear()
    return main(["-C", str(site), "build", "--quiet", *args])


def clean_digest(site: Path, dest: Path) -> dict[str, str]:
    assert run(site, "--no-cache", "--jobs", "1", "--out", str(dest)) == 0
    return tree_digest(dest)


# -- damaged caches ---------------------------------------------------------------------------

# Every kind of entry in .cache/, and how to damage it. A kind the build starts writing
# must be added here (test_every_cache_kind_has_a_damage_test).
CACHE_KINDS = [
    "bibliography",
    "config",
    "font",
    "jinja-code",
    "state.db",
    "render-rows",
    "build-rows",
]


def _scramble(path: Path, rng: random.Random) -> None:
    """Keep the length and the first bytes (a format's magic may still match); garble the rest."""
    data = bytearray(path.read_bytes())
    for i in range(min(len(data), 16), len(data)):
        if rng.random() < 0.3:
            data[i] = rng.randrange(256)
    path.write_bytes(bytes(data))


def _damage(cache: Path, kind: str, rng: random.Random) -> None:
    if kind in ("render-rows", "build-rows"):
        table, key_column = ("render", "key") if kind == "render-rows" else ("build", "out")
        with contextlib.closing(sqlite3.connect(cache / "state.db")) as conn, conn:
            rows = conn.execute(f"SELECT {key_column}, data FROM {table}").fetchall()
            assert rows
            for key, data in rows:
                blob = bytearray(data)
                blob[len(blob) // 2] ^= 0xFF
                update = f"UPDATE {table} SET data = ? WHERE {key_column} = ?"
                conn.execute(update, (bytes(blob), key))
        return
    if kind == "state.db":
        files = [cache / "state.db"]
    else:
        files = [p for p in (cache / kind).iterdir() if p.is_file()]
    assert files, f"the build wrote no {kind} entry"
    for path in files:
        _scramble(path, rng)


@pytest.fixture(scope="module")
def scholar_clean(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """The scholar site's clean build: what every damaged-cache build must reproduce."""
    tmp = tmp_path_factory.mktemp("scholar-clean")
    return clean_digest(make_site(tmp / "site", SCHOLAR), tmp / "clean")


@pytest.mark.parametrize("kind", CACHE_KINDS)
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_damaged_cache_never_changes_output(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    scholar_clean: dict[str, str],
    kind: str,
    jobs: str,
) -> None:
    site = make_site(tmp_path / "site", SCHOLAR)
    expected = scholar_clean
    for _ in range(2):  # the second build reads what the first cached
        assert run(site, "--jobs", jobs) == 0
    for seed in range(3):
        _damage(site / ".cache", kind, random.Random(seed))
        shutil.rmtree(site / "public")  # every page is made again, from the cache
        assert run(site, "--jobs", jobs) == 0, kind
        assert tree_digest(site / "public") == expected, kind
    assert "Traceback" not in capsys.readouterr().err


def test_every_cache_kind_has_a_damage_test(tmp_path: Path) -> None:
    site = make_site(tmp_path / "site", SCHOLAR)
    assert run(site) == 0
    assert run(site) == 0
    kinds = {p.name.split("-")[0] if p.is_file() else p.name for p in (site / ".cache").iterdir()}
    kinds.discard("state.db-wal")
    kinds.discard("state.db-shm")
    assert kinds <= set(CACHE_KINDS), kinds - set(CACHE_KINDS)


def _cache_a_file(cache: Path) -> None:
    shutil.rmtree(cache)
    cache.write_text("not a folder")


def _state_a_folder(cache: Path) -> None:
    for suffix in ("", "-wal", "-shm"):
        Path(f"{cache / 'state.db'}{suffix}").unlink(missing_ok=True)
    (cache / "state.db" / "x").mkdir(parents=True)


def _kinds_files(cache: Path) -> None:
    for kind in ("config", "templates", "jinja-code", "font", "bibliography"):
        shutil.rmtree(cache / kind, ignore_errors=True)
        (cache / kind).write_text("not a folder")


def _unreadable(cache: Path) -> None:
    cache.chmod(0)


@pytest.mark.parametrize(
    ("damage", "said"),
    [
        (_cache_a_file, ".cache is not a folder"),
        (_state_a_folder, ".cache/state.db is not a file"),
        (_kinds_files, None),  # each kind's folder is made again in its place
        pytest.param(
            _unreadable,
            ".cache cannot be read",
            marks=pytest.mark.skipif(os.geteuid() == 0, reason="root reads any folder"),
        ),
    ],
)
def test_a_cache_of_the_wrong_shape_costs_time_not_the_build(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    scholar_clean: dict[str, str],
    damage: Callable[[Path], None],
    said: str | None,
) -> None:
    """A ``.cache`` that is a file ended in a NotADirectoryError traceback (issue 25)."""
    site = make_site(tmp_path / "site", SCHOLAR)
    assert run(site) == 0
    damage(site / ".cache")
    try:
        shutil.rmtree(site / "public")
        capsys.readouterr()
        for _ in range(2):
            assert run(site) == 0
            assert tree_digest(site / "public") == scholar_clean
        err = capsys.readouterr().err
    finally:
        with contextlib.suppress(OSError):
            (site / ".cache").chmod(0o755)
    assert "Traceback" not in err
    if said is None:
        assert err == ""
    else:  # one line a build, naming the damage
        assert (
            err.splitlines()
            == [f"{said}: building without the cache (delete it to start a new one)"] * 2
        )


# -- workers --------------------------------------------------------------------------------

_ORPHAN_SCRIPT = """
import sys, time
from pathlib import Path
from site_builder.config import load_config
from site_builder.incremental.cache import Cache
from site_builder.incremental.workers import Workers

site = Path(sys.argv[1])
config = load_config(site)
workers = Workers(config, Cache(site / ".cache"), 2)
workers.start(2)
assert workers.pool is not None
print(" ".join(str(pid) for pid in workers.pool._processes), flush=True)
time.sleep(60)
"""


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state not in ("Z", "X")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_PDEATHSIG is Linux's")
def test_workers_die_with_a_killed_parent(tmp_path: Path) -> None:
    site = make_site(tmp_path / "site")
    parent = subprocess.Popen(
        [sys.executable, "-c", _ORPHAN_SCRIPT, str(site)],
        stdout=subprocess.PIPE,
        text=True,
        cwd=ROOT,
    )
    assert parent.stdout is not None
    pids = [int(p) for p in parent.stdout.readline().split()]
    assert len(pids) == 2
    assert all(_alive(pid) for pid in pids)
    parent.send_signal(signal.SIGKILL)
    parent.wait()
    deadline = time.monotonic() + 10
    while any(_alive(pid) for pid in pids) and time.monotonic() < deadline:
        time.sleep(0.05)
    survivors = [pid for pid in pids if _alive(pid)]
    for pid in survivors:
        os.kill(pid, signal.SIGKILL)
    assert not survivors, "workers outlived their killed parent"


def test_a_dead_worker_is_one_line_and_public_is_kept(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from site_builder.incremental import jobs as postwork

    site = make_site(tmp_path / "site")
    assert main(["-C", str(site), "build", "--quiet"]) == 0
    before = tree_digest(site / "public")
    for n in range(20):  # enough posts to render on the pool
        (site / "content" / "posts" / f"p{n}.md").write_text(
            f"---\ntitle: P{n}\ndate: 2026-01-02\n---\n\nText {n}.\n", encoding="utf-8"
        )
    monkeypatch.setattr(postwork, "run_chunk", _die)
    capsys.readouterr()
    assert main(["-C", str(site), "build", "--jobs", "2"]) == 1
    err = capsys.readouterr().err
    assert "Traceback" not in err
    assert "content/posts: a worker process died while rendering" in err
    assert tree_digest(site / "public") == before
    assert not list(site.glob(".staging-*"))


def test_a_dead_helper_leaves_the_font_to_the_build(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A small site's helper process lost (the OOM killer) before the math font is handed to
    it: the font is subset in the build's own process, not a traceback."""
    from site_builder import fonts
    from site_builder.incremental.workers import Workers

    site = make_site(tmp_path / "site")
    (site / "content" / "posts" / "math.md").write_text(
        "---\ntitle: M\ndate: 2026-01-02\n---\n\n$x^2$\n", encoding="utf-8"
    )
    monkeypatch.setattr(Workers, "helps", lambda self: True)
    monkeypatch.setattr(fonts, "preload", _die)
    assert main(["-C", str(site), "build", "--quiet"]) == 0, capsys.readouterr().err
    assert list((site / "public").rglob("*.woff2"))


def _die(*args: object) -> None:
    os._exit(3)  # what a segfault or the OOM killer looks like from the pool


# -- failing disks ----------------------------------------------------------------------------


def _chattr(flag: str, path: Path) -> bool:
    try:
        done = subprocess.run(["chattr", flag, str(path)], capture_output=True, check=False)
    except OSError:
        return False
    return done.returncode == 0


def _assert_write_error(
    site: Path, capsys: pytest.CaptureFixture[str], before: dict[str, str], where: Path
) -> None:
    capsys.readouterr()
    assert run(site) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1, err
    assert err[0].startswith(f"{where}: cannot write the site: "), err
    assert "Traceback" not in err[0]
    assert tree_digest(site / "public") == before
    assert not list(site.glob(".staging-*")), "a failed build left a staging directory"


def _edit(site: Path) -> None:
    post = site / "content" / "posts" / "good.md"
    post.write_text(post.read_text(encoding="utf-8") + "\nMore.\n", encoding="utf-8")
    (site / "content" / "posts" / "new.md").write_text(
        "---\ntitle: New\ndate: 2026-02-01\n---\n\nNew.\n", encoding="utf-8"
    )


@pytest.mark.parametrize("incremental", [True, False])
def test_immutable_public_is_left_whole(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], incremental: bool
) -> None:
    site = make_site(tmp_path / "site")
    assert run(site) == 0
    before = tree_digest(site / "public")
    _edit(site)
    if not incremental:
        shutil.rmtree(site / ".cache")  # no manifest: a whole new tree is swapped in
    if not _chattr("+i", site / "public"):
        pytest.skip("chattr +i is not available here")
    try:
        _assert_write_error(site, capsys, before, site / "public")
    finally:
        _chattr("-i", site / "public")


def test_read_only_site_directory(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    site = make_site(tmp_path / "site")
    assert run(site) == 0
    before = tree_digest(site / "public")
    _edit(site)
    if not _chattr("+i", site):
        pytest.skip("chattr +i is not available here")
    try:
        _assert_write_error(site, capsys, before, site)
    finally:
        _chattr("-i", site)


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_full_disk(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, jobs: str
) -> None:
    site = make_site(tmp_path / "site")
    assert run(site) == 0
    before = tree_digest(site / "public")
    _edit(site)
    for n in range(20):  # enough to render on worker processes with --jobs 2
        (site / "content" / "posts" / f"p{n}.md").write_text(
            f"---\ntitle: P{n}\ndate: 2026-01-02\n---\n\nText {n}.\n", encoding="utf-8"
        )
    real = Path.write_bytes

    def full(self: Path, data: bytes) -> int:  # type: ignore[override]
        if ".staging-" in str(self):
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(self))
        return real(self, data)

    monkeypatch.setattr(Path, "write_bytes", full)
    capsys.readouterr()
    assert run(site, "--jobs", jobs) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1, err
    assert err[0].startswith(str(site / "public") + "/"), err
    assert err[0].endswith(
        f"cannot write the site: No space left on device; {site / 'public'} is unchanged"
    )
    assert tree_digest(site / "public") == before
    assert not list(site.glob(".staging-*"))


# -- leaks ----------------------------------------------------------------------------------


@pytest.mark.parametrize("where", ["content/posts/folder/secret.txt", "static/secret.txt"])
@pytest.mark.parametrize("target", ["/etc/passwd", "/proc/self/environ"])
def test_symlinks_leaving_the_site_are_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], where: str, target: str
) -> None:
    site = make_site(tmp_path / "site")
    folder = site / "content" / "posts" / "folder"
    folder.mkdir()
    (folder / "index.md").write_text("---\ntitle: F\ndate: 2026-01-03\n---\n\nHi.\n", "utf-8")
    (site / "content" / "posts" / "shared.txt").write_text("inside the site\n", "utf-8")
    (folder / "shared.txt").symlink_to(site / "content" / "posts" / "shared.txt")
    assert run(site) == 0  # a link that stays inside the site is published
    assert (site / "public" / "posts" / "folder" / "shared.txt").read_text() == "inside the site\n"
    before = tree_digest(site / "public")
    (site / where).symlink_to(target)
    capsys.readouterr()
    assert run(site) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [f"{where}: symbolic link to {target}, outside the site: refusing to publish it"]
    assert tree_digest(site / "public") == before


@pytest.mark.parametrize(
    "url",
    [
        "javascript:alert(5)",
        "JavaScript:alert(5)",
        " javascript:alert(5)",
        "vbscript:msgbox(1)",
        "data:text/html,<script>alert(1)</script>",
        "file:///etc/passwd",
    ],
)
def test_bib_urls_follow_the_markdown_link_policy(url: str) -> None:
    text = "@misc{k, author = {A. Author}, title = {T}, year = {2020}, url = {" + url + "}}"
    entry = bibliography.parse(text, "refs.bib")["k"]
    assert "<a " not in entry.html
    assert "href" not in entry.html


def test_bib_url_check_reads_urls_as_browsers_do() -> None:
    assert not bibliography._live_url("java\tscript:alert(5)")
    assert not bibliography._live_url("\x01 javascript:alert(5)")


def test_bib_http_urls_stay_links() -> None:
    text = (
        "@misc{k, author = {A. Author}, title = {T}, year = {2020}, url = {https://example.org/p}}"
    )
    entry = bibliography.parse(text, "refs.bib")["k"]
    assert '<a href="https://example.org/p">https://example.org/p</a>' in entry.html


# -- names and ids --------------------------------------------------------------------------
# Builds that must fail with an exact message (duplicate slugs, CR-only line endings, control
# characters, images outside a post's folder) are folders of tests/sites/invalid/.


@pytest.mark.parametrize(
    ("name", "slug"),
    [
        ("My_Post 2.md", "my-post-2"),
        ("Über-Attention—τ.md", "uber-attention-t"),
        ("《注意力》笔记.md", "zhu-yi-li-bi-ji"),  # each CJK character a word: not "section"
        ("A B/index.md", "a-b"),
    ],
)
def test_file_names_are_slugified(tmp_path: Path, name: str, slug: str) -> None:
    site = make_site(tmp_path / "site")
    path = site / "content" / "posts" / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("---\ntitle: T\ndate: 2026-01-05\n---\n\nText.\n", encoding="utf-8")
    assert run(site) == 0
    assert (site / "public" / "posts" / slug / "index.html").is_file()


def _tagged(site: Path, name: str, tags: str) -> None:
    (site / "content" / "posts" / f"{name}.md").write_text(
        f"---\ntitle: {name}\ndate: 2026-01-05\ntags: {tags}\n---\n\nText.\n", encoding="utf-8"
    )


def test_tags_keep_unicode_and_stay_distinct(tmp_path: Path) -> None:
    site = make_site(tmp_path / "site")
    tags = ["注意力", "機械学習", "🤖", "..", "C++", "C", "C#", "Café", "ML"]
    _tagged(site, "a", "[" + ", ".join(f'"{t}"' for t in tags) + "]")
    _tagged(site, "b", "[ml, café]")
    assert run(site) == 0
    public = site / "public"
    folders = sorted(p.name for p in (public / "tags").iterdir() if p.is_dir())
    assert len(folders) == len(tags), folders
    for folder in ["注意力", "機械学習", "🤖", "c++", "c", "c-sharp", "café", "ml"]:
        assert (public / "tags" / folder / "index.html").is_file(), folder
    listing = (public / "tags" / "index.html").read_text(encoding="utf-8")
    for tag in tags:
        assert f">{tag}</a>".casefold() in listing.casefold(), tag  # "café" may name "Café"
    assert 'href="/tags/%E6%B3%A8%E6%84%8F%E5%8A%9B/"' in listing
    assert 'href="/tags/c++/"' in listing
    ml = (public / "tags" / "ml" / "index.html").read_text(encoding="utf-8")
    assert "posts/a/" in ml and "posts/b/" in ml  # ML and ml are one tag
    assert main(["-C", str(site), "check", "--no-build"]) == 0


def test_tags_as_a_comma_separated_string(tmp_path: Path) -> None:
    site = make_site(tmp_path / "site")
    _tagged(site, "a", "attention, transformers")
    assert run(site) == 0
    assert (site / "public" / "tags" / "attention" / "index.html").is_file()
    assert (site / "public" / "tags" / "transformers" / "index.html").is_file()
    assert not (site / "public" / "tags" / "attention-transformers").exists()


def test_spellings_of_one_tag_are_merged_with_one_warning(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Case, spaces, ``-`` and ``_`` tell no tags apart: they stopped the build (issue 25)."""
    site = make_site(tmp_path / "site")
    _tagged(site, "a", "[Information Theory, ML]")
    _tagged(site, "b", "[information-theory, ml]")
    _tagged(site, "c", "[Information  Theory]")
    _tagged(site, "d", "[information_theory, Information Theory, information theory]")
    capsys.readouterr()
    assert run(site) == 0
    assert capsys.readouterr().err.splitlines() == [
        "content/posts/b.md:4: warning: tag 'information-theory' is shown as 'Information "
        "Theory', its commonest spelling (tags/information-theory/); also spelled otherwise "
        "at content/posts/c.md:4 ('Information  Theory'), content/posts/d.md:4 "
        "('information_theory'), content/posts/d.md:4 ('information theory')",
        # a tie: the spelling seen first, in file order
        "content/posts/b.md:4: warning: tag 'ml' is shown as 'ML', its commonest spelling "
        "(tags/ml/)",
    ]
    public = site / "public"
    assert sorted(p.name for p in (public / "tags").iterdir() if p.is_dir()) == [
        "information-theory",
        "ml",
    ]
    tag = (public / "tags" / "information-theory" / "index.html").read_text(encoding="utf-8")
    assert all(f"posts/{name}/" in tag for name in "abcd")
    for name in "abcd":
        page = (public / "posts" / name / "index.html").read_text(encoding="utf-8")
        assert page.count('class="post-tag"') == (2 if name in "ab" else 1)
        assert ">Information Theory</a>" in page
    assert main(["-C", str(site), "build", "--quiet", "--strict"]) == 1


def test_tags_that_share_a_page_are_reported(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    site = make_site(tmp_path / "site")
    _tagged(site, "a", "[a/b]")
    _tagged(site, "b", "[a-b]")
    assert run(site) == 1
    assert capsys.readouterr().err.splitlines()[0] == (
        "content/posts/b.md:4: tag 'a-b' would share the page tags/a-b/ with tag 'a/b' "
        "(content/posts/a.md): rename one of them"
    )


def test_unique_heading_ids_are_linear() -> None:
    from site_builder.markdown import MarkdownContext, render

    started = time.process_time()  # this process's CPU: other work on the machine is not counted
    rendered = render("## A\n\n" * 20_000, MarkdownContext("post.md"))
    assert time.process_time() - started < 5  # quadratic took ~25 s
    assert rendered.headings[-1].id == "a-19999"


@pytest.mark.parametrize("newline", ["\r", "\r\n"])
def test_old_mac_and_windows_line_endings(tmp_path: Path, newline: str) -> None:
    site = make_site(tmp_path / "site")
    text = "---\ntitle: Old Mac\ndate: 2026-01-05\ntags: [a]\n---\n\nFirst.\n\n## Part\n\nSecond.\n"
    (site / "content" / "posts" / "mac.md").write_bytes(text.replace("\n", newline).encode())
    assert run(site) == 0
    page = (site / "public" / "posts" / "mac" / "index.html").read_text(encoding="utf-8")
    assert "<p>First.</p>" in page and "<p>Second.</p>" in page and 'id="part"' in page
    assert run(site) == 0  # and again, from the cache


def test_a_post_folder_index_html_is_an_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    site = make_site(tmp_path / "site")
    folder = site / "content" / "posts" / "folder"
    folder.mkdir()
    (folder / "index.md").write_text("---\ntitle: F\ndate: 2026-01-03\n---\n\nHi.\n", "utf-8")
    assert run(site) == 0
    before = tree_digest(site / "public")
    (folder / "index.html").write_text("<p>hand-made</p>\n", "utf-8")
    capsys.readouterr()
    assert run(site) == 1
    assert capsys.readouterr().err.splitlines()[0] == (
        "content/posts/folder/index.md: posts/folder/index.html would be written twice: from "
        "content/posts/folder/index.html and the page rendered from it; rename or remove the file"
    )
    assert tree_digest(site / "public") == before


# -- dev server -----------------------------------------------------------------------------


def _serve_errors(site: Path, capsys: pytest.CaptureFixture[str], *args: str) -> list[str]:
    capsys.readouterr()
    assert main(["-C", str(site), "serve", *args]) == 1
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err
    return captured.err.strip().splitlines()


def test_serve_port_in_use(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import socket

    site = make_site(tmp_path / "site")
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        err = _serve_errors(site, capsys, "--port", str(port))
    assert err == [
        f"127.0.0.1:{port}: port {port} is in use; choose another with --port {port + 1} "
        f"(make serve PORT={port + 1})"
    ]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--port", "80000"], "127.0.0.1:80000: --port must be between 1 and 65535"),
        (["--port", "-1"], "127.0.0.1:-1: --port must be between 1 and 65535"),
        (["--host", "no-such-host.invalid"], "no-such-host.invalid:8000: cannot use --host"),
    ],
)
def test_serve_bad_port_or_host(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    err = _serve_errors(make_site(tmp_path / "site"), capsys, *args)
    assert len(err) == 1 and err[0].startswith(message), err


def _running_server(tmp_path: Path, host: str = "127.0.0.1") -> tuple[object, str]:
    import threading

    from site_builder import serve_http

    site = make_site(tmp_path / "site")
    assert run(site) == 0
    state = serve_http.LiveState()
    state.publish(None)
    handler = type("H", (serve_http.Handler,), {"state": state, "out": site / "public"})
    server = serve_http.make_server(host, 0, handler)
    threading.Thread(
        target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
    ).start()
    port = server.server_address[1]
    return server, f"http://{'[::1]' if ':' in host else '127.0.0.1'}:{port}"


def test_serve_ipv6_host(tmp_path: Path) -> None:
    import socket
    import urllib.request

    if not socket.has_ipv6:
        pytest.skip("no IPv6")
    try:
        server, base = _running_server(tmp_path, "::1")
    except Exception as exc:  # no IPv6 loopback in this sandbox
        pytest.skip(str(exc))
    try:
        with urllib.request.urlopen(base + "/", timeout=5) as response:
            assert response.status == 200
    finally:
        server.shutdown()  # type: ignore[attr-defined]
        server.server_close()  # type: ignore[attr-defined]


def test_serve_hostile_requests(tmp_path: Path, capfd: pytest.CaptureFixture[str]) -> None:
    import socket
    import struct
    import urllib.error
    import urllib.request
    from concurrent.futures import ThreadPoolExecutor

    server, base = _running_server(tmp_path)
    big = tmp_path / "site" / "public" / "static" / "big.bin"
    big.write_bytes(os.urandom(4 * 1024 * 1024))
    port = int(base.rsplit(":", 1)[1])
    try:
        assert server.request_queue_size >= 128  # type: ignore[attr-defined]
        # A 6,000-character path: a 404, not a dropped connection and a traceback.
        with pytest.raises(urllib.error.HTTPError) as caught:
            urllib.request.urlopen(base + "/" + "a" * 6000, timeout=5)
        assert caught.value.code == 404
        # Clients that reset the connection mid-download: nothing to log.
        for _ in range(50):
            with socket.create_connection(("127.0.0.1", port)) as client:
                client.sendall(b"GET /static/big.bin HTTP/1.1\r\nHost: x\r\n\r\n")
                client.recv(1024)
                client.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        # 200 simultaneous requests all answered promptly (a backlog of 5 made some wait ~30 s).
        started = time.monotonic()

        def fetch(_: int) -> int:
            with urllib.request.urlopen(base + "/", timeout=20) as response:
                return int(response.status)

        with ThreadPoolExecutor(200) as pool:
            assert set(pool.map(fetch, range(200))) == {200}
        assert time.monotonic() - started < 10
        time.sleep(0.5)  # let the handlers of the reset connections finish
    finally:
        server.shutdown()  # type: ignore[attr-defined]
        server.server_close()  # type: ignore[attr-defined]
    err = capfd.readouterr().err
    assert "Traceback" not in err and err.count("\n") <= 50, err


def test_serve_on_all_interfaces_prints_usable_urls() -> None:
    from site_builder.serve_http import shown_url

    local, network = shown_url("0.0.0.0", 8000)
    assert local == "http://127.0.0.1:8000/"
    assert network is None or (network.startswith("http://") and "127.0.0.1" not in network)
    assert shown_url("::1", 8000) == ("http://[::1]:8000/", None)
    assert shown_url("localhost", 8000) == ("http://localhost:8000/", None)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="renameat2 is Linux's")
def test_full_build_swaps_public_in_one_step(tmp_path: Path) -> None:
    from site_builder import swap

    old, new = tmp_path / "public", tmp_path / "stage"
    old.mkdir()
    new.mkdir()
    (old / "index.html").write_text("old")
    (new / "index.html").write_text("new")
    if not swap.exchange(new, old):
        pytest.skip("this file system cannot exchange directories")
    assert (old / "index.html").read_text() == "new"  # never a moment without public/
    assert (new / "index.html").read_text() == "old"


# --- control characters, biblatex names (issue 13, leaking or corrupting) -----------------


def test_control_characters_in_a_bib_are_an_error() -> None:
    from site_builder.errors import BuildError

    with pytest.raises(BuildError, match=r"refs.bib:2:.*U\+000C"):
        bibliography.parse("@misc{k,\n  title = {A\x0cB}, year = {2020}}\n", "refs.bib")


# Each YAML escape of a character XML forbids, in each place a post's or the site's text
# reaches the feed from: (file, its text with {} for the escape, the line it is on).
_ESCAPED_FIELDS = [
    ("content/posts/a.md", '---\ntitle: "Attention{}"\ndate: 2026-01-05\n---\n\nText.\n', 2),
    ("content/posts/a.md", '---\ntitle: T\ndate: 2026-01-05\nauthor: "A{}"\n---\n', 4),
    ("content/posts/a.md", '---\ntitle: T\ndate: 2026-01-05\ndescription: "{}"\n---\n', 4),
    ("content/posts/a.md", '---\ntitle: T\ndate: 2026-01-05\ntags:\n  - ml\n  - "x{}"\n---\n', 6),
    ("site.yaml", 'title: "Blog{}"\nauthor: A\nbase_url: https://example.org/\n', 1),
]


@pytest.mark.parametrize("escape", ["\\a", "\\e", "\\0", "\\x0b", "\\uffff"])
@pytest.mark.parametrize(("rel", "text", "line"), _ESCAPED_FIELDS)
def test_an_escaped_control_character_never_makes_an_invalid_feed(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    escape: str,
    rel: str,
    text: str,
    line: int,
) -> None:
    """``title: "A\a"`` built a feed.xml no XML parser reads (issue 25): now it stops at its
    line, as the character written in a post's body does."""
    import xml.etree.ElementTree as ET

    site = make_site(tmp_path / "site")
    (site / rel).write_text(text.format(escape), encoding="utf-8")
    status = run(site)
    if status == 0:
        ET.parse(site / "public" / "feed.xml")  # raises when not well-formed
    assert status == 1
    first = capsys.readouterr().err.splitlines()[0]
    assert first.startswith(f"{rel}:{line}:"), first
    assert f'the escape "{escape}", cannot appear in a page or the feed' in first


def test_biblatex_extended_names_are_read() -> None:
    text = (
        "@article{smith2020,\n"
        "  author = {family=Berg, given=Jan, prefix=van den, useprefix=true and Doe, Jane},\n"
        "  title = {A title}, year = {2020},\n}\n"
    )
    entry = bibliography.parse(text, "refs.bib")["smith2020"]
    assert entry.authors == "van den Berg & Doe"
    assert entry.text.startswith("van den Berg, J., & Doe, J. (2020).")


def test_a_name_pybtex_cannot_split_is_reported_at_its_line() -> None:
    from site_builder.errors import BuildError

    text = "@misc{a, title={T}, year={2020}}\n@misc{b,\n  author = {Smith, John, Jr, Extra},\n}\n"
    with pytest.raises(BuildError, match=r"refs.bib:3: BibTeX: Too many commas"):
        bibliography.parse(text, "refs.bib")
