"""Measure: self-play statistics and benchmarks."""
