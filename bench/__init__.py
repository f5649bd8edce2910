"""Benchmark tooling: a deterministic corpus generator and the `make bench` harness."""
