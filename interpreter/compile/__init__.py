"""Compile: from a checked model and option values to tables, positions and the Game object."""
