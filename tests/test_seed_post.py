"""The first post, end to end: the built page must reproduce the seed faithfully.

``tests/data/seed.txt`` is the seed post as a reader saw it, flattened to text
(each formula as its symbols followed by its LaTeX, which is what a page's
``textContent`` gives when MathML carries a TeX annotation). We compare the
built page against it: every prose word in order, every formula, both code
blocks, the table, both notes and the citation.
"""

from __future__ import annotations

import html
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

SEED = (Path(__file__).parent / "data" / "seed.txt").read_text(encoding="utf-8")
POST = "posts/attention-from-the-softmax-up/index.html"

LATEX = [
    r"Q \in \mathbb{R}^{n \times d}",
    r"K \in \mathbb{R}^{n \times d}",
    r"V \in \mathbb{R}^{n \times d_v}",
    r"\operatorname{Attention}(Q, K, V) = "
    r"\operatorname{softmax}\!\left(\frac{QK^\top}{\sqrt{d}} + M\right) V,",
    "M",
    "0",
    r"-\infty",
    "i",
    r"j \le i",
    r"\sqrt{d}",
    "q",
    "k",
    r"\operatorname{Var}(q^\top k) = \sum_{t=1}^{d} \operatorname{Var}(q_t k_t) = d,",
    r"\tau \to 0",
    r"\tau \to \infty",
    r"\log_2 7 \approx 2.81",
    r"n \times n",
    "n",
    "O(n^2)",
    "O(n)",
    r"M_{ij} = -\infty",
    "i - j > w",
    "O(nw)",
    r"\phi",
]


BLOCKS = {"p", "li", "h1", "h2", "h3", "figcaption", "pre", "div", "td", "th", "tr", "span"}


class TextExtractor(HTMLParser):
    """Collects textContent (annotations included) and, separately, visible text without math."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.all: list[str] = []
        self.visible: list[str] = []
        self.annotations: list[str] = []
        self._math = 0
        self._annotation = False
        self._skip = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "math":
            self._math += 1
        elif tag == "annotation":
            self._annotation = True
            self.annotations.append("")
        elif tag in ("script", "style", "pre", "code"):
            self._skip += 1

    def handle_endtag(self, tag: str) -> None:
        if tag in BLOCKS:
            self.all.append("\n")
        if tag == "math":
            self._math -= 1
        elif tag == "annotation":
            self._annotation = False
        elif tag in ("script", "style", "pre", "code"):
            self._skip -= 1

    def handle_data(self, data: str) -> None:
        self.all.append(data)
        if self._annotation:
            self.annotations[-1] += data
        if not self._math and not self._skip:
            self.visible.append(data)


@pytest.fixture(scope="module")
def page(built_site: Path) -> str:
    return (built_site / POST).read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def text(page: str) -> TextExtractor:
    extractor = TextExtractor()
    extractor.feed(page)
    return extractor


def words(text: str) -> list[str]:
    """Words of four or more letters: prose survives, formula symbols mostly do not."""
    return re.findall(r"[A-Za-z]{4,}", text)


def test_every_seed_word_appears_in_order(text: TextExtractor) -> None:
    page_words = words("".join(text.all))
    position = 0
    for word in words(SEED):
        try:
            position = page_words.index(word, position) + 1
        except ValueError:
            context = " ".join(page_words[max(0, position - 8) : position + 8])
            pytest.fail(f"seed word {word!r} missing after: ...{context}...")


def test_every_formula_is_mathml(text: TextExtractor, page: str) -> None:
    for latex in LATEX:
        assert latex in text.annotations, f"formula not rendered as MathML: {latex}"
    assert page.count('display="block"') == 2


def test_no_stray_tex_or_dollars_in_visible_text(text: TextExtractor) -> None:
    visible = " ".join(text.visible)
    assert "$" not in visible
    assert not re.search(r"\\[A-Za-z]+", visible), "LaTeX command leaked into the text"


def test_code_blocks_with_captions(page: str) -> None:
    for name in ("attention.py", "check.py"):
        assert f'<figcaption class="code-filename">{name}</figcaption>' in page
    code = re.sub(r"<[^>]+>", "", page).replace("&quot;", '"').replace("&gt;", ">")
    for line in SEED.split("attention.py\n", 1)[1].split("\n\nA quick check")[0].splitlines():
        assert line.strip() in code
    assert "print((ours - ref).abs().max())   # ~1e-6" in code


def test_table_rows(text: TextExtractor) -> None:
    visible = " ".join(" ".join(text.visible).split())
    for cell in (
        "Full softmax attention",
        "nothing",
        "Flash attention",
        "tiling, online softmax",
        "Sliding window",
        "Linear attention",
        "kernel feature map",
    ):
        assert cell in visible


def test_notes_and_sidenotes(page: str) -> None:
    assert page.count('class="footnote-item"') == 2
    assert page.count('class="sidenote"') == 2
    assert "↩︎" in page
    assert '<h2 id="notes">Notes</h2>' in page


def test_citation_box(page: str) -> None:
    """The box holds the seed's entry as the seed writes it: type, key, field order, spacing."""
    seed = SEED.split("BibTeX\n", 1)[1].strip()
    assert seed.startswith("@article{sahu2026attention,\n  author = {Surya Kant Sahu},")
    box = re.search(r'<pre class="cite-bibtex"[^>]*><code>(.*?)</code>', page, re.S)
    assert box, "no BibTeX in the cite box"
    assert html.unescape(box.group(1)) == seed
    assert "Cite this post" in page
    assert 'data-copy="bibtex"' in page


def test_header(text: TextExtractor, page: str) -> None:
    visible = " ".join(" ".join(text.visible).split())
    assert "3 min read" in visible
    assert "Surya Kant Sahu" in visible
    assert "<h1" in page and "Attention, from the softmax up</h1>" in page
