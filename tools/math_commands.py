"""Write ``site_builder/markdown/math/commands.txt``: the LaTeX commands math-core knows.

The list feeds "did you mean" hints for an unknown command. Candidates are every
command name in KaTeX's source (``npm ci`` puts it in node_modules/) plus the
rewrites' own; a candidate is kept when math-core does not call it unknown (it
may still want arguments). Re-run after upgrading math-core:

    .venv/bin/python tools/math_commands.py
"""

from __future__ import annotations

import re
from pathlib import Path

from math_core import LatexError, LatexToMathML

ROOT = Path(__file__).resolve().parent.parent
KATEX = ROOT / "node_modules" / "katex" / "dist" / "katex.mjs"
OUT = ROOT / "site_builder" / "markdown" / "math" / "commands.txt"
EXTRA = ("mbox", "pmb", "intop", "substack", "DeclareMathOperator", "eqref", "ref")


def known(name: str, converter: LatexToMathML) -> bool:
    try:
        converter.convert_with_local_state(f"\\{name}", displaystyle=True)
    except LatexError as exc:
        return "Unknown command" not in str(exc)
    return True


def main() -> None:
    names = set(re.findall(r'"\\\\([a-zA-Z]+)"', KATEX.read_text(encoding="utf-8")))
    converter = LatexToMathML(fancy_error=False, allow_unreliable_rendering=True)
    found = sorted({n for n in names if known(n, converter)} | set(EXTRA))
    OUT.write_text("\n".join(found) + "\n", encoding="utf-8")
    print(f"{len(found)} commands of {len(names)} candidates -> {OUT.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
