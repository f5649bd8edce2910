"""Command line: ``site-builder build|serve|check|new|import``.

The one place that catches :class:`BuildError`: users see ``path:line: message``
and exit status 1, never a traceback.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

from site_builder import __version__
from site_builder.summary import summary

if TYPE_CHECKING:
    from site_builder.build import BuildResult
    from site_builder.config import SiteConfig
    from site_builder.incremental.noop import Snapshot


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="site-builder",
        description="Build, serve and check a static site of Markdown posts with math, "
        "notes, code and citations.",
    )
    parser.add_argument("--version", action="version", version=f"site-builder {__version__}")
    parser.add_argument(
        "-C",
        "--root",
        type=Path,
        default=Path("."),
        help="site directory (holding site.yaml); default: current directory",
    )
    commands = parser.add_subparsers(dest="command", required=True)

    build_cmd = commands.add_parser("build", help="build the site into public/")
    _add_build_options(build_cmd)

    check_cmd = commands.add_parser("check", help="build, then check links, anchors, HTML, feed")
    _add_build_options(check_cmd)
    check_cmd.add_argument("--no-build", action="store_true", help="check the existing output")

    serve_cmd = commands.add_parser("serve", help="build, serve, rebuild on change, reload pages")
    serve_cmd.add_argument("--port", type=int, default=8000, help="default: 8000")
    serve_cmd.add_argument("--host", default="127.0.0.1", help="default: 127.0.0.1")
    serve_cmd.add_argument(
        "--out", type=Path, default=None, help="output directory (default: public)"
    )
    serve_cmd.add_argument("--drafts", action="store_true", help="include drafts and future posts")
    serve_cmd.add_argument(
        "--open", action="store_true", help="open the site in the desktop's browser once built"
    )

    new_cmd = commands.add_parser(
        "new", help="start a draft post (content/posts/<slug>.md) or, with --widget, a widget"
    )
    new_cmd.add_argument("title", nargs="?", help='the post\'s title, e.g. "My title"')
    new_cmd.add_argument(
        "--widget",
        metavar="NAME",
        help="make widgets/NAME/ instead: a working interactive figure to edit",
    )
    new_cmd.add_argument(
        "--bundle",
        action="store_true",
        help="make content/posts/<slug>/index.md, a folder for the post's images and .bib",
    )
    import_cmd = commands.add_parser(
        "import",
        help="import posts from a Jekyll/al-folio, Hugo, Quarto, Pelican, Nikola or Distill blog",
    )
    import_cmd.add_argument("source", type=Path, help="the blog's folder (or one post file)")
    import_cmd.add_argument(
        "--from",
        dest="source_format",
        choices=("jekyll", "hugo", "quarto", "zola", "distill"),
        default=None,
        help="the source's format (default: detected)",
    )
    import_cmd.add_argument(
        "--into", type=Path, default=None, help="where posts go (default: content/posts)"
    )
    return parser


def _add_build_options(cmd: argparse.ArgumentParser) -> None:
    cmd.add_argument("--out", type=Path, default=None, help="output directory (default: public)")
    cmd.add_argument("--base-url", default=None, help="override site.yaml's base_url")
    cmd.add_argument("--drafts", action="store_true", help="include drafts and future posts")
    cmd.add_argument("--jobs", type=int, default=None, help="worker processes (default: cores)")
    cmd.add_argument("--strict", action="store_true", help="treat warnings as errors")
    cmd.add_argument(
        "--no-cache",
        action="store_true",
        help="ignore and do not update .cache/ (a clean, full build)",
    )
    noise = cmd.add_mutually_exclusive_group()
    noise.add_argument("-q", "--quiet", action="store_true", help="print only problems")
    noise.add_argument("-v", "--verbose", action="store_true", help="print each stage")


class Progress:
    """A one-line progress counter on stderr, shown only when a build takes a while."""

    DELAY = 2.0

    def __init__(self) -> None:
        self.started = time.perf_counter()

    def __call__(self, done: int, total: int) -> None:
        if not sys.stderr.isatty() or time.perf_counter() - self.started < self.DELAY:
            return
        end = "\n" if done == total else ""
        print(f"\rRendering posts: {done}/{total}", end=end, file=sys.stderr, flush=True)


def load(args: argparse.Namespace) -> SiteConfig:
    from site_builder.config import load_config, with_overrides

    root = args.root.resolve()
    parse = None
    if not getattr(args, "no_cache", False) and _cache_damaged(root / ".cache"):
        args.no_cache = True
    if not getattr(args, "no_cache", False):
        from site_builder.incremental.cached import yaml_parser

        parse = yaml_parser(root / ".cache")
    config = load_config(root, parse)
    return with_overrides(config, base_url=args.base_url, drafts=args.drafts)


def _cache_damaged(cache: Path) -> bool:
    """Say in one line that a damaged ``.cache`` is not used: it costs time, not the build."""
    from site_builder.incremental.cache import damage

    problem = damage(cache)
    if problem:
        print(
            f"{problem}: building without the cache (delete it to start a new one)", file=sys.stderr
        )
    return problem is not None


def _output_dir(args: argparse.Namespace) -> Path:
    out: Path = args.out if args.out is not None else args.root.resolve() / "public"
    return out.resolve()


def take_snapshot(args: argparse.Namespace) -> Snapshot | None:
    """The inputs as they are before the build reads any (see ``incremental.noop``): an input that
    changes during the build then differs from it, and the next run builds again."""
    if args.no_cache:
        return None
    from site_builder.incremental.noop import Snapshot

    try:
        return Snapshot(args.root.resolve(), _output_dir(args), _options(args))
    except Exception:  # e.g. a symlink loop under content/: no shortcut, just build
        return None


def quick_noop(args: argparse.Namespace, snapshot: Snapshot | None, started: float) -> bool:
    """Report a build with nothing to do without importing the build."""
    try:
        last = snapshot.unchanged() if snapshot is not None else None
    except Exception:  # the check is only a shortcut: any surprise means "build"
        return False
    if last is None:
        return False
    if not args.quiet:
        pages, posts = last
        print(f"Up to date: {summary(pages, posts)}, nothing changed since the last build")
    if args.verbose:
        print("  nothing changed since the last build: no file was read or written")
    return True


def _options(args: argparse.Namespace) -> tuple[object, ...]:
    """The command-line options that change what a build writes."""
    return (args.base_url, args.drafts)


def run_build(
    args: argparse.Namespace, snapshot: Snapshot | None = None, config: SiteConfig | None = None
) -> BuildResult:
    from site_builder.build import build
    from site_builder.errors import BuildError

    out = _output_dir(args)
    result = build(
        config or load(args),
        out,
        jobs=args.jobs,
        use_cache=not args.no_cache,
        progress=None if args.quiet else Progress(),
    )
    if snapshot is not None:
        if result.warnings or result.outside_inputs:
            snapshot.discard()  # warnings are printed by every build; only a build sees them
        else:
            due = result.next_due.timestamp() if result.next_due is not None else None
            snapshot.save(result.pages, result.posts, due)
    for warning in result.warnings:
        print(warning, file=sys.stderr)
    if args.strict and result.warnings:
        first, more = result.warnings[0], len(result.warnings) - 1
        also = f" (and {more} more)" if more else ""
        message = f"--strict: this warning{also} fails the build"
        raise BuildError(first.location.path, first.location.line, message)
    if not args.quiet:
        print(f"Built {summary(result.pages, result.posts)} in {result.seconds:.2f} s")
    if args.verbose:
        reused = result.posts - result.rendered
        print(f"  {result.rendered} posts rendered, {reused} reused from the last build")
    return result


def run_check(args: argparse.Namespace) -> int:
    """Build (unless --no-build), then check the output; problems make the exit status 1."""
    out = _output_dir(args)
    started = time.perf_counter()
    snapshot = None if args.no_build else take_snapshot(args)  # before any input is read
    config = load(args)
    if not args.no_build and not quick_noop(args, snapshot, started):
        run_build(args, snapshot, config)
    from site_builder.check import check_site  # each command imports only what it uses

    report = check_site(out, config)
    for problem in report.problems:
        print(problem)
    for warning in report.warnings:
        print(warning, file=sys.stderr)
    failed = bool(report.problems) or (args.strict and bool(report.warnings))
    print(report.summary(), file=sys.stderr if failed else sys.stdout)
    return 1 if failed else 0


def run_serve(args: argparse.Namespace) -> int:
    from site_builder.config import load_config

    config = load_config(args.root.resolve())
    # Not public/: the dev build has a localhost base URL, and public/ keeps the deployable one.
    out = args.out if args.out is not None else config.root / ".cache" / "serve"
    from site_builder.build import check_output
    from site_builder.serve import serve

    check_output(out.resolve(), config.root.resolve())  # else it would serve that folder as is

    return serve(config, out, args.host, args.port, args.drafts, open_browser=args.open)


def run_new(args: argparse.Namespace) -> int:
    from site_builder.config import load_config

    config = load_config(args.root.resolve())
    from site_builder.new import new_post, new_widget

    if args.widget:
        folder = new_widget(config, args.widget)
        print(f"Created {folder.relative_to(config.root)}/ (widget.py, widget.js, fallback.html)")
        print(f'Use it in a post: ::: {{#fig-{args.widget} widget="{args.widget}"}} Caption. :::')
        return 0
    if not args.title:
        from site_builder.errors import BuildError

        raise BuildError("new", None, 'give a title (site-builder new "My title") or --widget NAME')
    path = new_post(config, args.title, bundle=args.bundle)
    print(f"Created {path.relative_to(config.root)} (a draft)")
    print("Preview it with `site-builder serve --drafts`; delete `draft: true` to publish it.")
    return 0


def run_import(args: argparse.Namespace) -> int:
    """Import posts, print what needs a hand with ``path:line``, then a summary."""
    from site_builder.importer import import_posts

    into = args.into if args.into is not None else args.root.resolve() / "content" / "posts"
    report = import_posts(args.source, into, args.source_format, args.root.resolve())
    for post in report.posts:
        if post.skipped:
            print(f"{post.source}: skipped: {post.skipped}", file=sys.stderr)
    for note in report.notes:
        print(note, file=sys.stderr)
    print(report.summary())
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        os.getcwd()
    except FileNotFoundError:  # deleted under the shell (a build with --out . once did)
        print("the current folder no longer exists: use -C DIR", file=sys.stderr)
        return 1
    snapshot = None
    if args.command == "build":
        started = time.perf_counter()
        snapshot = take_snapshot(args)
        if quick_noop(args, snapshot, started):
            return 0
    from site_builder.errors import BuildError, BuildErrors

    try:
        if args.command == "build":
            run_build(args, snapshot)
        elif args.command == "check":
            return run_check(args)
        elif args.command == "serve":
            return run_serve(args)
        elif args.command == "new":
            return run_new(args)
        elif args.command == "import":
            return run_import(args)
    except BuildErrors as exc:
        for warning in exc.warnings:
            print(warning, file=sys.stderr)
        for error in exc.errors:
            print(error, file=sys.stderr)
        count = len(exc.errors)
        print(f"Build failed: {count} error{'s' if count != 1 else ''}.", file=sys.stderr)
        return 1
    except BuildError as exc:
        print(exc, file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    return 0


def run() -> NoReturn:
    """The command's entry point: ``main()``, then exit without tearing the interpreter down.

    Freeing, one by one, every object a 1,000-post build loaded takes ~30 ms, a tenth of
    an edit's rebuild; the OS reclaims the memory at once. By now every file is closed
    and every worker stopped; only the standard streams need flushing. (Tests call
    ``main`` directly.)
    """
    code = main()
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError):  # a closed pipe: nothing to add
            stream.flush()
    os._exit(code)
