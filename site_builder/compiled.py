"""Compiled Jinja templates kept in memory for the life of the process.

A second build in one process (``serve``'s rebuilds, the tests' many builds) then
compiles no template again; the incremental layer's cache (``incremental.cached``)
keeps them between processes behind this one.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import jinja2

# Compiled templates this process made or loaded, by Jinja's key (the template's name and
# file) and the checksum of its source: a second build in one process (``serve``, tests)
# compiles nothing again. Bounded, as ``serve`` meets ever new sources.
_COMPILED: dict[tuple[str, str], bytes] = {}
_COMPILED_LIMIT = 512


def remembering(backing: jinja2.BytecodeCache | None) -> jinja2.BytecodeCache:
    """A bytecode cache in memory in front of ``backing`` (the incremental layer's, if any).

    Compiling the templates is most of a small site's build (~60% of a 30-page site's);
    the compiled code depends only on the source and the environment's options, which
    are the same for every environment made here."""
    import jinja2

    class Remembering(jinja2.BytecodeCache):
        def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
            data = _COMPILED.get((bucket.key, bucket.checksum))
            if data is not None:
                bucket.bytecode_from_string(data)  # checks Jinja's magic and the checksum
            elif backing is not None:
                backing.load_bytecode(bucket)
                if bucket.code is not None:
                    _remember(bucket)

        def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
            _remember(bucket)
            if backing is not None:
                backing.dump_bytecode(bucket)

    return Remembering()


def _remember(bucket: jinja2.bccache.Bucket) -> None:
    if len(_COMPILED) >= _COMPILED_LIMIT:
        _COMPILED.pop(next(iter(_COMPILED)))
    _COMPILED[(bucket.key, bucket.checksum)] = bucket.bytecode_to_string()
