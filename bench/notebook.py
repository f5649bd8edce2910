"""Generate a deterministic notebook post for the benchmark (``corpus --notebooks N``).

Shaped like a Quarto blog's notebook: front matter in a first raw cell, then
Markdown cells with inline and display math, and code cells whose stored
outputs are the kinds a post shows most: a stream (``print``), a DataFrame's
HTML table (with pandas' ``<style scoped>``, which the sanitiser drops) and a
small PNG plot. About the words of a ``.md`` post of the corpus, so a notebook
post's extra cost is the notebook's own: reading, validating, outputs, images.
Plain JSON, validated by nbformat; cell ids are numbered, not drawn at random,
so the same index always gives the same bytes.
"""

from __future__ import annotations

import base64
import json
import random
import struct
import zlib
from typing import Any

import nbformat

from bench.text import CODE, DISPLAY, INLINE, TAGS, WORDS, paragraph, sentence

KERNEL = {
    "kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
    "language_info": {"name": "python", "pygments_lexer": "ipython3"},
}
DATAFRAME_STYLE = """<style scoped>
    .dataframe tbody tr th:only-of-type {
        vertical-align: middle;
    }
    .dataframe thead th {
        text-align: right;
    }
</style>"""


def png(width: int, height: int, seed: int) -> bytes:
    """A grey-scale PNG of a falling loss curve: a plot's shape at a plot's size class."""
    rng = random.Random(seed)
    curve = [int(height * 0.8 * (1 - (x / width) ** 0.4)) + rng.randint(0, 3) for x in range(width)]
    rows = b"".join(
        b"\x00" + bytes(0 if abs(y - (height - 1 - curve[x])) <= 1 else 255 for x in range(width))
        for y in range(height)
    )

    def chunk(tag: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + tag + data + struct.pack(">I", zlib.crc32(tag + data))

    header = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(rows, 9))
        + chunk(b"IEND", b"")
    )


def dataframe(rng: random.Random) -> tuple[str, str]:
    """A five-row training log as pandas shows it: (text/html, text/plain)."""
    rows = [(step * 100, rng.uniform(0.1, 2.5), rng.uniform(0.5, 0.99)) for step in range(5)]
    body = "".join(
        f"    <tr>\n      <th>{i}</th>\n      <td>{s}</td>\n      <td>{loss:.4f}</td>\n"
        f"      <td>{acc:.4f}</td>\n    </tr>\n"
        for i, (s, loss, acc) in enumerate(rows)
    )
    html = (
        f"<div>\n{DATAFRAME_STYLE}\n"
        '<table border="1" class="dataframe">\n  <thead>\n'
        '    <tr style="text-align: right;">\n      <th></th>\n      <th>step</th>\n'
        "      <th>loss</th>\n      <th>accuracy</th>\n    </tr>\n  </thead>\n"
        f"  <tbody>\n{body}  </tbody>\n</table>\n</div>"
    )
    plain = "   step    loss  accuracy\n" + "\n".join(
        f"{i}  {s:>5} {loss:>7.4f} {acc:>9.4f}" for i, (s, loss, acc) in enumerate(rows)
    )
    return html, plain


def cell(kind: str, source: str, *outputs: dict[str, Any]) -> dict[str, Any]:
    """One nbformat 4 cell; a code cell's execution count is filled in by ``notebook``."""
    if kind != "code":
        return {"cell_type": kind, "metadata": {}, "source": source}
    return {"cell_type": kind, "metadata": {}, "source": source, "outputs": list(outputs)}


def notebook(index: int) -> str:
    """Notebook post ``index`` as nbformat 4 JSON text, as Jupyter writes it."""
    rng = random.Random(1_000_000 + index)
    inline = [rng.choice(INLINE) for _ in range(12)]
    tags = sorted(rng.sample(TAGS, 2))
    year, month, day = 2020 + index % 6, 1 + index % 12, 1 + index % 28
    front = "\n".join(
        [
            "---",
            f"title: Notebook {index} on {rng.choice(WORDS)} and {rng.choice(WORDS)}",
            f"date: {year:04d}-{month:02d}-{day:02d}",
            f"description: {sentence(rng, 14)}",
            f"tags: [{', '.join(tags)}]",
            "---",
        ]
    )
    html, plain = dataframe(rng)
    figure = base64.b64encode(png(160, 100, index)).decode("ascii")
    printed = f"step {rng.uniform(1, 50):.3f} over 3 tensors\n"
    cells = [
        cell("raw", front),
        cell("markdown", paragraph(rng, inline)),
        cell(
            "markdown", f"## Setting\n\n{paragraph(rng, inline)}\n\n$$\n{rng.choice(DISPLAY)}\n$$"
        ),
        cell(
            "code",
            CODE.format(lr=f"{rng.randint(1, 9)}e-3") + "\nparams = step(params, grads)",
            {"output_type": "stream", "name": "stdout", "text": printed},
        ),
        cell("markdown", paragraph(rng, inline)),
        cell(
            "code",
            "log = pd.DataFrame(history)\nlog.head()",
            {
                "output_type": "execute_result",
                "data": {"text/html": html, "text/plain": plain},
                "metadata": {},
            },
        ),
        cell("markdown", f"## Results\n\n{paragraph(rng, inline)}"),
        cell(
            "code",
            'plt.plot(log["step"], log["loss"]);',
            {
                "output_type": "display_data",
                "data": {"image/png": figure, "text/plain": "<Figure size 640x400 with 1 Axes>"},
                "metadata": {},
            },
        ),
        cell("markdown", f"{paragraph(rng, [])}\n\n$$\n{rng.choice(DISPLAY)}\n$$"),
        *(cell("markdown", paragraph(rng, [])) for _ in range(3)),
    ]
    count = 0
    for number, each in enumerate(cells):
        each["id"] = f"cell-{number}"
        if each["cell_type"] == "code":
            count += 1
            each["execution_count"] = count
            for output in each["outputs"]:
                if output["output_type"] == "execute_result":
                    output["execution_count"] = count
    book = {"cells": cells, "metadata": KERNEL, "nbformat": 4, "nbformat_minor": 5}
    nbformat.validate(book, version=4)
    return json.dumps(book, indent=1, sort_keys=True, ensure_ascii=False) + "\n"


def edited(text: str, note: str) -> str:
    """Notebook JSON ``text`` with ``note`` appended to its first Markdown cell: an author's
    edit of one cell, which re-renders that post only."""
    book = json.loads(text)
    cell = next(c for c in book["cells"] if c["cell_type"] == "markdown")
    source = cell["source"]
    cell["source"] = ("".join(source) if isinstance(source, list) else source) + f"\n\n{note}"
    return json.dumps(book, indent=1, sort_keys=True) + "\n"
