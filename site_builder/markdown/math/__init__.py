"""Math: ``$...$`` and ``$$...$$`` to MathML Core at build time, with no math JavaScript.

- ``plugin``: the markdown-it wiring (parsing, the two core rules, rendering);
- ``formula``: one formula's steps, shared by the plugin and ``render_formula``;
- ``macros``: the site's, the post's and in-formula ``\\newcommand`` definitions;
- ``rewrite`` and ``groups``: small source rewrites for what math-core lacks;
- ``source``: a formula under rewriting, with the way back to the author's columns;
- ``numbering``: equation numbers, ``\\tag`` and ``\\label``, shared with cross-references;
- ``engine``: math-core itself, and its errors in plain words.
"""

from site_builder.markdown.math.engine import MathError, convert
from site_builder.markdown.math.formula import render_formula
from site_builder.markdown.math.plugin import math_plugin

__all__ = ["MathError", "convert", "math_plugin", "render_formula"]
