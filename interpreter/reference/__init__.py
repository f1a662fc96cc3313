"""Reference moves: the generic path, the rules' meaning as closures over board strings."""
