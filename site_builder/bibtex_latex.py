"""The LaTeX that real ``.bib`` files hold beyond what latexcodec decodes, as text it reads.

pybtex hands a field's LaTeX to latexcodec, which knows accents and symbols but
not LaTeX's text commands: ``\\emph{i}SAX`` came out as ``\\emph iSAX``. Measured on
27 real files (al-folio ``papers.bib``, theses, Zotero and Mendeley exports, ADS,
group bibliographies), what was left raw is rewritten here first:

- font commands and switches (``\\emph{x}``, ``\\textsc{x}``, ``{\\em x}``, ``\\mbox{x}``,
  and a command the file's ``@preamble`` defines) keep their text, braced, so
  BibTeX's case change still leaves it alone;
- ``\\enquote{x}`` is quoted, ``\\textsuperscript{2}`` a superscript, ``\\hspace{..}``
  nothing, ``\\TeX`` and ``\\LaTeX`` their names, ``\\textquotesingle`` its quote;
- an accent on a dotless i (``{\\'{\\i}}``, ADS's form) or on a letter latexcodec has
  no character for (``\\`y``) is composed with Unicode's combining marks;
- ``\\$`` is a dollar sign (held as :data:`DOLLAR` until the text is decoded: a ``$``
  would open math), Google Scholar's ``$\\{$USENIX$\\}$`` is ``{USENIX}``, and
  ``\\(x\\)`` and Mendeley's ``$$x$$`` are math as ``$x$`` is;
- ``\\{`` and ``\\}`` are braces (Zotero escapes an abstract's own so), ``\\textless``,
  ``\\textgreater`` and the like their characters (Zotero writes an abstract's ``<p>``
  as ``{\\textless}p{\\textgreater}``): latexcodec left them, or dropped them;
- Mendeley's ``\\'\\in`` (``Mart\\'\\in``) is an accent on a dotless i before the word
  goes on, as the author meant, not the control word ``\\in``;
- ``\\relax`` is nothing (ADS's ``{\\relax Th}.``, an initial of two letters);
- the AAS journal macros ADS writes (``\\apj``, ``\\mnras``) are the journals'
  abbreviations, as ``aas_macros.sty`` prints them.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

DOLLAR = "\ue024"  # a literal dollar sign until the text is decoded (see ``undollar``)
# ``\{``, ``\}``, ``\textbackslash`` and ``\textasciitilde`` until then, as DOLLAR: to
# latexcodec a brace, a backslash or a ``~`` (a no-break space) is LaTeX of its own.
_HELD = {"\ue025": "{", "\ue026": "}", "\ue027": "\\", "\ue028": "~"}

_COMBINING = {
    "`": "\u0300", "'": "\u0301", "^": "\u0302", "~": "\u0303", "=": "\u0304",
    "u": "\u0306", ".": "\u0307", '"': "\u0308", "r": "\u030a", "H": "\u030b",
    "v": "\u030c", "d": "\u0323", "c": "\u0327", "k": "\u0328", "b": "\u0331",
}  # fmt: skip
# ``\'{\i}``, ``\'\i``, ``\' i``, ``\'{i}``; a letter-named accent needs a brace or a space.
_ACCENT = re.compile(
    r"\\(?:([`'^~=.\"])|([uvHrdckb])(?=[\s{]))\s*(?:\{\s*(\\[ij](?![A-Za-z])|[A-Za-z])\s*\}"
    r"|(\\[ij](?!math)|[A-Za-z]))"
)
_FONT = (
    "emph|textit|textbf|textsl|textsc|texttt|textrm|textsf|textup|textmd|textnormal|"
    "mbox|hbox|text|NoCaseChange|nocase|uppercase|MakeUppercase|textsubscript"
)
_COMMAND_GROUP = re.compile(r"\\([A-Za-z]+)\s*\{")
_SWITCH = re.compile(
    r"\\(?:em|it|sc|bf|tt|rm|sf|sl|itshape|bfseries|scshape|upshape|slshape|mdseries|"
    r"normalfont|rmfamily|sffamily|ttfamily|small|footnotesize|scriptsize|large|Large|LARGE)"
    r"(?![A-Za-z])\s*"
)
# ``\relax`` does nothing: ADS writes ``{\relax Th}.`` so that BibTeX keeps "Th." whole.
_SPACE = re.compile(
    r"\\[hv]space\*?\s*\{[^{}]*\}|\\(?:linebreak|newline|allowbreak)(?![A-Za-z])"
    r"|\\relax(?![A-Za-z])\s*"
)
_WORDS = {
    "TeX": "TeX", "LaTeX": "LaTeX", "LaTeXe": "LaTeX2\u03b5", "BibTeX": "BibTeX",
    "XeTeX": "XeTeX", "LuaTeX": "LuaTeX", "textquotesingle": "'", "textquotedbl": '"',
    "textquoteleft": "\u2018", "textquoteright": "\u2019", "textendash": "\u2013",
    "textemdash": "\u2014", "textdollar": DOLLAR, "textbar": "|", "textbackslash": "\ue027",
    "textasciitilde": "\ue028", "textregistered": "\u00ae", "texttrademark": "\u2122",
    "textcopyright": "\u00a9", "textdegree": "\u00b0", "textellipsis": "\u2026",
    "textless": "<", "textgreater": ">", "texttimes": "\u00d7", "textmu": "\u00b5",
    "textdagger": "\u2020", "textdaggerdbl": "\u2021", "textminus": "\u2212", "dots": "\u2026",
    "euro": "\u20ac", "textcelsius": "\u2103", "textperthousand": "\u2030", "slash": "/",
    "textbraceleft": "\ue025", "textbraceright": "\ue026", "textunderscore": "\\_",
    # aas_macros.sty, as ADS exports write them
    "aj": "AJ", "actaa": "Acta Astron.", "araa": "ARA&A", "apj": "ApJ", "apjl": "ApJL",
    "apjs": "ApJS", "ao": "Appl. Opt.", "apss": "Ap&SS", "aap": "A&A", "aapr": "A&A Rev.",
    "aaps": "A&AS", "azh": "AZh", "baas": "BAAS", "caa": "Chinese Astron. Astrophys.",
    "cjaa": "Chinese J. Astron. Astrophys.", "icarus": "Icarus",
    "jcap": "J. Cosmology Astropart. Phys.", "jrasc": "JRASC", "memras": "MmRAS",
    "mnras": "MNRAS", "na": "New A", "nar": "New A Rev.", "pra": "Phys. Rev. A",
    "prb": "Phys. Rev. B", "prc": "Phys. Rev. C", "prd": "Phys. Rev. D",
    "pre": "Phys. Rev. E", "prl": "Phys. Rev. Lett.", "pasa": "PASA", "pasp": "PASP",
    "pasj": "PASJ", "qjras": "QJRAS", "rmxaa": "Rev. Mexicana Astron. Astrofis.",
    "skytel": "S&T", "solphys": "Sol. Phys.", "sovast": "Soviet Ast.",
    "ssr": "Space Sci. Rev.", "zap": "ZAp", "nat": "Nature", "iaucirc": "IAU Circ.",
    "aplett": "Astrophys. Lett.", "apspr": "Astrophys. Space Phys. Res.",
    "bain": "Bull. Astron. Inst. Netherlands", "fcp": "Fund. Cosmic Phys.",
    "gca": "Geochim. Cosmochim. Acta", "grl": "Geophys. Res. Lett.",
    "jcp": "J. Chem. Phys.", "jgr": "J. Geophys. Res.",
    "jqsrt": "J. Quant. Spec. Radiat. Transf.", "memsai": "Mem. Soc. Astron. Italiana",
    "nphysa": "Nucl. Phys. A", "physrep": "Phys. Rep.", "physscr": "Phys. Scr",
    "planss": "Planet. Space Sci.", "procspie": "Proc. SPIE",
}  # fmt: skip
# A control word swallows the spaces after it, as TeX reads it (``\\aap , 2012``).
_NAMES = "|".join(sorted(_WORDS, key=len, reverse=True))
_WORD = re.compile(r"\\(" + _NAMES + r")(?![A-Za-z])(?:\{\}|\s*)")
_MATH = re.compile(r"((?<!\\)\$.+?(?<!\\)\$)", re.DOTALL)
_DISPLAY = re.compile(r"(?<!\\)\$\$(.+?)(?<!\\)\$\$", re.DOTALL)
_SUPERSCRIPTS = str.maketrans("0123456789+-=()n", "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁼⁽⁾ⁿ")
_KEEP = frozenset({"url", "href", "cite", "ref"})  # read elsewhere, or not text at all


def tidy(value: str) -> str:
    """``value`` with the commands above rewritten; what remains is latexcodec's."""
    if "\\" not in value and "$" not in value:
        return value
    value = value.replace("$\\{$", "{").replace("$\\}$", "}").replace("\\$", DOLLAR)
    value = re.sub(r"\\\((.+?)\\\)", r"$\1$", value, flags=re.DOTALL)
    value = _DISPLAY.sub(r"$\1$", value)  # ``$$x$$`` in a title is inline math
    parts = _MATH.split(value)  # formulas (odd places) are math-core's to read, as written
    return "".join(_text(part) if index % 2 == 0 else part for index, part in enumerate(parts))


def _text(value: str) -> str:
    value = value.replace("\\{", "\ue025").replace("\\}", "\ue026")  # see ``undollar``
    value = _SPACE.sub("", value)
    value = _WORD.sub(_word, value)
    value = _ACCENT.sub(_accented, value)
    value = _groups(value)
    return _SWITCH.sub("", value)


def _word(match: re.Match[str]) -> str:
    """A name (``{TeX}``, ``{A\\&A}``) braced, so a title's case change leaves it."""
    word = _WORDS[match.group(1)]
    return "{" + word.replace("&", "\\&") + "}" if any(c.isalpha() for c in word) else word


def undollar(text: str) -> str:
    """The decoded text with :data:`DOLLAR` a dollar sign again, and escaped braces braces."""
    for held, char in _HELD.items():
        text = text.replace(held, char)
    return text.replace(DOLLAR, "$")


def _accented(match: re.Match[str]) -> str:
    accent = match.group(1) or match.group(2)
    letter = (match.group(3) or match.group(4)).lstrip("\\")
    composed = unicodedata.normalize("NFC", letter + _COMBINING[accent])
    return "{" + composed + "}"


def _groups(value: str) -> str:
    """Each ``\\command{...}`` that is text formatting (or unknown to latexcodec, as a
    preamble's macros are) as its braced text; ``\\enquote`` quoted, superscripts set."""
    out: list[str] = []
    pos = 0
    for match in _COMMAND_GROUP.finditer(value):
        if match.start() < pos:
            continue
        name = match.group(1)
        end = _closing(value, match.end())
        special = name in ("enquote", "textsuperscript")
        text = name not in _KEEP and (re.fullmatch(_FONT, name) is not None or _unknown(name))
        if end is None or not (special or text):
            continue
        inner = _groups(value[match.end() : end])
        if name == "enquote":
            shown = "\u201c" + inner + "\u201d"
        elif name == "textsuperscript":
            raised = inner.translate(_SUPERSCRIPTS)
            shown = raised if raised != inner or not inner.isalpha() else inner
        else:
            shown = "{" + inner + "}"
        out.append(value[pos : match.start()] + shown)
        pos = end + 1
    out.append(value[pos:])
    return "".join(out)


def _closing(value: str, start: int) -> int | None:
    """The index of the ``}`` that closes the group opened just before ``start``."""
    depth = 1
    for index in range(start, len(value)):
        char = value[index]
        if char == "{" and value[index - 1 : index] != "\\":
            depth += 1
        elif char == "}" and value[index - 1 : index] != "\\":
            depth -= 1
            if depth == 0:
                return index
    return None


@lru_cache(maxsize=512)
def _unknown(name: str) -> bool:
    """Whether latexcodec leaves ``\\name`` as it is (a macro of the file's own)."""
    from pybtex.richtext import Text

    try:
        return "\\" in str(Text.from_latex(f"\\{name}"))
    except (ValueError, UnicodeDecodeError):
        return True
