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
        for stmt in self.resolved.statements:
            if stmt.guard is not None:
                self.expr_type(stmt.guard, env, False)
            for rule in stmt.rules if isinstance(stmt, (m.Moves, m.Then)) else ():
                if rule.guard is not None:
                    self.expr_type(rule.guard, env, False)
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
        if isinstance(expr, m.Literal):
            return kind_of(expr.value)
        if isinstance(expr, m.NameRef):
            return env.get(expr.name)
        if isinstance(expr, m.InARow) and dynamic:
            self.need(expr.length, self.expr_type(expr.length, env, False), NUMBER, "'in a row'")
            return TRUTH
        if isinstance(expr, m.Call) or type(expr).__name__ in CONDITIONS:  # about a position
            if not dynamic:
                self.error(expr.span, "this condition is about a position: it belongs in an end rule", "E023",
                           "guards and start layouts see only option values")
                return None
            return NUMBER if isinstance(expr, m.Call) else TRUTH
        if isinstance(expr, m.Logic):
            for item in expr.items:
                self.expr_type(item, env, dynamic)
            return TRUTH
        if isinstance(expr, m.Unary):
            inner = self.expr_type(expr.operand, env, dynamic)
            if expr.op == "not":
                return TRUTH
            self.need(expr.operand, inner, NUMBER, "'-'")
            return NUMBER
        if isinstance(expr, m.Binary):
            left = self.expr_type(expr.left, env, dynamic)
            right = self.expr_type(expr.right, env, dynamic)
            if expr.op in ("==", "!="):
                if left is not None and right is not None and left != right:
                    self.error(expr.span, f"'{expr.op}' compares {left} with {right}: they are never equal",
                               "E023")
                return TRUTH
            self.need(expr.left, left, NUMBER, f"'{expr.op}'")
            self.need(expr.right, right, NUMBER, f"'{expr.op}'")
            if (expr.op in ("/", "%") and isinstance(expr.right, m.Literal)
                    and not isinstance(expr.right.value, bool) and expr.right.value == 0):
                self.error(expr.right.span, "division by zero", "E022")
            return NUMBER if expr.op in ("+", "-", "*", "/", "%") else TRUTH
        return None

    def need(self, expr: m.Expr, got: str | None, want: str, where: str) -> None:
        if got is not None and got != want:
            hint = f"option {expr.name} is {got}" if isinstance(expr, m.NameRef) else ""
            self.error(expr.span, f"{where} needs {want}, not {got}", "E023", hint)
