"""Round robin schedules: seed 004 §4.9.11 and the oracle's Berger tables."""

import json

import pytest

from pairing.engines import registry
from pairing.engines.roundrobin import berger_round, schedule
from pairing.engines.state import Player, TournamentState
from tests.shared_data import ORACLE as SHARED_ORACLE
from tests.shared_data import data_files

ORACLE = SHARED_ORACLE / "roundrobin"


@pytest.mark.rule("004 4.9.11")
@pytest.mark.parametrize("path", data_files(ORACLE, "*.json"), ids=lambda p: p.stem)
def test_schedule_equals_the_oracle_tables(path):
    table = json.loads(path.read_text())
    got = [[list(pair) for pair in rnd] for rnd in schedule(table["n"], table["cycles"])]
    assert got == table["rounds"]


@pytest.mark.rule("004 4.9.11")
def test_oracle_covers_3_to_16_single_and_4_6_double():
    names = {p.stem for p in ORACLE.glob("*.json")}
    assert {f"rr_n{n:02d}" for n in range(3, 17)} <= names
    assert {"drr_n04", "drr_n06"} <= names


@pytest.mark.rule("004 4.9.11")
def test_fide_berger_table_for_six_hand_copied():
    # FIDE Handbook C.05 Annex 1, 5 or 6 players.
    assert schedule(6) == [
        [(1, 6), (2, 5), (3, 4)],
        [(6, 4), (5, 3), (1, 2)],
        [(2, 6), (3, 1), (4, 5)],
        [(6, 5), (1, 4), (2, 3)],
        [(3, 6), (4, 2), (5, 1)],
    ]


@pytest.mark.rule("004 4.9.11")
def test_seed_4_9_11_legible_cells_for_four_players():
    # The seed's 4-player table: player 1 meets 4, 2 (white), 3; row "2 ... 3 1 ... 4".
    rounds = schedule(4)
    opponents_of_1 = [next(b if a == 1 else a for a, b in rnd if 1 in (a, b)) for rnd in rounds]
    assert opponents_of_1 == [4, 2, 3]


@pytest.mark.rule("004 4.9.11")
@pytest.mark.parametrize("n", range(3, 17))
def test_every_pair_meets_exactly_once_and_colours_balance(n):
    rounds = schedule(n)
    met = [frozenset(p) for rnd in rounds for p in rnd if 0 not in p]
    assert len(met) == len(set(met)) == n * (n - 1) // 2
    for player in range(1, n + 1):
        whites = sum(1 for rnd in rounds for w, b in rnd if w == player and b)
        blacks = sum(1 for rnd in rounds for w, b in rnd if b == player)
        assert abs(whites - blacks) <= 1


@pytest.mark.rule("004 4.9.11")
@pytest.mark.parametrize("n", [4, 6, 8, 10])
def test_double_round_robin_never_three_equal_colours_across_the_seam(n):
    rounds = schedule(n, cycles=2)
    for player in range(1, n + 1):
        colours = []
        for rnd in rounds:
            colours += ["w" for w, b in rnd if w == player] + ["b" for w, b in rnd if b == player]
        runs = "".join(colours)
        assert "www" not in runs and "bbb" not in runs, (player, runs)


@pytest.mark.rule("004 4.9.11")
def test_double_round_robin_without_swap_reverses_the_first_cycle():
    rounds = schedule(4, cycles=2, swap_seam=False)
    assert rounds[3:] == [[(b, a) for a, b in rnd] for rnd in rounds[:3]]


@pytest.mark.rule("004 4.9.11")
def test_engine_pairs_odd_field_with_zero_point_bye():
    players = [Player(id=i, name=f"P{i}") for i in range(1, 6)]
    state = TournamentState(players=players, total_rounds=5, round_to_pair=2)
    pairing = registry.pair(state, "roundrobin")
    assert [(b.white, b.black) for b in pairing.boards] == [(5, 3), (1, 2)]
    assert [(b.player, b.points) for b in pairing.byes] == [(4, 0.0)]
    assert berger_round(2, 5)[-1] == (4, 0)
