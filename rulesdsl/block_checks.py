"""Checks of blocks and of the ``turn`` move rule (``block NAME CELL .. CELL``, ``turn BLOCKS WAY``).

A mixin of :class:`rulesdsl.checker.Checker`: what can be told without a
board's size. Corners that are not cells, holes and quarter turns of blocks
that are not square are found by the trial compile (``interpreter/turning.py``).
"""

from __future__ import annotations

from rulesdsl import model as m
from rulesdsl.findings import Findings


class BlockChecks(Findings):
    """``check_blocks`` and ``check_turn``; the checker calls them."""

    def check_blocks(self) -> None:
        """Blocks live on grid boards, have distinct names, and are turned by some rule."""
        blocks = self.resolved.of(m.Block)
        if not blocks:
            return
        shapes = {b.shape for b in self.resolved.of(m.Board)}
        if shapes - {"grid"}:
            self.error(blocks[0].span, "a block is a rectangle of a square grid: this board is a "
                       f"{' or '.join(sorted(shapes - {'grid'}))}", "E150", "use 'board grid C x R'")
        turned = {name for stmt in (*self.resolved.of(m.Moves), *self.resolved.of(m.Then))
                  for rule in stmt.rules if rule.action == "turn" for name, _ in rule.blocks}
        for block in blocks:
            if block.name not in turned:
                self.warning(block.span, f"block {block.name} is never turned", "W150",
                             f"add e.g. then {{ turn {block.name} either way }}")

    def check_turn(self, rule: m.MoveRule) -> None:
        """Every block a ``turn`` rule names is declared, once."""
        declared = {b.name for b in self.resolved.of(m.Block)}
        seen: set[str] = set()
        for name, span in rule.blocks:
            if name not in declared:
                if declared:
                    self.unknown(span, "block", name, declared, "E151")
                else:
                    self.error(span, f"unknown block {name!r}: no block is declared", "E151",
                               f"declare it, e.g. block {name} a1 .. c3")
            elif name in seen:
                self.error(span, f"block {name} is named twice in this rule: it would list its moves twice",
                           "E151", "name each block once")
            seen.add(name)
