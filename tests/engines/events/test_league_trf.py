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
    for rnd in range(1, draw(st.integers(0, 3)) + 1):
        home, away = draw(st.permutations(range(1, n_teams + 1)))[:2]
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


@settings(max_examples=150, deadline=None)
@given(leagues())
def test_generated_leagues_survive_the_round_trip(league):
    text = write_league(league)
    assert parse_league(text) == league
    assert write_league(parse_league(text)) == text


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
    head = data.draw(st.sampled_from(["", "001", "013", "XLS", "XLT", "XTM", "XTC", "XMT", "XBD", "XPC", "XLN"]))
    lines[index] = head + data.draw(st.text(alphabet=" 0123456789-=.abcHAxR½", max_size=60))
    try:
        parse_league("\n".join(lines) + "\n")
    except TrfError as error:
        assert error.reason
