"""Generate a deterministic corpus of ML-style posts for the benchmark.

Each post is like the issue's reference corpus: ~950 words of prose with 12
inline and 2 display equations, two 12-line Python code blocks, a 4-row table
with math and two footnotes. The same N always gives the same bytes, so runs
are comparable.

    python -m bench.corpus DEST --posts 1000
"""

from __future__ import annotations

import argparse
import random
import shutil
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

_WORD_TEXT = (
    "the model attention layer token query key value gradient loss training step "
    "batch weight bias vector matrix softmax temperature entropy distribution sample "
    "head residual stream norm scale variance mean optimizer learning rate schedule "
    "warmup decay sequence position embedding context window memory kernel fused "
    "compute throughput latency parameter width depth activation feature probe "
    "circuit induction copy previous signal noise estimate bound proof lemma"
)
WORDS = _WORD_TEXT.split()
TAGS = [
    "attention",
    "optimization",
    "theory",
    "scaling",
    "interpretability",
    "kernels",
    "probability",
    "training",
    "inference",
    "notes",
]
INLINE = [
    r"\sqrt{d}",
    r"\operatorname{softmax}(x)_i",
    r"q^\top k",
    r"\mathbb{E}[X]",
    r"\log_2 7 \approx 2.81",
    r"\tau \to 0",
    r"O(n^2)",
    r"\sum_{t=1}^{d} x_t",
    r"\alpha + \beta",
    r"x \in \mathbb{R}^{n \times d}",
    r"\nabla_\theta L",
    r"-\infty",
    r"\frac{1}{\sqrt{d}}",
    r"W_Q x_i",
    r"\lambda_{\max}",
    r"p(y \mid x)",
]
DISPLAY = [
    r"\operatorname{Attention}(Q, K, V) = "
    r"\operatorname{softmax}\!\left(\frac{QK^\top}{\sqrt{d}} + M\right) V",
    r"\operatorname{Var}(q^\top k) = \sum_{t=1}^{d} \operatorname{Var}(q_t k_t) = d",
    r"H(p) = -\sum_{i=1}^{n} p_i \log_2 p_i",
    r"\theta_{t+1} = \theta_t - \eta \nabla_\theta L(\theta_t)",
    r"\begin{aligned} m_t &= \beta_1 m_{t-1} + (1 - \beta_1) g_t \\ "
    r"v_t &= \beta_2 v_{t-1} + (1 - \beta_2) g_t^2 \end{aligned}",
]
CODE = '''def step(params, grads, lr={lr}):
    """One plain gradient step, written for reading."""
    out = {{}}
    for name, value in params.items():
        g = grads[name]
        if g is None:
            out[name] = value
            continue
        out[name] = value - lr * g
    total = sum(float((g ** 2).sum()) for g in grads.values() if g is not None)
    print(f"step {{total:.3f}} over {{len(out)}} tensors")
    return out
'''


def sentence(rng: random.Random, length: int) -> str:
    words = [rng.choice(WORDS) for _ in range(length)]
    return " ".join(words).capitalize() + "."


def paragraph(rng: random.Random, inline: list[str]) -> str:
    parts = []
    for _ in range(5):
        text = sentence(rng, rng.randint(12, 22))
        if inline:
            text = text[:-1] + f" with ${inline.pop()}$."
        parts.append(text)
    return " ".join(parts)


def post(index: int) -> str:
    rng = random.Random(index)
    inline = [rng.choice(INLINE) for _ in range(12)]
    tags = sorted(rng.sample(TAGS, 2))
    year, month, day = 2020 + index % 6, 1 + index % 12, 1 + index % 28
    body = [
        "---",
        f"title: Post {index} on {rng.choice(WORDS)} and {rng.choice(WORDS)}",
        f"date: {year:04d}-{month:02d}-{day:02d}",
        f"description: {sentence(rng, 14)}",
        f"tags: [{', '.join(tags)}]",
        "---",
        "",
        paragraph(rng, inline) + "[^a]",
        "",
        "## Setting",
        "",
        paragraph(rng, inline),
        "",
        "$$",
        rng.choice(DISPLAY),
        "$$",
        "",
        paragraph(rng, inline),
        "",
        '```python filename="step.py"',
        CODE.format(lr=f"{rng.randint(1, 9)}e-3").rstrip(),
        "```",
        "",
        "## Results",
        "",
        paragraph(rng, inline) + "[^b]",
        "",
        "| Variant | Cost | Memory |",
        "|---|---|---|",
        "| Full | $O(n^2)$ | $O(n^2)$ |",
        "| Flash | $O(n^2)$ | $O(n)$ |",
        "| Window | $O(nw)$ | $O(nw)$ |",
        "| Linear | $O(n)$ | $O(n)$ |",
        "",
        paragraph(rng, []),
        "",
        "$$",
        rng.choice(DISPLAY),
        "$$",
        "",
        "```python",
        CODE.format(lr="1e-4").rstrip(),
        "```",
        "",
        paragraph(rng, []),
        "",
        paragraph(rng, []),
        "",
        paragraph(rng, []),
        "",
        f"[^a]: {sentence(rng, 16)}",
        f"[^b]: {sentence(rng, 12)}",
        "",
    ]
    return "\n".join(body)


def make_corpus(dest: Path, posts: int) -> Path:
    """Write a complete site (site.yaml, theme, N posts) into ``dest``."""
    if dest.exists():
        shutil.rmtree(dest)
    (dest / "content" / "posts").mkdir(parents=True)
    for name in ("templates", "static", "fonts"):
        if (ROOT / name).is_dir():
            shutil.copytree(ROOT / name, dest / name)
    (dest / "site.yaml").write_text(
        "title: Bench\nauthor: Ada Lovelace\nbase_url: https://example.org/\n", encoding="utf-8"
    )
    for index in range(posts):
        path = dest / "content" / "posts" / f"post-{index:05d}.md"
        path.write_text(post(index), encoding="utf-8")
    return dest


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("dest", type=Path)
    parser.add_argument("--posts", type=int, default=1000)
    args = parser.parse_args()
    make_corpus(args.dest, args.posts)


if __name__ == "__main__":
    main()
