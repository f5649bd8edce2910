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
- ``\mathfrak{I}``, which math-core sets as a double-struck H (see ``letters``);
- ``\\`` at the top of a display formula: LaTeX, MathJax and KaTeX break the
  line there; the lines are set as ``gathered`` (``aligned`` with ``&``), in
  inline math too (MathJax breaks the line; math-core would drop it in silence).

The rewrites that must find where a group or an environment ends live in
``groups``; a :class:`~site_builder.markdown.math.source.Source` remembers every
edit, so an error math-core reports in the rewritten text points at the
author's own column.
"""

from __future__ import annotations

import re

from site_builder.markdown.math import groups, letters, physics
from site_builder.markdown.math.colours import css_colour
from site_builder.markdown.math.numbering import tag_latex
from site_builder.markdown.math.source import Edit, Source, group_end

_ROW_SPACE = re.compile(
    r"\\\\\s*\[\s*-?(?:\d+\.?\d*|\.\d+)\s*(?:pt|em|ex|mm|cm|in|mu|bp|pc|sp|dd|cc)\s*\]"
)
_RENAMED_ENV = re.compile(
    r"\\(begin|end)\s*\{(split|alignat\*?|flalign\*?|xalignat\*?|smallmatrix)\}(\{\d+\})?"
)
_COMMANDS = {
    "mbox": "text",
    "hbox": "text",
    "pmb": "boldsymbol",
    "mathbbm": "mathbb",
    "mathds": "mathbb",
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
# MathJax's html extension (``\\class``, ``\\cssId``, ``\\style``) and KaTeX's (``\\htmlClass``).
_ATTRIBUTE = re.compile(
    r"\\(?:href|htmlClass|htmlId|htmlStyle|htmlData|class|cssId|style)\s*\{[^{}]*\}(?=\s*\{)"
)
# MathJax's own: ``\require{ams}`` loads an extension (nothing to draw); ``\bbox[opts]{x}``
# draws a box, set as amsmath's ``\boxed``.
_REQUIRE = re.compile(r"\\require\s*\{[^{}]*\}")
_BBOX = re.compile(r"\\bbox\s*(?:\[[^\]]*\])?\s*(?=\{)")
_URL = re.compile(r"\\url\s*\{([^{}]*)\}")
# MathJax's ``\unicode[font]{8212}`` (decimal) or ``{x2014}`` (hex): the character, in an mtext.
_UNICODE_CHAR = re.compile(
    r"\\unicode\s*(?:\[[^\]]*\]\s*){0,2}\{\s*(?:(?:0?[xX])([0-9A-Fa-f]{1,6})|(\d{1,7}))\s*\}"
)
_MSKIP = re.compile(r"\\(mskip|mkern|kern|hskip)\s*\{([^{}]*)\}")
_DROPPED = re.compile(
    r"\\(?:allowbreak|global|mathclap|mathllap|mathrlap|clap|llap|rlap|vcenter)(?![A-Za-z])"
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
_SMASH = re.compile(r"\\smash\s*(?:\[[tb]\])?\s*(?=\{)")
# ``x_\\rm d``, ``x^\\bf T``: a font switch as a script's argument, which MathJax sets
# as the script ``{\\rm d}`` and math-core refuses ("Switch-like commands ...").
_SCRIPT_SWITCH = re.compile(
    r"([_^])\s*\\(rm|bf|it|sf|tt|cal)\s*([A-Za-z0-9]|\\[A-Za-z]+|\{[^{}]*\})"
)
_ANGLE = re.compile(r"\\(left|right|middle)\s*([<>])")
# ``\color\red{x}``: MathJax takes a colour's name as one token, a command's name too.
_COLOR_TOKEN = re.compile(r"\\(color|textcolor)\s*\\([A-Za-z]+)")
# A ``$`` left in a formula once ``\text{... $x$ ...}`` is read: a dollar sign, as MathJax
# shows it (``\mu = $60K`` where the site's math was ``$$`` only).
_DOLLAR = re.compile(r"(?<!\\)((?:\\\\)*)\$")
_TAG_OPEN = re.compile(r"\\tag\*?\s*\{")
_HEX = re.compile(r"\\(color|textcolor)\s*\{\s*#([0-9A-Fa-f]{6}|[0-9A-Fa-f]{3})\s*\}(\s*\{)?")
_STARRED = frozenset({"operatorname", "tag", "DeclareMathOperator", "newcommand", "renewcommand",
                      "providecommand"})  # fmt: skip
_STAR = re.compile(r"\\([A-Za-z]+)\*")
_DOUBLED = re.compile(r"\\\\([{}])")
_INLINE_DOUBLED = re.compile(r"\\\\([{}|])")
_ESCAPED_STAR = re.compile(r"\\\*")
# ``X \not\!\perp\!\!\!\perp Y`` (not independent): MathJax slashed the relation across
# the negative space; math-core wants the relation right after ``\not``.
_SPACED_NOT = re.compile(r"\\not(?:\s*\\[!,:; ])+\s*")
# ``J = \not 0``: MathJax strikes out any symbol; math-core only a relation. A letter or a
# digit is never one: struck out as ``\cancel`` draws it.
_NOT_ORDINARY = re.compile(r"\\not(?![A-Za-z])\s*([0-9A-Za-z])")
# ``\theta_i^'``: MathJax reads a prime as the superscript; math-core wants it bare.
_SCRIPT_PRIME = re.compile(r"(?<!\\)\^\s*(?='+)")
# ``\sum_\limits{i}``: MathJax applies ``\limits`` to the operator and takes the group after
# it as the script; math-core wants ``\sum\limits_{i}``.
_SCRIPT_LIMITS = re.compile(r"(?<!\\)([_^])\s*\\((?:no)?limits)(?![A-Za-z])")
_INLINE_TAG = re.compile(r"\\tag(\*?)\s*\{((?:[^{}]|\{[^{}]*\})*)\}")
# A backslash that ends a line, after an even number of them (``\\`` is a row break).
_CONTROL_SPACE = re.compile(r"(?<!\\)((?:\\\\)*)\\[\n\t]")


def rewrite(source: Source, display: bool, lines: bool = False) -> None:
    """Every rewrite, in order; ``display`` formulas may also break lines at the top level,
    and so may ``lines`` ones (kramdown's ``$$`` beside text, display math pasted inline)."""
    rewrite_common(source, display)
    if not display and "\\tag" in source.text:  # kramdown's $$..$$ beside text: inline
        source.sub(_INLINE_TAG, _inline_tag)
    if "\\\\" not in source.text:
        return  # no line break anywhere: nothing below applies
    source.edit(groups.last_breaks(source.text, formula=True))
    source.edit(groups.nested_breaks(source.text))
    if not (display or lines):
        source.sub(_INLINE_DOUBLED, lambda m: "\\" + m.group(1))  # \\| is no line break inline
    # Inline too (``$a \\ b$``, display math pasted inline): MathJax breaks the line there,
    # TeX refuses it; the lines are stacked, as a ``gathered`` in the text.
    source.edit(groups.top_level_lines(source.text))


def _inline_tag(match: re.Match[str]) -> str:
    """After the formula, as its number would stand: ``\\tag*{$\\square$}`` (a proof's end,
    often a macro) sets its ``$`` part as math, as in display."""
    tag, starred = match.group(2), bool(match.group(1))
    if "$" in tag:
        return f"\\qquad{tag_latex(tag, starred)}"
    return f"\\qquad\\text{{{tag if starred else f'({tag})'}}}"


def rewrite_common(source: Source, display: bool = False) -> None:
    """The rewrites that hold anywhere: in a formula and in a macro's body."""
    if not _TRIGGER.search(source.text):
        return  # most formulas hold nothing to rewrite: one scan instead of twenty
    if 0 < source.text.count("\\\\{") == source.text.count("\\\\}"):  # paired: set braces
        source.sub(_DOUBLED, lambda m: "\\" + m.group(1))
    source.sub(_ESCAPED_STAR, lambda m: "*")  # Markdown's \* kept in math: an asterisk
    source.sub(_ROW_SPACE, lambda m: "\\\\ ")  # the space: ``\\[2pt]{x}`` is no ``\{``
    source.sub(_RENAMED_ENV, _renamed_environment)
    source.sub(_COMMAND, lambda m: "\\" + _COMMANDS[m.group(1)])
    source.edit(groups.last_breaks(source.text))  # after ``\cr`` and ``\\[2pt]`` become ``\\``
    source.edit(groups.plain_matrices(source.text))
    source.sub(_RENAMED_MATRIX, _renamed_matrix)
    source.sub(_DROPPED, lambda m: "")
    source.sub(_UNICODE_RE, lambda m: _UNICODE[m.group()])
    source.sub(_ATTRIBUTE, lambda m: "")
    source.sub(_REQUIRE, lambda m: "")
    source.sub(_BBOX, lambda m: "\\boxed")
    source.sub(_UNICODE_CHAR, _unicode_char)
    source.sub(_URL, lambda m: "\\texttt{" + _TEXT_SPECIAL.sub(_text_escape, m.group(1)) + "}")
    source.sub(_MSKIP, lambda m: f"\\{m.group(1)} {m.group(2)}")
    source.sub(_VERB, lambda m: "\\texttt{" + _TEXT_SPECIAL.sub(_text_escape, m.group(2)) + "}")
    source.sub(_SIZE, lambda m: source.marker(f"font-size:{SIZES[m.group(1)]}em"))
    source.edit(_colorboxes(source))
    source.sub(_SMASH, lambda m: "")
    source.sub(_SCRIPT_SWITCH, lambda m: f"{m.group(1)}{{\\{m.group(2)} {m.group(3)}}}")
    source.sub(_ANGLE, lambda m: f"\\{m.group(1)}\\{'langle' if m.group(2) == '<' else 'rangle'} ")
    source.sub(_COLOR_TOKEN, lambda m: f"\\{m.group(1)}{{{m.group(2)}}}")
    source.sub(_HEX, _hex_colour)
    source.sub(_STAR, lambda m: m.group() if m.group(1) in _STARRED else f"\\{m.group(1)} *")
    source.sub(_SCRIPT_LIMITS, lambda m: f"\\{m.group(2)}{m.group(1)}")  # before mathop_limits
    physics.rewrite(source)
    source.edit(letters.fraktur_i(source.text))
    source.edit(groups.substacks(source.text))
    source.edit(groups.scripted_colours(source.text))
    source.edit(groups.array_specs(source.text))
    source.edit(groups.text_underscores(source.text))
    source.edit(groups.math_in_text(source.text))
    if "$" in source.text:
        source.edit(_dollar_signs(source.text))
    source.edit(groups.text_switches(source.text))
    source.sub(groups.EQNARRAY, groups.eqnarray)
    source.edit(groups.operator_names(source.text, display))
    source.edit(groups.mathop_limits(source.text))
    source.sub(_CONTROL_SPACE, lambda m: m.group(1) + "\\ ")
    source.sub(_SPACED_NOT, lambda m: "\\not")
    source.sub(_NOT_ORDINARY, lambda m: f"\\cancel{{{m.group(1)}}}")
    source.sub(_SCRIPT_PRIME, lambda m: "")


# Anything a rewrite above acts on; a formula without any is left as it is.
_TRIGGER_NAMES = {
    *_COMMANDS, *SIZES, "require", "tag", "not", "matrix", "pmatrix", "cases", "bbox", "unicode",
    "displaylines", "dv", "pdv", "qty", "allowbreak", "global", "mathclap", "mathllap",
    "mathrlap", "vcenter", "operatorname", "mathfrak", "frak",
}  # fmt: skip
_TRIGGER = re.compile(
    r"\\(?:\\|\*|mathop|begin|end|left|right|middle|color|textcolor|smash|substack|verb|url|href|"
    r"html[A-Z][a-z]+|class|cssId|style|mskip|mkern|kern|hskip|colorbox|fcolorbox|text[a-z]*|mbox|emph|clap|"
    r"llap|rlap|" + "|".join(sorted(_TRIGGER_NAMES, key=len, reverse=True)) + r")(?![A-Za-z])"
    r"|\\[A-Za-z]+\*|\\[\n\t]|[_^]\s*(?:'|\\(?:no)?limits|\\(?:rm|bf|it|sf|tt|cal)(?![A-Za-z]))"
    r"|[$" + "".join(_UNICODE) + "]"
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


def _unicode_char(match: re.Match[str]) -> str:
    """``\\unicode{x2014}`` as ``\\text{—}``; a code point no character has stays, for
    math-core to name as an unknown command."""
    hexa, decimal = match.groups()
    point = int(hexa, 16) if hexa else int(decimal)
    if not 0x20 <= point <= 0x10FFFF or 0xD800 <= point <= 0xDFFF:
        return match.group(0)
    return "\\text{" + _TEXT_SPECIAL.sub(_text_escape, chr(point)) + "}"


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


def _renamed_environment(match: re.Match[str]) -> str:
    begin, name = match.group(1), match.group(2)
    star = "*" if name.endswith("*") else ""
    if name == "split":
        return f"\\{begin}{{aligned}}"
    if name == "smallmatrix":  # a matrix in script style, as amsmath sets it
        return "{\\scriptstyle\\begin{matrix}" if begin == "begin" else "\\end{matrix}}"
    return f"\\{begin}{{align{star}}}"  # alignat's column count goes: align finds the columns


def _dollar_signs(text: str) -> list[Edit]:
    """Each ``$`` left in a formula as a dollar sign (``\\$``), but in a ``\\tag{$\\star$}``,
    which numbering sets as math."""
    tags = [(m.end(), group_end(text, m.end() - 1) or len(text)) for m in _TAG_OPEN.finditer(text)]
    return [
        (m.end() - 1, m.end(), "\\$")
        for m in _DOLLAR.finditer(text)
        if not any(start <= m.end() - 1 < end for start, end in tags)
    ]
