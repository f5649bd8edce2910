"""The one line a build prints (``Built 9 pages (1 post) in 0.84 s``), shared by the CLI
and the dev server; its own module so that neither imports the other."""


def summary(pages: int, posts: int) -> str:
    """``9 pages (1 post)``: counted in words a person would use."""
    return f"{pages} page{'s' * (pages != 1)} ({posts} post{'s' * (posts != 1)})"
