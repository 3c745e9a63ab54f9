"""Team tie-breaks (C.07 art. 11-14 for teams) on a small round robin computed by hand.

Four teams of four boards, three rounds; each board as (first team's, second team's) game points.
R1 1-2: 1-0, ½-½, 0-1, 1-0 (2½-1½); 3-4: four draws (2-2).
R2 1-3: 0-1, 0-1, 1-0, 1-0 (2-2); 2-4: 1-0, 1-0, 0-1, ½-½ (2½-1½).
R3 1-4: 0-1, ½-½, ½-½, 0-1 (1-3); 2-3: 1-0, 0-1, 1-0, 0-1 (2-2).
Match points (2/1/0): everyone 3. Game points: 1: 5½, 2: 6, 3: 6, 4: 6½.
"""

from __future__ import annotations

import pytest

from pairing.engines.state import InvalidInput
from pairing.engines.tiebreaks.teams import Bye, Match, TeamCalculator, TeamEvent, parse_team, team_standings

W, D, L = (1.0, 0.0), (0.5, 0.5), (0.0, 1.0)


def _event(rounds: int = 3, primary: str = "MP") -> TeamEvent:
    matches = [
        Match(1, (1, 2), (W, D, L, W)),
        Match(1, (3, 4), (D, D, D, D)),
        Match(2, (1, 3), (L, L, W, W)),
        Match(2, (2, 4), (W, W, L, D)),
        Match(3, (1, 4), (L, D, D, L)),
        Match(3, (2, 3), (W, L, W, L)),
    ]
    return TeamEvent((1, 2, 3, 4), 4, tuple(m for m in matches if m.round <= rounds), primary=primary)


def _values(code: str, event: TeamEvent | None = None) -> dict[int, float | None]:
    calc = TeamCalculator(event or _event())
    return {t: calc.explain(parse_team(code), t).value for t in (1, 2, 3, 4)}


@pytest.mark.rule("C.07 5")
@pytest.mark.rule("C.07 11")
@pytest.mark.rule("C.07 13.1")
def test_match_and_game_points_and_the_secondary_score():
    assert _values("MPTS") == {1: 3, 2: 3, 3: 3, 4: 3}
    assert _values("GPTS") == {1: 5.5, 2: 6, 3: 6, 4: 6.5}
    assert _values("MPVGP") == _values("GPTS")  # primary MP: the secondary score is GP
    assert _values("MPVGP", _event(primary="GP")) == _values("MPTS")
    table = team_standings(_event(), ["MPVGP"])
    assert [(line.team, line.rank) for line in table] == [(4, 1), (2, 2), (3, 2), (1, 4)]
    # Game points as the primary score (C.07 11.1): the same order here, by game points first.
    by_gp = team_standings(_event(primary="GP"), [])
    assert [(line.team, line.points) for line in by_gp] == [(4, 6.5), (2, 6), (3, 6), (1, 5.5)]


@pytest.mark.rule("C.07 13")
@pytest.mark.rule("C.07 13.2")
@pytest.mark.rule("C.07 14")
def test_extended_sonneborn_berger_family():
    """Team 1 met 2 (3 MP, 6 GP; scored 2 MP, 2½ GP), 3 (3 MP, 6 GP; 1 MP, 2 GP) and 4 (3 MP, 6½ GP;
    0 MP, 1 GP)."""
    assert _values("EMMSB")[1] == 3 * 2 + 3 * 1 + 3 * 0
    assert _values("EMGSB")[1] == 3 * 2.5 + 3 * 2 + 3 * 1
    assert _values("EGMSB")[1] == 6 * 2 + 6 * 1 + 6.5 * 0
    assert _values("EGGSB")[1] == 6 * 2.5 + 6 * 2 + 6.5 * 1
    assert _values("ESB:GG") == _values("EGGSB") and _values("ESB") == _values("EMMSB")
    # /C1: the opponent with the lowest game points (2 and 3, 6 each), the lower contribution of
    # those (3's 6 x 2 = 12) is cut.
    assert _values("EGGSB/C1")[1] == 6 * 2.5 + 6.5 * 1
    explained = TeamCalculator(_event()).explain(parse_team("EGGSB/C1"), 1)
    assert [(i.round, i.counted) for i in explained.items] == [(1, True), (2, False), (3, True)]


@pytest.mark.rule("C.07 8.1")
@pytest.mark.rule("C.07 13.4")
def test_team_buchholz_and_sssc():
    """BH on the primary score (MP): 9 for everyone; BH:GP of 1: 6 + 6 + 6½. SSSC of 1: game points 5½
    + BH 9 / factor; the factor: the highest primary score of the tournament, 3 x 2 = 6, over the
    highest secondary score of one match, 4, rounded down: 1. /K2: 5½ + 9 / 2 = 10."""
    assert _values("BH") == {1: 9, 2: 9, 3: 9, 4: 9}
    assert _values("BH:GP")[1] == 18.5
    assert _values("BH:GP/C1")[1] == 12.5
    assert _values("SSSC")[1] == 14.5
    assert _values("SSSC/K2")[1] == 10
    assert _values("SSSC") == {1: 14.5, 2: 15, 3: 15, 4: 15.5}


@pytest.mark.rule("C.07 12")
def test_board_count_top_board_results_and_bottom_board_elimination():
    """Team 1's game points per board over its matches: board 1: 1, board 2: 1, board 3: 1½,
    board 4: 2. BC = 1 + 2 + 4½ + 8 = 15½ (lower ranks higher); TBR compares board 1, then 2, ...;
    BBE all boards but the bottom one (3½), then but the two bottom ones (2), then board 1 (1)."""
    calc = TeamCalculator(_event())
    assert calc.explain(parse_team("BC"), 1).value == 15.5
    tbr = calc.explain(parse_team("TBR"), 1)
    assert (tbr.value, tbr.key) == (1, (1, 1, 1.5, 2))
    bbe = calc.explain(parse_team("BBE"), 1)
    assert (bbe.value, bbe.key) == (3.5, (3.5, 2, 1))
    # Per board: 2: 2, 1½, 2, ½ (BC 13); 3: 1½, 2½, ½, 1½ (BC 14); 4: 1½, 1, 2, 2 (BC 17½).
    assert [calc.explain(parse_team("BC"), t).value for t in (2, 3, 4)] == [13, 14, 17.5]
    assert [line.team for line in team_standings(_event(), ["BC"])] == [2, 3, 1, 4]
    # TBR: board 1 puts 2 first and 1 last; 3 and 4 have 1½ there, board 2 puts 3 (2½) before 4 (1).
    assert [line.team for line in team_standings(_event(), ["TBR"])] == [2, 3, 4, 1]
    # BBE: without board 4: 2: 5½, 3: 4½, 4: 4½, 1: 3½; without boards 3-4: 3: 4 before 4: 2½.
    assert [line.team for line in team_standings(_event(), ["BBE"])] == [2, 3, 4, 1]


@pytest.mark.rule("C.07 12")
def test_a_pairing_allocated_bye_is_a_standard_win_on_every_board():
    event = TeamEvent((1, 2, 3), 2, (Match(1, (1, 2), (W, L)),), (Bye(1, 3, 2.0, 2.0, pairing_allocated=True),))
    calc = TeamCalculator(event)
    assert calc.explain(parse_team("BC"), 3).value == 1 * 1 + 2 * 1
    assert calc.explain(parse_team("BC"), 1).value == 1
    # A bye is no meeting: it adds nothing to anyone's Buchholz or extended Sonneborn-Berger.
    assert calc.explain(parse_team("BH"), 3).value == 0
    assert calc.explain(parse_team("EMGSB"), 1).value == 1 * 1  # 2 has 1 MP, 1 scored 1 GP


@pytest.mark.rule("C.07 13.3")
@pytest.mark.rule("C.07 6")
def test_extended_direct_encounter_and_its_board_stages():
    """All four are tied on match points and all have met. Among them the match points are the
    totals (3 each): no tie broken, so the game points (13.3.1): 4 (6½), 2 and 3 (6), 1 (5½). The new
    subset {2, 3} starts again from the match points (13.3.3): 2-3 was drawn 2-2, tied in both.
    EDE leaves them tied; the knock-out stages of 13.3.2 look at their match (2: boards 1 and 3; 3:
    boards 2 and 4): board count 4 against 6, top board 1 against 0, without the bottom board 2 against 1:
    2 first each time."""
    ranks = {code: [(line.team, line.rank) for line in team_standings(_event(), [code])] for code in ("EDE", "EDEC")}
    assert ranks["EDE"] == [(4, 1), (2, 2), (3, 2), (1, 4)]
    for code in ("EDEC", "EDET", "EDEB", "EDEBT", "EDEBB"):
        table = team_standings(_event(), [code])
        assert [(line.team, line.rank) for line in table] == [(4, 1), (2, 2), (3, 3), (1, 4)], code
    # The value shown: the primary score among the tied.
    assert team_standings(_event(), ["EDE"])[0].values["EDE"] == 3
    # DE alone is the primary score only: all four stay tied.
    assert {line.rank for line in team_standings(_event(), ["DE"])} == {1}


@pytest.mark.rule("C.07 13.3")
@pytest.mark.rule("C.07 6")
def test_a_missing_match_counts_a_win():
    """After two rounds 2 and 3 have 2 match points each and have not met: each could still win the
    missing match (a win's match points, C.07 6.3), so EDE leaves them tied on both scores."""
    table = team_standings(_event(rounds=2), ["EDE", "TPN"])
    assert [(line.team, line.points) for line in table] == [(1, 3), (2, 2), (3, 2), (4, 1)]
    assert [line.rank for line in table] == [1, 2, 3, 4]  # TPN decides
    assert table[1].values["EDE"] == 0


def test_team_codes_are_checked():
    assert parse_team("emgsb/c1").cut == 1 and parse_team("ESB:GM").score == "GM"
    assert parse_team("BH:GP/M1").median == 1 and parse_team("SSSC/K5").factor == 5
    for bad in ("XYZ", "BH:MM", "ESB:MP", "EMGSB/M1", "SSSC/K0", "BC/C1", "TBR:GP"):
        with pytest.raises(InvalidInput):
            parse_team(bad)
    with pytest.raises(InvalidInput):
        TeamEvent((1, 2), 2, (Match(1, (1, 2), (W, W, W)),))
    with pytest.raises(InvalidInput):
        TeamEvent((1, 2), 2, primary="XP")
