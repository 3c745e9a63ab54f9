"""The olympiad team tournament as the pairing system `olympiad` (seed 004 §4.9.9.5)."""

import pytest

from pairing.engines import registry
from pairing.engines.notes import english
from pairing.engines.olympiad_system import scoring
from pairing.engines.state import Board, InvalidInput, Player, TournamentState


def field(n: int, teams: int = 4, withdrawn: frozenset[int] = frozenset(), rnd: int = 1) -> TournamentState:
    """Players 1..n, strongest first (DSU rating 3000 - id)."""
    players = [Player(id=i, national_rating=3000 - i, withdrawn=i in withdrawn) for i in range(1, n + 1)]
    return TournamentState(players=players, total_rounds=0, round_to_pair=rnd, settings={"teams": teams}, seed=7)


def pairs(state):
    return [(b.white, b.black) for b in registry.pair(state, "olympiad").boards]


@pytest.mark.rule("004 4.9.9.5")
def test_round_one_of_the_sections_example():
    # Teams of the section: 1: 1 8 11 14 17 24; 2: 2 7 12 13 18 23; 3: 3 6 9 16 19 22; 4: 4 5 10 15 20 21.
    # Berger round 1 of 4 teams: 1-4, 2-3; the first-named team has white on the odd boards.
    assert pairs(field(24)) == [
        (1, 4), (5, 8), (11, 10), (15, 14), (17, 20), (21, 24),
        (2, 3), (6, 7), (12, 9), (16, 13), (18, 19), (22, 23),
    ]  # fmt: skip


@pytest.mark.rule("004 4.9.9.5")
def test_round_two_follows_the_berger_schedule():
    # Round 2: 4-3, 1-2.
    assert pairs(field(24, rnd=2))[:2] == [(4, 3), (6, 5)]
    assert pairs(field(24, rnd=2))[6:8] == [(1, 2), (7, 8)]


@pytest.mark.rule("004 4.9.9.5")
def test_a_withdrawn_players_board_is_not_paired():
    boards = pairs(field(24, withdrawn=frozenset({8})))
    assert (5, 8) not in boards and len(boards) == 11
    assert all(8 not in board for board in boards)


@pytest.mark.rule("004 4.9.9.5")
def test_an_odd_number_of_teams_gives_one_team_the_bye():
    pairing = registry.pair(field(10, teams=5), "olympiad")
    # Five teams of two: 1: 1 10; 2: 2 9; 3: 3 8; 4: 4 7; 5: 5 6. Round 1: 2-5, 3-4, team 1 the bye.
    assert [(b.white, b.black) for b in pairing.boards] == [(2, 5), (6, 9), (3, 4), (7, 8)]
    assert "Team 1 has the bye." in english(pairing.explanation)


@pytest.mark.rule("004 4.9.9.5")
def test_rounds_beyond_the_schedule_and_bad_settings_are_refused():
    with pytest.raises(InvalidInput, match="outside"):
        registry.pair(field(24, rnd=4), "olympiad")
    with pytest.raises(InvalidInput, match="teams"):
        registry.get("olympiad").settings({"teams": 1})
    with pytest.raises(InvalidInput, match="cannot form"):
        registry.pair(field(3), "olympiad")
    chosen = registry.get("olympiad").settings({"teams": 6, "cycles": 2})
    assert (chosen["teams"], chosen["cycles"]) == (6, 2)
    assert Board(1, 4) in registry.pair(field(24), "olympiad").boards


@pytest.mark.rule("004 4.9.9.5")
def test_match_points_and_ranking_are_settings():
    """004 §4.9.9.5 leaves the match points and the order of match and board points to the event:
    2/1/0 and match points first by default; a drawn match may not be worth more than a won one."""
    system = registry.get("olympiad")
    default = scoring(system.settings({}))
    assert default == {"match_points": (2.0, 1.0), "rank_by_board_points": False}
    chosen = scoring(system.settings({"match_win": 3, "match_draw": 1, "rank_by_board_points": True}))
    assert chosen == {"match_points": (3.0, 1.0), "rank_by_board_points": True}
    with pytest.raises(InvalidInput, match="match_draw"):
        system.settings({"match_win": 1, "match_draw": 2})
    with pytest.raises(InvalidInput, match="match_win"):
        system.settings({"match_win": -1})
    with pytest.raises(InvalidInput, match="rank_by_board_points"):
        system.settings({"rank_by_board_points": "yes"})
