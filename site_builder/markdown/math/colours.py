"""Colour names: xcolor's (math-core knows them), CSS's, and a post's ``\\definecolor``.

KaTeX and MathJax hand any ``\\color{name}`` to CSS, so posts use CSS names
(``crimson``, ``navy``) that math-core does not know; and al-folio posts define
their own with ``\\definecolor{params}{HTML}{1F77B4}``. Both become
``\\color[HTML]{...}``, which math-core takes. A name math-core knows keeps
LaTeX's meaning (xcolor's ``green`` is #00FF00, CSS's #008000).
"""

from __future__ import annotations

import re
from functools import cache

from site_builder.markdown.math.engine import MathError

COLOUR_PREFIX = "color@"  # a colour among a post's macros: not a TeX name, never expanded

_CSS = """
aliceblue f0f8ff antiquewhite faebd7 aqua 00ffff aquamarine 7fffd4 azure f0ffff beige f5f5dc
bisque ffe4c4 black 000000 blanchedalmond ffebcd blue 0000ff blueviolet 8a2be2 brown a52a2a
burlywood deb887 cadetblue 5f9ea0 chartreuse 7fff00 chocolate d2691e coral ff7f50
cornflowerblue 6495ed cornsilk fff8dc crimson dc143c cyan 00ffff darkblue 00008b
darkcyan 008b8b darkgoldenrod b8860b darkgray a9a9a9 darkgreen 006400 darkgrey a9a9a9
darkkhaki bdb76b darkmagenta 8b008b darkolivegreen 556b2f darkorange ff8c00
darkorchid 9932cc darkred 8b0000 darksalmon e9967a darkseagreen 8fbc8f darkslateblue 483d8b
darkslategray 2f4f4f darkslategrey 2f4f4f darkturquoise 00ced1 darkviolet 9400d3
deeppink ff1493 deepskyblue 00bfff dimgray 696969 dimgrey 696969 dodgerblue 1e90ff
firebrick b22222 floralwhite fffaf0 forestgreen 228b22 fuchsia ff00ff gainsboro dcdcdc
ghostwhite f8f8ff gold ffd700 goldenrod daa520 gray 808080 green 008000 greenyellow adff2f
grey 808080 honeydew f0fff0 hotpink ff69b4 indianred cd5c5c indigo 4b0082 ivory fffff0
khaki f0e68c lavender e6e6fa lavenderblush fff0f5 lawngreen 7cfc00 lemonchiffon fffacd
lightblue add8e6 lightcoral f08080 lightcyan e0ffff lightgoldenrodyellow fafad2
lightgray d3d3d3 lightgreen 90ee90 lightgrey d3d3d3 lightpink ffb6c1 lightsalmon ffa07a
lightseagreen 20b2aa lightskyblue 87cefa lightslategray 778899 lightslategrey 778899
lightsteelblue b0c4de lightyellow ffffe0 lime 00ff00 limegreen 32cd32 linen faf0e6
magenta ff00ff maroon 800000 mediumaquamarine 66cdaa mediumblue 0000cd mediumorchid ba55d3
mediumpurple 9370db mediumseagreen 3cb371 mediumslateblue 7b68ee mediumspringgreen 00fa9a
mediumturquoise 48d1cc mediumvioletred c71585 midnightblue 191970 mintcream f5fffa
mistyrose ffe4e1 moccasin ffe4b5 navajowhite ffdead navy 000080 oldlace fdf5e6 olive 808000
olivedrab 6b8e23 orange ffa500 orangered ff4500 orchid da70d6 palegoldenrod eee8aa
palegreen 98fb98 paleturquoise afeeee palevioletred db7093 papayawhip ffefd5
peachpuff ffdab9 peru cd853f pink ffc0cb plum dda0dd powderblue b0e0e6 purple 800080
rebeccapurple 663399 red ff0000 rosybrown bc8f8f royalblue 4169e1 saddlebrown 8b4513
salmon fa8072 sandybrown f4a460 seagreen 2e8b57 seashell fff5ee sienna a0522d silver c0c0c0
skyblue 87ceeb slateblue 6a5acd slategray 708090 slategrey 708090 snow fffafa
springgreen 00ff7f steelblue 4682b4 tan d2b48c teal 008080 thistle d8bfd8 tomato ff6347
turquoise 40e0d0 violet ee82ee wheat f5deb3 white ffffff whitesmoke f5f5f5 yellow ffff00
yellowgreen 9acd32
"""
CSS_COLOURS = dict(zip(_CSS.split()[::2], _CSS.split()[1::2], strict=True))
_NAMED = re.compile(r"\\(color|textcolor)\s*\{\s*([A-Za-z][\w!.-]*)\s*\}(\s*\{)?")


def defined_colour(name: str, model: str, spec: str) -> tuple[str, str]:
    """``\\definecolor{name}{model}{spec}`` as a (macro name, hex) pair."""
    model = model.strip()
    values = [v.strip() for v in spec.split(",")]
    try:
        if model == "HTML" and re.fullmatch(r"[0-9A-Fa-f]{6}", spec.strip()):
            hex_value = spec.strip()
        elif model == "rgb" and len(values) == 3:
            hex_value = "".join(f"{round(float(v) * 255):02x}" for v in values)
        elif model == "RGB" and len(values) == 3:
            hex_value = "".join(f"{int(v):02x}" for v in values)
        elif model == "gray" and len(values) == 1:
            hex_value = f"{round(float(values[0]) * 255):02x}" * 3
        else:
            raise ValueError(model)
    except ValueError:
        raise MathError(
            f"\\definecolor{{{name}}}: use the HTML, rgb, RGB or gray model, "
            "e.g. \\definecolor{name}{HTML}{1F77B4}"
        ) from None
    return COLOUR_PREFIX + name, hex_value.upper()


def colour_edits(
    text: str, defined: dict[str, str], unknown: list[str] | None = None
) -> list[tuple[int, int, str]]:
    """``\\color{name}`` for a post's or a CSS colour, or xcolor's ``red!80`` (a mix), as
    ``\\color[HTML]{...}``.

    A name nobody defines is dropped and added to ``unknown``: MathJax and KaTeX handed
    it to CSS, which ignores a colour it does not know, so the text had the colour
    around it and the page showed the formula all the same.
    """
    edits = []
    for match in _NAMED.finditer(text):
        command, name, group = match.groups()
        value = defined.get(name)
        if value is None and not known_to_math_core(name):
            value = CSS_COLOURS.get(name.lower()) or _mix(name, defined)
            if value is None:
                if unknown is not None:
                    unknown.append(name)
                dropped = "{" if group else ""
                edits.append((match.start(), match.end(), dropped))
                continue
        if value is None or (command == "textcolor" and group is None):
            continue
        # \textcolor takes no [HTML]: a group coloured with \color says the same.
        new = f"\\color[HTML]{{{value.upper()}}}"
        new = f"{{{new}" if command == "textcolor" else new + (group or "")
        edits.append((match.start(), match.end(), new))
    return edits


def _mix(expression: str, defined: dict[str, str]) -> str | None:
    """xcolor's ``red!80`` (80% red, 20% white) and ``red!50!blue``, as hex; None if a
    name in it is unknown or it is not a mix."""
    parts = expression.split("!")
    if len(parts) < 2:
        return None
    names, shares = parts[::2], parts[1::2]
    if len(names) == len(shares):
        names.append("white")
    colours = [_hex_of(name, defined) for name in names]
    if None in colours or not all(re.fullmatch(r"\d+(\.\d+)?", p) for p in shares):
        return None
    mixed = [int(colours[0][i : i + 2], 16) for i in (0, 2, 4)]  # type: ignore[index]
    for share, colour in zip(shares, colours[1:], strict=True):
        weight = min(float(share), 100.0) / 100
        other = [int(colour[i : i + 2], 16) for i in (0, 2, 4)]  # type: ignore[index]
        mixed = [round(weight * a + (1 - weight) * b) for a, b in zip(mixed, other, strict=True)]
    return "".join(f"{c:02X}" for c in mixed)


def _hex_of(name: str, defined: dict[str, str]) -> str | None:
    """A colour name's hex: a post's own, xcolor's (as math-core sets it), else CSS's."""
    if name in defined:
        return defined[name]
    mathml = _math_core_colour(name)
    if mathml is not None:
        found = re.search(r"color:#([0-9A-Fa-f]{6})", mathml)
        return found.group(1) if found else None
    return CSS_COLOURS.get(name.lower())


def colours_of(macros: tuple[tuple[str, str], ...]) -> dict[str, str]:
    return {n.removeprefix(COLOUR_PREFIX): v for n, v in macros if n.startswith(COLOUR_PREFIX)}


def known_to_math_core(name: str) -> bool:
    return _math_core_colour(name) is not None


@cache
def _math_core_colour(name: str) -> str | None:
    """math-core's MathML for ``\\color{name}x``; None when it knows no such colour."""
    from math_core import LatexError, LatexToMathML

    try:
        return LatexToMathML().convert_with_local_state(f"\\color{{{name}}}x", displaystyle=False)
    except LatexError:
        return None


def css_colour(name: str) -> str:
    """A colour for a style attribute: ``#hex``, or a CSS name; anything else is refused."""
    name = name.strip()
    if re.fullmatch(r"#[0-9A-Fa-f]{3}(?:[0-9A-Fa-f]{3})?", name):
        return name
    if name.lower() in CSS_COLOURS:
        return "#" + CSS_COLOURS[name.lower()]
    raise MathError(f"unknown colour {name!r}: use a CSS colour name or #RRGGBB")
