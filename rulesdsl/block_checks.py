"""Checks of blocks and of the ``turn`` move rule (``rectangle NAME CELL..CELL``, ``turn NAMES WAY``).

A mixin of :class:`rulesdsl.checker.Checker`: what can be told without a
board's size. Corners that are not cells, holes and quarter turns of blocks
that are not square are found by the trial compile (``interpreter/reference/turning.py``).
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
            self.error(blocks[0].span, "a rectangle to turn is part of a square grid: this board is a "
                       f"{' or '.join(sorted(shapes - {'grid'}))}", "E150", "use 'board grid C x R'")
        turned = {name for stmt in (*self.resolved.of(m.Moves), *self.resolved.of(m.Then))
                  for rule in stmt.rules if rule.action == "turn" for name, _ in rule.blocks}
        for block in blocks:
            if block.name not in turned:
                self.warning(block.span, f"rectangle {block.name} is never turned", "W150",
                             f"add e.g. then {{ turn {block.name} either way }}")

    def check_small_boards(self) -> None:
        """``boards``: on a grid, one turn a ply, its ``last`` written; ``in sent board`` needs it."""
        boards = self.resolved.of(m.SmallBoards)
        rules = [r for s in (*self.resolved.of(m.Moves), *self.resolved.of(m.Then)) for r in s.rules]
        for rule in rules:
            if rule.sent and not boards:
                span = dict(rule.option_spans)["in sent board"]
                self.error(span, "'in sent board' needs small boards to send to", "E153",
                           "add e.g. boards 3 x 3 won by 3 in a row")
        if not boards:
            return
        stmt = boards[0]
        for expr in (stmt.width, stmt.height, stmt.line):
            self.check_names(expr, self.options)
        shapes = {b.shape for b in self.resolved.of(m.Board)}
        if shapes - {"grid"}:
            self.error(stmt.span, "small boards tile a square grid: this board is a "
                       f"{' or '.join(sorted(shapes - {'grid'}))}", "E153", "use 'board grid C x R'")
        if self.resolved.of(m.Again) or self.resolved.of(m.Then):
            self.error(stmt.span, "a game with small boards has one-ply turns: no 'again' or 'then'", "E153",
                       "the last placement's cell ('last') says where the next one goes")
        formats = self.resolved.of(m.PositionFormat)
        if not formats or "last" not in formats[0].fields:
            self.error(formats[0].span if formats else stmt.span, "a game with small boards needs the 'last' "
                       "field in its position format: the last placement says where the next one goes", "E153",
                       "e.g. position (turn last rows)")

    def check_turn(self, rule: m.MoveRule) -> None:
        """Every block a ``turn`` rule names is declared, once."""
        declared = {b.name for b in self.resolved.of(m.Block)}
        seen: set[str] = set()
        for name, span in rule.blocks:
            if name not in declared:
                if declared:
                    self.unknown(span, "rectangle", name, declared, "E151")
                else:
                    self.error(span, f"unknown rectangle {name!r}: no rectangle is declared", "E151",
                               f"declare it, e.g. rectangle {name} a1..c3")
            elif name in seen:
                self.error(span, f"rectangle {name} is named twice in this rule: it would list its moves twice",
                           "E151", "name each rectangle once")
            seen.add(name)
