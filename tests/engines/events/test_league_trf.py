"""A team league as a TRF and back (`pairing.engines.league_trf`): generated leagues survive the round
trip, the TRF-16 and TRF-2026 team records sit in their columns, and a hostile file is refused with the
line that is wrong."""

from __future__ import annotations

from datetime import date

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pairing.engines.league import LeagueRules, board_colours
from pairing.engines.league_trf import (
    LeagueBoard,
    LeagueFile,
    LeagueMatch,
    LeaguePlayer,
    LeagueTeam,
    forfeit_type,
    free_teams,
    parse_league,
    write_league,
)
from pairing.engines.trf import TrfError, parse

RESULTS = ["", "1-0", "½-½", "0-1", "1-0R", "0-1R", "0-0R"]


def small_league() -> LeagueFile:
    """Two teams of two boards; home White on board 1. Round 1: A1-B1 1-0, A2 against an empty board."""
    players = (
        LeaguePlayer(1, "Anna Alfa", "alfa", 2100, "1234567", "NED", "WFM", "w"),
        LeaguePlayer(2, "Bert Alfa", "alfa"),
        LeaguePlayer(3, "Cees Beta", "beta", 1900),
        LeaguePlayer(4, "Dirk Beta", "beta"),
    )
    teams = (LeagueTeam(1, "Alfa 1", "alfa", 1, (1,), (2,), 2), LeagueTeam(2, "Beta 1", "beta", 1, (3, 4)))
    boards = (LeagueBoard(1, 1, 3, "1-0"), LeagueBoard(2, 2, None, ""))
    matches = (LeagueMatch(1, 1, 2, date(2026, 10, 3), True, True, boards), LeagueMatch(2, 2, 1, None))
    return LeagueFile("Regio", "regio", LeagueRules(boards=2), ("EDE", "BBE"), players, teams, matches)


def test_the_records_sit_in_their_columns():
    text = write_league(small_league())
    lines = text.splitlines()
    team = next(line for line in lines if line.startswith("013"))
    assert team[4:36].strip() == "Alfa 1" and team[36:40] == "   1" and team[41:45] == "   2"
    new = next(line for line in lines if line.startswith("310"))
    assert new[4:7] == "  1" and new[8:40].strip() == "Alfa 1" and new[73:77] == "   1" and new[78:82] == "   2"
    doc = parse(text)
    anna, bert, cees = doc.players[0], doc.players[1], doc.players[2]
    # Board 1: the home team's Anna has White and wins; Cees has Black and loses.
    assert (anna.rounds[0].opponent, anna.rounds[0].colour, anna.rounds[0].result, anna.points) == (3, "w", "1", 1.0)
    assert (cees.rounds[0].opponent, cees.rounds[0].colour, cees.rounds[0].result, cees.points) == (1, "b", "0", 0.0)
    # Board 2 left empty by the away team: a forfeit win against no opponent (TRF-2026).
    assert bert.rounds[0].text() == "0000 - +" and bert.points == 1.0
    assert anna.fide_id == "1234567" and anna.title == "WFM" and anna.rating == 2100


def test_a_small_league_survives_the_round_trip():
    league = small_league()
    assert parse_league(write_league(league)) == league


def three_teams() -> LeagueFile:
    """Three teams of two boards: a team is off each round. Round 1: Alfa-Beta 1-0 and 0-1 (Gamma off);
    round 2: Gamma forfeits against Alfa (its line-up in, nobody on a board; Beta off); round 3: Beta
    and Gamma both forfeit (Alfa off)."""
    players = tuple(LeaguePlayer(n, f"Player {n}", club, None) for n, club in
                    ((1, "alfa"), (2, "alfa"), (3, "beta"), (4, "beta"), (5, "gamma")))  # fmt: skip
    teams = (
        LeagueTeam(1, "Alfa 1", "alfa", 1, (1, 2)),
        LeagueTeam(2, "Beta 1", "beta", 1, (3, 4)),
        LeagueTeam(3, "Gamma 1", "gamma", 1, (5,)),
    )
    matches = (
        LeagueMatch(1, 1, 2, None, True, True, (LeagueBoard(1, 1, 3, "1-0"), LeagueBoard(2, 2, 4, "0-1"))),
        LeagueMatch(2, 1, 3, None, True, True, (LeagueBoard(1, 1, None), LeagueBoard(2, 2, None))),
        LeagueMatch(3, 2, 3, None, True, True),
    )
    return LeagueFile("Drie", "drie", LeagueRules(boards=2), (), players, teams, matches)


def test_team_byes_and_forfeited_matches_sit_in_their_columns():
    """TRF-2026 `320`: match points 5-8, board points 10-13, the team off in round r at 15+4(r-1);
    `330`: type 5-6, round 8-10, the first-named team 12-14, the other 16-18."""
    lines = write_league(three_teams()).splitlines()
    (bye,) = [line for line in lines if line.startswith("320")]
    assert bye == "320  0.0  0.0   3   2   1"
    assert (bye[4:8], bye[9:13], bye[14:17], bye[18:21], bye[22:25]) == (" 0.0", " 0.0", "  3", "  2", "  1")
    forfeits = [line for line in lines if line.startswith("330")]
    assert forfeits == ["330 +-   2   1   3", "330 --   3   2   3"]
    assert [(f[4:6], f[7:10], f[11:14], f[15:18]) for f in forfeits] == [("+-", "  2", "  1", "  3"),
                                                                          ("--", "  3", "  2", "  3")]  # fmt: skip


def test_team_byes_and_forfeits_survive_the_round_trip():
    league = three_teams()
    assert parse_league(write_league(league)) == league


@pytest.mark.parametrize(
    ("start", "new", "reason"),
    [
        ("320", "320  0.0  0.0   1   2   1", "team 1 is listed without a match in round 1, but plays"),
        ("320", "320  0.0  x.0   3", "board points in columns 10-13"),
        ("320", "320  0.0  0.0   7", "team 7: not one of the 3 teams"),
        ("320", "320  0.0  0.0   3x  2", "unexpected text in column 18"),
        ("330 +-", "330 -+   2   1   3", "was not forfeited -+"),
        ("330 +-", "330 +-   1   1   2", "teams 1 and 2 in round 1 was not forfeited"),
        ("330 +-", "330 ++   2   1   3", "a forfeited match is"),
        ("330 +-", "330 +-   2   1   x", "team in columns 16-18"),
    ],
)
def test_a_wrong_team_bye_or_forfeit_names_its_line(start, new, reason):
    text, line_no = _replace(write_league(three_teams()), start, new)
    with pytest.raises(TrfError) as error:
        parse_league(text)
    assert reason in error.value.reason and error.value.line == line_no


def test_a_file_without_team_byes_or_forfeits_is_still_read():
    """Files written before the `320` and `330` lines: the matches say it all."""
    text = "".join(line + "\n" for line in write_league(three_teams()).splitlines() if line[:3] not in ("320", "330"))
    assert parse_league(text) == three_teams()


@st.composite
def leagues(draw) -> LeagueFile:
    n_boards = draw(st.integers(1, 4))
    rules = LeagueRules(boards=n_boards, home_white=draw(st.sampled_from(["odd", "even"])))
    n_teams = draw(st.integers(2, 4))
    names = st.text(alphabet="abcdefghijklmnopqrstuvwxyz ", min_size=1, max_size=20).map(str.strip).filter(bool)
    players, teams = [], []
    for t in range(1, n_teams + 1):
        size = draw(st.integers(0, n_boards + 1))
        numbers = tuple(range(len(players) + 1, len(players) + size + 1))
        for n in numbers:
            players.append(
                LeaguePlayer(n, draw(names).title() + f" {n}", f"club{t}", draw(st.none() | st.integers(1000, 2800)))
            )
        regulars = draw(st.integers(0, size))
        teams.append(
            LeagueTeam(t, f"Team {t}", f"club{t}", draw(st.integers(1, 3)), numbers[:regulars], numbers[regulars:])
        )
    matches = []
    for rnd, home, away in [
        (rnd, *pair)
        for rnd in range(1, draw(st.integers(0, 3)) + 1)
        for pair in _pairs(draw(st.permutations(range(1, n_teams + 1))), draw(st.integers(1, n_teams // 2)))
    ]:
        day = draw(st.none() | st.dates(date(2020, 1, 1), date(2030, 12, 31)))
        squads = [
            teams[home - 1].regulars + teams[home - 1].reserves,
            teams[away - 1].regulars + teams[away - 1].reserves,
        ]
        boards = []
        if draw(st.booleans()):
            for b in range(1, n_boards + 1):
                h = squads[0][b - 1] if b <= len(squads[0]) and draw(st.booleans()) else None
                a = squads[1][b - 1] if b <= len(squads[1]) and draw(st.booleans()) else None
                result = draw(st.sampled_from(RESULTS)) if h and a else ""
                boards.append(LeagueBoard(b, h, a, result))
        matches.append(LeagueMatch(rnd, home, away, day, draw(st.booleans()), draw(st.booleans()), tuple(boards)))
    tiebreaks = tuple(draw(st.lists(st.sampled_from(["EDE", "DE", "BBE", "EMGSB"]), max_size=3, unique=True)))
    return LeagueFile(draw(names), "league-x", rules, tiebreaks, tuple(players), tuple(teams), tuple(matches))


def _pairs(order: list[int], count: int) -> list[tuple[int, int]]:
    """The first `count` pairs of `order` (teams in a round's matches, each team in one match)."""
    return [(order[2 * i], order[2 * i + 1]) for i in range(count)]


@settings(max_examples=150, deadline=None)
@given(leagues())
def test_generated_leagues_survive_the_round_trip(league):
    text = write_league(league)
    assert parse_league(text) == league
    assert write_league(parse_league(text)) == text
    # The team records of TRF-2026: each round's teams without a match (320), each forfeited match (330).
    rounds = max((m.round for m in league.matches), default=0)
    expected_off = {
        (r, t.number)
        for r in range(1, rounds + 1)
        for t in league.teams
        if not any(m.round == r and t.number in (m.home, m.away) for m in league.matches)
    }
    off = set()
    for line in (line for line in text.splitlines() if line.startswith("320")):
        off |= {(r, int(line[14 + 4 * (r - 1) : 17 + 4 * (r - 1)])) for r in range(1, rounds + 1)
                if line[14 + 4 * (r - 1) : 17 + 4 * (r - 1)].strip()}  # fmt: skip
    assert off == expected_off
    forfeits = set()
    for m in league.matches:
        home_none = m.home_lineup and all(b.home is None for b in m.boards)
        away_none = m.away_lineup and all(b.away is None for b in m.boards)
        if home_none or away_none:
            forfeits.add(
                f"330 {'-' if home_none else '+'}{'-' if away_none else '+'} {m.round:>3} {m.home:>3} {m.away:>3}"
            )
    assert {line for line in text.splitlines() if line.startswith("330")} == forfeits
    assert {(r, t) for r, teams in free_teams(league).items() for t in teams} == expected_off
    assert all((forfeit_type(m) != "") == any(f"{m.round:>3} {m.home:>3} {m.away:>3}" in f for f in forfeits)
               for m in league.matches)  # fmt: skip


def _replace(text: str, start: str, new: str) -> tuple[str, int]:
    """`text` with its first line that starts with `start` replaced by `new`, and that line's number."""
    lines = text.splitlines()
    index = next(i for i, line in enumerate(lines) if line.startswith(start))
    lines[index] = new
    return "\n".join(lines) + "\n", index + 1


@pytest.mark.parametrize(
    ("start", "new", "reason"),
    [
        ("XBD", "XBD   1   1   2  1    1    3 2-0", "result '2-0'"),
        ("XBD", "XBD   1   1   2  9    1    3 1-0", "board 9 of a match of 2 boards"),
        ("XBD", "XBD   1   1   2  1    1   77 1-0", "no player has starting rank 77"),
        ("XBD", "XBD   1   1   2  1    1    3 0-1", "disagree with the boards"),
        ("XBD   1   1   2  2", "XBD   1   1   2  2    1    0 *", "player 1 already plays in round 1 (line"),
        ("XMT", "XMT   1   1   2 2026-13-01 HA", "no date"),
        ("XMT   2", "XMT   2   2   5 - -", "not two of the 2 teams"),
        ("XLS", "XLS boards=2 match_draw=3.0", "a draw"),
        ("XLT", "XLT EDE NOPE", "NOPE is no team tie-break"),
        ("XTM", "XTM   1 alfa 1", "needs 4 fields"),
        ("XTC", "XTC   1   99", "no player has starting rank 99"),
        ("013 Beta", "013 " + "Alfa 1".ljust(32) + "   3    4", "two teams called Alfa 1"),
        ("013 Beta", "013 " + "Beta 1".ljust(32) + "   3    3", "twice on the roster"),
        ("XTC", "XTC   7    1", "team 7 has no 013 line"),
        ("013", "013 " + "Alfa 1".ljust(32) + "   x", "member in columns"),
        ("001    1", "001    x", "pairing number"),
    ],
)
def test_a_hostile_file_names_the_line(start, new, reason):
    text, line_no = _replace(write_league(small_league()), start, new)
    with pytest.raises(TrfError) as error:
        parse_league(text, "upload.trf")
    assert reason in error.value.reason
    if "disagree" in reason:  # the player line that the changed board contradicts
        assert error.value.line is not None
    else:
        assert error.value.line == line_no


def test_a_file_without_a_league_is_refused():
    with pytest.raises(TrfError, match="needs its name"):
        parse_league("012 Something\n001    1      Nobody\n")
    assert board_colours(2) == (True, False)


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_a_damaged_file_is_read_or_refused_never_crashes(data):
    """Any one line of a good file replaced by any text: the result is a league or a `TrfError`."""
    lines = write_league(small_league()).splitlines()
    index = data.draw(st.integers(0, len(lines) - 1))
    head = data.draw(
        st.sampled_from(["", "001", "013", "320", "330", "XLS", "XLT", "XTM", "XTC", "XMT", "XBD", "XPC", "XLN"])
    )
    lines[index] = head + data.draw(st.text(alphabet=" 0123456789-=.abcHAxR½", max_size=60))
    try:
        parse_league("\n".join(lines) + "\n")
    except TrfError as error:
        assert error.reason
