"""Tables (``aligned``, ``cases``, matrices) laid out the way MathML Core can.

latex2mathml sets ``columnalign`` on cells and ``columnspacing``/``rowspacing``
on the table: MathML 3 attributes that Chromium ignores, so an ``aligned``
block comes out centred with gaps around its ``=``. CSS on the cells says the
same thing in a way every MathML Core browser honours.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

# Half of the gap between rows of an alignment: TeX adds \jot (3pt) to the
# baseline skip, about 0.5em more than the rows' own height at display size.
ALIGN_ROW_PADDING = "0.25em"


def fix_tables(root: ET.Element) -> None:
    _group_fenced_tables(root)
    for table in root.iter("mtable"):
        spacing = table.attrib.pop("columnspacing", "").split()
        aligned = bool(spacing) or "rowspacing" in table.attrib
        table.attrib.pop("rowspacing", None)
        for row in table.iter("mtr"):
            for column, cell in enumerate(row.iter("mtd")):
                _fix_cell(cell, column, spacing if aligned else None)


def _fix_cell(cell: ET.Element, column: int, spacing: list[str] | None) -> None:
    """Alignment as ``text-align``; for alignments, TeX's column gaps instead of the UA padding."""
    styles = []
    align = cell.attrib.pop("columnalign", "center")
    if align != "center":
        styles.append(f"text-align: {align}")
    if spacing is not None:
        left = "0" if column == 0 or not spacing else spacing[min(column - 1, len(spacing) - 1)]
        styles.append(f"padding: {ALIGN_ROW_PADDING} 0 {ALIGN_ROW_PADDING} {left}")
    if styles:
        cell.set("style", "; ".join(styles))


def _group_fenced_tables(root: ET.Element) -> None:
    """Put ``pmatrix``'s parentheses and table in their own ``<mrow>``.

    latex2mathml leaves them as siblings in the enclosing row, so the
    parentheses would stretch to the tallest thing in the whole formula.
    """
    for parent in list(root.iter()):
        for table in [child for child in parent if child.tag == "mtable"]:
            children = list(parent)
            index = children.index(table)
            if not 0 < index < len(children) - 1:
                continue
            before, after = children[index - 1], children[index + 1]
            if not (before.tag == after.tag == "mo") or before.attrib or after.attrib:
                continue
            group = ET.Element("mrow")
            for element in (before, table, after):
                parent.remove(element)
                group.append(element)
            parent.insert(index - 1, group)
