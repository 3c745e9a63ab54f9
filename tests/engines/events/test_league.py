"""Team leagues (`pairing.engines.league`): schedule, colours per board, match results, match points,
the league table and line-up checks, on cases computed by hand."""

from __future__ import annotations

import pytest

from pairing.engines.league import (
    Board,
    BoardCard,
    LeagueRules,
    PlayedMatch,
    Roster,
    board_colours,
    board_score,
    breaks,
    check_lineup,
    home_away,
    league_schedule,
    league_standings,
    match_outcome,
    match_points,
    player_scores,
)
from pairing.engines.state import InvalidInput

FOUR = LeagueRules(boards=4)


# ---------------------------------------------------------------- schedule


@pytest.mark.rule("004 4.9.11")
def test_four_teams_follow_the_berger_table_home_team_first():
    rounds = league_schedule(4)
    pairs = [[(f.home, f.away) for f in r.fixtures] for r in rounds]
    assert pairs == [[(1, 4), (2, 3)], [(4, 3), (1, 2)], [(2, 4), (3, 1)]]
    assert [r.free for r in rounds] == [None, None, None]
    assert home_away(rounds) == {1: "HHA", 2: "HAH", 3: "AAH", 4: "AHA"}


@pytest.mark.rule("004 4.9.11")
def test_five_teams_have_one_team_off_each_round():
    rounds = league_schedule(5)
    assert [r.free for r in rounds] == [1, 4, 2, 5, 3]
    assert [(f.home, f.away) for f in rounds[0].fixtures] == [(2, 5), (3, 4)]
    assert home_away(rounds)[1] == "-HAHA"
    assert all(len(r.fixtures) == 2 for r in rounds)


@pytest.mark.rule("004 4.9.11")
@pytest.mark.parametrize("n", range(2, 15))
def test_every_pair_meets_once_per_cycle_home_and_away_balanced(n):
    single = league_schedule(n)
    met = [frozenset((f.home, f.away)) for r in single for f in r.fixtures]
    assert len(met) == len(set(met)) == n * (n - 1) // 2
    for sequence in home_away(single).values():
        assert abs(sequence.count("H") - sequence.count("A")) <= 1
        assert breaks(sequence) <= 1
    double = league_schedule(n, cycles=2)
    assert len(double) == 2 * len(single)
    games = [(f.home, f.away) for r in double for f in r.fixtures]
    assert len(games) == len(set(games)) == n * (n - 1)  # each pair once at either club
    for sequence in home_away(double).values():
        played = sequence.replace("-", "")
        assert played.count("H") == played.count("A")
        assert "HHH" not in played and "AAA" not in played


def test_double_round_robin_swaps_the_seam_and_reverses_the_second_cycle():
    pairs = [[(f.home, f.away) for f in r.fixtures] for r in league_schedule(4, cycles=2)]
    assert pairs[:3] == [[(1, 4), (2, 3)], [(2, 4), (3, 1)], [(4, 3), (1, 2)]]
    assert pairs[3:] == [[(4, 1), (3, 2)], [(3, 4), (2, 1)], [(4, 2), (1, 3)]]


def test_schedule_refuses_too_few_teams_and_other_cycles():
    with pytest.raises(InvalidInput):
        league_schedule(1)
    with pytest.raises(InvalidInput):
        league_schedule(4, cycles=3)


# ---------------------------------------------------------------- colours and results


@pytest.mark.rule("004 4.9.9.5")
def test_home_team_white_on_odd_boards_or_even_by_setting():
    assert board_colours(4) == (True, False, True, False)
    assert board_colours(3, "even") == (False, True, False)
    with pytest.raises(InvalidInput):
        board_colours(4, "first")


def test_board_scores_turn_white_black_into_home_away():
    assert board_score(Board(1, result="1-0"), home_white=True) == (1.0, 0.0)
    assert board_score(Board(2, result="1-0"), home_white=False) == (0.0, 1.0)
    assert board_score(Board(3, result="½-½"), home_white=False) == (0.5, 0.5)
    assert board_score(Board(4, result="0-0R"), home_white=True) == (0.0, 0.0)
    assert board_score(Board(5, home_player=False), home_white=True) == (0.0, 1.0)  # default win
    assert board_score(Board(6, home_player=False, away_player=False), home_white=True) == (0.0, 0.0)
    assert board_score(Board(7), home_white=True) is None
    with pytest.raises(InvalidInput, match="board 8"):
        board_score(Board(8, result="2-0"), home_white=True)


@pytest.mark.rule("C.07 11")
def test_match_outcome_with_a_forfeit_and_an_empty_board():
    """Home White on 1 and 3. Board 1 1-0 (home 1), board 2 1-0 (White is away: away 1), board 3
    0-1R (away 1, forfeit), board 4 left empty by the away team (home 1): 2-2, a drawn match."""
    boards = [Board(1, result="1-0"), Board(2, result="1-0"), Board(3, result="0-1R"), Board(4, away_player=False)]
    out = match_outcome(boards, FOUR)
    assert out.boards == ((1.0, 0.0), (0.0, 1.0), (0.0, 1.0), (1.0, 0.0))
    assert (out.home_points, out.away_points, out.complete) == (2.0, 2.0, True)
    assert (out.home_match_points, out.away_match_points, out.forfeited) == (1.0, 1.0, "")


def test_match_outcome_unfinished_then_won_and_on_even_colours():
    boards = [Board(1, result="½-½"), Board(2, result="0-1"), Board(3), Board(4, result="0-1")]
    out = match_outcome(boards, FOUR)
    assert (out.home_points, out.away_points, out.complete, out.home_match_points) == (2.5, 0.5, False, None)
    done = match_outcome([*boards[:2], Board(3, result="0-1"), boards[3]], FOUR)
    assert (done.home_points, done.away_points) == (2.5, 1.5)
    assert (done.home_match_points, done.away_match_points) == (2.0, 0.0)
    even = match_outcome([*boards[:2], Board(3, result="0-1"), boards[3]], LeagueRules(boards=4, home_white="even"))
    assert (even.home_points, even.away_points) == (1.5, 2.5)  # home Black on 1 and 3: 1 ½, 0, 1, 0


def test_a_team_that_fields_nobody_forfeits_the_match():
    rules = LeagueRules(boards=4, forfeited_match=-1.0)
    out = match_outcome([Board(n, away_player=False) for n in range(1, 5)], rules)
    assert (out.home_points, out.away_points, out.forfeited) == (4.0, 0.0, "away")
    assert (out.home_match_points, out.away_match_points) == (2.0, -1.0)
    nobody = match_outcome([], rules)  # no board given: neither team came
    assert (nobody.home_points, nobody.away_points, nobody.forfeited) == (0.0, 0.0, "both")
    assert (nobody.home_match_points, nobody.away_match_points) == (-1.0, -1.0)


def test_match_outcome_refuses_boards_outside_the_match():
    with pytest.raises(InvalidInput):
        match_outcome([Board(5, result="1-0")], FOUR)
    with pytest.raises(InvalidInput):
        match_outcome([Board(1, result="1-0"), Board(1, result="0-1")], FOUR)


def test_match_points_configurable():
    assert [match_points(a, b, FOUR) for a, b in ((3, 1), (2, 2), (1, 3))] == [2.0, 1.0, 0.0]
    three = LeagueRules.from_settings({"match_win": 3, "match_draw": 1})
    assert [match_points(a, b, three) for a, b in ((3, 1), (2, 2), (1, 3))] == [3.0, 1.0, 0.0]


def test_rules_from_settings_name_the_bad_setting():
    assert LeagueRules.from_settings({}) == LeagueRules()
    assert LeagueRules.from_settings(LeagueRules(boards=6).settings()).boards == 6
    for bad, word in (
        ({"colour": "odd"}, "colour"),
        ({"primary": "GP"}, "primary"),
        ({"boards": 0}, "boards"),
        ({"boards": "8"}, "boards"),
        ({"cycles": 3}, "cycles"),
        ({"match_draw": 2}, "draw"),
        ({"play_up": -2}, "play_up"),
    ):
        with pytest.raises(InvalidInput, match=word):
            LeagueRules.from_settings(bad)


# ---------------------------------------------------------------- the league table


def _played(rnd, home, away, results, rules=FOUR):
    return PlayedMatch(rnd, home, away, match_outcome([Board(n, result=r) for n, r in enumerate(results, 1)], rules))


def _league(rules=FOUR):
    """Four teams, three rounds (the Berger table above), home White on boards 1 and 3.
    R1 1-4: 1-0 0-1 1-0 0-1 (home 1,1,1,1: 4-0); 2-3: ½-½ ×4 (2-2).
    R2 4-3: 1-0 1-0 0-1 0-1 (home 1,0,0,1: 2-2); 1-2: 0-1 1-0 ½-½ 1-0 (home 0,0,½,0: ½-3½).
    R3 2-4: 1-0 ½-½ 0-1 ½-½ (home 1,½,0,½: 2-2); 3-1: 1-0 0-1 1-0 ½-½ (home 1,1,1,½: 3½-½).
    Match points: 1: 2+0+0 = 2; 2: 1+2+1 = 4; 3: 1+1+2 = 4; 4: 0+1+1 = 2.
    Board points: 1: 4+½+½ = 5; 2: 2+3½+2 = 7½; 3: 2+2+3½ = 7½; 4: 0+2+2 = 4."""
    return [
        _played(1, 1, 4, ["1-0", "0-1", "1-0", "0-1"], rules),
        _played(1, 2, 3, ["½-½"] * 4, rules),
        _played(2, 4, 3, ["1-0", "1-0", "0-1", "0-1"], rules),
        _played(2, 1, 2, ["0-1", "1-0", "½-½", "1-0"], rules),
        _played(3, 2, 4, ["1-0", "½-½", "0-1", "½-½"], rules),
        _played(3, 3, 1, ["1-0", "0-1", "1-0", "½-½"], rules),
    ]


@pytest.mark.rule("C.07 11")
@pytest.mark.rule("C.07 13.1")
def test_standings_match_points_then_board_points_teams_equal_share_the_place():
    table = league_standings([1, 2, 3, 4], _league(), FOUR)
    assert [(x.team, x.rank, x.match_points, x.board_points) for x in table] == [
        (2, 1, 4.0, 7.5),
        (3, 1, 4.0, 7.5),
        (1, 3, 2.0, 5.0),
        (4, 4, 2.0, 4.0),
    ]
    two = table[0]
    assert (two.played, two.won, two.drawn, two.lost) == (3, 1, 2, 0)


def test_standings_board_points_first():
    rules = LeagueRules(boards=4, primary="BP")
    table = league_standings([1, 2, 3, 4], _league(rules), rules)
    assert [(x.team, x.rank) for x in table] == [(2, 1), (3, 1), (1, 3), (4, 4)]


@pytest.mark.rule("C.07 13.3")
@pytest.mark.rule("C.07 13.2")
def test_tiebreaks_direct_encounter_then_sonneborn_berger():
    """2 and 3 drew their match (2-2): the direct encounter leaves them equal. EMGSB (opponents' match
    points × board points scored against them): 2: 1 (2 MP)×3½ + 3 (4)×2 + 4 (2)×2 = 19;
    3: 2 (4)×2 + 4 (2)×2 + 1 (2)×3½ = 19: equal again. EMMSB (× match points scored):
    2: 2×2 + 4×1 + 2×1 = 10; 3: 4×1 + 2×1 + 2×2 = 10. They share the place."""
    table = league_standings([1, 2, 3, 4], _league(), FOUR, ["EDE", "EMGSB", "EMMSB"])
    two, three = table[0], table[1]
    assert (two.values["EDE"], three.values["EDE"]) == (1.0, 1.0)
    assert (two.values["EMGSB"], three.values["EMGSB"]) == (19.0, 19.0)
    assert (two.values["EMMSB"], three.values["EMMSB"]) == (10.0, 10.0)
    assert (two.rank, three.rank) == (1, 1)
    assert table[2].values["EDE"] is None  # team 1 was tied with nobody


@pytest.mark.rule("C.07 13.3")
def test_a_circle_of_wins_is_left_to_the_next_tie_break():
    """Three teams, 1 beats 2, 2 beats 3, 3 beats 1, each 3-1 (home White on 1 and 3, boards 1-0 0-1
    1-0 1-0 give the home team 1, 1, 1, 0). Every team 2 MP and 4 BP; among them the direct
    encounter is the same circle, so it separates nobody; the team pairing number (TPN) does."""
    matches = [
        _played(1, 1, 2, ["1-0", "0-1", "1-0", "1-0"]),
        _played(2, 2, 3, ["1-0", "0-1", "1-0", "1-0"]),
        _played(3, 3, 1, ["1-0", "0-1", "1-0", "1-0"]),
    ]
    assert [(m.outcome.home_points, m.outcome.away_points) for m in matches] == [(3.0, 1.0)] * 3
    table = league_standings([1, 2, 3], matches, FOUR, ["EDE", "TPN"])
    assert [(x.team, x.match_points, x.board_points) for x in table] == [(1, 2.0, 4.0), (2, 2.0, 4.0), (3, 2.0, 4.0)]
    assert [x.values["EDE"] for x in table] == [1.0, 1.0, 1.0]
    assert [x.rank for x in table] == [1, 2, 3]
    assert [x.rank for x in league_standings([1, 2, 3], matches, FOUR, ["EDE"])] == [1, 1, 1]


def test_direct_encounter_decides_between_two_equal_teams():
    """Four teams, two boards, home White on board 1. Matches (home first): 1-2 2-0, 3-4 1-1; 1-3 0-2,
    2-4 1-1; 1-4 1-1, 2-3 2-0. 1: won, lost, drew; 2: lost, drew, won; 3: drew, won, lost; 4: three
    draws: all 3 MP and 3 BP, and among all four the direct encounter is the whole table: all share
    first place. With 1-4 2-0 instead, 2 and 3 stay equal (3 MP, 3 BP) and 2 beat 3."""
    rules = LeagueRules(boards=2)
    matches = [
        _played(1, 1, 2, ["1-0", "0-1"], rules),
        _played(1, 3, 4, ["1-0", "1-0"], rules),
        _played(2, 1, 3, ["0-1", "1-0"], rules),
        _played(2, 2, 4, ["½-½", "½-½"], rules),
        _played(3, 1, 4, ["½-½", "½-½"], rules),
        _played(3, 2, 3, ["1-0", "0-1"], rules),
    ]
    assert [(m.outcome.home_points, m.outcome.away_points) for m in matches] == [
        (2.0, 0.0),
        (1.0, 1.0),
        (0.0, 2.0),
        (1.0, 1.0),
        (1.0, 1.0),
        (2.0, 0.0),
    ]
    table = league_standings([1, 2, 3, 4], matches, rules, ["EDE"])
    assert [(x.team, x.rank, x.match_points, x.board_points) for x in table] == [
        (1, 1, 3.0, 3.0),
        (2, 1, 3.0, 3.0),
        (3, 1, 3.0, 3.0),
        (4, 1, 3.0, 3.0),
    ]
    # Team 4 loses its last match 0-2 instead: 1 gets 4 MP; 2, 3 stay on 3 MP, 3 BP; 2 beat 3.
    matches[4] = _played(3, 1, 4, ["1-0", "0-1"], rules)
    table = league_standings([1, 2, 3, 4], matches, rules, ["EDE"])
    assert [(x.team, x.rank) for x in table] == [(1, 1), (2, 2), (3, 3), (4, 4)]
    assert (table[1].values["EDE"], table[2].values["EDE"]) == (1.0, 2.0)
    assert [t.values["EDE"] for t in table if t.team in (1, 4)] == [None, None]


def test_loss_points_and_unfinished_matches():
    rules = LeagueRules(boards=2, match_win=3, match_draw=2, match_loss=1)
    matches = [
        _played(1, 1, 2, ["1-0", "0-1"], rules),  # 2-0 for 1
        PlayedMatch(2, 2, 1, match_outcome([Board(1, result="1-0"), Board(2)], rules)),  # unfinished
    ]
    table = league_standings([1, 2], matches, rules)
    assert [(x.team, x.match_points, x.board_points, x.played) for x in table] == [(1, 3.0, 2.0, 1), (2, 1.0, 0.0, 1)]


# ---------------------------------------------------------------- line-ups


CLUB = [Roster(1, (11, 12, 13, 14), (19,)), Roster(2, (21, 22, 23, 24)), Roster(3, (31, 32, 33, 34))]


def _codes(lineup, team=1, rules=FOUR):
    return [(p.code, p.params.get("player")) for p in check_lineup(lineup, team, CLUB, rules)]


def test_regulars_in_order_and_empty_boards_pass():
    assert _codes([11, 12, 13, 14]) == []
    assert _codes([11, None, 13, 14]) == []
    assert _codes([12, 13, 14, 21]) == []  # a player of the next team plays up on the last board
    assert _codes([11, 12, 14, 19]) == []  # the team's own reserve, below its regulars


def test_roster_order_must_be_kept():
    problems = check_lineup([12, 11, 13, 14], 1, CLUB, FOUR)
    assert [(p.code, p.params) for p in problems] == [
        ("order", {"player": 11, "board": 2, "above": 12, "above_board": 1})
    ]
    assert _codes([21, 11, 12, 13]) == [("order", 11), ("order", 12), ("order", 13)]
    assert _codes([11, 19, 12, 13]) == [("order", 12), ("order", 13)]  # a reserve sits below the regulars


def test_play_up_limit_play_down_and_twice():
    assert _codes([11, 12, 13, 31]) == [("plays_up", 31)]  # two teams up, the limit is one
    assert _codes([11, 12, 13, 31], rules=LeagueRules(boards=4, play_up=2)) == []
    assert _codes([11, 12, 13, 31], rules=LeagueRules(boards=4, play_up=-1)) == []
    assert _codes([11, 12, 13, 21], rules=LeagueRules(boards=4, play_up=0)) == [("plays_up", 21)]
    assert _codes([14, 21, 22, 23], team=2) == [("plays_down", 14)]
    assert _codes([11, 12, 11, 13]) == [("twice", 11)]
    assert _codes([11, 12, 13, 99]) == [("not_rostered", 99)]


def test_too_many_boards_and_reserves():
    assert _codes([11, 12, 13, 14, 21]) == [("boards", None)]
    rules = LeagueRules(boards=4, max_reserves=1)
    assert _codes([11, 12, 19, 21], rules=rules) == [("reserves", None)]  # 19 before 21: the club's order
    assert [p.params for p in check_lineup([11, 12, 21, 22], 1, CLUB, rules)] == [{"count": 2, "limit": 1}]


def test_a_player_cannot_be_a_regular_of_two_teams():
    with pytest.raises(InvalidInput, match="two teams"):
        check_lineup([11], 1, [Roster(1, (11,)), Roster(2, (11,))], FOUR)


# ---------------------------------------------------------------- individual scores


def test_player_scores_count_forfeits_apart_from_games():
    """Player 11 (team 1): board 1 won over the board, board 1 a forfeit win (0-1R turned home's), board
    2 lost: 2 points, 2 games, 1 forfeit, 50 %. Player 21 (team 2) lost the first, forfeited the second.
    Player 12: a win because the other team left board 2 empty. A board in play counts nothing."""
    cards = [
        BoardCard(1, 1, 2, 11, 21, (1.0, 0.0)),
        BoardCard(1, 2, 1, 21, 11, (0.0, 1.0), forfeit=True),
        BoardCard(2, 1, 3, 12, None, (1.0, 0.0)),
        BoardCard(2, 3, 1, 31, 11, (1.0, 0.0)),
        BoardCard(3, 3, 1, 32, 13, None),
    ]
    scores = {(s.player, s.team): s for s in player_scores(cards)}
    eleven = scores[(11, 1)]
    assert (eleven.points, eleven.games, eleven.forfeits, eleven.boards, eleven.percentage) == (
        2.0,
        2,
        1,
        [1, 1, 2],
        50.0,
    )
    assert eleven.per_board == {1: (2.0, 2), 2: (0.0, 1)}  # board 1: 2 of 2; board 2: 0 of 1
    assert (scores[(21, 2)].points, scores[(21, 2)].games, scores[(21, 2)].forfeits) == (0.0, 1, 0)
    assert scores[(12, 1)].per_board == {2: (1.0, 1)}
    assert (scores[(12, 1)].points, scores[(12, 1)].games, scores[(12, 1)].forfeits) == (1.0, 0, 1)
    assert scores[(12, 1)].percentage is None
    assert (32, 3) not in scores and (13, 1) not in scores
    assert [s.player for s in player_scores(cards)][:3] == [11, 12, 31]  # equal points: fewer games first
