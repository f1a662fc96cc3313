"""Any rule file as an OpenSpiel game: ``rulesdsl.openspiel.game(NAME, **options)``.

The game is registered with OpenSpiel's Python-games API
(``pyspiel.register_game``) as ``rulesdsl_NAME``, with the rule file's
options as its parameters, so OpenSpiel's own tools (``pyspiel.load_game``,
``pyspiel.random_sim_test``, the MCTS bot, ...) work on it. pyspiel is
imported only when a game is made, so ``import rulesdsl`` never needs it.

**Actions.** A move is the action ``((o * (C + 1)) + t) * K + k``, where ``C``
is the number of cells, ``o`` and ``t`` are the move's origin and target
cells plus one (0 for none: a pass has neither, a placement no origin),
``k`` tells apart the moves that share an origin and a target (their rank in
the order of their notation) and ``K`` = :data:`SAME_ENDS` bounds how many
may. So the same move has the same id in every position, and ids are
numbers below ``(C + 1)^2 * K``.

**Observation.** One plane per piece symbol (in sorted order), laid over the
board's lattice: plane ``s``, row ``r`` (the top row first), column ``c`` is
1 where a piece with symbol ``s`` stands. Cells outside the board are 0.

**End.** Returns are +1 for the winner and -1 shared among the others (0
each for a draw); in a game whose end rules give places (``finishes``,
``is out``), +1 for first place down to -1 for last, tied players sharing.
A game still running after the parameter ``max_plies`` (default
:data:`MAX_PLIES`) is cut and scored as a draw, so every game has the
finite length OpenSpiel requires.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any

from rulesdsl.api import Game as ApiGame
from rulesdsl.api import load
from rulesdsl.errors import RulesdslError

__all__ = ["MAX_PLIES", "SAME_ENDS", "game", "short_name"]

MAX_PLIES = 1000
SAME_ENDS = 16  # moves that may share an origin and a target in one position (K above)
NO_CELL = -1
_registered: dict[str, str] = {}  # OpenSpiel short name -> the rule file it stands for


def short_name(spec: str) -> str:
    """The OpenSpiel name of a rule file: ``rulesdsl_`` and its name (``NAME.rules`` or a path's stem)."""
    stem = re.sub(r"\.rules$", "", spec.replace("\\", "/").rsplit("/", 1)[-1])
    return "rulesdsl_" + re.sub(r"[^a-z0-9]+", "_", stem.lower()).strip("_")


def game(spec: str, **options: object) -> Any:
    """The rule file ``spec`` (bundled name or path) with ``options`` as a ``pyspiel.Game``.

    ``max_plies=N`` cuts games after N plies as draws (default :data:`MAX_PLIES`).
    Raises :class:`~rulesdsl.errors.RulesdslError` for a bad file or option, and
    a one-line ``RulesdslError`` when OpenSpiel (``pyspiel``) is not installed.
    """
    pyspiel = _pyspiel()
    name = register(spec)
    cut = options.pop("max_plies", MAX_PLIES)
    if not isinstance(cut, int) or isinstance(cut, bool) or cut < 1:
        raise RulesdslError(f"max_plies={cut!r}: must be a whole number of plies, at least 1")
    chosen = load(spec, **options).options  # checks every option (OptionError) and reads its value
    params = {key: chosen[key] for key in options}
    params["max_plies"] = cut
    return pyspiel.load_game(name, params)


def register(spec: str) -> str:
    """Register the rule file with OpenSpiel (once) and return its short name."""
    pyspiel = _pyspiel()
    name = short_name(spec)
    if name in _registered:
        if _registered[name] != spec:
            raise RulesdslError(f"{spec}: OpenSpiel already has {name} for {_registered[name]}")
        return name
    defaults = load(spec)
    parameters: dict[str, object] = {key: value for key, value in defaults.options.items()}
    parameters["max_plies"] = MAX_PLIES
    game_type = pyspiel.GameType(
        short_name=name, long_name=f"rulesdsl {defaults.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
        information=pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=len(defaults.players), min_num_players=len(defaults.players),
        provides_information_state_string=True, provides_information_state_tensor=False,
        provides_observation_string=True, provides_observation_tensor=True,
        parameter_specification=parameters)
    # a class, not a function: OpenSpiel keeps the creator until after Python has shut down, and a
    # function released then aborts the process (a class lives on)
    maker = type(f"RulesGame_{name}", (_classes()[0],), {"SPEC": spec, "GAME_TYPE": game_type})
    pyspiel.register_game(game_type, maker)
    _registered[name] = spec
    return name


def _pyspiel():
    try:
        import pyspiel
    except ImportError:
        raise RulesdslError("the OpenSpiel adapter needs OpenSpiel: pip install open-spiel") from None
    return pyspiel


class Rules:
    """What every state of one game shares: the compiled game, its action and observation layout.

    States hold a reference to it; OpenSpiel's clone deep-copies a state's
    attributes, and copying this returns it unchanged.
    """

    def __init__(self, spec: str, options: dict[str, object], max_plies: int):
        self.spec, self.options, self.max_plies = spec, options, max_plies
        self.api: ApiGame = load(spec, **options)
        self.engine = self.api.engine
        geometry = self.engine.geometry
        self.cells = len(geometry.cells)
        self.symbols = sorted(self.engine.piece_names)
        self.plane = {symbol: number for number, symbol in enumerate(self.symbols)}
        minx, maxx, miny, maxy = geometry.bounds
        self.shape = (len(self.symbols), maxy - miny + 1, maxx - minx + 1)
        self.spot = [(maxy - cell.y, cell.x - minx) for cell in geometry.cells]

    def __deepcopy__(self, memo: dict) -> Rules:
        return self

    def __reduce__(self):  # OpenSpiel serializes a state's attributes with pickle: rebuild from the file
        return (Rules, (self.spec, self.options, self.max_plies))

    @property
    def num_actions(self) -> int:
        return (self.cells + 1) ** 2 * SAME_ENDS

    def actions(self, state) -> dict[int, Any]:
        """The legal moves of ``state`` by action id."""
        moves = self.engine.legal_moves(state)
        groups: dict[tuple[int, int], list] = {}
        for move in moves:
            groups.setdefault((move.origin + 1, move.target + 1), []).append(move)
        out = {}
        for (origin, target), group in groups.items():
            if len(group) > SAME_ENDS:
                raise RulesdslError(f"{self.spec}: {len(group)} moves share an origin and a target in "
                                    f"{self.engine.format_position(state)}; the adapter tells {SAME_ENDS} apart")
            group.sort(key=lambda m: self.engine.format_move(state, m))
            for k, move in enumerate(group):
                out[(origin * (self.cells + 1) + target) * SAME_ENDS + k] = move
        return out


@cache
def _classes():
    """The pyspiel subclasses, made on first use so that pyspiel is imported only then."""
    import numpy as np
    import pyspiel
    from open_spiel.python.observation import IIGObserverForPublicInfoGame

    class RulesGame(pyspiel.Game):
        """A rule file as an OpenSpiel game."""

        SPEC = ""  # set per rule file by register()
        GAME_TYPE = None

        def __init__(self, params=None):
            params = params or {}
            options = {key: value for key, value in params.items() if key != "max_plies"}
            max_plies = int(params.get("max_plies", MAX_PLIES))
            self.rules = Rules(self.SPEC, options, max_plies)
            players = len(self.rules.engine.players)
            info = pyspiel.GameInfo(num_distinct_actions=self.rules.num_actions, max_chance_outcomes=0,
                                    num_players=players, min_utility=-1.0, max_utility=1.0, utility_sum=0.0,
                                    max_game_length=max_plies)
            super().__init__(self.GAME_TYPE, info, params)

        def new_initial_state(self):
            return RulesState(self)

        def make_py_observer(self, iig_obs_type=None, params=None):
            if iig_obs_type is None or (iig_obs_type.public_info and not iig_obs_type.perfect_recall):
                return BoardObserver(self.rules, params)
            return IIGObserverForPublicInfoGame(iig_obs_type, params)

    class RulesState(pyspiel.State):
        """A position, with the plies played (for the cut at ``max_plies``)."""

        def __init__(self, game: RulesGame):
            super().__init__(game)
            self.rules = game.rules
            self.position = self.rules.engine.initial_state()
            self.plies = 0

        def current_player(self):
            return pyspiel.PlayerId.TERMINAL if self.is_terminal() else self.position.turn

        def _legal_actions(self, player):
            return sorted(self.rules.actions(self.position))

        def _apply_action(self, action):
            move = self.rules.actions(self.position).get(action)
            if move is None:
                where = self.rules.engine.format_position(self.position)
                raise RulesdslError(f"action {action} is not legal in {where}")
            self.position = self.rules.engine.apply(self.position, move)
            self.plies += 1

        def _action_to_string(self, player, action):
            move = self.rules.actions(self.position).get(action)
            if move is not None:
                return self.rules.engine.format_move(self.position, move)
            ends, k = divmod(action, SAME_ENDS)
            origin, target = divmod(ends, self.rules.cells + 1)
            names = [c.name for c in self.rules.engine.geometry.cells]
            return "-".join(names[c - 1] if c else "none" for c in (origin, target)) + (f"#{k}" if k else "")

        def is_terminal(self):
            return self.plies >= self.rules.max_plies or self.rules.engine.outcome(self.position) is not None

        def returns(self):
            outcome = self.rules.engine.outcome(self.position)
            players = len(self.rules.engine.players)
            if outcome is None:
                return [0.0] * players
            return list(outcome.returns(players))  # by place: +1 first .. -1 last, summing to 0

        def __str__(self):
            return self.rules.engine.format_position(self.position)

    class BoardObserver:
        """One plane per piece symbol over the board's lattice; the string is the position string."""

        def __init__(self, rules: Rules, params):
            if params:
                raise ValueError(f"observation parameters are not supported; passed {params}")
            self.rules = rules
            self.tensor = np.zeros(int(np.prod(rules.shape)), np.float32)
            self.dict = {"observation": np.reshape(self.tensor, rules.shape)}

        def set_from(self, state, player):
            planes = self.dict["observation"]
            planes.fill(0)
            board = state.position.board
            for index, (row, column) in enumerate(self.rules.spot):
                plane = self.rules.plane.get(board[index])
                if plane is not None:
                    planes[plane, row, column] = 1

        def string_from(self, state, player):
            return self.rules.engine.format_position(state.position)

    return RulesGame, RulesState
