"""MathJax's ``physics`` package, for a site whose configuration loads it.

The package (``loader: {load: ['[tex]/physics']}``, ``packages: {'[+]': ['physics']}``)
adds commands such as ``\\abs``, ``\\norm``, ``\\dd`` and bra-ket notation; a post written
for it stops the build on each as an unknown command. Those whose arguments are fixed
are defined in ``site.yaml`` as the package draws them. The others take a varying number
of arguments (``\\dv{x}`` or ``\\dv{f}{x}``, ``\\qty`` with any bracket), which a macro
cannot: the build reads those itself (``markdown.math.physics``).
"""

from __future__ import annotations

import re

# The package, named where MathJax is configured: a load path or a packages entry.
LOADS = re.compile(r"""\[tex\]/physics\b|packages\s*:[^;]*?["']physics["']""", re.S)

# name -> body, as MathJax's physics package draws each (sized delimiters included).
MACROS = {
    "abs": r"\left\lvert #1 \right\rvert",
    "norm": r"\left\lVert #1 \right\rVert",
    "dd": r"\mathrm{d}",
    "bra": r"\left\langle #1 \right\vert",
    "ket": r"\left\vert #1 \right\rangle",
    "braket": r"\left\langle #1 \middle\vert #2 \right\rangle",
    "ketbra": r"\left\vert #1 \right\rangle\!\left\langle #2 \right\vert",
    "expval": r"\left\langle #1 \right\rangle",
    "mel": r"\left\langle #1 \middle\vert #2 \middle\vert #3 \right\rangle",
    "comm": r"\left[ #1, #2 \right]",
    "acomm": r"\left\{ #1, #2 \right\}",
    "order": r"\mathcal{O}\left( #1 \right)",
    "vb": r"\mathbf{#1}",
    "vu": r"\hat{\mathbf{#1}}",
    "grad": r"\nabla",
    "gradient": r"\nabla",
    "curl": r"\nabla\times",
    "divergence": r"\nabla\cdot",
    "laplacian": r"\nabla^2",
    "vdot": r"\cdot",
    "cross": r"\times",
    "va": r"\vec{#1}",
    "dyad": r"\left\vert #1 \right\rangle\!\left\langle #1 \right\vert",
    "qq": r"\quad\text{#1}\quad",
    "qand": r"\quad\text{and}\quad",
    "qor": r"\quad\text{or}\quad",
    "qif": r"\quad\text{if}\quad",
    "tr": r"\operatorname{tr}",
    "Tr": r"\operatorname{Tr}",
    "rank": r"\operatorname{rank}",
    "erf": r"\operatorname{erf}",
    "Res": r"\operatorname{Res}",
}


def loads_physics(script: str) -> int | None:
    """Where in ``script`` (a MathJax configuration) the package is loaded, if it is."""
    found = LOADS.search(script)
    return found.start() if found else None


NOTE = (
    "MathJax's physics package: \\abs, \\norm, \\dd, bra-ket and the like are defined in "
    "site.yaml; \\dv, \\pdv and \\qty (their arguments vary) the build reads itself"
)
