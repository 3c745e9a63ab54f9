"""The per-player rating report (seed 004 §4.5.2, §23, §26, §4.7.4) from a plain list of games."""

from fractions import Fraction as F

import pytest

from ratings.maths.dsu import Game
from ratings.maths.report import rating_report
from ratings.maths.titles import NormOpponent, NormTitle, PlayerClass, QualifyingKind

RATINGS = {"A": 2000, "B": 2050, "C": 2100, "D": 2150, "E": 2200, "F": 2180}


def _games():
    """A six-player all-play-all: A beats everyone, all other games drawn."""
    games = []
    names = sorted(RATINGS)
    rnd = 0
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            rnd += 1
            games.append(Game(a, b, F(1) if a == "A" else F(1, 2), round=rnd))
    return games


def test_report_lines_hand_computed():
    lines = rating_report(_games(), RATINGS, all_play_all=True, qualifying=QualifyingKind.EMT)
    by = {line.player: line for line in lines}
    # average 12680 / 6 = 2113.3 -> 2113; A: D = -113 -> .35 -> 6 x .35 - ½ = 1.60
    a = by["A"]
    assert (a.games, a.score, a.expected, a.method) == (5, 5, F("1.60"), "average")
    assert a.bonus == F("1.90") and a.k == 20  # 5 - 1.60 - 1.5
    assert a.new_rating == 2106 and a.change == 106  # 20 x (3.40 + 1.90)
    assert a.player_class is PlayerClass.MASTER
    assert a.candidate.category == 2 and a.candidate.points == 4 and a.candidate_result
    assert not by["B"].candidate_result
    assert [by[p].expected for p in "BCDEF"] == [F("1.95"), F("2.40"), F("2.80"), F("3.20"), F("3.05")]
    assert [by[p].new_rating for p in "BCDEF"] == [2051, 2092, 2134, 2176, 2159]
    assert [line.player for line in lines] == ["E", "F", "D", "A", "C", "B"]


def test_report_without_qualifying_event_has_no_candidate():
    lines = rating_report(_games(), RATINGS, all_play_all=True)
    assert all(line.candidate is None and not line.candidate_result for line in lines)


def test_report_checks_norms_when_asked():
    feds = {"A": "DEN", "B": "SWE", "C": "NOR", "D": "GER", "E": "SWE", "F": "NOR"}
    players = {p: NormOpponent(r, feds[p], "GM") for p, r in RATINGS.items()}
    lines = rating_report(_games(), RATINGS, all_play_all=True, norm_players=players, norm_titles=[NormTitle.GM])
    a = next(line for line in lines if line.player == "A")
    assert len(a.norms) == 1 and not a.norms[0].achieved
    assert "fewer than 9 games" in a.norms[0].failures


def test_report_of_an_unrated_player_shows_the_performance_rating():
    games = [Game("X", "A", F(1)), Game("X", "B", F(1, 2))]
    lines = rating_report(games, {"A": 1800, "B": 1600, "X": None})
    x = next(line for line in lines if line.player == "X")
    assert x.provisional and x.old_rating == 1893 and x.new_rating is None and x.change is None


def _one_player_against(n: int) -> list[Game]:
    """Player A beats n different opponents, one game each."""
    return [Game("A", f"O{i:02d}", F(1), round=i) for i in range(1, n + 1)]


@pytest.mark.rule("004 4.5.2.2")
@pytest.mark.parametrize("games, extrapolated", [(5, False), (10, False), (11, False), (12, True), (15, True)])
def test_a_bonus_beyond_eleven_games_is_flagged_as_extrapolated(games, extrapolated):
    """004 §4.5.2.2: "Indtil 5 partier: B = W - W_e - 1,5 ... 10 eller 11 partier: B = W - W_e - 3"; the
    table stops there. For 12 or more games the threshold continues the step (12-13 games: 3.5) and
    the report says the bonus rests on an extrapolation."""
    ratings = {"A": 2000} | {f"O{i:02d}": 2000 for i in range(1, games + 1)}
    by = {line.player: line for line in rating_report(_one_player_against(games), ratings)}
    assert by["A"].games == games and by["A"].bonus_extrapolated is extrapolated
    assert not by["O01"].bonus_extrapolated
    # Equal ratings: W_e = games / 2; W = games. B = games / 2 - threshold.
    threshold = {5: F(3, 2), 10: F(3), 11: F(3), 12: F(7, 2), 15: F(4)}[games]
    assert by["A"].bonus == F(games, 2) - threshold
