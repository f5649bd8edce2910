"""Generate a deterministic corpus of ML-style posts for the benchmark.

Each post is like the issue's reference corpus: ~950 words of prose with 12
inline and 2 display equations, two 12-line Python code blocks, a 4-row table
with math and two footnotes. The same N always gives the same bytes, so runs
are comparable.

Optionally (``notebooks``) N notebook posts, ``nb-00000.ipynb`` and on
(``bench.notebook``), and the two pages-kind sources, an About page and the home
text (``pages``).

    python -m bench.corpus DEST --posts 1000 [--notebooks 100] [--pages]
"""

from __future__ import annotations

import argparse
import random
import shutil
from pathlib import Path

from bench.text import CODE, DISPLAY, INLINE, TAGS, WORDS, paragraph, sentence

ROOT = Path(__file__).resolve().parent.parent


def post(index: int) -> str:
    rng = random.Random(index)
    inline = [rng.choice(INLINE) for _ in range(12)]
    tags = sorted(rng.sample(TAGS, 2))
    year, month, day = 2020 + index % 6, 1 + index % 12, 1 + index % 28
    body = [
        "---",
        f"title: Post {index} on {rng.choice(WORDS)} and {rng.choice(WORDS)}",
        f"date: {year:04d}-{month:02d}-{day:02d}",
        f"description: {sentence(rng, 14)}",
        f"tags: [{', '.join(tags)}]",
        "---",
        "",
        paragraph(rng, inline) + "[^a]",
        "",
        "## Setting",
        "",
        paragraph(rng, inline),
        "",
        "$$",
        rng.choice(DISPLAY),
        "$$",
        "",
        paragraph(rng, inline),
        "",
        '```python filename="step.py"',
        CODE.format(lr=f"{rng.randint(1, 9)}e-3").rstrip(),
        "```",
        "",
        "## Results",
        "",
        paragraph(rng, inline) + "[^b]",
        "",
        "| Variant | Cost | Memory |",
        "|---|---|---|",
        "| Full | $O(n^2)$ | $O(n^2)$ |",
        "| Flash | $O(n^2)$ | $O(n)$ |",
        "| Window | $O(nw)$ | $O(nw)$ |",
        "| Linear | $O(n)$ | $O(n)$ |",
        "",
        paragraph(rng, []),
        "",
        "$$",
        rng.choice(DISPLAY),
        "$$",
        "",
        "```python",
        CODE.format(lr="1e-4").rstrip(),
        "```",
        "",
        paragraph(rng, []),
        "",
        paragraph(rng, []),
        "",
        paragraph(rng, []),
        "",
        f"[^a]: {sentence(rng, 16)}",
        f"[^b]: {sentence(rng, 12)}",
        "",
    ]
    return "\n".join(body)


ABOUT = r"""---
title: About
description: What this site is and how its pages are made.
menu: true
---

Notes on machine learning with the mathematics typeset, such as the softmax,

$$
\operatorname{softmax}(z)_i = \frac{e^{z_i}}{\sum_{j=1}^{n} e^{z_j}},
$$

followed until every symbol has earned its place.[^built]

[Each formula is MathML, drawn in a math font made for it.]{.aside}

[^built]: Plain HTML and CSS, built ahead of time.
"""
HOME = r"""---
title: Bench
---

Words above the recent posts, with a formula: $\mathbb{E}[X]$.
"""


def make_corpus(
    dest: Path, posts: int, notebooks: int = 0, pages: bool = False, theme: Path = ROOT
) -> Path:
    """Write a complete site into ``dest``: site.yaml, the theme (``theme``'s templates,
    static files and fonts), N posts, ``notebooks`` notebook posts and, with ``pages``, an
    About page and the home text (kinds a checkout before pages existed does not read)."""
    if dest.exists():
        shutil.rmtree(dest)
    (dest / "content" / "posts").mkdir(parents=True)
    for name in ("templates", "static", "fonts"):
        if (theme / name).is_dir():
            shutil.copytree(theme / name, dest / name)
    (dest / "site.yaml").write_text(
        "title: Bench\nauthor: Ada Lovelace\nbase_url: https://example.org/\n", encoding="utf-8"
    )
    for index in range(posts):
        path = dest / "content" / "posts" / f"post-{index:05d}.md"
        path.write_text(post(index), encoding="utf-8")
    if notebooks:
        from bench.notebook import notebook  # nbformat: only when notebooks are asked for

        for index in range(notebooks):
            path = dest / "content" / "posts" / f"nb-{index:05d}.ipynb"
            path.write_text(notebook(index), encoding="utf-8")
    if pages:
        (dest / "content" / "pages").mkdir()
        (dest / "content" / "pages" / "about.md").write_text(ABOUT, encoding="utf-8")
        (dest / "content" / "index.md").write_text(HOME, encoding="utf-8")
    return dest


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("dest", type=Path)
    parser.add_argument("--posts", type=int, default=1000)
    parser.add_argument("--notebooks", type=int, default=0)
    parser.add_argument("--pages", action="store_true")
    args = parser.parse_args()
    make_corpus(args.dest, args.posts, args.notebooks, args.pages)


if __name__ == "__main__":
    main()
