r"""Small source rewrites for what real posts write and math-core lacks or gets wrong.

Each rewrite is measured on real posts (see ``tests/data/math_corpus.jsonl``)
and maps the construct onto one math-core handles the way LaTeX sets it:

- ``\\[6pt]``: math-core prints the optional row space as text ("[6pt]"); the
  space is dropped, the row break kept;
- amsmath environments it does not know: ``split`` (as ``aligned``),
  ``eqnarray`` (as ``align``, its middle column joined to the right one),
  ``alignat``/``flalign`` (as ``align``), ``smallmatrix`` (a script-size
  ``matrix``), and ``\substack`` (a ``subarray``);
- MathJax's ``\require{..}`` (dropped) and ``\bbox[..]{..}`` (as ``\boxed``);
- commands from other packages with a direct equivalent (``\mbox``, ``\pmb``,
  ``\mathbbm``, ``\intop``, amsmath's ``\dotsb``...), and ``\smash`` (its
  argument kept);
- ``x^\color{red}{y}`` (MathJax 2's two-argument ``\color`` as a script): a group;
- an ``array``'s column spec beyond ``lcr|`` (``@{}``, ``*{3}{c}``, ``p{2cm}``): its letters;
- ``\left<``/``\right>`` as angle brackets, and ``#RRGGBB`` colours as
  ``\color[HTML]`` (KaTeX accepts both; math-core reads ``#`` as a parameter);
- a star after a command that has no starred form (``\delta*``): math-core
  reads it as part of the name; LaTeX, MathJax and KaTeX as an asterisk;
- ``\\{ ... \\}`` (and ``\\|`` inline): braces and bars escaped twice for
  Markdown engines that eat one backslash, which MathJax and KaTeX draw as
  braces and bars; Markdown's ``\*``; ``_`` and ``&`` in ``\text{...}`` (``&`` in
  a ``\tag`` too), literal ones, and the space after them kept;
- ``\mathop{X}\limits_a^b``: math-core takes ``\limits`` only after its own
  operators; the scripts are set under and over with ``\underset``/``\overset``
  (``\nolimits`` after ``\mathop`` goes: math-core already sets them beside it);
- a ``\tag{6}`` in inline math (kramdown's ``$$`` beside text) as ``(6)`` after it;
- ``\not\!\perp`` (not independent): the space between ``\not`` and its relation goes;
- a backslash ending a line (TeX's control space) as ``\ ``;
- ``\\`` at the top of a display formula: LaTeX, MathJax and KaTeX break the
  line there; the lines are set as ``gathered`` (``aligned`` with ``&``). In
  inline math it is an error: math-core would drop it without a word.

A :class:`Source` remembers every edit, so an error math-core reports in the
rewritten text points at the author's own column.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from site_builder.markdown.math.colours import css_colour
from site_builder.markdown.math.engine import MathError

Edit = tuple[int, int, str]  # replace text[start:end] with the string


class Source:
    """LaTeX under rewriting: the current text and the way back to the original offsets."""

    def __init__(self, text: str) -> None:
        self.text = text
        self._passes: list[list[tuple[int, int, int, int]]] = []
        # Marker colour -> the CSS it stands for (see ``_marker``).
        self.styles: dict[str, str] = {}

    def marker(self, css: str) -> str:
        """A group ``{\\color[HTML]{M}...}`` that becomes ``css`` after conversion.

        math-core has no font sizes in math, ``\\colorbox`` or ``\\rule``; a colour is
        a switch with the same reach (to the end of its group), so a marker colour
        carries the place and ``formula`` swaps in the real style.
        """
        colour = f"0C0C{len(self.styles):02X}"
        self.styles[colour] = css
        return f"\\color[HTML]{{{colour}}}"

    def edit(self, edits: list[Edit]) -> None:
        """Apply non-overlapping edits, given in order of position in the current text."""
        if not edits:
            return
        out: list[str] = []
        spans: list[tuple[int, int, int, int]] = []
        pos = 0
        length = 0
        for start, end, new in edits:
            out.append(self.text[pos:start])
            length += start - pos
            spans.append((length, length + len(new), start, end))
            out.append(new)
            length += len(new)
            pos = end
        out.append(self.text[pos:])
        self.text = "".join(out)
        self._passes.append(spans)

    def sub(self, pattern: re.Pattern[str], replace: Callable[[re.Match[str]], str]) -> None:
        self.edit([(m.start(), m.end(), replace(m)) for m in pattern.finditer(self.text)])

    def origin(self, offset: int) -> int:
        """The offset in the original text of ``offset`` in the current one."""
        for spans in reversed(self._passes):
            shifted = offset
            for new_start, new_end, old_start, old_end in spans:
                if offset < new_start:
                    break
                if offset < new_end:
                    shifted = old_start
                    break
                shifted = offset - new_end + old_end
            offset = shifted
        return offset


_ROW_SPACE = re.compile(
    r"\\\\\s*\[\s*-?(?:\d+\.?\d*|\.\d+)\s*(?:pt|em|ex|mm|cm|in|mu|bp|pc|sp|dd|cc)\s*\]"
)
_RENAMED_ENV = re.compile(
    r"\\(begin|end)\s*\{(split|alignat\*?|flalign\*?|xalignat\*?|smallmatrix)\}(\{\d+\})?"
)
_COMMANDS = {
    "mbox": "text",
    "pmb": "boldsymbol",
    "mathbbm": "mathbb",
    "intop": "int",
    "dotsb": "cdots",
    "dotsm": "cdots",
    "dotsi": "cdots",
    "dotsc": "ldots",
    "dotso": "ldots",
    "centerdot": "cdot",
    "textup": "textrm",
    "textmd": "text",
    "mathnormal": "mathit",
    "Cal": "mathcal",
    "textnormal": "text",
    "gdef": "def",
    "edef": "def",
    "xdef": "def",
    "cr": "\\",
    "mathellipsis": "ldots",
    "sdot": "cdot",
    "smallint": "int",
    "thicksim": "sim",
    "thickapprox": "approx",
    "varpropto": "propto",
    "smallsetminus": "setminus",
    "shortmid": "mid",
    "nshortmid": "nmid",
    "shortparallel": "parallel",
    "nshortparallel": "nparallel",
    "smallfrown": "frown",
    "smallsmile": "smile",
    "TeX": "text{TeX}",
    "LaTeX": "text{LaTeX}",
    "KaTeX": "text{KaTeX}",
}
# Unicode symbols math-core wants as commands (MathJax and KaTeX take them as they are).
_UNICODE = {
    **{"√": "\\surd ", "∴": "\\therefore ", "∵": "\\because ", "∁": "\\complement "},
    **{"\u22a4": "\\top ", "⊥": "\\perp ", "∅": "\\emptyset ", "∠": "\\angle "},
    **{"∡": "\\measuredangle ", "∢": "\\sphericalangle "},  # \u22a4: DOWN TACK
}
_UNICODE_RE = re.compile("[" + "".join(_UNICODE) + "]")
# Links and HTML attributes have no place in MathML here: their text stays, they go.
_ATTRIBUTE = re.compile(r"\\(?:href|htmlClass|htmlId|htmlStyle|htmlData)\s*\{[^{}]*\}(?=\s*\{)")
# MathJax's own: ``\require{ams}`` loads an extension (nothing to draw); ``\bbox[opts]{x}``
# draws a box, set as amsmath's ``\boxed``.
_REQUIRE = re.compile(r"\\require\s*\{[^{}]*\}")
_BBOX = re.compile(r"\\bbox\s*(?:\[[^\]]*\])?\s*(?=\{)")
_URL = re.compile(r"\\url\s*\{([^{}]*)\}")
_MSKIP = re.compile(r"\\(mskip|mkern|kern|hskip)\s*\{([^{}]*)\}")
_DROPPED = re.compile(
    r"\\(?:allowbreak|global|mathclap|mathllap|mathrlap|clap|llap|rlap)(?![A-Za-z])"
)
# LaTeX's sizes relative to the text, as KaTeX sets them.
SIZES = {"tiny": 0.5, "scriptsize": 0.7, "footnotesize": 0.8, "small": 0.9, "normalsize": 1,
         "large": 1.2, "Large": 1.44, "LARGE": 1.728, "huge": 2.074, "Huge": 2.488}  # fmt: skip
_SIZE = re.compile(r"\\(" + "|".join(SIZES) + r")(?![A-Za-z])")
_COLORBOX = re.compile(r"\\(colorbox|fcolorbox)\s*\{([^{}]*)\}\s*(?:\{([^{}]*)\}\s*)?(?=\{)")
_VERB = re.compile(r"\\verb\*?([^A-Za-z\s*])(.*?)\1")
_TEXT_SPECIAL = re.compile(r"([\\{}_^%&#$~])")
_COMMAND = re.compile(r"\\(" + "|".join(_COMMANDS) + r")(?![A-Za-z])")
_RENAMED_MATRIX = re.compile(
    r"\\(begin|end)\s*\{([pbBvV]?matrix|alignedat)\*?\}(\[[lcr]\]|\{\d+\})?"
)
_SUBSTACK = re.compile(r"\\substack\s*\{")
_ARRAY_SPEC = re.compile(r"(\\begin\s*\{(?:array|tabular)\})\s*(\[[^\]]*\]\s*)?\{")
_SCRIPT_COLOUR = re.compile(r"[_^]\s*(\\color\s*(?:\[[^\]]*\])?\s*\{[^{}]*\}\s*\{)")
_EQNARRAY = re.compile(r"\\begin\s*\{eqnarray(\*?)\}(.*?)\\end\s*\{eqnarray\1\}", re.DOTALL)
_SMASH = re.compile(r"\\smash\s*(?:\[[tb]\])?\s*(?=\{)")
_ANGLE = re.compile(r"\\(left|right|middle)\s*([<>])")
_HEX = re.compile(r"\\(color|textcolor)\s*\{\s*#([0-9A-Fa-f]{6}|[0-9A-Fa-f]{3})\s*\}(\s*\{)?")
_STARRED = frozenset({"operatorname", "tag", "DeclareMathOperator", "newcommand", "renewcommand",
                      "providecommand"})  # fmt: skip
_STAR = re.compile(r"\\([A-Za-z]+)\*")
_DOUBLED = re.compile(r"\\\\([{}])")
_INLINE_DOUBLED = re.compile(r"\\\\([{}|])")
_ESCAPED_STAR = re.compile(r"\\\*")
_TEXT = re.compile(r"\\(?:text|textrm|textbf|textit|textsf|texttt|mbox|emph)\s*\{")
_TAG_ARGUMENT = re.compile(r"\\tag\*?\s*\{")
# ``X \not\!\perp\!\!\!\perp Y`` (not independent): MathJax slashed the relation across
# the negative space; math-core wants the relation right after ``\not``.
_SPACED_NOT = re.compile(r"\\not(?:\s*\\[!,:; ])+\s*")
_INLINE_TAG = re.compile(r"\\tag(\*?)\s*\{([^{}$]*)\}")
_MATHOP = re.compile(r"\\mathop\s*\{")
_LIMITS = re.compile(r"\s*\\(no)?limits(?![A-Za-z])")
_SCRIPT = re.compile(r"\s*([_^])\s*(\\[A-Za-z]+|\\.|[^{\s\\])?")
# A backslash that ends a line, after an even number of them (``\\`` is a row break).
_CONTROL_SPACE = re.compile(r"(?<!\\)((?:\\\\)*)\\[\n\t]")


def rewrite(source: Source, display: bool) -> None:
    """Every rewrite, in order; ``display`` formulas may also break lines at the top level."""
    rewrite_common(source)
    if not display and "\\tag" in source.text:  # kramdown's $$..$$ beside text: inline
        source.sub(_INLINE_TAG, _inline_tag)
    if "\\\\" not in source.text:
        return  # no line break anywhere: nothing below applies
    if display:
        source.edit(_top_level_lines(source.text))
        return
    source.sub(_INLINE_DOUBLED, lambda m: "\\" + m.group(1))  # \\| is no line break inline
    if breaks := top_level(source.text, "\\\\"):
        raise MathError(
            "line break '\\\\' in inline math: put the lines in display math ($$ on lines of "
            "their own)",
            breaks[0],
        )


def _inline_tag(match: re.Match[str]) -> str:
    tag = match.group(2) if match.group(1) else f"({match.group(2)})"  # \tag* has no ()
    return f"\\qquad\\text{{{tag}}}"


def rewrite_common(source: Source) -> None:
    """The rewrites that hold anywhere: in a formula and in a macro's body."""
    if not _TRIGGER.search(source.text):
        return  # most formulas hold nothing to rewrite: one scan instead of twenty
    if 0 < source.text.count("\\\\{") == source.text.count("\\\\}"):  # paired: set braces
        source.sub(_DOUBLED, lambda m: "\\" + m.group(1))
    source.sub(_ESCAPED_STAR, lambda m: "*")  # Markdown's \* kept in math: an asterisk
    source.sub(_ROW_SPACE, lambda m: "\\\\")
    source.sub(_RENAMED_ENV, _renamed_environment)
    source.sub(_COMMAND, lambda m: "\\" + _COMMANDS[m.group(1)])
    source.sub(_RENAMED_MATRIX, _renamed_matrix)
    source.sub(_DROPPED, lambda m: "")
    source.sub(_UNICODE_RE, lambda m: _UNICODE[m.group()])
    source.sub(_ATTRIBUTE, lambda m: "")
    source.sub(_REQUIRE, lambda m: "")
    source.sub(_BBOX, lambda m: "\\boxed")
    source.sub(_URL, lambda m: "\\texttt{" + _TEXT_SPECIAL.sub(_text_escape, m.group(1)) + "}")
    source.sub(_MSKIP, lambda m: f"\\{m.group(1)} {m.group(2)}")
    source.sub(_VERB, lambda m: "\\texttt{" + _TEXT_SPECIAL.sub(_text_escape, m.group(2)) + "}")
    source.sub(_SIZE, lambda m: source.marker(f"font-size:{SIZES[m.group(1)]}em"))
    source.edit(_colorboxes(source))
    source.sub(_SMASH, lambda m: "")
    source.sub(_ANGLE, lambda m: f"\\{m.group(1)}\\{'langle' if m.group(2) == '<' else 'rangle'}")
    source.sub(_HEX, _hex_colour)
    source.sub(_STAR, lambda m: m.group() if m.group(1) in _STARRED else f"\\{m.group(1)} *")
    source.edit(_substacks(source.text))
    source.edit(_scripted_colours(source.text))
    source.edit(_array_specs(source.text))
    source.edit(_text_underscores(source.text))
    source.edit(_math_in_text(source.text))
    source.sub(_EQNARRAY, _eqnarray)
    source.edit(_mathop_limits(source.text))
    source.sub(_CONTROL_SPACE, lambda m: m.group(1) + "\\ ")
    source.sub(_SPACED_NOT, lambda m: "\\not")


# Anything a rewrite above acts on; a formula without any is left as it is.
_TRIGGER_NAMES = {
    *_COMMANDS,
    *SIZES,
    "require",
    "tag",
    "not",
    "bbox",
    "allowbreak",
    "global",
    "mathclap",
    "mathllap",
    "mathrlap",
}
_TRIGGER = re.compile(
    r"\\(?:\\|\*|mathop|begin|end|left|right|middle|color|textcolor|smash|substack|verb|url|href|"
    r"html[A-Z][a-z]+|mskip|mkern|kern|hskip|colorbox|fcolorbox|text[a-z]*|mbox|emph|clap|"
    r"llap|rlap|" + "|".join(sorted(_TRIGGER_NAMES, key=len, reverse=True)) + r")(?![A-Za-z])"
    r"|\\[A-Za-z]+\*|\\[\n\t]|[" + "".join(_UNICODE) + "]"
)


def rewrite_body(body: str) -> str:
    """A macro's body, rewritten as a formula would be."""
    source = Source(body)
    rewrite_common(source)
    return source.text


def _renamed_matrix(match: re.Match[str]) -> str:
    """mathtools' ``bmatrix*`` (its column alignment dropped), ``alignedat`` as ``aligned``."""
    begin, name, _ = match.groups()
    return f"\\{begin}{{{'aligned' if name == 'alignedat' else name}}}"


def _text_escape(match: re.Match[str]) -> str:
    char = match.group(1)
    return {"\\": "\\backslash ", "~": "\\sim ", "^": "\\hat{}"}.get(char, "\\" + char)


def _colorboxes(source: Source) -> list[Edit]:
    """``\\colorbox{c}{text}``: its text in text mode, in a group on a coloured ground."""
    text = source.text
    edits: list[Edit] = []
    for match in _COLORBOX.finditer(text):
        close = group_end(text, match.end())
        if close is None or (edits and match.start() < edits[-1][1]):
            continue
        kind, first, second = match.groups()
        frame, ground = (first, second) if kind == "fcolorbox" else (None, first)
        css = f"background-color:{css_colour(ground or '')};padding:0 0.15em;"
        if frame is not None:
            css += f"border:0.06em solid {css_colour(frame)};"
        body = text[match.end() : close + 1]
        edits.append((match.start(), close + 1, f"{{{source.marker(css)}\\text{body}}}"))
    return edits


def _hex_colour(match: re.Match[str]) -> str:
    """``\\color{#0f9}`` is ``\\color[HTML]{00FF99}``; ``\\textcolor{#..}{x}`` a coloured group."""
    command, colour, group = match.groups()
    if len(colour) == 3:
        colour = "".join(c * 2 for c in colour)
    if command == "color":
        return f"\\color[HTML]{{{colour.upper()}}}" + (group or "")
    if group is None:
        return match.group()  # \textcolor without its text: math-core says what is wrong
    return f"{{\\color[HTML]{{{colour.upper()}}}"


def _text_underscores(text: str) -> list[Edit]:
    """``\\text{cross_entropy}``: an underscore in text is a literal one; so is an ampersand
    there or in a ``\\tag`` (``\\tag{if A & B commute}``: MathJax read the braces whole)."""
    edits: list[Edit] = []
    for pattern, specials in ((_TEXT, "_&"), (_TAG_ARGUMENT, "&")):
        for match in pattern.finditer(text):
            close = group_end(text, match.end() - 1)
            if close is None:
                continue
            for at in range(match.end(), close):
                if text[at] in specials and text[at - 1] != "\\":
                    edits.append((at, at + 1, "\\" + text[at]))
                if text[at] in "&%_#$" and text[at + 1] == " ":  # math-core drops that space
                    edits.append((at + 1, at + 2, "\\ "))
    return sorted(set(edits))


def _math_in_text(text: str) -> list[Edit]:
    """``\\text{if $x > 0$}``: the ``$...$`` pieces leave the text as math of their own."""
    edits: list[Edit] = []
    for match in _TEXT.finditer(text):
        close = group_end(text, match.end() - 1)
        body = text[match.end() : close]
        if close is None or "$" not in body or (edits and match.start() < edits[-1][1]):
            continue
        command = match.group().rstrip("{").rstrip()
        parts = re.split(r"(?<!\\)\$", body)
        if len(parts) % 2 == 0:
            continue  # an odd number of $: math-core says what is wrong
        pieces = [p if i % 2 else (f"{command}{{{p}}}" if p else "") for i, p in enumerate(parts)]
        edits.append((match.start(), close + 1, "{" + "".join(pieces) + "}"))
    return edits


def _mathop_limits(text: str) -> list[Edit]:
    """``\\mathop{X}\\limits_{a}^{b}`` as ``\\overset{b}{\\underset{a}{\\mathop{X}}}``."""
    edits: list[Edit] = []
    for match in _MATHOP.finditer(text):
        close = group_end(text, match.end() - 1)
        limits = _LIMITS.match(text, close + 1) if close is not None else None
        if close is None or limits is None or (edits and match.start() < edits[-1][1]):
            continue
        operator, end = text[match.start() : close + 1], limits.end()
        if limits.group(1):  # \nolimits: what math-core does anyway
            edits.append((close + 1, end, ""))
            continue
        scripts: dict[str, str] = {}
        while (script := _SCRIPT.match(text, end)) and script.group(1) not in scripts:
            if script.group(2):
                scripts[script.group(1)], end = script.group(2), script.end()
            elif (arg_end := group_end(text, script.end())) is not None:
                scripts[script.group(1)], end = text[script.end() + 1 : arg_end], arg_end + 1
            else:
                break
        if "_" in scripts:
            operator = f"\\underset{{{scripts['_']}}}{{{operator}}}"
        if "^" in scripts:
            operator = f"\\overset{{{scripts['^']}}}{{{operator}}}"
        edits.append((match.start(), end, operator))
    return edits


def _renamed_environment(match: re.Match[str]) -> str:
    begin, name = match.group(1), match.group(2)
    star = "*" if name.endswith("*") else ""
    if name == "split":
        return f"\\{begin}{{aligned}}"
    if name == "smallmatrix":  # a matrix in script style, as amsmath sets it
        return "{\\scriptstyle\\begin{matrix}" if begin == "begin" else "\\end{matrix}}"
    return f"\\{begin}{{align{star}}}"  # alignat's column count goes: align finds the columns


def _scripted_colours(text: str) -> list[Edit]:
    r"""``x^\color{red}{y}``: MathJax 2 read ``\color`` with two arguments, so authors put
    one where a script's argument goes; math-core, like LaTeX, wants a group there."""
    edits: list[Edit] = []
    for match in _SCRIPT_COLOUR.finditer(text):
        close = group_end(text, match.end() - 1)
        if close is not None:
            edits += [(match.start(1), match.start(1), "{"), (close + 1, close + 1, "}")]
    return sorted(edits)


def _array_specs(text: str) -> list[Edit]:
    r"""``\begin{array}{@{}c*{2}{r}p{2cm}}``: the column letters math-core takes (``crrl``).

    ``@{..}``, ``!{..}``, ``>{..}`` and ``<{..}`` go (spacing and material between
    columns, which MathJax drew), ``*{n}{cols}`` is repeated out, a paragraph column
    (``p{2cm}``) is a left-aligned one, and the vertical position (``[t]``) goes."""
    edits: list[Edit] = []
    for match in _ARRAY_SPEC.finditer(text):
        close = group_end(text, match.end() - 1)
        if close is None:
            continue
        spec = text[match.end() : close]
        simple = _simple_spec(spec)
        if simple is not None and (simple != spec or match.group(2)):
            edits.append((match.start(), close, f"{match.group(1)}{{{simple}"))
    return edits


def _simple_spec(spec: str) -> str | None:
    out: list[str] = []
    i = 0
    while i < len(spec):
        char = spec[i]
        if char in "@!><*pmb":
            args = 2 if char == "*" else 1
            groups: list[str] = []
            j = i + 1
            for _ in range(args):
                while j < len(spec) and spec[j].isspace():
                    j += 1
                end = group_end(spec, j) if spec[j : j + 1] == "{" else None
                if end is None:
                    return None
                groups.append(spec[j + 1 : end])
                j = end + 1
            if char == "*":
                inner = _simple_spec(groups[1])
                if inner is None or not groups[0].strip().isdigit():
                    return None
                out.append(inner * min(int(groups[0]), 100))
            elif char in "pmb":
                out.append("l")
            i = j
            continue
        out.append(char)
        i += 1
    return "".join(out)


def _substacks(text: str) -> list[Edit]:
    """``\\substack{a\\\\b}`` is amsmath's shorthand for a centred ``subarray``."""
    edits: list[Edit] = []
    for match in _SUBSTACK.finditer(text):
        close = group_end(text, match.end() - 1)
        if close is None or (edits and match.start() < edits[-1][1]):
            continue
        body = text[match.end() : close]
        edits.append((match.start(), close + 1, f"\\begin{{subarray}}{{c}}{body}\\end{{subarray}}"))
    return edits


def _eqnarray(match: re.Match[str]) -> str:
    """``a &=& b`` in three columns becomes ``a &= b`` in align's two."""
    star, body = match.group(1), match.group(2)
    rows = [_drop_second_ampersand(body[s:e]) for s, e in rows_of(body)]
    return f"\\begin{{align{star}}}" + "\\\\".join(rows) + f"\\end{{align{star}}}"


def _drop_second_ampersand(row: str) -> str:
    first = top_level(row, "&")
    if len(first) < 2:
        return row
    at = first[1]
    return row[:at] + row[at + 1 :]


def _top_level_lines(text: str) -> list[Edit]:
    """Lines broken with ``\\\\`` outside any environment: wrap them so they are set as lines."""
    if not top_level(text, "\\\\"):
        return []
    name = "aligned" if top_level(text, "&") else "gathered"
    return [(0, 0, f"\\begin{{{name}}}"), (len(text), len(text), f"\\end{{{name}}}")]


# --- scanning at the top level of a formula -------------------------------------------

_TOKEN = re.compile(r"\\begin\s*\{[^{}]*\}|\\end\s*\{[^{}]*\}|\\[A-Za-z]+|\\.|[{}&%]", re.DOTALL)


def top_level(text: str, what: str) -> list[int]:
    """Offsets of ``what`` (``&`` or ``\\\\``) outside braces and nested environments."""
    found: list[int] = []
    depth = 0
    for match in _TOKEN.finditer(text):
        token = match.group()
        if token == "{" or token.startswith("\\begin"):
            depth += 1
        elif token == "}" or token.startswith("\\end"):
            depth -= 1
        elif token == what and depth == 0:
            found.append(match.start())
    return found


def rows_of(body: str) -> list[tuple[int, int]]:
    """The rows of an environment's body: spans between its top-level ``\\\\``."""
    spans: list[tuple[int, int]] = []
    start = 0
    for at in top_level(body, "\\\\"):
        spans.append((start, at))
        start = at + 2
    spans.append((start, len(body)))
    return spans


def group_end(text: str, open_brace: int) -> int | None:
    """The offset of the ``}`` closing the ``{`` at ``open_brace``; None if it never closes."""
    depth = 0
    for match in _TOKEN.finditer(text, open_brace):
        token = match.group()
        if token == "{":
            depth += 1
        elif token == "}":
            depth -= 1
            if depth == 0:
                return match.start()
    return None
