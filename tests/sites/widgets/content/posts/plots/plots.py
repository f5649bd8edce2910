"""Plots for the post: each function returns a Matplotlib figure."""

import matplotlib.pyplot as plt

from .schedule import warmup_then_decay


def loss_curve(steps: str = "100", dark: bool = False):
    n = int(steps)
    losses = [2.5 / (1 + 0.1 * i) + 0.1 for i in range(n)]
    ink = "#e8e6e1" if dark else "#1d1d1f"
    fig, ax = plt.subplots(figsize=(4, 2.5))
    fig.patch.set_alpha(0)
    ax.set_facecolor("none")
    ax.plot(range(n), losses, color="#4e9af1" if dark else "#1f5fa8")
    ax.set_xlabel("step", color=ink)
    ax.set_ylabel("loss", color=ink)
    ax.tick_params(colors=ink)
    for spine in ax.spines.values():
        spine.set_color(ink)
    return fig


def learning_rate():
    fig, ax = plt.subplots(figsize=(4, 2))
    steps = range(100)
    ax.plot(steps, [warmup_then_decay(s) for s in steps])
    return fig
