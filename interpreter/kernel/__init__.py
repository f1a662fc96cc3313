"""The kernel: rule files compiled to bitboard source, and that source compiled to machine code."""
