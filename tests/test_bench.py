"""``rulesdsl bench``: the figures it prints, their names and their shape (never their speed)."""

from __future__ import annotations

import json

from click.testing import CliRunner

from rulesdsl.cli.bench_command import FIELDS, default_cases, load_baseline
from rulesdsl.cli.main import cli
from rulesdsl.interpreter.compile.load import load_game
from rulesdsl.interpreter.kernel import compiled as compiled_module
from rulesdsl.interpreter.kernel import native as native_module
from rulesdsl.interpreter.measure.bench import perft_nodes

ISSUE_FIELDS = ["game", "settings", "kernel", "perft_depth", "perft_nodes_per_s", "baseline_nodes_per_s", "ratio",
                "playouts_per_s", "plies_per_playout", "python_playouts_per_s", "openspiel_playouts_per_s",
                "openspiel_ratio", "search_depth_1s", "search_nodes_per_s", "search_kernel", "peak_mb"]


def test_the_json_has_exactly_the_promised_fields(monkeypatch):
    # mancala's kernel (counts: kernel/sowing.py) is switched off here, for a row of the generic path
    real = compiled_module.compile_kernel
    monkeypatch.setattr(compiled_module, "compile_kernel",
                        lambda active, tables, *rest: None if tables.counted else real(active, tables, *rest))
    result = CliRunner().invoke(cli, ["bench", "konane", "mancala", "--json", "--quick"])
    assert result.exit_code == 0, result.output
    rows = json.loads(result.stdout)["results"]
    assert list(FIELDS) == ISSUE_FIELDS
    assert [(r["game"], r["settings"]) for r in rows] == [
        ("konane", {"rows": "6", "cols": "6"}), ("konane", {"rows": "8", "cols": "8"}), ("mancala", {})]
    for row in rows:
        assert list(row) == ISSUE_FIELDS
        assert row["perft_depth"] >= 1 and row["perft_nodes_per_s"] > 0
        assert row["playouts_per_s"] > 0 and row["plies_per_playout"] > 0
        assert row["search_depth_1s"] >= 1 and row["peak_mb"] > 0
    konane, _, sowing = rows
    native = native_module.enabled() and native_module.numba_available()
    assert konane["kernel"] == ("native" if native else "python") and sowing["kernel"] == "generic"
    assert konane["search_kernel"] == ("native" if native else "generic") and sowing["search_kernel"] == "generic"
    assert (konane["python_playouts_per_s"] is not None) == native and sowing["python_playouts_per_s"] is None
    assert konane["openspiel_playouts_per_s"] is None and konane["openspiel_ratio"] is None
    assert konane["baseline_nodes_per_s"] > 0
    # the ratio of the unrounded rates, to two places (native perft's ratio runs to thousands: relative slack)
    assert abs(konane["ratio"] - konane["perft_nodes_per_s"] / konane["baseline_nodes_per_s"]) < 0.02 + konane[
        "ratio"] * 1e-4
    assert sowing["baseline_nodes_per_s"] is None and sowing["ratio"] is None


def test_set_measures_one_case_with_the_options_given_and_openspiel_beside_it():
    result = CliRunner().invoke(cli, ["bench", "breakthrough", "--set", "rows=5", "--set", "cols=4", "--json",
                                      "--quick"])
    assert result.exit_code == 0, result.output
    (row,) = json.loads(result.stdout)["results"]
    assert row["settings"] == {"rows": "5", "cols": "4"}
    assert row["openspiel_playouts_per_s"] > 0  # OpenSpiel's breakthrough with rows=5, columns=4
    assert abs(row["openspiel_ratio"] - row["playouts_per_s"] / row["openspiel_playouts_per_s"]) < 0.02


def test_a_bad_set_is_one_line_and_exit_2():
    result = CliRunner().invoke(cli, ["bench", "breakthrough", "--set", "rows", "--quick"])
    assert result.exit_code == 2 and "Traceback" not in result.output


def test_every_case_names_a_game_and_a_baseline_that_exist():
    for case in default_cases():
        load_game(case["game"], {k: str(v) for k, v in case["settings"].items()})
        assert case["quick"] <= case["perft"]
        if "baseline" in case:
            assert load_baseline(case["baseline"]) is not None, case
        if "openspiel" in case:
            import pyspiel

            game = load_game(case["game"], {k: str(v) for k, v in case["settings"].items()})
            spiel = case["openspiel"]
            params = {k: int(game.options[v]) if isinstance(v, str) else v for k, v in spiel.get("params", {}).items()}
            assert pyspiel.load_game(spiel["game"], params).num_players() == len(game.players)


def test_perft_nodes_counts_every_level():
    # Konane's default start: perft 1, 1, 2, 3 (the rule file's example), so 7 nodes to depth 4.
    game = load_game("konane")
    assert perft_nodes(game, game.initial_state(), 4) == 7


def test_the_solver_case_reports_the_independent_solver_figures_and_its_rates():
    # Konane 4x5 from the start: lose in 12, 52,050 positions (the independent solver quoted in issue 10).
    from rulesdsl.cli.bench_solver import SOLVER_FIELDS, solver_cases

    result = CliRunner().invoke(cli, ["bench", "--solver", "konane", "--quick", "--json", "--workers", "1"])
    assert result.exit_code == 0, result.output
    (row,) = json.loads(result.stdout)["solver"]
    assert list(row) == list(SOLVER_FIELDS)
    assert (row["value"], row["remoteness"], row["positions"]) == ("lose", 12, 52050)
    assert row["positions_per_s"] > 0 and row["peak_mb"] > 0 and row["bytes_per_position"] > 0
    for case in solver_cases():
        load_game(case["game"], {k: str(v) for k, v in case["settings"].items()})


def test_set_options_choose_the_solver_case():
    # Konane 4x4: lose in 13 over 3,961 positions (the independent solver quoted in issue 10); without --set
    # the bundled konane case (4x5) would run instead.
    result = CliRunner().invoke(cli, ["bench", "--solver", "konane", "--set", "rows=4", "--set", "cols=4", "--json",
                                      "--workers", "1"])
    assert result.exit_code == 0, result.output
    (row,) = json.loads(result.stdout)["solver"]
    assert row["settings"] == {"rows": "4", "cols": "4"}
    assert (row["value"], row["remoteness"], row["positions"]) == ("lose", 13, 3961)
