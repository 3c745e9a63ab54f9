"""The Gladiator model: seed 004 §4.9.8."""

import pytest

from pairing.engines.gladiator import GameKind, play_encounter, rated_games, round_records, standings
from pairing.engines.state import Colour, InvalidInput, Kind, RoundRecord


@pytest.mark.rule("004 4.9.8")
def test_a_won_ordinary_game_decides_the_encounter():
    e = play_encounter(1, 10, 20, [0.0])
    assert e.winner == 20 and e.loser == 10
    assert (e.points(20), e.points(10)) == (1.0, 0.0)
    assert [g.kind for g in e.games] == [GameKind.ORDINARY]


@pytest.mark.rule("004 4.9.8")
def test_a_draw_is_replayed_with_colours_reversed_at_reduced_time():
    e = play_encounter(1, 10, 20, [0.5, 1.0])
    assert [(g.kind, g.white, g.black) for g in e.games] == [
        (GameKind.ORDINARY, 10, 20),
        (GameKind.REDUCED, 20, 10),
    ]
    assert e.winner == 20


@pytest.mark.rule("004 4.9.8")
def test_then_blitz_until_someone_wins():
    e = play_encounter(1, 10, 20, [0.5, 0.5, 0.5, 0.5, 0.0])
    assert [g.kind for g in e.games] == [GameKind.ORDINARY, GameKind.REDUCED] + [GameKind.BLITZ] * 3
    assert [g.white for g in e.games] == [10, 20, 10, 20, 10]
    assert e.winner == 20  # won the third blitz game with black


@pytest.mark.rule("004 4.9.8")
def test_an_unfinished_encounter_has_no_winner_and_nothing_may_follow_the_decision():
    assert play_encounter(1, 1, 2, [0.5, 0.5]).winner is None
    with pytest.raises(InvalidInput):
        play_encounter(1, 1, 2, [1.0, 0.5])


@pytest.mark.rule("004 4.9.8")
def test_more_ordinary_games_are_played_in_full_and_decided_by_their_total():
    e = play_encounter(1, 1, 2, [1.0, 0.5], ordinary_games=2)
    assert e.winner == 1 and len(e.games) == 2
    e = play_encounter(1, 1, 2, [1.0, 1.0, 0.5, 0.5, 1.0], ordinary_games=2, reduced_games=2)
    # 1-1 in ordinary games, two drawn replays, then player 1 wins a blitz game with white.
    assert [g.kind for g in e.games][2:] == [GameKind.REDUCED, GameKind.REDUCED, GameKind.BLITZ]
    assert e.winner == 1


@pytest.mark.rule("004 4.9.8")
def test_games_are_rated_by_their_own_results():
    e = play_encounter(1, 10, 20, [0.5, 0.5, 0.0])
    assert e.winner == 20
    rated = rated_games([e])
    assert [(r, g.white, g.black, g.result) for r, g in rated] == [(1, 10, 20, 0.5)]  # a draw, not a loss
    both = rated_games([e], kinds=(GameKind.ORDINARY, GameKind.REDUCED))
    assert [g.result for _, g in both] == [0.5, 0.5]


@pytest.mark.rule("004 4.9.8")
def test_standings_points_then_ordinary_wins_then_reduced_wins():
    encounters = [
        play_encounter(1, 1, 2, [1.0]),  # 1 wins an ordinary game
        play_encounter(1, 3, 4, [0.5, 0.0]),  # 3 wins at reduced time (black in the replay is 3)
        play_encounter(2, 1, 3, [0.5, 0.5, 0.5, 0.0]),  # 1 wins in blitz
        play_encounter(2, 2, 4, [0.5, 0.5, 1.0]),  # 2 wins in blitz
        play_encounter(3, 4, 1, [1.0]),  # 4 wins an ordinary game
        play_encounter(3, 3, 2, [1.0]),  # 3 wins an ordinary game
    ]
    table = standings([1, 2, 3, 4], encounters)
    assert [(r.player, r.points, r.ordinary_wins, r.reduced_wins) for r in table] == [
        (3, 2.0, 1, 1),
        (1, 2.0, 1, 0),
        (4, 1.0, 1, 0),
        (2, 1.0, 0, 0),
    ]
    assert [r.rank for r in table] == [1, 2, 3, 4]


@pytest.mark.rule("004 4.9.8")
def test_direct_encounter_breaks_the_last_tie_and_full_ties_share_the_place():
    encounters = [
        play_encounter(1, 1, 2, [0.5, 0.5, 1.0]),  # 1 beats 2 in blitz (white again in the first blitz game)
        play_encounter(2, 1, 3, [0.5, 0.5, 1.0]),  # 1 beats 3 in blitz
        play_encounter(3, 2, 3, [0.5, 0.5, 1.0]),  # 2 beats 3 in blitz
        play_encounter(4, 4, 5, [0.5, 0.5, 1.0]),
        play_encounter(4, 6, 7, [0.5, 0.5, 1.0]),
    ]
    table = {r.player: r for r in standings(range(1, 8), encounters)}
    assert table[1].points == 2 and table[1].rank == 1
    # 2, 4 and 6: 1 point, no ordinary or reduced wins, and they never met: they share second place.
    assert table[2].rank == table[4].rank == table[6].rank == 2
    assert table[3].rank == table[5].rank == table[7].rank == 5


@pytest.mark.rule("004 4.9.8")
def test_direct_encounter_orders_two_tied_players():
    encounters = [
        play_encounter(1, 1, 2, [0.5, 0.5, 1.0]),  # 1 beats 2 in blitz
        play_encounter(2, 2, 3, [0.5, 0.5, 1.0]),  # 2 beats 3
        play_encounter(3, 3, 4, [0.5, 0.5, 1.0]),  # 3 beats 4
        play_encounter(4, 4, 1, [0.5, 0.5, 1.0]),  # 4 beats 1
    ]
    table = standings([1, 2, 3, 4], encounters)
    # All on 1 point with no ordinary or reduced wins; among all four, each has 1 point of direct score.
    assert {r.rank for r in table} == {1}
    table = standings([1, 2, 3], encounters[:2] + [play_encounter(3, 3, 1, [1.0])])
    # 1, 2 and 3 have 1 point each; 3 won an ordinary game; 1 beat 2 in their encounter.
    assert [(r.player, r.direct, r.rank) for r in table] == [(3, 0.0, 1), (1, 1.0, 2), (2, 0.0, 3)]


@pytest.mark.rule("004 4.9.8")
def test_the_round_records_carry_the_gladiator_point_for_the_pairing():
    records = round_records(play_encounter(2, 10, 20, [0.5, 0.0]))  # 10 wins the replay with black
    assert records == {
        10: RoundRecord(Kind.GAME, 20, Colour.WHITE, 1.0),
        20: RoundRecord(Kind.GAME, 10, Colour.BLACK, 0.0),
    }
    with pytest.raises(InvalidInput):
        round_records(play_encounter(2, 10, 20, [0.5]))
