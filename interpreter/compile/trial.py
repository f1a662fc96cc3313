"""The trial compile: the game as its default options make it.

Some mistakes show only with values: a start position that does not fit the
board, two pieces placed on one cell, a board of no cells, letters that run
out. After the static checker (``rulesdsl.checker``) finds no error, the file
is compiled with its defaults to find them (E043, E044, E090), and anything
unexpected is reported as E099, never a traceback. :func:`check_all` is both
together: what loading a game and ``rulesdsl check`` report about a file.
"""

from __future__ import annotations

from rulesdsl import model as m
from rulesdsl.checker import check
from rulesdsl.errors import Diagnostic, RulesdslError, Span
from rulesdsl.expr import ExprError, evaluate
from rulesdsl.findings import Findings
from rulesdsl.interpreter.compile.compiler import Active, compile_game
from rulesdsl.interpreter.compile.game import position_hint
from rulesdsl.interpreter.compile.geometry import lattice_points
from rulesdsl.limits import MAX_CELLS
from rulesdsl.options import option_values


def check_all(resolved) -> list[Diagnostic]:
    """The static checks and, when they find no error, the trial compile; sorted by place."""
    found = check(resolved)
    if not any(d.severity == "error" for d in found):
        found = sorted(found + trial_compile(resolved), key=lambda d: (d.span.file, d.span.line, d.span.column))
    return found


def trial_compile(resolved) -> list[Diagnostic]:
    """What compiling ``resolved`` with its default options finds (with source lines)."""
    trial = TrialCompile(resolved)
    trial.check_with_default_options()
    return [resolved.attach(d) for d in trial.found]


class TrialCompile(Findings):
    """Compiles a statically clean file with its defaults; reports through ``self.error``."""

    def check_with_default_options(self) -> None:
        """Compile with the default options, set up the start and generate its moves.

        This finds what only values reveal: a start position that does not fit
        the board, two pieces placed on one cell, a board of no cells.
        """
        top = place = Span(1, 1, 1, 2, self.file)
        context = "as written"
        try:
            values = option_values(self.resolved)
            shown = ", ".join(f"{k}={str(v).lower() if isinstance(v, bool) else v}"
                              for k, v in values.items())
            context = f"with the default options ({shown})" if shown else "as written"
            active = Active(self.resolved, values)
            if not self.check_sizes(active, values, context):
                return
            start = active.first(m.StartPosition) or active.first(m.StartLayout)
            place = start.span if start is not None else top
            game = compile_game(self.resolved, values)
            if start is not None:
                state = game.initial_state()
                moves, _ = game.status(state)
                game.evaluate(state, 0)
                for move in moves[:50]:
                    game.format_move(state, move)
                game.parse_position(game.format_position(state))
        except ExprError as error:
            self.error(error.span, error.message, error.code)
        except RulesdslError as error:
            span, message = self.locate(error, place)
            self.error(span, f"{context}: {message}", "E090", self.start_shape_hint(message))
        except Exception as error:  # a gap in the checker: still one line, never a traceback
            self.error(top, f"internal error while compiling: {type(error).__name__}: {error}", "E099",
                       "please report this rule file")

    def check_sizes(self, active, values, context: str) -> bool:
        """The board has cells, and letter names do not run past z."""
        board = active.first(m.Board)
        if board is None:
            self.error(Span(1, 1, 1, 2, self.file), f"{context}, no 'board' statement holds", "E043")
            return False
        sizes = [evaluate(e, values) for e in board.size]
        if any(isinstance(s, bool) or not isinstance(s, int) or s < 1 for s in sizes):
            shown = " x ".join(map(str, sizes))
            self.error(board.span, f"{context}, the board is {board.shape} {shown}: sizes are whole numbers of "
                       "at least 1", "E043")
            return False
        if board.shape in ("grid", "rhombus"):
            lines = {"column": sizes[0], "row": sizes[1]}
        else:
            lines = {"column": 2 * sizes[0] - 1, "row": 2 * sizes[0] - 1}
        cells = lines["column"] * lines["row"]
        if cells > MAX_CELLS:
            self.error(board.span, f"{context}, the board has {cells} cells; at most {MAX_CELLS} are "
                       "supported", "E043")
            return False
        if board.where is not None and cells_of(board, sizes, values) == 0:
            self.error(board.span, f"{context}, the board has no cells: its 'where' condition holds on none",
                       "E043", "col and row count from 1 at the bottom left")
            return False
        names = active.first(m.CellNames)
        if names is not None:
            parts = [(p.axis, p.first, p.span) for p in names.parts]
        elif board.shape in ("grid", "rhombus"):
            parts = [("column", "a", board.span)]
        else:
            parts = [("row", "A", board.span)]
        for axis, first, span in parts:
            if isinstance(first, str) and len(first) == 1 and first.isalpha():
                last = "z" if first.islower() else "Z"
                room = ord(last) - ord(first) + 1
                if lines[axis] > room:
                    self.error(span, f"{context}, the board has {lines[axis]} {axis}s but letters from "
                               f"{first!r} to {last!r} name only {room}", "E044",
                               f"limit the size to {room}, or name the {axis}s by numbers")
                    return False
        return True

    def locate(self, error: RulesdslError, fallback: Span) -> tuple[Span, str]:
        """A compile error's place (its ``span``, underlined to the end of that line) and its text."""
        span = error.span
        if span is None:
            return fallback, str(error).removesuffix(" for these options")
        message = error.detail.removesuffix(" for these options")
        if not span.line or span.file not in self.resolved.texts:
            return fallback, message
        # Underline the rest of that line's text: the statement or layout line at fault.
        source = self.resolved.source_line(span)
        end = max(span.column + 1, len(without_comment(source)) + 1)
        return Span(span.line, span.column, span.line, end, span.file), message

    def start_shape_hint(self, message: str) -> str:
        """For a start position that does not fit: what one for this board looks like."""
        if "start position" not in message:
            return ""
        try:
            return position_hint(compile_game(self.resolved, option_values(self.resolved)))
        except Exception:  # the hint is a courtesy; the error stands without it
            return ""


def without_comment(line: str) -> str:
    """A source line without its ``# comment`` (a ``#`` inside quotes is text) or trailing space."""
    quote = ""
    for i, char in enumerate(line):
        if quote:
            quote = "" if char == quote else quote
        elif char in "\"'":
            quote = char
        elif char == "#":
            return line[:i].rstrip()
    return line.rstrip()


def cells_of(board: m.Board, sizes: list, values) -> int:
    """How many lattice points of the board's shape its ``where`` keeps ."""
    points = lattice_points(board.shape, tuple(sizes))
    return sum(bool(evaluate(board.where, {**values, "col": x, "row": y})) for x, y in points)
