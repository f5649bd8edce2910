def warmup_then_decay(step: int, warmup: int = 10) -> float:
    return step / warmup if step < warmup else (warmup / step) ** 0.5
