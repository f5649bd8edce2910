"""Saving work between builds, behind one boundary: no step of the pipeline takes a cache.

``build()`` talks to it through one object, :class:`session.Session`; the CLI asks
``noop`` whether a build can be skipped altogether. Everything here must leave
the output byte for byte what a clean serial build writes.

    session   the handle build() holds: renders posts, reuses pages, skips groups
    plan      keys from declared inputs (a post's render key and page key)
    jobs      one post's job: stored render or fresh one, then its page
    workers   the process pool the jobs run on
    cached    the stages' slow pure functions wrapped with the cache
    cache     .cache/: small checksummed entries, a file each (YAML, fonts, templates)
    state     .cache/state.db: the output table, the last build's record, rendered posts
    noop      the no-op check, from file metadata alone (standard library only)
    keys      hash_parts and the code version in every key

Kept light: importing ``site_builder.incremental.noop`` must not import the build.
"""
