"""Search: alpha-beta (generic and on the kernel), MCTS, paranoid search, move order, evaluation."""
