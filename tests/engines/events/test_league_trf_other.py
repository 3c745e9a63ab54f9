"""Team files of other programs read as a league (`pairing.engines.league_trf_other`, trf.md §2, §3, §5):
a TRF-16 file with `013` team lines and `001` games rebuilds the teams, the rounds and the matches; what
cannot be read is refused naming its line; random input gives a league or a `TrfError`, nothing else."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pairing.engines.league_trf import LeagueBoard, parse_league, write_league
from pairing.engines.league_trf_other import read_league, slugify
from pairing.engines.trf import TrfError

# A double round robin of 4 teams of 4 boards, as another program writes it: no X-lines, the home team
# (first-named) with White on boards 1 and 3. Round 2: Pion plays its reserve Quinten (17, fifth on its
# 013 line) on board 4; Toren leaves board 4 empty against Caissa 2 (Piet's `0000 - +`). Round 3: board
# 3 a forfeit (Kees `+`, Cees `-`). Round 6: Toren does not come to Caissa 1 (the `330` line).
REGIO = (Path(__file__).parent / "data" / "regio_teams.trf").read_text(encoding="utf-8")


def test_the_teams_rounds_and_matches_are_rebuilt():
    league = read_league(REGIO, "regio.trf")
    assert (league.name, league.slug) == ("Regional league 2026", "regional-league-2026")
    assert (league.rules.boards, league.rules.cycles, league.rules.home_white) == (4, 2, "odd")
    assert [(t.name, t.club, t.rank, t.regulars) for t in league.teams] == [
        ("Caissa 1", "caissa", 1, (1, 2, 3, 4)),
        ("Pion", "pion", 1, (5, 6, 7, 8, 17)),
        ("Toren 1", "toren", 1, (9, 10, 11, 12)),
        ("Caissa 2", "caissa", 2, (13, 14, 15, 16)),
    ]
    assert {(p.number, p.name, p.club) for p in league.players if p.number in (1, 8, 17)} == {
        (1, "Anna Aa", "caissa"),
        (8, "Hans Ho", "pion"),
        (17, "Quinten Qu", "pion"),
    }
    # Home first: the team with White on board 1 (Anna, 1, White against Mark, 13, in round 1).
    assert [(m.round, m.home, m.away) for m in league.matches] == [
        (1, 1, 4), (1, 2, 3), (2, 1, 2), (2, 4, 3), (3, 3, 1), (3, 2, 4),
        (4, 4, 1), (4, 3, 2), (5, 2, 1), (5, 3, 4), (6, 1, 3), (6, 4, 2),
    ]  # fmt: skip
    by_key = {(m.round, m.home): m for m in league.matches}
    # Board 4 of Caissa 1 - Pion: Pion's reserve Quinten, White on the even board, beats Dirk: 1-0 White-Black.
    assert by_key[2, 1].boards[3] == LeagueBoard(4, 4, 17, "1-0")
    assert by_key[2, 1].boards[0] == LeagueBoard(1, 1, 5, "1-0")  # Anna (White) beats Eva
    # Toren left board 4 empty against Caissa 2; its line-up is in (three boards filled).
    assert by_key[2, 4].boards[3] == LeagueBoard(4, 16, None, "")
    assert by_key[2, 4].boards[1] == LeagueBoard(2, 14, 10, "1-0")  # Jan (White on board 2) beats Nel
    assert by_key[3, 3].boards[2] == LeagueBoard(3, 11, 3, "1-0R")  # Kees (White) wins by forfeit
    forfeited = by_key[6, 1]
    assert (forfeited.home_lineup, forfeited.away_lineup) == (True, True)
    assert [(b.home, b.away) for b in forfeited.boards] == [(1, None), (2, None), (3, None), (4, None)]


def test_a_forfeit_without_colours_takes_the_colours_of_its_board():
    """Round 3, board 3 of Toren - Caissa 1 written without colours (`-`, as a forfeit may be): the home
    team has White on the odd board, so Kees (home) won it by forfeit as White: 1-0R, as with colours."""
    text, _ = _with(
        REGIO,
        ("001    3", _line("001    3").replace("11 b -", "11 - -")),
        ("001   11", _line("001   11").replace(" 3 w +", " 3 - +")),
    )
    match = next(m for m in read_league(text).matches if (m.round, m.home) == (3, 3))
    assert match.boards[2] == LeagueBoard(3, 11, 3, "1-0R")


DATES = ["26/10/03", "26/11/07", "26/12/05", "27/01/16", "27/02/13", "2027/03/13"]


def test_the_round_dates_of_a_132_line_date_the_matches():
    """TRF-16 `132`: round r's date at columns 92+10(r-1) to 99+10(r-1), YY/MM/DD."""
    line = "132" + " " * 88 + "".join(f"{d:<10}" for d in DATES)
    assert line[91:99] == "26/10/03" and line[101:109] == "26/11/07"
    league = read_league(_with(REGIO, ("092", line))[0])
    assert {(m.round, m.date.isoformat()) for m in league.matches} == {
        (1, "2026-10-03"), (2, "2026-11-07"), (3, "2026-12-05"), (4, "2027-01-16"), (5, "2027-02-13"),
        (6, "2027-03-13"),
    }  # fmt: skip
    assert read_league(write_league(league)) == league
    bad = line.replace("26/12/05", "26/13/05")
    with pytest.raises(TrfError) as error:
        read_league(_with(REGIO, ("092", bad))[0])
    assert error.value.line == 2 and "round 3: '26/13/05' in columns 112-119 is no date" in error.value.reason


def test_the_league_is_written_as_its_own_file_and_read_back():
    league = read_league(REGIO)
    text = write_league(league)
    assert "330 +-   6   1   3" in text
    assert read_league(text) == parse_league(text) == league


def _with(text: str, *changes: tuple[str, str]) -> tuple[str, int]:
    """`text` with, for each (old, new), the first line starting with `old` replaced by `new`; and the
    number of the first line replaced."""
    lines = text.splitlines()
    numbers = []
    for old, new in changes:
        index = next(i for i, line in enumerate(lines) if line.startswith(old))
        lines[index] = new
        numbers.append(index + 1)
    return "\n".join(lines) + "\n", numbers[0]


ANNA = "001    1 m    Aa, Anna                          1510 NED                         6.0      "
BERT = "001    2 m    Bo, Bert                          1520 NED                         3.5      "


def _line(start: str) -> str:
    return next(line for line in REGIO.splitlines() if line.startswith(start))


PION = "013 Pion                               5    6    7    8"


@pytest.mark.parametrize(
    ("changes", "reason", "line"),
    [
        ([("013 Pion", PION + "   99")], "no player has starting rank 99", None),
        ([("013 Pion", PION + "    1")], "player 1 is on two teams", None),
        ([("013 Pion", PION)], "player 17 is on no team's 013 line", 19),  # Quinten's own line
        ([("013 Pion", PION + "   1x")], "member in columns 57-60", None),
        ([("013 Pion", "013 " + " " * 32 + PION[36:])], "needs a name", None),
        (
            [("013 Caissa 2", "013 Caissa 1                          13   14   15   16")],
            "two teams called Caissa 1",
            None,
        ),
        ([("001    1", ANNA + "   14 w 1     5 w 1")], "round 1: player 14 does not play 1", None),
        (
            [("001   17", _line("001   17").replace("0000 - Z     4", "   1 b 0     4", 1))],
            "player 1 does not play 17",
            None,
        ),
        ([("001    1", ANNA + "   13 b 1     5 w 1")], "colours 'b' and 'b' of one game", None),
        ([("001    1", ANNA + "   13 w =     5 w 1")], "results '=' and '0' of one game", None),
        ([("001    1", ANNA + "    2 w 1"), ("001    2", BERT + "    1 b 0")], "players of one team meet", None),
        (
            [
                ("001    2", _line("001    2").replace("14 b =", "14 w =")),
                ("001   14", _line("001   14").replace(" 2 w =", " 2 b =")),
            ],
            "colours do not alternate by board",
            None,
        ),
        ([("330", "330 +-   6   1   2")], "team 2 plays two matches (the other on line 24)", 7),
        ([("330", "330 -+   6   1   3")], "a team that forfeited the match has players", None),
        ([("092", "330 +-   1   4   1")], "round 1: team 4 has Black on board 1", None),
        ([("330", "330 +-   6   1   9")], "not two of the 4 teams", None),
        ([("330", "330 +-   6")], "team in columns 12-14", None),
        ([("330", "330 +=   6   1   3")], "a forfeited match is", None),
        ([("092", "320  0.0  0.0   2")], "team 2 is listed without a match in round 1, but plays", None),
    ],
)
def test_what_cannot_be_read_is_refused_naming_its_line(changes, reason, line):
    text, line_no = _with(REGIO, *changes)
    with pytest.raises(TrfError) as error:
        read_league(text, "regio.trf")
    assert reason in error.value.reason
    assert error.value.line == (line or line_no)
    assert str(error.value).startswith(f"regio.trf:{line or line_no}: ")


def test_a_forfeit_win_without_an_opponent_team_is_refused():
    """Without the `330` line Caissa 1's `0000 - +` in round 6 names no match: refused on Anna's line."""
    text = "".join(line + "\n" for line in REGIO.splitlines() if not line.startswith("330"))
    with pytest.raises(TrfError) as error:
        read_league(text)
    assert error.value.line == 3 and "round 6: team 1 has no opponent" in error.value.reason


def test_a_file_without_teams_or_name_is_refused():
    with pytest.raises(TrfError, match="needs its name"):
        read_league("013 Alfa                             1\n001    1      Nobody\n")
    with pytest.raises(TrfError, match="needs its name"):  # no 013 lines: not a team file
        read_league("012 Open\n001    1      Nobody\n")
    assert slugify("Schaakclub 't Pionnetje") == "schaakclub-t-pionnetje"


LINE_HEADS = ["", "001", "013", "012", "132", "320", "330", "XLN", "001    1", "013 Pion      "]


@settings(max_examples=400, deadline=None)
@given(st.data())
def test_random_input_is_read_or_refused_never_crashes(data):
    """Random lines, and the good file with any line replaced by random text: a league or a `TrfError`."""
    alphabet = " 0123456789-+=wbWBDLZHFU.abcxR½\t"
    if data.draw(st.booleans()):
        lines = REGIO.splitlines()
        index = data.draw(st.integers(0, len(lines) - 1))
        lines[index] = data.draw(st.sampled_from(LINE_HEADS)) + data.draw(st.text(alphabet=alphabet, max_size=130))
    else:
        heads = st.sampled_from(LINE_HEADS)
        lines = data.draw(
            st.lists(st.tuples(heads, st.text(alphabet=alphabet, max_size=120)).map("".join), max_size=12)
        )
    try:
        read_league("\n".join(lines) + "\n")
    except TrfError as error:
        assert error.reason
