"""Rewrite latex2mathml's MathML 3 into MathML Core, the part Chromium renders.

Each rule fixes a way the raw output looks untypeset in a browser (see
DESIGN.md, "Math that looks typeset"); TeX's spacing rules are the reference:

- operator names (``\\operatorname{softmax}``, ``\\max``) become an upright
  ``<mi>`` plus U+2061 FUNCTION APPLICATION, not an ``<mo>`` that gets
  operator spacing on both sides; the thin space TeX puts between an operator
  and an ordinary atom goes on U+2061 as ``rspace``;
- ``-`` after an operator, an opening fence or nothing is a prefix (unary) sign;
- named spaces (``negativethinmathspace``) are not MathML Core: use ``em``;
- ordinary symbols latex2mathml marks as ``<mo>`` (``\\infty``, ``\\top``) are
  ``<mi>``, or they get operator spacing (``= -\\infty`` floats apart);
- ``\\left``/``\\right`` fences are marked symmetric, so they grow around the
  math axis as in TeX;
- table attributes MathML Core ignores (``columnalign``, ``columnspacing``,
  ``rowspacing``) become CSS on the cells.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

from site_builder.markdown import mathml_tables

EM = 1 / 18  # one math unit (mu) in em
NAMED_SPACES = {
    "veryverythinmathspace": 1,
    "verythinmathspace": 2,
    "thinmathspace": 3,
    "mediummathspace": 4,
    "thickmathspace": 5,
    "verythickmathspace": 6,
    "veryverythickmathspace": 7,
}
# latex2mathml writes \, \: \; with three decimals; TeX's 3, 4 and 5 mu.
ROUNDED_SPACES = {"0.167em": 3, "0.222em": 4, "0.278em": 5}
THIN_SPACE = "0.1667em"

# TeX's \mathord symbols that latex2mathml emits as <mo>, with the mathvariant to
# set: infinity, down tack (\top), up tack, empty set, partial, nabla, angle.
# (Escapes, not literals: several of these look like Latin letters in source.)
ORDINARY = {
    "\u221e": None,
    "\u22a4": None,
    "\u22a5": None,
    "\u2205": None,
    "\u2202": None,
    "\u2207": "normal",
    "\u2220": None,
}
# Operator names that take their subscript underneath in display style (\max_i).
LIMITS = frozenset({"lim", "liminf", "limsup", "max", "min", "sup", "inf", "det", "gcd", "Pr"})
# minus, plus, plus-minus, minus-plus, hyphen-minus
SIGNS = frozenset({"\u2212", "+", "\u00b1", "\u2213", "-"})
# An operator name before an opening fence gets no space; a sign after a closing one is binary.
OPENING = frozenset("([{|\u2016\u27e8\u2308\u230a")
CLOSING = frozenset(")]}|!\u2016\u27e9\u2309\u230b\u2032\u2033")
SCRIPTS = ("msub", "msup", "msubsup", "munder", "mover", "munderover")
TO_LIMITS = {"msub": "munder", "msup": "mover", "msubsup": "munderover"}
# Elements with a fixed number of children: nothing may be inserted into them.
FIXED_ARITY = frozenset({*SCRIPTS, "mfrac", "mroot", "semantics"})
# sum, product, coproduct, big union/intersection, big o-plus/o-times/o-dot, big or/and, ...
LARGE_OPERATORS = frozenset(
    "\u2211\u220f\u2210\u22c3\u22c2\u2a01\u2a02\u2a00\u22c1\u22c0\u2a04\u2a06"
)


def fix(root: ET.Element, display: bool) -> None:
    """Apply every rule to one ``<math>`` tree, in place. Order matters: names before signs."""
    fix_spaces(root)
    fix_ordinary_symbols(root)
    fix_operator_names(root, display)
    fix_unary_signs(root)
    fix_fences(root)
    fix_large_operators(root, display)
    fix_script_spacing(root)
    mathml_tables.fix_tables(root)


def fix_spaces(root: ET.Element) -> None:
    """``\\!`` is ``negativethinmathspace``, a MathML 3 name Chromium ignores: write ``em``."""
    for space in root.iter("mspace"):
        width = space.get("width")
        if width is None:
            continue
        negative = width.startswith("negative")
        mu = NAMED_SPACES.get(width.removeprefix("negative")) or ROUNDED_SPACES.get(width)
        if mu is not None:
            width = _em(-mu if negative else mu)
            space.set("width", width)
        if width.startswith("-"):
            # MathML Core maps width to CSS width, which cannot be negative: Chromium
            # draws \! as nothing. A negative margin pulls the neighbours together.
            space.set("style", f"margin-left: {width}")


def _em(mu: int) -> str:
    return f"{mu * EM:.4f}".rstrip("0").rstrip(".") + "em"


def fix_ordinary_symbols(root: ET.Element) -> None:
    """``\\infty`` and friends are ordinary symbols: ``<mi>``, so no operator spacing."""
    for element in root.iter("mi"):
        if element.text in ("\u00b1", "\u2213"):
            element.tag = "mo"  # latex2mathml makes \pm an identifier; TeX: a binary operator
    for element in root.iter("mo"):
        if element.text in ORDINARY and not element.attrib:
            element.tag = "mi"
            variant = ORDINARY[element.text]
            if variant:
                element.set("mathvariant", variant)


def fix_operator_names(root: ET.Element, display: bool) -> None:
    """Operator names: upright ``<mi>`` followed by U+2061 with TeX's operator spacing."""
    for element in root.iter("mo"):
        if _is_name(element):
            element.tag = "mi"
            element.attrib.clear()  # movablelimits etc. belong to <mo>; a long <mi> is upright
    for parent in list(root.iter()):
        if parent.tag in FIXED_ARITY or parent.get("class") == "operatorname":
            continue
        _merge_complex_operatorname(parent)
        for child in list(parent):
            name = _operator_name(child)
            if name is None:
                continue
            if child.tag in TO_LIMITS and display and name.text in LIMITS:
                child.tag = TO_LIMITS[child.tag]
            _space_before_name(parent, child)
            _insert_function_application(parent, child)


def _operator_name(element: ET.Element) -> ET.Element | None:
    """The name token of an operator name, bare or as the base of a script element."""
    base = element[0] if element.tag in SCRIPTS and len(element) else element
    if base.tag == "mrow" and len(base) > 1 and base.get("class") == "operatorname":
        return base  # \operatorname{arg\,max}, merged by _merge_complex_operatorname
    return base if base.tag == "mi" and _is_name(base) else None


def _is_name(element: ET.Element) -> bool:
    """latex2mathml writes a letter per token except for operator names (and merged ones)."""
    text = element.text or ""
    return len(text) > 1 and text.isalpha() and not len(element)


def _merge_complex_operatorname(parent: ET.Element) -> None:
    """``\\operatorname{arg\\,max}`` comes out as an empty ``<mo/>`` and an ``<mrow>`` of letters.

    Merge each run of letters into one ``<mi>`` so the name reads as words.
    """
    children = list(parent)
    for index, child in enumerate(children[:-1]):
        if child.tag != "mo" or child.text or len(child):
            continue
        target = children[index + 1]
        row = target[0] if target.tag in SCRIPTS and len(target) else target
        if row.tag != "mrow":
            continue
        parent.remove(child)
        merged: list[ET.Element] = []
        for item in list(row):
            letter = item.tag == "mi" and len(item.text or "") == 1 and not len(item)
            if letter and merged and merged[-1].tag == "mi":
                merged[-1].text = (merged[-1].text or "") + (item.text or "")
            else:
                if letter:
                    item.attrib.clear()
                merged.append(item)
        for item in list(row):
            row.remove(item)
        row.extend(merged)
        if len(row) > 1:
            row.set("class", "operatorname")
        elif len(row) == 1 and row is target:
            parent.insert(list(parent).index(target), row[0])
            parent.remove(target)


def _space_before_name(parent: ET.Element, name: ET.Element) -> None:
    """TeX puts a thin space between an operand and a following operator name (``x \\log y``)."""
    children = list(parent)
    index = children.index(name)
    if index == 0:
        return
    before = children[index - 1]
    operand = before.tag not in ("mo", "mspace") and not _is_operator_slot(before)
    closing = before.tag == "mo" and (before.text or "") in CLOSING and before.text != "|"
    if operand or closing:
        parent.insert(index, ET.Element("mspace", width=THIN_SPACE))


def _insert_function_application(parent: ET.Element, name: ET.Element) -> None:
    """Insert U+2061 after ``name``; thin space unless an opening fence or operator follows."""
    children = list(parent)
    index = children.index(name)
    following = [c for c in children[index + 1 :] if c.tag != "mspace"]
    if not following:
        return
    nxt = following[0]
    if nxt.tag == "mo" and nxt.text == "\u2061":
        return
    if nxt.tag == "mo" and (nxt.text or "") not in OPENING:
        return  # a relation or punctuation after a bare name spaces itself
    apply = ET.Element("mo")
    apply.text = "\u2061"
    if not (nxt.tag == "mo" and nxt.get("stretchy") != "true"):
        apply.set("rspace", THIN_SPACE)  # TeX: Op followed by Ord or Inner
    parent.insert(index + 1, apply)


def fix_unary_signs(root: ET.Element) -> None:
    """A sign with no operand before it is prefix: ``-\\infty``, ``= -x``, ``(-x``."""
    for parent in root.iter():
        if parent.tag in FIXED_ARITY:
            continue
        previous: ET.Element | None = None
        for child in parent:
            if child.tag == "mo" and child.text in SIGNS and _is_operator_slot(previous):
                child.set("form", "prefix")
            if child.tag != "mspace":
                previous = child


def _is_operator_slot(previous: ET.Element | None) -> bool:
    """True when nothing, or an operator that wants an operand after it, comes before."""
    if previous is None:
        return True
    if previous.tag in SCRIPTS and len(previous) and previous[0].tag == "mo":
        return previous[0].text in LARGE_OPERATORS  # \sum_i -x
    if previous.tag != "mo":
        return False
    return previous.get("form") != "postfix" and (previous.text or "") not in CLOSING


def fix_fences(root: ET.Element) -> None:
    """``\\left(`` ... ``\\right)`` grow symmetrically around the axis, as TeX's do.

    A plain ``|`` is an ordinary symbol in TeX; as an ``<mo>`` in the middle of
    a row the browser would space it like a relation (``|x |``).
    """
    for element in root.iter("mo"):
        if element.text in ("|", "\u2016") and element.get("stretchy") == "false":
            element.set("lspace", "0")
            element.set("rspace", "0")
        if element.get("fence") == "true" and element.get("stretchy") == "true":
            element.set("symmetric", "true")


def fix_large_operators(root: ET.Element, display: bool) -> None:
    """In display style ``\\sum`` takes its limits underneath; they move aside if it shrinks.

    ``movablelimits`` is also the operator dictionary's default for U+2211, but
    stating it keeps the intent visible and independent of the dictionary.
    """
    if not display:
        return
    for element in root.iter():
        if element.tag in ("munder", "mover", "munderover") and len(element):
            base = element[0]
            if base.tag == "mo" and base.text in LARGE_OPERATORS:
                base.set("movablelimits", "true")


def fix_script_spacing(root: ET.Element) -> None:
    """TeX drops relation, binary and punctuation spacing in sub- and superscripts.

    Browsers keep the operator dictionary's spacing there, so ``\\sum_{t=1}``
    reads "t = 1" spread out under the sum; zero it as TeX does.
    """
    for script in root.iter():
        if script.tag not in SCRIPTS:
            continue
        for position in list(script)[1:]:
            for element in position.iter("mo"):
                explicit = "lspace" in element.attrib or "rspace" in element.attrib
                fence = element.get("stretchy") == "true"
                if not explicit and not fence and element.text != "\u2061":
                    element.set("lspace", "0")
                    element.set("rspace", "0")
