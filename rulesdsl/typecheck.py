"""Type checks: numbers where numbers are needed, position conditions only in end rules."""

from __future__ import annotations

from rulesdsl import model as m
from rulesdsl.findings import Findings
from rulesdsl.options import NUMBER, TRUTH, fold_options, kind_of
from rulesdsl.vocabulary import CONDITIONS


class TypeChecks(Findings):
    """Mixed into the checker: reports E022/E023 through ``self.error``."""

    def check_types(self) -> None:
        """Arithmetic and ordering on numbers only; end-rule conditions only in end rules."""
        env: dict[str, str] = {}
        values = fold_options(self.resolved.of(m.OptionDecl), skip_errors=True)
        for name, value in values.items():
            env[name] = kind_of(value)
        for board in self.resolved.of(m.Board):
            for expr in board.size:
                self.need(expr, self.expr_type(expr, env, False), NUMBER, "a board size")
            if board.where is not None:
                self.expr_type(board.where, {**env, "col": NUMBER, "row": NUMBER}, False)
        for stmt in self.resolved.statements:
            if stmt.guard is not None:
                self.expr_type(stmt.guard, env, False)
            for rule in stmt.rules if isinstance(stmt, (m.Moves, m.Then)) else ():
                if rule.guard is not None:
                    self.expr_type(rule.guard, env, False)
                if rule.when is not None:
                    self.need(rule.when, self.expr_type(rule.when, env, True), TRUTH, "'when'")
                if rule.spared is not None:
                    self.need(rule.spared, self.expr_type(rule.spared, env, False), NUMBER, "'except'")
            if isinstance(stmt, m.Then) and stmt.after_row is not None:
                self.need(stmt.after_row, self.expr_type(stmt.after_row, env, False), NUMBER, "'after'")
            if isinstance(stmt, m.Hand):
                for _, count in stmt.parts:
                    self.need(count, self.expr_type(count, env, False), NUMBER, "a hand")
        cell_env = {**env, "col": NUMBER, "row": NUMBER}
        for layout in self.resolved.of(m.StartLayout):
            for item in layout.items:
                if item.where is not None:
                    self.expr_type(item.where, cell_env, False)
                for ref in item.cells:
                    for expr in ref.xy or ():
                        self.need(expr, self.expr_type(expr, env, False), NUMBER, "a cell's coordinate")
        for block in self.resolved.of(m.End):
            for rule in block.rules:
                self.expr_type(rule.condition, env, True)

    def expr_type(self, expr: m.Expr, env: dict[str, str], dynamic: bool) -> str | None:
        """The kind of value ``expr`` has (``None`` when unknown), reporting misuse on the way."""
        return ExprTypes(self, env, dynamic).visit(expr)

    def need(self, expr: m.Expr, got: str | None, want: str, where: str) -> None:
        if got is not None and got != want:
            hint = f"option {expr.name} is {got}" if isinstance(expr, m.NameRef) else ""
            self.error(expr.span, f"{where} needs {want}, not {got}", "E023", hint)


class ExprTypes(m.ExprVisitor):
    """The type pass over one expression: the kind of each node, misuse reported through ``checks``.

    ``dynamic``: the expression is an end rule's condition, so it may ask about
    the position (``count``, ``no moves``...); guards and layouts may not.
    """

    def __init__(self, checks: TypeChecks, env: dict[str, str], dynamic: bool):
        self.checks = checks
        self.env = env
        self.dynamic = dynamic

    def visit(self, expr: m.Expr) -> str | None:
        if isinstance(expr, m.Call) or type(expr).__name__ in CONDITIONS:  # about a position
            if not self.dynamic:
                self.checks.error(expr.span, "this condition is about a position: it belongs in an end rule",
                                  "E023", "guards and start layouts see only option values")
                return None
            if isinstance(expr, (m.InARow, m.BoardsInARow)):
                length = ExprTypes(self.checks, self.env, False).visit(expr.length)
                self.checks.need(expr.length, length, NUMBER, "'in a row'")
                return TRUTH
            if isinstance(expr, m.Joins):
                count = ExprTypes(self.checks, self.env, False).visit(expr.count)
                self.checks.need(expr.count, count, NUMBER, f"'joins ... {expr.what}'")
                return TRUTH
            return NUMBER if isinstance(expr, (m.Call, m.QuietPlies, m.TurnsPlayed, m.PassesInARow,
                                               m.Repetitions)) else TRUTH
        return super().visit(expr)

    def generic_visit(self, expr: m.Expr) -> str | None:
        return None

    def visit_Literal(self, expr: m.Literal) -> str | None:
        return kind_of(expr.value)

    def visit_NameRef(self, expr: m.NameRef) -> str | None:
        return self.env.get(expr.name)

    def visit_Logic(self, expr: m.Logic) -> str | None:
        for item in expr.items:
            self.visit(item)
        return TRUTH

    def visit_Unary(self, expr: m.Unary) -> str | None:
        inner = self.visit(expr.operand)
        if expr.op == "not":
            return TRUTH
        self.checks.need(expr.operand, inner, NUMBER, "'-'")
        return NUMBER

    def visit_Binary(self, expr: m.Binary) -> str | None:
        left, right = self.visit(expr.left), self.visit(expr.right)
        if expr.op in ("==", "!="):
            if left is not None and right is not None and left != right:
                self.checks.error(expr.span, f"'{expr.op}' compares {left} with {right}: they are never equal",
                                  "E023")
            return TRUTH
        self.checks.need(expr.left, left, NUMBER, f"'{expr.op}'")
        self.checks.need(expr.right, right, NUMBER, f"'{expr.op}'")
        if (expr.op in ("/", "%") and isinstance(expr.right, m.Literal)
                and not isinstance(expr.right.value, bool) and expr.right.value == 0):
            self.checks.error(expr.right.span, "division by zero", "E022")
        return NUMBER if expr.op in ("+", "-", "*", "/", "%") else TRUTH
