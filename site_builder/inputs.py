"""What a build reads from a site, in one place: the watcher (``serve``), the no-op check
(``incremental.noop``) and the sources of every kind (``kinds``, all under ``content/``)
read this, so a folder added here is watched, stat'ed and built alike.

No imports: the no-op check loads this module and almost nothing else.
"""

# Folders read recursively: the sources, templates, files copied as they are, a font
# chosen for the math (``fonts.find_font``) and the site's widgets.
FOLDERS = ("content", "templates", "static", "fonts", "widgets")
# Files at the site's root.
FILES = ("site.yaml",)
