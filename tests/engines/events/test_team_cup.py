"""A team cup (`pairing.engines.team_cup`): the draw of 4, 5, 6 and 8 teams on the knockout's seed groups
(seed 004 §4.9.7), the KNSB cup's board count and the decider, the bracket round by round; cases computed
by hand."""

from __future__ import annotations

import pytest

from pairing.engines.league import Board, Fixture, LeagueRules, match_outcome
from pairing.engines.state import InvalidInput
from pairing.engines.team_cup import (
    Decision,
    board_count,
    cup_bracket,
    cup_decision,
    cup_draw,
    next_fixtures,
    round_name,
    rounds_needed,
    slot_of,
)

SEEDS = range(40)


def _round_one(n: int, method: str, seed: int) -> tuple[list[int], list[frozenset[int]]]:
    """The teams 1..n in seed order drawn: (the teams with a bye, the pairs of round 1)."""
    bracket = cup_bracket(cup_draw(list(range(1, n + 1)), method, seed), {})
    byes = sorted(t.winner for t in bracket[0] if t.bye)
    pairs = [frozenset(t.teams) for t in bracket[0] if not t.bye]
    return byes, pairs


# ---------------------------------------------------------------- the draw


def test_four_teams_seeded_one_and_two_meet_in_the_final_only():
    """Bracket of 4: seeds 1-2 draw lot numbers 1 and 4, seeds 3-4 numbers 2 and 3; round 1 pairs 1-2 and
    3-4, so seed 1 meets seed 3 or 4, seed 2 the other one, and no team has a bye."""
    seen = set()
    for seed in SEEDS:
        lots = cup_draw([1, 2, 3, 4], "order", seed)
        assert {lots[1], lots[2]} == {1, 4} and {lots[3], lots[4]} == {2, 3}
        byes, pairs = _round_one(4, "order", seed)
        assert byes == []
        assert {frozenset({1, 3}), frozenset({2, 4})} == set(pairs) or {
            frozenset({1, 4}),
            frozenset({2, 3}),
        } == set(pairs)
        seen.add(frozenset(pairs))
    assert len(seen) == 2  # both are drawn by lot


def test_five_teams_seeds_one_to_three_have_byes_four_meets_five():
    """Bracket of 8 with 3 empty places, opposite seeds 1, 2, 3: round 1 is the one match of seeds 4 and 5;
    seeds 1 and 2 are in different halves. Worked case: seed 1 lot 1, seed 2 lot 8, seed 3 lot 4, seed 4
    lot 5: the empty places are lots 2, 3 and 7, so seed 5 has lot 6; the semi-finals are seed 1 against
    seed 3 and the winner of 4-5 against seed 2."""
    for seed in SEEDS:
        byes, pairs = _round_one(5, "order", seed)
        assert byes == [1, 2, 3] and pairs == [frozenset({4, 5})]
        lots = cup_draw([1, 2, 3, 4, 5], "order", seed)
        assert (lots[1] <= 4) != (lots[2] <= 4)
    lots = {1: 1, 2: 8, 3: 4, 4: 5, 5: 6}
    bracket = cup_bracket(lots, {(1, 3): 5})
    assert [t.teams for t in bracket[0]] == [(1, None), (None, 3), (4, 5), (None, 2)]
    assert [t.teams for t in bracket[1]] == [(1, 3), (5, 2)]
    assert bracket[2][0].waiting


def test_six_teams_seeds_one_and_two_have_byes():
    """Bracket of 8 with 2 empty places opposite seeds 1 and 2; seeds 3 and 4 (lots 4 and 5) each meet one
    of seeds 5 and 6 in round 1, both arrangements drawn by lot."""
    seen = set()
    for seed in SEEDS:
        byes, pairs = _round_one(6, "order", seed)
        assert byes == [1, 2]
        assert len(pairs) == 2 and all(len(p & {3, 4}) == 1 and len(p & {5, 6}) == 1 for p in pairs)
        seen.add(frozenset(pairs))
    assert len(seen) == 2


def test_eight_teams_seeds_meet_as_late_as_their_seeding():
    """Bracket of 8, no byes: seeds 1-2 draw lots 1 and 8, seeds 3-4 lots 4 and 5, seeds 5-8 lots 2, 3, 6, 7;
    so seeds 1-4 each meet one of seeds 5-8 in round 1, seeds 1 and 2 are in different halves, and so are
    seeds 3 and 4."""
    for seed in SEEDS:
        lots = cup_draw(list(range(1, 9)), "order", seed)
        assert {lots[1], lots[2]} == {1, 8} and {lots[3], lots[4]} == {4, 5}
        assert {lots[t] for t in (5, 6, 7, 8)} == {2, 3, 6, 7}
        byes, pairs = _round_one(8, "order", seed)
        assert byes == [] and all(len(p & {1, 2, 3, 4}) == 1 for p in pairs)
        assert len({slot_of(lots[t], 1) for t in (1, 2, 3, 4)}) == 4  # four different round-1 ties
        assert slot_of(lots[1], 2) != slot_of(lots[2], 2) and slot_of(lots[3], 2) != slot_of(lots[4], 2)


@pytest.mark.parametrize("n", [4, 5, 6, 8])
def test_a_draw_by_lot_places_every_team_once_and_repeats_with_its_seed(n):
    teams = [10 * t for t in range(1, n + 1)]
    size = {4: 4, 5: 8, 6: 8, 8: 8}[n]
    draws = set()
    for seed in SEEDS:
        lots = cup_draw(teams, "lot", seed)
        assert sorted(lots) == teams and len(set(lots.values())) == n and set(lots.values()) <= set(range(1, size + 1))
        bracket = cup_bracket(lots, {})
        assert sum(t.bye for t in bracket[0]) == size - n
        assert all(t.teams != (None, None) for t in bracket[0])
        assert cup_draw(teams, "lot", seed) == lots
        draws.add(tuple(sorted(lots.items())))
    assert len(draws) > 5
    # by lot the byes go to any team, not always to the first ones listed
    if n in (5, 6):
        bye_teams = set()
        for seed in SEEDS:
            bye_teams |= {t.winner for t in cup_bracket(cup_draw(teams, "lot", seed), {})[0] if t.bye}
        assert len(bye_teams) == n


def test_bad_draws_are_refused():
    with pytest.raises(InvalidInput):
        cup_draw([1, 2], "swiss", 1)
    with pytest.raises(InvalidInput):
        cup_draw([1, 1, 2], "lot", 1)
    with pytest.raises(InvalidInput):
        cup_draw([1], "lot", 1)
    with pytest.raises(InvalidInput):
        cup_bracket({1: 1, 2: 1}, {})


def test_rounds_and_their_names():
    assert [rounds_needed(n) for n in (2, 3, 4, 5, 8, 9, 16)] == [1, 2, 2, 3, 3, 4, 4]
    assert [round_name(r, 4) for r in (1, 2, 3, 4)] == [
        ("round of", 16),
        ("quarter-final", 8),
        ("semi-final", 4),
        ("final", 2),
    ]


# ---------------------------------------------------------------- a match's winner


def _outcome(*points: tuple[float, float], forfeit: str = ""):
    """A finished match of len(points) boards with each board's (home, away) points; the home team has
    White on the odd boards."""
    code = {(1.0, 0.0): "1-0", (0.0, 1.0): "0-1", (0.5, 0.5): "½-½"}
    boards = []
    for n, (h, a) in enumerate(points, start=1):
        white = (h, a) if n % 2 else (a, h)
        boards.append(Board(n, forfeit != "home", forfeit != "away", code[white]))
    return match_outcome(boards, LeagueRules(boards=len(points), format="cup"))


def test_more_board_points_win():
    assert cup_decision(_outcome((1, 0), (1, 0), (0, 1), (0.5, 0.5))) == Decision("home", "points", 2.5, 1.5)
    assert cup_decision(_outcome((0, 1), (0, 1), (0.5, 0.5), (1, 0))).winner == "away"


def test_board_count_strikes_the_lowest_board_until_one_team_is_ahead():
    """2-2: strike board 4 (lost by home): boards 1-3 are 2-1 for home."""
    assert cup_decision(_outcome((1, 0), (0, 1), (1, 0), (0, 1))) == Decision("home", "boards", 2.0, 1.0, 1)
    # ½ 1 0 ½ : 2-2; without board 4 1½-1½; without boards 3-4: 1½-½ for home
    assert cup_decision(_outcome((0.5, 0.5), (1, 0), (0, 1), (0.5, 0.5))) == Decision("home", "boards", 1.5, 0.5, 2)
    # 0 1 ½ ½ : level on boards 1-4, 1-3 and 1-2; board 1 alone decides for away
    assert cup_decision(_outcome((0, 1), (1, 0), (0.5, 0.5), (0.5, 0.5))) == Decision("away", "boards", 0.0, 1.0, 3)
    # 8 boards, 4-4: boards 1-4 drawn, home lost 5 and 7, won 6 and 8; without board 8 it is 3-4
    eight = ((0.5, 0.5), (0.5, 0.5), (0.5, 0.5), (0.5, 0.5), (0, 1), (1, 0), (0, 1), (1, 0))
    assert board_count(match_outcome_boards(eight)) == ("away", 1, 3.0, 4.0)


def match_outcome_boards(points):
    return _outcome(*points).boards


def test_level_on_every_board_needs_the_decider():
    drawn = _outcome((0.5, 0.5), (0.5, 0.5), (0.5, 0.5), (0.5, 0.5))
    assert cup_decision(drawn) == Decision("", "", 2.0, 2.0, needs_decider=True)
    assert board_count(drawn.boards) == ("", 3, 0.5, 0.5)
    assert cup_decision(drawn, "boards", "lot", "away") == Decision("away", "lot", 2.0, 2.0)
    assert cup_decision(drawn, "boards", "blitz", "home") == Decision("home", "blitz", 2.0, 2.0)


def test_without_the_board_count_a_level_match_goes_to_the_decider():
    level = _outcome((1, 0), (0, 1), (1, 0), (0, 1))
    assert cup_decision(level, "decider").needs_decider
    assert cup_decision(level, "decider", "blitz", "away") == Decision("away", "blitz", 2.0, 2.0)


def test_a_chosen_decider_does_not_overrule_the_boards():
    assert cup_decision(_outcome((1, 0), (0, 1), (1, 0), (0, 1)), "boards", "lot", "away").winner == "home"
    assert cup_decision(_outcome((1, 0), (1, 0), (1, 0), (0, 1)), "decider", "lot", "away").winner == "home"


def test_a_team_that_fields_nobody_loses_and_an_unfinished_match_has_no_winner():
    assert cup_decision(_outcome((1, 0), (1, 0), forfeit="home")).how == "forfeit"
    assert cup_decision(_outcome((1, 0), (1, 0), forfeit="home")).winner == "away"
    unfinished = match_outcome([Board(1, result="1-0"), Board(2)], LeagueRules(boards=2))
    assert cup_decision(unfinished) == Decision("")
    with pytest.raises(InvalidInput):
        cup_decision(unfinished, "coin")


# ---------------------------------------------------------------- the bracket round by round


def test_bracket_progression_with_home_teams():
    """Five teams with lots 1 (A=1), 8 (B=2), 4 (C=3), 5 (D=4), 6 (E=5). Round 1: D-E (D higher in the
    bracket), the rest byes; E wins. Round 2: A-C and E-B, nobody but D has played at home, so the team higher
    in the bracket is at home. A and B win; the final A-B: A has played at home once, B not, so B is at home."""
    lots = {1: 1, 2: 8, 3: 4, 4: 5, 5: 6}
    bracket = cup_bracket(lots, {})
    assert next_fixtures(bracket, 1, {}) == [Fixture(1, 4, 5)]
    with pytest.raises(InvalidInput):
        next_fixtures(bracket, 2, {})
    bracket = cup_bracket(lots, {(1, 3): 5})
    assert next_fixtures(bracket, 2, {4: 1}) == [Fixture(2, 1, 3), Fixture(2, 5, 2)]
    bracket = cup_bracket(lots, {(1, 3): 5, (2, 1): 1, (2, 2): 2})
    assert next_fixtures(bracket, 3, {4: 1, 1: 1, 5: 1}) == [Fixture(3, 2, 1)]
    assert next_fixtures(bracket, 3, {4: 1, 1: 1, 5: 1, 2: 1}) == [Fixture(3, 1, 2)]
    bracket = cup_bracket(lots, {(1, 3): 5, (2, 1): 1, (2, 2): 2, (3, 1): 2})
    assert bracket[-1][0].winner == 2
    with pytest.raises(InvalidInput):
        cup_bracket(lots, {(1, 3): 1})  # team 1 does not play that tie
    with pytest.raises(InvalidInput):
        next_fixtures(bracket, 4, {})


def test_a_cups_lot_numbers_and_deciders_in_its_trf_file():
    """`XCL team lot` and `XCD round home away side` carry what only a cup has; read back, they are equal."""
    from datetime import date

    from pairing.engines.league_trf import (
        LeagueBoard,
        LeagueFile,
        LeagueMatch,
        LeaguePlayer,
        LeagueTeam,
        parse_league,
        write_league,
    )

    players = tuple(LeaguePlayer(n, f"Speler {n}", "alfa" if n < 3 else "beta") for n in range(1, 5))
    teams = (LeagueTeam(1, "Alfa 1", "alfa", 1, (1, 2), lot=2), LeagueTeam(2, "Beta 1", "beta", 1, (3, 4), lot=1))
    boards = (LeagueBoard(1, 1, 3, "½-½"), LeagueBoard(2, 2, 4, "½-½"))
    matches = (LeagueMatch(1, 1, 2, date(2026, 10, 3), True, True, boards, "away"),)
    cup = LeagueFile("Beker", "beker", LeagueRules(boards=2, format="cup"), ("EDE",), players, teams, matches)
    text = write_league(cup)
    assert "XCL   1   2" in text.splitlines() and "XCD   1   1   2 away" in text.splitlines()
    assert parse_league(text) == cup
    with pytest.raises(InvalidInput):
        parse_league(text.replace("XCD   1   1   2 away", "XCD   1   1   2 both"))
