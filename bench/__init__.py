"""Benchmarks and long-running checks; run as `python -m bench.<name>` from the repo root."""
