"""Allow ``python -m site_builder``."""

from site_builder.cli import run

run()
