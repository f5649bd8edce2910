"""Which files under a site folder may be published: regular files that stay inside the site.

A post folder or ``static/`` is copied into ``public/`` as it is. A symbolic
link in it to ``/etc/passwd`` or ``/proc/self/environ`` was followed and the
file published. Links that stay inside the site are fine (a shared image);
one that leads outside is an error at the link, so nothing from elsewhere on
the machine reaches a deployed site by accident.
"""

from __future__ import annotations

import os
from pathlib import Path

from site_builder.errors import BuildError


def files_under(folder: Path, root: Path) -> list[Path]:
    """Every file under ``folder``, sorted; raises BuildError for a link that leaves ``root``.

    Symbolically linked folders are not descended into (as ``Path.rglob`` does not);
    one that points outside the site is refused like a linked file.
    """
    site = root.resolve()
    found = []
    for path in sorted(folder.rglob("*")):
        if path.is_symlink():
            target = Path(os.path.realpath(path))
            if not target.is_relative_to(site):
                shown = path.relative_to(root) if path.is_relative_to(root) else path
                message = f"symbolic link to {os.readlink(path)}, outside the site"
                raise BuildError(shown, None, f"{message}: refusing to publish it")
        if path.is_file():
            found.append(path)
    return found
