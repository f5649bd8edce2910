"""Compiled Jinja templates kept in memory for the life of the process.

A second build in one process (``serve``'s rebuilds, the tests' many builds of many
copies of a site) then compiles no template again; the incremental layer's cache
(``incremental.cached``) keeps them between processes behind this one.

Jinja keys a compiled template by its name and file. Here the key is its name and the
checksum of its source: the code Jinja generates depends on those and on the
environment's options (the same for every environment ``pages.make_environment``
makes), never on the file, which only names the code's frames. So a copy of the site
elsewhere reuses the code, with its frames named after its own file
(``_refile``): a runtime error in a template is still found at its file and line
(``pages.render_template``).
"""

from __future__ import annotations

from types import CodeType
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import jinja2

# Bounded, as ``serve`` meets ever new sources.
_CODE: dict[tuple[str, str], CodeType] = {}
_LIMIT = 512
# The entries a backing cache was given or gave (Jinja's key, which names the file, and
# the checksum): a second environment in one build writes none of them again.
_IN_BACKING: set[tuple[str, str]] = set()


def remembering(backing: jinja2.BytecodeCache | None) -> jinja2.BytecodeCache:
    """A bytecode cache in memory in front of ``backing`` (the incremental layer's, if any).

    Compiling the templates is most of a small site's build (~60% of a 30-page site's)."""
    import jinja2
    from jinja2.bccache import Bucket

    class Named(Bucket):
        """A bucket that knows its template's name (Jinja's knows only a hash of it)."""

        memory_key: tuple[str, str]

    class Remembering(jinja2.BytecodeCache):
        def get_bucket(
            self, environment: jinja2.Environment, name: str, filename: str | None, source: str
        ) -> Bucket:
            checksum = self.get_source_checksum(source)
            bucket = Named(environment, self.get_cache_key(name, filename), checksum)
            bucket.memory_key = (name, checksum)
            code = _CODE.get(bucket.memory_key)
            if code is not None:
                bucket.code = _refile(code, filename or "<template>")  # as compile names it
                if backing is not None and (bucket.key, checksum) not in _IN_BACKING:
                    self.dump_bytecode(bucket)  # the next process finds it there
            elif backing is not None:
                backing.load_bytecode(bucket)  # checks Jinja's magic and the checksum
                if bucket.code is not None:
                    _remember(bucket.memory_key, bucket.code)
                    _IN_BACKING.add((bucket.key, checksum))
            return bucket

        def load_bytecode(self, bucket: Bucket) -> None:
            pass  # get_bucket does it, knowing the name

        def dump_bytecode(self, bucket: Bucket) -> None:
            if isinstance(bucket, Named) and bucket.code is not None:
                _remember(bucket.memory_key, bucket.code)
            if backing is not None:
                backing.dump_bytecode(bucket)
                _IN_BACKING.add((bucket.key, bucket.checksum))

    return Remembering()


def _remember(key: tuple[str, str], code: CodeType) -> None:
    if len(_CODE) >= _LIMIT:
        _CODE.pop(next(iter(_CODE)))
        _IN_BACKING.clear()  # at worst written again: bounded with the code it describes
    _CODE[key] = code


def _refile(code: CodeType, file: str) -> CodeType:
    """``code`` and every function and block in it, their frames named after ``file``."""
    if code.co_filename == file:
        return code
    consts = tuple(_refile(c, file) if isinstance(c, CodeType) else c for c in code.co_consts)
    return code.replace(co_filename=file, co_consts=consts)
