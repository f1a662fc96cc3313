"""Parallel: worker processes and Dask clusters."""
