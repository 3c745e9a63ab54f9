"""Olympiad team tournament: seed 004 §4.9.9.5 and seeds README item 14."""

import pytest

from pairing.engines.olympiad import deal_orders, form_teams, team_tournament, teams_from_players
from pairing.engines.state import InvalidInput, Player


@pytest.mark.rule("004 4.9.9.5")
def test_the_sections_example_exactly():
    teams = form_teams(list(range(1, 25)), 4)
    assert [t.players for t in teams] == [
        [1, 8, 11, 14, 17, 24],
        [2, 7, 12, 13, 18, 23],
        [3, 6, 9, 16, 19, 22],
        [4, 5, 10, 15, 20, 21],
    ]
    assert [t.rank_sum for t in teams] == [75, 75, 75, 75]


@pytest.mark.rule("004 4.9.9.5")
def test_the_example_deals_its_blocks_in_the_orders_1234_4321_3412_2143():
    assert deal_orders(24, 4) == [
        [1, 2, 3, 4],
        [4, 3, 2, 1],
        [3, 4, 1, 2],
        [2, 1, 4, 3],
        [1, 2, 3, 4],
        [4, 3, 2, 1],
    ]


@pytest.mark.rule("004 4.9.9.5")
@pytest.mark.parametrize(
    "n, expected",
    [
        (8, [[1, 8], [2, 7], [3, 6], [4, 5]]),
        (9, [[1, 8], [2, 7], [3, 6, 9], [4, 5]]),
        (12, [[1, 8, 11], [2, 7, 12], [3, 6, 9], [4, 5, 10]]),
        (20, [[1, 8, 11, 14, 17], [2, 7, 12, 13, 18], [3, 6, 9, 16, 19], [4, 5, 10, 15, 20]]),
        (22, [[1, 8, 11, 14, 17], [2, 7, 12, 13, 18], [3, 6, 9, 16, 19, 22], [4, 5, 10, 15, 20, 21]]),
        (
            28,
            [
                [1, 8, 11, 14, 17, 24, 27],
                [2, 7, 12, 13, 18, 23, 28],
                [3, 6, 9, 16, 19, 22, 25],
                [4, 5, 10, 15, 20, 21, 26],
            ],
        ),
    ],
)
def test_four_teams_follow_the_cycle_until_all_players_are_placed(n, expected):
    """004 §4.9.9.5: "Spiller 1-4 fordeles på hold 1-4, spiller 5-8 på hold 4, 3, 2, 1, spiller 9-12
    på hold 3, 4, 1, 2 ... og så videre indtil alle spillere er placeret"; seeds README item 14 fixes
    the cycle 1234, 4321, 3412, 2143, then again. Hand-dealt: 12 players end with 3412 (9 to team 3,
    11 to team 1); 20 players: block 5 is 1234 again, so team 1 gets 1, 8, 11, 14, 17; 22: the sixth
    block (4321) is cut after two, 21 to team 4, 22 to team 3; 28: the seventh block is 3412 (25 to
    team 3, 27 to team 1); 9: the ninth opens 3412, team 3."""
    assert [t.players for t in form_teams(list(range(1, n + 1)), 4)] == expected


@pytest.mark.rule("004 4.9.9.5")
@pytest.mark.parametrize("n_teams", [2, 3, 5, 6, 7, 8, 9])
@pytest.mark.parametrize("blocks", range(2, 9))
def test_rank_sums_are_as_equal_as_possible(n_teams, blocks):
    """Seeds README item 14: for team counts other than four, the rank sums as equal as possible."""
    n = n_teams * blocks
    teams = form_teams(list(range(1, n + 1)), n_teams)
    sums = [t.rank_sum for t in teams]
    assert sorted(p for t in teams for p in t.players) == list(range(1, n + 1))
    assert all(len(t.players) == blocks for t in teams)
    assert all(t.players == sorted(t.players) for t in teams)  # board order is rank order
    # Equal sums are possible only when the total divides by the number of teams; then they are
    # equal, otherwise they differ by one.
    least = 0 if (n * (n + 1) // 2) % n_teams == 0 else 1
    assert max(sums) - min(sums) == least


@pytest.mark.rule("004 4.9.9.5")
def test_a_single_block_gives_every_team_one_player():
    assert [t.players for t in form_teams([10, 20, 30], 3)] == [[10], [20], [30]]


@pytest.mark.rule("004 4.9.9.5")
def test_an_incomplete_last_block_goes_to_the_teams_with_the_highest_rank_sums():
    teams = form_teams(list(range(1, 8)), 2)
    # Blocks 12, 21, then the balancing triple's end (sums 5 and 5: 12); player 7 to the weaker team.
    assert [t.players for t in teams] == [[1, 4, 5], [2, 3, 6, 7]]


@pytest.mark.rule("004 4.9.9.5")
def test_too_few_players_or_teams_is_refused():
    with pytest.raises(InvalidInput):
        form_teams([1, 2, 3], 4)
    with pytest.raises(InvalidInput):
        form_teams([1, 2, 3], 1)


@pytest.mark.rule("004 4.9.9.5")
def test_teams_from_players_rank_by_strength():
    players = [Player(i, national_rating=1500 + 10 * i) for i in range(1, 9)]
    teams = teams_from_players(players, 4)
    assert [t.players for t in teams] == [[8, 1], [7, 2], [6, 3], [5, 4]]


def _white_wins_board_one_board_two_drawn(teams):
    """Results where board 1 is always won by white and board 2 is drawn."""
    results = {}
    for rnd in team_tournament(teams, {}).rounds:
        for match in rnd:
            first, second = match.boards
            results[match.round, first.white, first.black] = 1.0
            results[match.round, second.white, second.black] = 0.5
    return results


@pytest.mark.rule("004 4.9.9.5")
def test_team_round_robin_board_order_colours_and_scores():
    teams = form_teams(list(range(1, 9)), 4)
    assert [t.players for t in teams] == [[1, 8], [2, 7], [3, 6], [4, 5]]
    empty = team_tournament(teams, {})
    # The Berger schedule for four: 1-4 2-3 / 4-3 1-2 / 2-4 3-1; white on board 1 for the first-named team.
    assert [[(m.first, m.second) for m in rnd] for rnd in empty.rounds] == [
        [(1, 4), (2, 3)],
        [(4, 3), (1, 2)],
        [(2, 4), (3, 1)],
    ]
    first = empty.rounds[0][0]
    assert [(b.board, b.white, b.black) for b in first.boards] == [(1, 1, 4), (2, 5, 8)]
    assert all(s.matches == 0 and s.match_points == 0 for s in empty.standings)

    done = team_tournament(teams, _white_wins_board_one_board_two_drawn(teams))
    # Each first-named team wins 1½-½: team 1 beats 4 and 2, loses to 3; team 2 beats 3 and 4;
    # team 3 beats 1; team 4 beats 3.
    assert [(s.team, s.match_points, s.board_points, s.matches, s.rank) for s in done.standings] == [
        (1, 4.0, 3.5, 3, 1),
        (2, 4.0, 3.5, 3, 1),
        (3, 2.0, 2.5, 3, 3),
        (4, 2.0, 2.5, 3, 3),
    ]
    assert done.crosstable[1][4] == [1.5] and done.crosstable[4][1] == [0.5]
    assert done.crosstable[3][1] == [1.5]
    scores = {s.player: (s.team, s.board, s.points, s.games) for s in done.players}
    assert scores[1] == (1, 1, 2.0, 3)  # beat 4 and 2 with white, lost to 3 with black
    assert scores[8] == (1, 2, 1.5, 3)
    assert scores[3] == (3, 1, 1.0, 3)


@pytest.mark.rule("004 4.9.9.5")
def test_ranking_by_board_points_first():
    teams = form_teams(list(range(1, 9)), 4)
    results = _white_wins_board_one_board_two_drawn(teams)
    # Team 4 wins its last board 2 against team 2 instead of drawing: 2-0 for team 2 becomes 1-1.
    match = team_tournament(teams, {}).rounds[2][0]
    board_two = match.boards[1]
    results[3, board_two.white, board_two.black] = 1.0  # team 4 has white on board 2
    by_match = team_tournament(teams, results)
    by_board = team_tournament(teams, results, rank_by_board_points=True)
    assert [(s.team, s.match_points, s.board_points) for s in by_match.standings] == [
        (1, 4.0, 3.5),
        (2, 3.0, 3.0),
        (4, 3.0, 3.0),
        (3, 2.0, 2.5),
    ]
    assert [s.rank for s in by_match.standings] == [1, 2, 2, 4]
    assert [s.team for s in by_board.standings][:1] == [1]


@pytest.mark.rule("004 4.9.9.5")
def test_an_odd_number_of_teams_has_a_bye_each_round():
    teams = form_teams(list(range(1, 10)), 3)
    t = team_tournament(teams, {})
    assert t.byes == [1, 3, 2]
    assert [len(r) for r in t.rounds] == [1, 1, 1]


@pytest.mark.rule("004 4.9.9.5")
def test_a_short_team_loses_its_empty_board_by_forfeit():
    teams = form_teams(list(range(1, 8)), 2)  # team 1 has 3 players, team 2 has 4
    t = team_tournament(teams, {})
    (match,) = t.rounds[0]
    last = match.boards[-1]
    assert last.board == 4 and last.forfeit
    assert match.board_points(2) == 1.0 and match.board_points(1) == 0.0
    assert {s.player: s.games for s in t.players}[7] == 0


@pytest.mark.rule("004 4.9.9.5")
def test_bad_results_are_refused():
    teams = form_teams(list(range(1, 9)), 4)
    board = team_tournament(teams, {}).rounds[0][0].boards[0]
    with pytest.raises(InvalidInput):
        team_tournament(teams, {(1, board.white, board.black): 2.0})


@pytest.mark.rule("004 4.9.9.5")
@pytest.mark.rule("004 11")
def test_a_double_forfeit_scores_for_neither_team():
    """004 §11: "Ankomst til spillestedet senere end 15 minutter ... vil medføre tab af partiet": both
    absent, both lose (0-0). 004 §4.9.9.5 ranks teams by match points from the boards.
    Round 1, team 1 [1, 8] - team 4 [4, 5]: board 1 (1-4) 0-0, board 2 (5-8) 0-1. Team 1 scores 0 + 1,
    team 4 0 + 0: team 1 wins 1-0, 2 match points to 0 (reading 0 as a win for Black would give 1-1)."""
    teams = form_teams(list(range(1, 9)), 4)
    t = team_tournament(teams, {(1, 1, 4): (0.0, 0.0), (1, 5, 8): 0.0})
    match = t.rounds[0][0]
    assert (match.first, match.second) == (1, 4)
    assert match.board_points(1) == 1.0 and match.board_points(4) == 0.0
    rows = {s.team: (s.match_points, s.board_points, s.matches) for s in t.standings}
    assert rows[1] == (2.0, 1.0, 1) and rows[4] == (0.0, 0.0, 1)
    scores = {s.player: (s.points, s.games) for s in t.players}
    assert scores[1] == (0.0, 0) and scores[4] == (0.0, 0) and scores[8] == (1.0, 1)


@pytest.mark.rule("004 4.9.9.5")
def test_two_double_forfeits_leave_the_match_drawn_on_the_other_boards():
    """Team 2 [2, 7] - team 3 [3, 6], round 1: board 1 (2-3) 0-0 and board 2 (6-7) 0-0 give 0-0, a
    drawn match: 1 match point each (2 for a win, 1 for a draw), no board points."""
    teams = form_teams(list(range(1, 9)), 4)
    t = team_tournament(teams, {(1, 2, 3): (0.0, 0.0), (1, 6, 7): (0.0, 0.0)})
    rows = {s.team: (s.match_points, s.board_points, s.matches) for s in t.standings}
    assert rows[2] == (1.0, 0.0, 1) and rows[3] == (1.0, 0.0, 1)
    with pytest.raises(InvalidInput):
        team_tournament(teams, {(1, 2, 3): (1.0, 1.0)})
