"""Tie-breaks under any point system: TRF `XXS W=3 D=1` (3/1/0) and the usual 1/½/0 (FIDE C.07).

Every case is computed by hand under both systems; a win is worth `W`, a draw `D`.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from pairing.engines.state import TournamentState
from pairing.engines.tiebreaks import Calculator, standings
from pairing.engines.trf import read_state
from tests.engines.common.test_trf import player, trf
from tests.engines.tiebreaks.tiebreak_builders import build

ONE_HALF_ZERO = (1.0, 0.5)
THREE_ONE_ZERO = (3.0, 1.0)
SYSTEMS = pytest.mark.parametrize("system", [ONE_HALF_ZERO, THREE_ONE_ZERO], ids=["1-half-0", "3-1-0"])


def scored(state: TournamentState, system: tuple[float, float]) -> TournamentState:
    """The same results under `system`: a win's, a draw's and a loss's points (a state built 1/½/0)."""
    win, draw = system
    worth = {1.0: win, 0.5: draw, 0.0: 0.0}
    players = [
        replace(p, history=[replace(r, score=None if r.score is None else worth[r.score]) for r in p.history])
        for p in state.players
    ]
    return TournamentState(
        players, state.total_rounds, state.round_to_pair, seed=state.seed, win_points=win, draw_points=draw
    )


def _draws_and_a_black_win() -> TournamentState:
    """3 rounds: 1 draws 2 (white), draws 3 (black), beats 2 with black; 3 has the pairing-allocated
    bye in rounds 1 and 3."""
    return build(3, [[("=", 1, 2), ("U", 3)], [("=", 3, 1), ("U", 2)], [("0-1", 2, 1), ("U", 3)]])


@pytest.mark.rule("C.07 7.1")
@pytest.mark.rule("C.07 7.2")
@pytest.mark.rule("C.07 7.4")
@SYSTEMS
def test_wins_are_a_wins_points_not_any_point(system):
    """C.07 7.1 WIN: "the number of rounds where a participant obtained, with or without playing, as
    many points as awarded for a win"; 7.2 WON: games won over the board; 7.4 BWG: won with Black.
    Player 1: draw, draw (black), win (black): WIN 1, WON 1, BWG 1, BPG 2 in both systems (at 3/1/0 a
    draw is 1 point but not a win: counting "1 point or more" would give 3). Player 3: two pairing-
    allocated byes (a win's points) and a draw: WIN 2, WON 0."""
    calc = Calculator(scored(_draws_and_a_black_win(), system))
    assert [calc.value(c, 1) for c in ("WIN", "WON", "BWG", "BPG")] == [1, 1, 1, 2]
    assert [calc.value(c, 3) for c in ("WIN", "WON", "BWG")] == [2, 0, 0]
    assert calc.value("PTS", 1) == system[0] + 2 * system[1]


@pytest.mark.rule("C.07 16.3")
@SYSTEMS
def test_late_requested_byes_count_as_a_draws_points(system):
    """C.07 16.3: for the opponents' tie-breaks, requested byes followed only by voluntary unplayed
    rounds "are evaluated as draws". 4 rounds: 3 beats 1 and 4, then withdraws (rounds 3 and 4).
    1/½/0: 2 points, worth 2 + 2 × ½ = 3 as an opponent; 3/1/0: 6 points, worth 6 + 2 × 1 = 8."""
    state = build(
        4,
        [
            [("0-1", 1, 3), ("=", 2, 4)],
            [("H", 1), ("0-1", 4, 3), ("U", 2)],
            [("1-0", 1, 2), ("Z", 4)],
            [("=", 1, 4), ("U", 2)],
        ],
        withdrawn=(3,),
    )
    win, draw = system
    calc = Calculator(scored(state, system), rules="fide-2026")
    assert calc.field().points[3] == 2 * win
    assert calc.field().adjusted[3] == 2 * win + 2 * draw
    assert calc.explain("BH", 1).items[0].value == 2 * win + 2 * draw


@pytest.mark.rule("C.07 16.4")
@SYSTEMS
def test_the_dummys_score_is_capped_at_a_draws_points_times_the_rounds(system):
    """C.07 (2026) 16.4.2: the dummy opponent's score is capped at the points of a draw times the
    number of rounds. 2 rounds: 1 wins a game, then has the pairing-allocated bye: own score 2 W
    (2 or 6), capped at 2 D (1 or 2). SB: the game's opponent 2 (one win: W) times 1's result W,
    plus the capped dummy times W."""
    win, draw = system
    state = scored(build(3, [[("1-0", 1, 2), ("U", 3)], [("U", 1), ("1-0", 2, 3)]]), system)
    assert Calculator(state, rules="fide-2023").explain("BH", 1).items[1].value == 2 * win
    capped = Calculator(state, rules="fide-2026")
    assert capped.explain("BH", 1).items[1].value == 2 * draw
    assert capped.value("SB", 1) == win * win + 2 * draw * win


@pytest.mark.rule("C.07 9.2")
@SYSTEMS
def test_koyas_limit_is_half_the_maximum_score(system):
    """C.07 9.2 Koya: points scored against the opponents with at least 50 % of the maximum score, a
    win's points times the rounds. 4 rounds; 1 beats 2, beats 5, draws 3, beats 4. Scores: 2: loss,
    forfeit win, zero bye, win = 2 W; 3: draw, forfeit loss, draw, full bye = W + 2 D; 4: draw, half
    bye, win, loss = W + 2 D; 5: pairing bye, three losses = W.
    1/½/0: 2, 2, 2, 1 against the limit 2: 2, 3 and 4 count, 1 scored W + D + W = 2½.
    3/1/0: 6, 5, 5, 3 against the limit 6 (not a draw's points times the rounds, 4): only 2 counts, 3.
    /L-2 lowers the limit by two half points (1): 5 counts too under 1/½/0 (3½); under 3/1/0 the
    limit is 5: 3 and 4 count, 5 (3) still not, 3 + 1 + 3 = 7.
    /L75: 75 % of the maximum (3 or 9): nobody reaches it."""
    win, draw = system
    state = build(
        5,
        [
            [("1-0", 1, 2), ("=", 3, 4), ("U", 5)],
            [("0-1", 5, 1), ("+-", 2, 3), ("H", 4)],
            [("=", 1, 3), ("1-0", 4, 5), ("Z", 2)],
            [("0-1", 4, 1), ("1-0", 2, 5), ("F", 3)],
        ],
    )
    calc = Calculator(scored(state, system), rules="plain")
    if system == (1.0, 0.5):
        assert calc.value("KS", 1) == 2.5
        assert calc.value("KS/L-2", 1) == 3.5
    else:
        assert calc.value("KS", 1) == 3
        assert calc.value("KS/L-2", 1) == 7
    assert calc.value("KS/L75", 1) == 0
    assert calc.value("KS/L50", 1) == calc.value("KS", 1)


@pytest.mark.rule("C.07 7.1")
def test_a_trf_files_point_system_reaches_the_tiebreaks():
    """TRF `XXS W=3 D=1`: 1 beats 2 (3 points), 3 has a half-point bye (1 point, a draw, not a win)."""
    lines = [player(1, "3.0", "   2 w 1"), player(2, "0.0", "   1 b 0"), player(3, "1.0", "0000 - H"), "XXR 3"]
    state = read_state(trf(*lines, "XXS W=3 D=1"))
    assert (state.win_points, state.draw_points) == (3.0, 1.0)
    calc = Calculator(state)
    assert [calc.value("WIN", p) for p in (1, 2, 3)] == [1, 0, 0]


def _rated_event() -> TournamentState:
    """4 rounds, 4 rated players and a pairing bye: 1 beats 2, draws 3, beats 4, has the bye."""
    return build(
        5,
        [
            [("1-0", 1, 2), ("=", 3, 4), ("U", 5)],
            [("=", 3, 1), ("1-0", 2, 5), ("U", 4)],
            [("1-0", 1, 4), ("0-1", 5, 3), ("U", 2)],
            [("U", 1), ("=", 2, 3), ("1-0", 4, 5)],
        ],
        ratings={1: 2000, 2: 1900, 3: 2100, 4: 1800, 5: 1700},
    )


@pytest.mark.rule("C.07 10.2")
@pytest.mark.rule("C.07 10.3")
@pytest.mark.rule("C.07 10.4")
@pytest.mark.rule("C.07 10.5")
def test_performance_ratings_take_the_game_score_in_any_point_system():
    """TPR, PTP, APRO and APPO use the games' results 1/½/0, not the tournament points: under 3/1/0
    they equal the 1/½/0 values (a 3/1/0 score of 7 in 3 games would be p = 2.33, out of the table).
    1: 2½ of 3 against 1900, 2100, 1800: ARO 1933, p = .83 -> dp 273, TPR 2206."""
    standard = Calculator(_rated_event())
    three = Calculator(scored(_rated_event(), THREE_ONE_ZERO))
    assert standard.value("TPR", 1) == 1933 + 273
    for code in ("ARO", "TPR", "PTP", "APRO", "APPO"):
        for pid in range(1, 6):
            assert three.value(code, pid) == standard.value(code, pid), (code, pid)
    assert [i.result for i in three.explain("TPR", 1).items] == [1.0, 0.5, 1.0]


@pytest.mark.rule("C.07 7.7")
def test_standard_points_are_the_score_on_the_one_half_zero_scale():
    """STD (2026, 7.7): per round 1 above a draw's points, ½ for a draw's points, 0 below. Under 1/½/0
    it is the score; under 3/1/0 the same numbers: 1 has 1 + ½ + 1 + 1 (bye) = 3½ for 10 points."""
    standard = Calculator(_rated_event())
    three = Calculator(scored(_rated_event(), THREE_ONE_ZERO))
    for pid in range(1, 6):
        assert standard.value("STD", pid) == standard.field().points[pid]
        assert three.value("STD", pid) == standard.field().points[pid]
    assert three.field().points[1] == 10 and three.value("STD", 1) == 3.5


@pytest.mark.rule("C.07 6")
@SYSTEMS
def test_a_missing_encounter_counts_a_wins_points(system):
    """C.07 6.3: a player goes first among the tied only if no result of the games not played could
    catch him, a missing game counting as a win's points. 1, 2 and 3 all end on W + D. 3 beat 1 (W);
    1 and 2 drew (D each); 2 and 3 never met. 2 could still reach D + W >= W, so nobody is placed:
    pairing numbers decide, 1, 2, 3. (Counting a missing game as 1 point would place 3 first under
    3/1/0, where D + 1 = 2 < 3.)"""
    state = build(
        7,
        [
            [("1-0", 3, 1), ("1-0", 2, 4), ("1-0", 5, 6)],
            [("=", 1, 2), ("0-1", 3, 4), ("=", 5, 6)],
            [("=", 3, 5), ("1-0", 1, 6), ("0-1", 2, 7)],
        ],
    )
    state = scored(state, system)
    win, draw = system
    table = [line for line in standings(state, ["DE", "TPN"], rules="plain") if line.player in (1, 2, 3)]
    assert {line.points for line in table} == {win + draw}
    assert [line.player for line in table] == [1, 2, 3]
    assert len({line.rank for line in table}) == 3
    assert {line.player: line.values["DE"] for line in table} == {1: draw, 2: draw, 3: win}
