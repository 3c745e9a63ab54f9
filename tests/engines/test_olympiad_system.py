"""The olympiad team tournament as the pairing system `olympiad` (seed 004 §4.9.9.5)."""

import pytest

from pairing.engines import registry
from pairing.engines.notes import english
from pairing.engines.state import Board, InvalidInput, Player, TournamentState


def field(n: int, teams: int = 4, withdrawn: frozenset[int] = frozenset(), rnd: int = 1) -> TournamentState:
    """Players 1..n, strongest first (DSU rating 3000 - id)."""
    players = [Player(id=i, national_rating=3000 - i, withdrawn=i in withdrawn) for i in range(1, n + 1)]
    return TournamentState(players=players, total_rounds=0, round_to_pair=rnd, settings={"teams": teams}, seed=7)


def pairs(state):
    return [(b.white, b.black) for b in registry.pair(state, "olympiad").boards]


def test_round_one_of_the_sections_example():
    # Teams of the section: 1: 1 8 11 14 17 24; 2: 2 7 12 13 18 23; 3: 3 6 9 16 19 22; 4: 4 5 10 15 20 21.
    # Berger round 1 of 4 teams: 1-4, 2-3; the first-named team has white on the odd boards.
    assert pairs(field(24)) == [
        (1, 4), (5, 8), (11, 10), (15, 14), (17, 20), (21, 24),
        (2, 3), (6, 7), (12, 9), (16, 13), (18, 19), (22, 23),
    ]  # fmt: skip


def test_round_two_follows_the_berger_schedule():
    # Round 2: 4-3, 1-2.
    assert pairs(field(24, rnd=2))[:2] == [(4, 3), (6, 5)]
    assert pairs(field(24, rnd=2))[6:8] == [(1, 2), (7, 8)]


def test_a_withdrawn_players_board_is_not_paired():
    boards = pairs(field(24, withdrawn=frozenset({8})))
    assert (5, 8) not in boards and len(boards) == 11
    assert all(8 not in board for board in boards)


def test_an_odd_number_of_teams_gives_one_team_the_bye():
    pairing = registry.pair(field(10, teams=5), "olympiad")
    # Five teams of two: 1: 1 10; 2: 2 9; 3: 3 8; 4: 4 7; 5: 5 6. Round 1: 2-5, 3-4, team 1 the bye.
    assert [(b.white, b.black) for b in pairing.boards] == [(2, 5), (6, 9), (3, 4), (7, 8)]
    assert "Team 1 has the bye." in english(pairing.explanation)


def test_rounds_beyond_the_schedule_and_bad_settings_are_refused():
    with pytest.raises(InvalidInput, match="outside"):
        registry.pair(field(24, rnd=4), "olympiad")
    with pytest.raises(InvalidInput, match="teams"):
        registry.get("olympiad").settings({"teams": 1})
    with pytest.raises(InvalidInput, match="cannot form"):
        registry.pair(field(3), "olympiad")
    assert registry.get("olympiad").settings({"teams": 6, "cycles": 2}) == {"teams": 6, "cycles": 2}
    assert Board(1, 4) in registry.pair(field(24), "olympiad").boards
