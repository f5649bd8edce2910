"""site_builder: a static site generator for technical blogs."""

__version__ = "0.1.0"
