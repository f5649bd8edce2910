"""The words, formulas and code every generated source is made of (``corpus``,
``notebook``): seeded, so the same index always gives the same text."""

from __future__ import annotations

import random

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
