"""The stages' slow pure functions, wrapped with the cache (Pelican's ``FileStampDataCacher``
wraps its readers the same way): the stage never knows a cache exists.

Each answer is stored under a key made of its inputs and the code version, so
the wrapped call and the plain one always agree.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from site_builder import bibliography, fonts, pages, plots, widgets
from site_builder.config import SiteConfig
from site_builder.errors import BuildError
from site_builder.frontmatter import SourcePost
from site_builder.incremental.cache import Cache
from site_builder.incremental.keys import code_version, hash_parts

if TYPE_CHECKING:
    from concurrent.futures import Executor, Future

    import jinja2
    from jinja2.bccache import Bucket

    from site_builder.markdown import PlotOutput, WidgetOutput

T = TypeVar("T")


def yaml_parser(cache_dir: Path) -> Callable[[str, Path], Any]:
    """A ``parse`` for ``config.load_config`` that remembers the data of the last text."""

    def parse(text: str, path: Path) -> Any:
        cache = Cache(cache_dir)
        known = cache.get("config", "site.yaml")
        if isinstance(known, tuple) and len(known) == 2 and known[0] == text:
            return known[1]
        from site_builder.yamlload import load_yaml

        data = load_yaml(text, path)
        cache.put("config", "site.yaml", (text, data))
        return data

    return parse


def environment(config: SiteConfig, cache: Cache, site: Any = None) -> jinja2.Environment:
    """``pages.make_environment`` with compiled templates kept in the cache."""
    return pages.make_environment(config, site, _bytecode_cache(cache) if cache.enabled else None)


def _bytecode_cache(cache: Cache) -> jinja2.BytecodeCache:
    """Compiled templates kept in ``cache`` as checksummed entries (kind ``jinja-code``).

    Jinja's own ``FileSystemBytecodeCache`` trusts its files: damaged bytes were
    unmarshalled into code objects that rendered garbage or crashed the worker
    (a segfault, then every later build the same) until ``.cache`` was deleted by
    hand. Going through :class:`Cache` gives these entries the same SHA-256 check
    as every other kind, so a damaged one is a miss. It pays: loading the compiled
    templates takes ~0.6 ms instead of ~10 ms of compiling, in every worker.
    """
    import jinja2

    class CheckedBytecodeCache(jinja2.BytecodeCache):
        def load_bytecode(self, bucket: Bucket) -> None:
            data = cache.get_bytes("jinja-code", bucket.key)
            if data is not None:
                bucket.bytecode_from_string(data)  # checks Jinja's magic and the source's hash

        def dump_bytecode(self, bucket: Bucket) -> None:
            cache.put("jinja-code", bucket.key, bucket.bytecode_to_string())

    return CheckedBytecodeCache()


def font_subset(
    cache: Cache, running: Future[bytes] | None = None
) -> Callable[[Path, frozenset[str]], bytes]:
    """``fonts.subset_woff2`` (~0.3 s) remembered by the font's bytes and the characters;
    ``running`` is the same subset already under way on a worker (see ``Session``)."""

    def subset(source: Path, chars: frozenset[str]) -> bytes:
        key = font_key(source, chars)
        data = cache.get_bytes("font", key)
        if data is None:
            data = _result(running) or fonts.subset_woff2(source, chars)
            cache.put("font", key, data)
        return data

    return subset


def _result(running: Future[bytes] | None) -> bytes | None:
    try:
        return running.result() if running is not None else None
    except Exception:  # a worker lost: subset here instead
        return None


def font_key(source: Path, chars: frozenset[str]) -> str:
    return hash_parts(code_version(), source.read_bytes(), "".join(sorted(chars)))


def widget_runners(
    config: SiteConfig, cache: Cache, helper: Executor | None = None
) -> dict[str, Callable[[Mapping[str, str]], WidgetOutput]]:
    """``widgets.runners``, remembered by the widget folder's files and the params: an edit
    of ``widget.py`` runs it again, an unchanged widget costs a lookup. ``helper`` is a
    process that runs them (see ``Session``)."""

    def runner(spec: widgets.WidgetSpec) -> Callable[[Mapping[str, str]], WidgetOutput]:
        def run(params: Mapping[str, str]) -> WidgetOutput:
            found = widgets.key(spec, params)
            make = partial(widgets.compute, spec, config.root, params)
            if helper is not None:
                make = partial(_on, helper, make)
            return widgets.memo(found, partial(_remembered, cache, "widget", found, make))

        return run

    return {spec.name: runner(spec) for spec in config.widgets}


def _on(helper: Executor, make: Callable[[], T]) -> T:
    """``make()`` run by ``helper``; run here again if it failed there, so that an error is
    reported exactly as it would be here."""
    try:
        return helper.submit(make).result()
    except Exception:
        return make()


def plot_runner(
    source: SourcePost, config: SiteConfig, cache: Cache
) -> Callable[[str, Mapping[str, str]], PlotOutput] | None:
    """``plots.runner``, remembered by the post folder's Python files, the function and its
    arguments: an unchanged plot never imports Matplotlib."""
    if source.bundle_dir is None:
        return None
    folder = config.root / source.bundle_dir

    def run(spec: str, params: Mapping[str, str]) -> PlotOutput:
        make = partial(plots.run, folder, config.root, spec, params)
        return _remembered(cache, "plot", plots.key(folder, spec, params), make)

    return run


def _remembered(cache: Cache, kind: str, key: str, make: Callable[[], T]) -> T:
    known = cache.get(kind, key)
    if known is not None:
        return known  # type: ignore[no-any-return]
    value = make()
    cache.put(kind, key, value)
    return value


def warm_bibliographies(files: Iterable[Path | None], root: Path, cache: Cache) -> list[BuildError]:
    """Parse each .bib the posts to render use once, before the workers start (they inherit
    it), from the cache when it holds the records for the file's exact bytes."""
    errors = []
    for path in sorted({bibliography.file_for(named, root) for named in files} - {None}, key=str):
        assert path is not None
        try:
            data = (root / path).read_bytes()
        except OSError:
            continue  # the post's render reports it at the line naming the file
        if bibliography.remembered(data):
            continue  # parsed already: a cold build's early start, or `serve`'s last build
        key = hash_parts(code_version(), data)
        found = cache.get("bibliography", key)
        if isinstance(found, dict):
            bibliography.remember(data, found)
            continue
        try:
            cache.put("bibliography", key, bibliography.load(root / path, path))
        except BuildError as exc:
            errors.append(exc)
    return errors
