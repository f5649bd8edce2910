"""``site-builder serve``: build, serve ``public/``, rebuild on change, reload open pages.

Three kinds of thread share one :class:`LiveState`: the watchers (watchfiles)
ask for a rebuild, the builder runs one build at a time and publishes the
outcome, and each open page listens on ``/__reload`` (Server-Sent Events) and
reloads, or shows the build error, when a new outcome is published.

The reload script is injected into HTML responses as they are served
(``serve_http``); the files in ``public/`` never contain it, so what is served
here is what deploys.
"""

from __future__ import annotations

import signal
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

import watchfiles

from site_builder import inputs
from site_builder.build import build
from site_builder.config import SiteConfig, load_config, with_overrides
from site_builder.errors import BuildError, BuildErrors
from site_builder.incremental.noop import Snapshot
from site_builder.serve_http import Handler, LiveState, make_server, shown_url
from site_builder.summary import summary


def build_once(root: Path, out: Path, base_url: str, drafts: bool) -> str | None:
    """One build; problems are printed as ``path:line: message`` and returned for the browser."""
    started = time.perf_counter()
    try:
        config = with_overrides(load_config(root), base_url=base_url, drafts=drafts)
        result = build(config, out, refresh_search=False)  # the first index serves a session
    except (BuildError, BuildErrors) as exc:
        errors = exc.errors if isinstance(exc, BuildErrors) else [exc]
        message = "\n".join(str(error) for error in errors)
        print(message, file=sys.stderr)
        count = f"{len(errors)} error{'s' if len(errors) != 1 else ''}"
        print(f"Build failed: {count}; still serving the last good build.", file=sys.stderr)
        sys.stderr.flush()
        return message
    except Exception as exc:  # a bug must not take the server down with it
        message = f"internal error: {type(exc).__name__}: {exc}"
        print(message, file=sys.stderr, flush=True)
        return message
    for warning in result.warnings:
        print(warning, file=sys.stderr)
    seconds = time.perf_counter() - started
    print(f"Built {summary(result.pages, result.posts)} in {seconds:.2f} s", flush=True)
    return None


def watch(
    root: Path, on_change: Callable[[str], None], stop: threading.Event
) -> list[threading.Thread]:
    """Watch what a build reads (``inputs``): site.yaml and the folders at the root, and
    the folders recursively. A folder made or deleted at the root (``content/`` removed
    and made again, ``widgets/`` added) is watched anew: a watch follows the folder it was
    set on, and after that, edits went unseen."""
    renewed = threading.Event()

    def loop(
        paths: list[Path],
        recursive: bool,
        keep: Callable[[watchfiles.Change, str], bool],
        until: threading.Event,
    ) -> None:
        for changes in watchfiles.watch(
            *paths,
            watch_filter=keep,
            recursive=recursive,
            stop_event=until,
            debounce=150,
            raise_interrupt=False,
        ):
            touched = {Path(path) for _, path in changes}
            # Editors' temporary files come and go within the debounce: name what is left.
            shown = {path for path in touched if path.exists()} or touched
            on_change(", ".join(sorted(path.relative_to(root).as_posix() for path in shown)))
            if not recursive and any(path.name in inputs.FOLDERS for path in touched):
                renewed.set()

    def folders() -> None:
        while not stop.is_set():
            dirs = [root / name for name in inputs.FOLDERS if (root / name).is_dir()]
            until = threading.Event()
            args = (dirs, True, watchfiles.DefaultFilter(), until)
            thread = threading.Thread(target=loop, args=args, daemon=True) if dirs else None
            if thread is not None:
                thread.start()
            while not (stop.is_set() or renewed.wait(timeout=0.2)):
                pass
            renewed.clear()
            until.set()
            if thread is not None:
                thread.join(timeout=2)

    def keep_root(_change: watchfiles.Change, path: str) -> bool:
        return Path(path).name in (*inputs.FILES, *inputs.FOLDERS)

    threads = [
        threading.Thread(target=loop, args=([root], False, keep_root, stop), daemon=True),
        threading.Thread(target=folders, daemon=True),
    ]
    for thread in threads:
        thread.start()
    return threads


def open_in_browser(url: str) -> None:
    """Open ``url`` in the desktop's browser, once the first build is there to show.

    Only where there is a desktop: without one, ``webbrowser`` falls back to a text
    browser that would take over this terminal and its Ctrl-C. The URL is printed anyway.
    """
    import os
    import webbrowser

    desktop = sys.platform in ("darwin", "win32") or any(
        os.environ.get(name) for name in ("DISPLAY", "WAYLAND_DISPLAY")
    )
    if not desktop or not webbrowser.open(url):
        print(f"Open {url} in a browser.", flush=True)


def serve(
    config: SiteConfig, out: Path, host: str, port: int, drafts: bool, open_browser: bool = False
) -> int:
    """Run until Ctrl-C. ``config`` is only the starting point: site.yaml is re-read per build."""
    root = config.root
    state = LiveState()
    handler = type("BoundHandler", (Handler,), {"state": state, "out": out.resolve()})
    server = make_server(host, port, handler)
    base_url, network_url = shown_url(host, server.server_address[1])
    stop = threading.Event()
    wanted = threading.Event()

    def inputs() -> bytes:
        """File metadata of every input (``incremental.noop``): equal means nothing to rebuild."""
        try:
            return Snapshot(root, out.resolve(), ()).inputs
        except Exception:  # e.g. a symlink loop: assume a change
            return f"unknown {time.monotonic()}".encode()

    built_from = inputs()  # before the first build reads anything

    def builder() -> None:
        nonlocal built_from
        # The file watcher registers a moment after its thread starts: an edit made in
        # that moment (or during the first build) is caught by comparing file metadata.
        settle = time.monotonic() + 5
        while not stop.is_set():
            if wanted.wait(timeout=0.2) and not stop.is_set():
                wanted.clear()
                current = inputs()
                if current == built_from:
                    continue  # e.g. the watcher and the check above saw the same edit
                built_from = current
                state.publish(build_once(root, out, base_url, drafts))
            elif time.monotonic() < settle and inputs() != built_from:
                wanted.set()

    def changed(names: str) -> None:
        print(f"Changed: {names}", flush=True)
        wanted.set()

    def terminate(_signum: int, _frame: object) -> None:
        raise KeyboardInterrupt

    # Both, explicitly: a server started from a script in the background inherits
    # SIGINT as "ignored", and Ctrl-C (or a test's SIGINT) must still stop it.
    signal.signal(signal.SIGTERM, terminate)
    signal.signal(signal.SIGINT, terminate)
    state.publish(build_once(root, out, base_url, drafts))
    threads = [threading.Thread(target=builder, daemon=True), *watch(root, changed, stop)]
    threads[0].start()
    print(f"Serving {base_url} (Ctrl-C to stop)", flush=True)
    if network_url is not None:
        print(f"On your network: {network_url}", flush=True)
    if open_browser:
        open_in_browser(base_url)
    try:
        server.serve_forever(poll_interval=0.2)
    except KeyboardInterrupt:
        pass
    finally:
        stop.set()
        state.close()
        server.server_close()
        for thread in threads:
            thread.join(timeout=2)
    print("Stopped.", flush=True)
    return 0
