"""Play a game at a prompt: a human (or two) against the engine, or the engine alone.

:func:`run_repl` draws the board with its coordinates, says whose turn it is,
prints the position string and reads moves in the game's own notation, plus a
few commands (``help`` lists them). A bad line gets a one-line message and the
game goes on; end of input ends the session cleanly. Messages about a typed
line are part of the transcript (stdout, right after the prompt); only an
error in the rule file itself (``file:line: error: ...``) goes to stderr. The REPL never asks which
game it is playing: everything goes through the :class:`Game` interface.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Protocol, TextIO

from rulesdsl.cli.render import render
from rulesdsl.cli.results import new_places, result_text
from rulesdsl.cli.scores import describe_score
from rulesdsl.cli.tally import tally_line
from rulesdsl.errors import OptionError, RulesdslError, suggest
from rulesdsl.extras import missing_extra
from rulesdsl.interpreter.compile.game import NO_CELL, Game, Move, Outcome, State
from rulesdsl.interpreter.reference.endings import EndRulesError
from rulesdsl.interpreter.search.engine import Result
from rulesdsl.interpreter.search.engines import ENGINES, SEARCHES, choose, describe_choice, describe_iteration
from rulesdsl.limits import MAX_GO_AGAIN

COMMANDS = ("moves", "hint", "value", "why", "trace", "undo", "depth", "time", "engine", "position", "load", "board",
            "help", "quit")
MAX_DEPTH = 64
MAX_SECONDS = 3600.0
VALUE_LIMIT = 200_000  # positions the value command solves on the spot
HELP = """\
Type a move in the game's notation, or a command:
  moves       list the legal moves
  hint        the engine's suggestion (not played)
  value       the solved value of the position and of every move (small games)
  why MOVE    is MOVE legal here? which rule-file line allows or stops it
  trace       the building blocks of the last turn, each with its rule-file line
  undo        take back your last move (and the engine's reply)
  depth N     let the engine search exactly N plies (depth alone shows it)
  time S      let the engine think S seconds a move (time alone shows it)
  engine E    the engine: alphabeta or mcts (engine alone shows it)
  position    print the position string
  load POS    continue from a position string (then earlier boards, if any)
  board       draw the board again (the cells the last move landed on are in brackets)
  help        this text
  quit        leave (end of input does too)
Ctrl-C while the engine thinks plays the best move it has found so far."""


class LineReader(Protocol):
    """Where the REPL's lines come from."""

    def read(self, prompt: str, words: Iterable[str]) -> str | None:
        """The next line (without its newline), or ``None`` at end of input."""


class PipedLines:
    """Lines from a stream; each prompt is echoed with its answer, as a transcript."""

    def __init__(self, stdin: TextIO, stdout: TextIO) -> None:
        self.stdin, self.stdout = stdin, stdout

    def read(self, prompt: str, words: Iterable[str]) -> str | None:
        """Read one line; ``None`` at end of input."""
        line = self.stdin.readline()
        if not line:
            return None
        line = line.rstrip("\r\n")
        print(f"{prompt}{line}", file=self.stdout, flush=True)
        return line


class TerminalLines:
    """Lines typed at a terminal, with history and completion (prompt_toolkit)."""

    def __init__(self) -> None:
        from prompt_toolkit import PromptSession
        from prompt_toolkit.history import InMemoryHistory

        self.session: PromptSession[str] = PromptSession(history=InMemoryHistory())

    def read(self, prompt: str, words: Iterable[str]) -> str | None:
        """Prompt for a line, completing commands and legal moves; Ctrl-C clears it."""
        from prompt_toolkit.completion import WordCompleter

        completer = WordCompleter(list(words), ignore_case=True, sentence=True)
        try:
            return self.session.prompt(prompt, completer=completer)
        except KeyboardInterrupt:
            return ""
        except EOFError:
            return None


def humans_for(game: Game, text: str) -> frozenset[int]:
    """The players a human plays: a player's name, symbol or number, ``all`` or ``none``.

    Raises :class:`OptionError` for anything else.
    """
    wanted = text.strip().lower()
    if wanted == "all":
        return frozenset(p.index for p in game.players)
    if wanted == "none":
        return frozenset()
    player = game.player_named(wanted)
    if player is None:
        choices = ", ".join(f"{p.name} ({p.symbol}, {p.index + 1})" for p in game.players)
        raise OptionError(f"unknown player {text.strip()!r}: choose {choices}, all or none")
    return frozenset({player.index})


@dataclass
class Ply:
    """One ply played: the game and position before it, and whether a human chose it."""

    game: Game
    before: State
    human: bool
    move: Move | None = None


@dataclass
class EngineSettings:
    """Which engine plays and how long it may think: a fixed depth, a time, or both."""

    engine: str = "alphabeta"
    depth: int | None = None
    seconds: float | None = 1.0
    verbose: bool = False

    def describe(self) -> str:
        """``depth 4``, ``1 s a move`` or ``mcts, 1 s a move``."""
        parts = [] if self.engine == "alphabeta" else [self.engine]
        if self.depth is not None and self.engine in SEARCHES:
            parts.append(f"depth {self.depth}")
        if self.seconds is not None:
            parts.append(f"{self.seconds:g} s a move")
        return ", ".join(parts)


class Session:
    """The game in play and the commands that act on it."""

    def __init__(self, game: Game, state: State, humans: frozenset[int],
                 settings: EngineSettings, reader: LineReader, out: TextIO, err: TextIO | None = None) -> None:
        self.game, self.state, self.settings = game, state, settings
        self.humans = set(humans)
        self.reader, self.out = reader, out
        self.err = sys.stderr if err is None else err
        self.complained: State | None = None  # the position whose rule error was last reported
        self.plies: list[Ply] = []
        self.shown = False  # the current position has been drawn
        self.drawn_at = 0  # how many plies had been played when the board was last drawn
        self.marks: set[int] = set()  # the cells the last move landed on, bracketed on the board
        self.announced = False  # the result of the current position has been said

    # -- output ---------------------------------------------------------------
    def say(self, text: str) -> None:
        """Print one or more lines."""
        print(text, file=self.out, flush=True)

    def complain(self, exc: RulesdslError) -> None:
        """A rule file that cannot be evaluated here: one line on stderr, at the rule's place."""
        span = exc.span
        line = f"{span}: error: {exc.detail}" if span is not None and span.line else f"error: {exc}"
        print(line, file=self.err, flush=True)

    def name(self, index: int) -> str:
        """A player's name by index."""
        return self.game.players[index].name

    def show(self, turn_line: bool = True) -> None:
        """The board, whose turn it is (unless the game is over), and the position string."""
        game, state = self.game, self.state
        if self.drawn_at != len(self.plies):  # moves since the last drawing: mark where they landed
            self.marks, self.drawn_at = self.landed(), len(self.plies)
        self.say(render(game, state, self.marks))
        self.say(tally_line(game, state))
        if turn_line:
            self.say(self.turn_line())
        self.say(f"position: {game.format_position(state)}")
        if state.history is not None:
            count = len(state.history)
            self.say(f"history: {count} board{'' if count == 1 else 's'}")
        self.shown = True

    def landed(self) -> set[int]:
        """The cells the other players' plies landed on since the board was last drawn (the last move)."""
        turn = self.game.to_move(self.state)
        return {p.move.target for p in self.plies[self.drawn_at:] if p.move is not None and p.game is self.game
                and p.move.target != NO_CELL and p.game.to_move(p.before) != turn}

    def turn_line(self) -> str:
        """``white to move (you)``, or ``... again (last move ended on d2)`` in a go-again turn."""
        game, state = self.game, self.state
        turn = game.to_move(state)
        line = f"{self.name(turn)} to move"
        if state.last != NO_CELL:
            line += f" again (last move ended on {game.geometry.cells[state.last].name})"
        if 0 < len(self.humans) < len(game.players):
            line += " (you)" if turn in self.humans else " (engine)"
        return line

    def announce(self, outcome: Outcome) -> None:
        """Say the result: ``white wins (reason)`` or ``draw (reason)``, and each player's place with more than
        two."""
        self.say(result_text(self.game, outcome, self.name))
        self.announced = True

    # -- changes --------------------------------------------------------------
    def play(self, move: Move, human: bool) -> None:
        """Apply a legal move and remember how to take it back."""
        self.plies.append(Ply(self.game, self.state, human, move))
        before, self.state = self.state, self.game.apply(self.state, move)
        self.shown = self.announced = False
        for line in new_places(self.game, before, self.state):
            self.say(line)

    def set_position(self, game: Game, state: State) -> None:
        """Continue from another position (after ``load`` or ``undo``)."""
        self.game, self.state = game, state
        self.shown = self.announced = False
        self.marks, self.drawn_at = set(), len(self.plies)

    # -- the loop -------------------------------------------------------------
    def run(self) -> int:
        """Play until ``quit`` or end of input (or, engine alone, the game's end)."""
        seen: set[State] = set()
        while True:
            try:
                moves, outcome = self.game.status(self.state)
            except EndRulesError as exc:  # the rule file fails in this position: say where, keep the game
                if self.complained is not self.state:
                    self.complain(exc)
                    self.complained = self.state
                    if self.humans:
                        self.say("the rules cannot be evaluated in this position: type undo, load POSITION or quit")
                if not self.humans:
                    return 1
                line = self.reader.read(f"{self.name(self.game.to_move(self.state))}> ", COMMANDS)
                if line is None or self.handle(line) == "quit":
                    return 1
                continue
            if outcome is not None:
                if not self.announced:
                    if not self.shown:
                        self.show(turn_line=False)
                    self.announce(outcome)
                if not self.humans:
                    return 0
                line = self.reader.read("game over> ", COMMANDS)
            elif self.game.to_move(self.state) not in self.humans:
                if self.engine_streak() >= MAX_GO_AGAIN:
                    turn = self.game.to_move(self.state)
                    self.say(f"{self.name(turn)} has moved {MAX_GO_AGAIN} plies in a row without the turn passing "
                             f"(a go-again rule that never ends?); the engine stops: you now play {self.name(turn)}")
                    if not self.humans:
                        self.show()
                        return 1
                    self.humans.add(turn)
                    self.shown = False
                    continue
                if not self.humans:
                    if self.state in seen:
                        self.say("the engine repeats a position; stopping here (no result)")
                        self.show()
                        return 0
                    seen.add(self.state)
                self.engine_move()
                continue
            else:
                if not self.shown:
                    self.show()
                words = [*COMMANDS, *(self.move_text(m) for m in moves)]
                line = self.reader.read(f"{self.name(self.game.to_move(self.state))}> ", words)
            if line is None:
                return 0
            if self.handle(line) == "quit":
                return 0

    def engine_streak(self) -> int:
        """How many plies in a row the engine has just played for the player to move (up to the cap)."""
        turn, streak = self.game.to_move(self.state), 0
        for ply in reversed(self.plies):
            if ply.human or ply.game.to_move(ply.before) != turn or streak >= MAX_GO_AGAIN:
                break
            streak += 1
        return streak

    def move_text(self, move: Move) -> str:
        """A move's notation in the current position."""
        return self.game.format_move(self.state, move)

    def engine_move(self) -> None:
        """Let the engine play one ply; if it fails, hand its side to the human."""
        turn = self.game.to_move(self.state)
        try:
            choice = self.think()
            if choice is None:
                raise RuntimeError("the engine found no move")
            text = self.move_text(choice.move)
        except Exception as exc:  # never lose the game in play (Ctrl-C is not caught: it ends the session)
            if isinstance(exc, EndRulesError):
                self.complain(exc)
                reason = "the rules cannot be evaluated in a position it looked at"
            else:
                reason = str(exc) or type(exc).__name__
            self.say(f"engine stopped ({reason}); you now play {self.name(turn)}")
            self.humans.add(turn)
            self.shown = False
            return
        if choice.interrupted and not self.humans:  # watching the engine play itself: Ctrl-C ends it (exit 130)
            raise KeyboardInterrupt
        if choice.interrupted:
            self.say("interrupted: the engine plays the best move it has found so far")
        if self.settings.verbose and choice.engine in SEARCHES:
            self.say(describe_choice(self.game, self.state, choice))
        self.say(f"{self.name(turn)} plays {text}")
        self.play(choice.move, human=False)

    def think(self) -> Result | None:
        """The engine's choice in the current position, under the session's settings."""
        settings, game, state = self.settings, self.game, self.state

        def report(iteration) -> None:
            self.say(describe_iteration(game, state, iteration))

        depth = settings.depth if settings.engine in SEARCHES else None
        return choose(game, state, settings.engine, depth, settings.seconds,
                      on_iteration=report if settings.verbose else None, catch_interrupt=True)

    def handle(self, line: str) -> str | None:
        """Act on one line; ``"quit"`` ends the session. Errors become one line."""
        text = line.strip()
        if not text:
            return None
        word, _, rest = text.partition(" ")
        command = word.lower()
        try:
            if command in ("quit", "exit"):
                return "quit"
            action = getattr(self, f"do_{command}", None) if command in COMMANDS else None
            if action is not None:
                action(rest.strip())
            elif self.unknown_word(text):
                close = suggest(command, COMMANDS)
                self.say(f"error: unknown command {word!r}" + (f"; did you mean {close!r}?" if close else "")
                         + f" (commands: {', '.join(COMMANDS)}; or a move, e.g. {self.example_move()})")
            else:
                self.do_move(text)
        except EndRulesError as exc:
            if self.complained is not self.state:
                self.complain(exc)
                self.complained = self.state
        except RulesdslError as exc:
            self.say(f"error: {exc}")
        except KeyboardInterrupt:
            self.say("interrupted")
        except Exception as exc:  # a bug must not end the game in play
            self.say(f"internal error: {type(exc).__name__}: {exc} (the game goes on)")
        return None

    def unknown_word(self, text: str) -> bool:
        """Whether ``text`` is one word of letters that names no cell and no move here: a command mistyped."""
        if not re.fullmatch(r"[A-Za-z]+", text):
            return False
        lowered = text.lower()
        if any(c.name.lower() == lowered for c in self.game.geometry.cells):
            return False
        return not any(self.move_text(m).lower() == lowered for m in self.game.legal_moves(self.state)) \
            and lowered != "pass"

    def example_move(self) -> str:
        """A legal move's text to show in a message (``moves`` when there is none)."""
        moves = self.game.legal_moves(self.state)
        return self.move_text(moves[0]) if moves else "moves"

    # -- commands -------------------------------------------------------------
    def do_move(self, text: str) -> None:
        """Play the human's move named by ``text``."""
        if self.game.is_over(self.state):
            self.say("the game is over: type undo, load POSITION or quit")
            return
        self.play(self.game.parse_move(self.state, text), human=True)

    def do_moves(self, _: str) -> None:
        """List the legal moves."""
        moves = self.game.legal_moves(self.state)
        if not moves:
            self.say("no legal moves: the game is over")
            return
        noun = "move" if len(moves) == 1 else "moves"
        self.say(f"{len(moves)} legal {noun}: " + ", ".join(self.move_text(m) for m in moves))

    def do_hint(self, _: str) -> None:
        """Show the engine's choice for the player to move, without playing it."""
        choice = self.think()
        if choice is None:
            self.say("no hint: the game is over")
            return
        score = describe_score(self.game, choice.score, self.game.to_move(self.state), choice.engine)
        self.say(f"hint: {self.move_text(choice.move)} ({score})")

    def do_value(self, _: str) -> None:
        """The exact value and remoteness of the position and of each move, best first."""
        try:
            from rulesdsl.interpreter.solver import SolveError, best_first, solve
        except ModuleNotFoundError as exc:
            self.say(f"value: {missing_extra(exc) or exc}")
            return
        try:
            result = solve(self.game, self.state, limit=VALUE_LIMIT, with_moves=True, workers=1)
        except SolveError as exc:
            self.say(f"value: not solved here: {exc}" + (" (try rulesdsl solve)" if "reachable" in str(exc) else ""))
            return
        mover = self.game.to_move(self.state)
        said = "draw" if result.remoteness is None else f"{result.value} in {result.remoteness}"
        self.say(f"value: {self.name(mover)} to move: {said}")
        for entry in best_first(result.moves, mover):
            value, plies = entry.for_mover(mover)
            self.say(f"  {self.move_text(entry.move):<12}{value if plies is None else f'{value} in {plies}'}")

    def do_why(self, arg: str) -> None:
        """Say whether a move is legal here and which rule-file line allows or stops it."""
        from rulesdsl.interpreter.explain.reasons import explain_move

        if not arg:
            self.say("usage: why MOVE, e.g. why " + (self.move_text(self.game.legal_moves(self.state)[0])
                                                     if self.game.legal_moves(self.state) else "a1-a2"))
            return
        self.say(explain_move(self.game, self.state, arg).text())

    def do_trace(self, _: str) -> None:
        """The building blocks of the last turn: rule, pushes and captures, go-again, end."""
        from rulesdsl.interpreter.explain.reasons import trace_ply

        plies = [p for p in self.plies if p.move is not None]
        if not plies:
            self.say("nothing to trace: no move has been played")
            return
        mover = plies[-1].before.turn
        turn = [plies[-1]]
        for ply in reversed(plies[:-1]):
            if ply.before.turn != mover or ply.game is not plies[-1].game:
                break
            after = self.plies[self.plies.index(ply) + 1].before
            if after.turn != mover:
                break
            turn.insert(0, ply)
        for index, ply in enumerate(turn):
            nxt = turn[index + 1].before if index + 1 < len(turn) else self.state
            for reason in trace_ply(ply.game, ply.before, ply.move, nxt):
                where = f"  [{reason.citation()}]" if reason.citation() else ""
                self.say(f"{reason.message}{where}")

    def do_undo(self, _: str) -> None:
        """Take back the last human ply and everything the engine played after it."""
        last = max((i for i, p in enumerate(self.plies) if p.human), default=None)
        if last is None:
            self.say("nothing to undo")
            return
        taken = len(self.plies) - last
        ply = self.plies[last]
        del self.plies[last:]
        self.set_position(ply.game, ply.before)
        self.say(f"took back {taken} {'ply' if taken == 1 else 'plies'}")

    def do_depth(self, arg: str) -> None:
        """Show or set the search depth (a fixed depth has no time limit)."""
        if arg:
            if not arg.isdigit() or not 1 <= int(arg) <= MAX_DEPTH:
                raise OptionError(f"depth must be a whole number from 1 to {MAX_DEPTH}, not {arg!r}")
            self.settings.depth, self.settings.seconds = int(arg), None
        if self.settings.depth is None:
            self.say(f"depth: as deep as {self.settings.seconds:g} s allows")
        else:
            self.say(f"depth {self.settings.depth}")

    def do_time(self, arg: str) -> None:
        """Show or set the time the engine thinks per move (no depth limit then)."""
        if arg:
            try:
                seconds = float(arg)
            except ValueError:
                seconds = -1.0
            if not 0 < seconds <= MAX_SECONDS:
                raise OptionError(f"time must be a number of seconds above 0 and at most {MAX_SECONDS:g}, "
                                  f"not {arg!r}")
            self.settings.seconds, self.settings.depth = seconds, None
        if self.settings.seconds is None:
            self.say(f"time: no limit (depth {self.settings.depth})")
        else:
            self.say(f"time {self.settings.seconds:g} s")

    def do_engine(self, arg: str) -> None:
        """Show or choose the engine."""
        if arg:
            if arg.lower() not in ENGINES:
                raise OptionError(f"unknown engine {arg!r}: choose {' or '.join(ENGINES)}")
            self.settings.engine = arg.lower()
            if self.settings.engine == "mcts" and self.settings.seconds is None:
                self.settings.seconds = 1.0
        self.say(f"engine {self.settings.engine} ({self.settings.describe()})")

    def do_position(self, _: str) -> None:
        """Print the position string."""
        self.say(self.game.format_position(self.state))

    def do_load(self, arg: str) -> None:
        """Continue from a position string, then any earlier boards (most recent first).

        The game may be recompiled for the position's size. Earlier boards
        matter to games that forbid repeating a board.
        """
        if not arg:
            self.say("usage: load POSITION [EARLIER-BOARD ...], e.g. load "
                     + self.game.format_position(self.state))
            return
        from rulesdsl.interpreter.compile.load import load_position

        position, closing, earlier = arg.strip().partition(")")
        game, state = load_position(self.game, position + closing)  # the text as typed: no ')' made up
        if earlier.split():
            state = game.with_history(state, earlier.split())
        self.plies.clear()
        self.set_position(game, state)
        self.say("position loaded")

    def do_board(self, _: str) -> None:
        """Draw the board again."""
        self.show()

    def do_help(self, _: str) -> None:
        """List the commands."""
        self.say(HELP)


def make_reader(interactive: bool, stdin: TextIO, out: TextIO) -> LineReader:
    """Lines from the terminal (prompt_toolkit) when ``interactive`` and possible, else from ``stdin``."""
    if interactive:
        try:
            return TerminalLines()
        except Exception:  # no usable terminal: read the stream instead
            pass
    return PipedLines(stdin, out)


def run_repl(
    game: Game,
    state: State | None = None,
    *,
    as_player: str | None = None,
    depth: int | None = None,
    seconds: float | None = None,
    engine: str = "alphabeta",
    verbose: bool = False,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
    interactive: bool = False,
    stderr: TextIO | None = None,
) -> int:
    """Play ``game`` from ``state`` (default: its start) at a prompt; returns the exit code.

    ``as_player`` names the human's side (name, symbol or number), ``all`` for
    two humans or ``none`` for the engine alone; when ``None`` the human plays
    the first player, and the opening line says how to choose another side.
    ``interactive`` reads from the terminal with prompt_toolkit; otherwise
    lines come from ``stdin``.
    """
    stdin = sys.stdin if stdin is None else stdin
    out = sys.stdout if stdout is None else stdout
    if depth is not None and not 1 <= depth <= MAX_DEPTH:
        print(f"error: depth must be from 1 to {MAX_DEPTH}, not {depth}", file=out)
        return 2
    if depth is None and seconds is None:
        seconds = 1.0
    settings = EngineSettings(engine, depth, seconds, verbose)
    reader = make_reader(interactive, stdin, out)
    try:
        state = game.initial_state() if state is None else state
        humans = humans_for(game, as_player) if as_player is not None else frozenset({game.players[0].index})
    except RulesdslError as exc:
        print(f"error: {exc}", file=stderr or sys.stderr)
        return 2
    print(intro(game, humans, settings.describe(), chosen=as_player is not None), file=out)
    session = Session(game, state, humans, settings, reader, out, stderr)
    try:
        return session.run()
    except KeyboardInterrupt:  # Ctrl-C outside a prompt: leave, but keep the position
        print(f"\ninterrupted; position: {session.game.format_position(session.state)}", file=out)
        return 130
    except Exception as exc:  # a bug in the game itself: say so in one line, keep the position
        print(f"internal error: {type(exc).__name__}: {exc}; position: "
              f"{session.game.format_position(session.state)}", file=out)
        return 1


def intro(game: Game, humans: frozenset[int], thinking: str, chosen: bool = True) -> str:
    """One line saying what is played (with the options set away from their defaults) and who plays what.

    When the side was not ``chosen`` (no ``--as``), the line says how to choose another.
    """
    engine = [p.name for p in game.players if p.index not in humans]
    if not engine:
        who = "all sides are played here"
    elif not humans:
        who = f"the engine plays itself ({thinking})"
    else:
        mine = " and ".join(p.name for p in game.players if p.index in humans)
        who = f"you play {mine} against the engine ({thinking})"
    other = f"; play {engine[0]} with --as {engine[0]}" if humans and engine and not chosen else ""
    return f"{game.title}{options_note(game)}: {who}. Type help for commands{other}."


def options_note(game: Game) -> str:
    """`` (rows=6, cols=6)``: the options set away from their defaults, or nothing."""
    from rulesdsl.cli.common import setting_text
    from rulesdsl.options import option_values

    if game.resolved is None:
        return ""
    try:
        defaults = option_values(game.resolved)
    except RulesdslError:
        return ""
    changed = [f"{k}={setting_text(v)}" for k, v in game.options.items() if k in defaults and defaults[k] != v]
    return f" ({', '.join(changed)})" if changed else ""

