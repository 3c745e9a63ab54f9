"""TRF reading and writing (docs/trf.md, shared reference trf.md §2-§10) against the Dutch corpus."""

import json

import pytest

from pairing.engines.state import Board, Bye, Colour, Kind, Pairing
from pairing.engines.trf import (
    PlayerLine,
    TrfError,
    document_from_state,
    parse,
    read_file,
    read_state,
    state_from_document,
    write,
)
from tests.shared_data import DUTCH_CORPUS, data_files

CORPUS = DUTCH_CORPUS
CORPUS_FILES = data_files(CORPUS, "*.trf")


def player(number: int, points: str, *rounds: str, rating: int = 2000) -> str:
    """A 001 line in TRF16 columns, written out by hand: rounds as 'OOOO c r'."""
    name = f"Player {number}"
    head = f"001 {number:>4}      {name:<33} {rating:>4} {'':3} {'':>11} {'':10} {points:>4} {'':>4}"
    return (head + "".join("  " + r for r in rounds)).rstrip()


def trf(*lines: str, newline: str = "\n") -> str:
    return newline.join(lines) + newline


# Four players, two rounds played; player 4 asked for a half-point bye in round 3.
SMALL = [
    "012 Club championship",
    player(1, "1.5", "   3 w 1", "   2 b ="),
    player(2, "1.5", "   4 b 1", "   1 w ="),
    player(3, "0.0", "   1 b 0", "   4 w -"),
    player(4, "1.5", "   2 w 0", "   3 b +", "0000 - H"),
    "XXR 5",
    "XXC black1",
]


def _normalise(text: str) -> list[str]:
    return text.replace("\r\n", "\n").replace("\r", "\n").split("\n")


# --------------------------------------------------------------------- corpus


def test_corpus_is_there():
    assert len(CORPUS_FILES) >= 80


@pytest.mark.parametrize("path", CORPUS_FILES, ids=lambda p: p.stem)
def test_corpus_round_trip(path):
    text = read_file(str(path))
    doc = parse(text, str(path))
    out = write(doc)
    original, written = _normalise(text), _normalise(out)
    assert len(original) == len(written)
    for a, b in zip(original, written, strict=True):
        if a.startswith("001"):
            # the rank column (86-89) aside, the player line is the same
            assert (a[:85] + a[89:]).rstrip() == (b[:85] + b[89:]).rstrip()
        else:
            assert a == b
    again = parse(out, "again")
    assert [(p.number, p.name, p.rating, p.points, p.rounds) for p in again.players] == [
        (p.number, p.name, p.rating, p.points, p.rounds) for p in doc.players
    ]
    # the line ending of the file is kept
    assert out.count("\r\n") == text.count("\r\n") and out.count("\r") == text.count("\r")


@pytest.mark.parametrize("path", CORPUS_FILES, ids=lambda p: p.stem)
def test_corpus_states_match_the_recorded_rounds(path):
    expected = json.loads(path.with_name(path.stem + ".expected.json").read_text())
    doc = parse(read_file(str(path)), str(path))
    for detail in expected["rounds_detail"]:
        rnd = detail["round"]
        state = state_from_document(doc, rnd)
        assert state.round_to_pair == rnd
        assert state.total_rounds == expected["rounds"]
        assert state.top_colour_round1.value == expected["initial_colour"]
        absent = {str(pid): kind for pid, kind in state.requested_byes.items()}
        assert set(absent) == set(detail["absent"])
        for pid, code in detail["absent"].items():
            assert absent[pid] is {"H": Kind.HALF_BYE, "Z": Kind.ABSENT_NOTICE, "F": Kind.FULL_BYE}[code]
        for p in state.players:
            assert len(p.history) == rnd - 1
    # the full history adds up to the points column
    final = state_from_document(doc, expected["rounds"])
    for line in doc.players:
        last = line.entry(expected["rounds"])
        points = {"1": 1.0, "=": 0.5, "0": 0.0, "+": 1.0, "-": 0.0, "U": 1.0, "H": 0.5, "Z": 0.0, " ": 0.0}
        assert final.player(line.number).score() + points[last.code] == pytest.approx(line.points)


def test_truncated_corpus_file_reads_as_the_next_round(tmp_path):
    tools = CORPUS.parent / "tools" / "trf_tools.py"
    import subprocess
    import sys

    source = CORPUS / "t001_n007_r05_messy.trf"
    out = tmp_path / "in.trf"
    subprocess.run([sys.executable, str(tools), "truncate", str(source), "3", "-o", str(out)], check=True)
    state = read_state(out.read_text(), str(out))
    assert (state.round_to_pair, state.total_rounds, state.top_colour_round1) == (4, 5, Colour.BLACK)
    full = state_from_document(parse(read_file(str(source))), 4)
    assert [p.history for p in state.players] == [p.history for p in full.players]


# --------------------------------------------------------------------- reading


@pytest.mark.parametrize("newline", ["\r", "\n", "\r\n"])
def test_every_line_end(newline):
    text = trf(*SMALL, newline=newline)
    state = read_state(text)
    assert state.round_to_pair == 3
    assert [p.score() for p in state.players] == [1.5, 1.5, 0.0, 1.0]
    doc = parse(text)
    assert doc.newline == newline
    assert write(doc) == text


def test_small_file_history_and_absence():
    state = read_state(trf(*SMALL), "small.trf")
    assert state.name == "Club championship"
    assert state.total_rounds == 5
    assert state.top_colour_round1 is Colour.BLACK
    assert state.requested_byes == {4: Kind.HALF_BYE}
    assert [p.id for p in state.to_pair()] == [1, 2, 3]
    p3 = state.player(3)
    assert p3.history[1].kind is Kind.FORFEIT
    assert p3.opponents() == [1]  # the forfeit is no meeting
    assert p3.colours() == [Colour.BLACK]  # nor a colour
    assert state.player(1).colours() == [Colour.WHITE, Colour.BLACK]


def test_every_bye_code():
    lines = [
        player(1, "1.0", "0000 - U"),
        player(2, "1.0", "0000 - F"),
        player(3, "0.5", "0000 - H"),
        player(4, "0.0", "0000 - Z"),
        player(5, "0.0", "0000 - -"),
        player(6, "0.0", "        "),
        player(7, "1.0", "   8 w 1"),
        player(8, "0.0", "   7 b 0"),
        player(9, "0.5", "0000 - ="),  # bbpPairings' spelling of a half point without opponent
        "XXR 3",
    ]
    state = read_state(trf(*lines))
    assert state.round_to_pair == 2
    got = [(p.history[0].kind, p.history[0].score) for p in state.players if not p.history[0].played]
    assert got == [
        (Kind.PAIRING_BYE, 1.0),
        (Kind.FULL_BYE, 1.0),
        (Kind.HALF_BYE, 0.5),
        (Kind.ABSENT_NOTICE, 0.0),
        (Kind.ABSENT, 0.0),
        (Kind.ABSENT, 0.0),
        (Kind.HALF_BYE, 0.5),
    ]


def test_lower_case_codes_and_unrated_games():
    lines = [player(1, "1.5", "   2 w w", "0000 - h"), player(2, "0.0", "   1 b l"), "XXR 3"]
    state = read_state(trf(*lines))
    assert state.round_to_pair == 2  # round 2 holds only a requested bye
    assert state.requested_byes == {1: Kind.HALF_BYE}
    assert state.player(1).history[0].played and state.player(2).opponents() == [1]


def test_double_forfeit():
    lines = [player(1, "0.0", "   2 w -"), player(2, "0.0", "   1 b -"), "XXR 3"]
    state = read_state(trf(*lines))
    for p in state.players:
        assert p.history[0].kind is Kind.FORFEIT and p.history[0].score == 0.0
        assert p.opponents() == [] and p.colours() == []


def test_round_to_pair_with_blank_entries_and_240_and_xxz():
    lines = [
        player(1, "1.0", "   2 w 1"),
        player(2, "0.0", "   1 b 0"),
        player(3, "1.0", "0000 - U"),
        player(4, "0.0", "        ", "        "),
        player(5, "0.0"),
        "XXR 4",
        "240 F 002 0001",
        "240 H 005 0005",  # another round: not for this one
        "XXZ 5",
    ]
    state = read_state(trf(*lines))
    assert state.round_to_pair == 2
    # a blank entry does not make a player absent
    assert state.requested_byes == {1: Kind.FULL_BYE, 5: Kind.ABSENT_NOTICE}


def test_points_may_include_the_declared_bye_of_the_round_to_pair():
    javafo = [player(1, "1.5", "   2 w 1", "0000 - H"), player(2, "0.0", "   1 b 0"), "XXR 3"]
    assert read_state(trf(*javafo)).requested_byes == {1: Kind.HALF_BYE}
    without = [player(1, "1.0", "   2 w 1", "0000 - H"), player(2, "0.0", "   1 b 0"), "XXR 3"]
    assert read_state(trf(*without)).player(1).score() == 1.0


def test_three_one_zero_scoring():
    lines = [player(1, "3.0", "   2 w 1"), player(2, "0.0", "   1 b 0"), player(3, "1.0", "0000 - H")]
    lines.append("XXR 3")
    with pytest.raises(TrfError):
        read_state(trf(*lines))
    state = read_state(trf(*lines, "XXS W=3 D=1"))
    assert [p.score() for p in state.players] == [3.0, 0.0, 1.0]


def test_top_colour_from_152_seed_or_white():
    lines = [player(1, "0.0"), player(2, "0.0")]
    assert read_state(trf(*lines, "142 5", "152 B")).top_colour_round1 is Colour.BLACK
    assert read_state(trf(*lines, "142 5")).top_colour_round1 is Colour.WHITE
    drawn = {read_state(trf(*lines, "XXR 5"), seed=s).top_colour_round1 for s in range(20)}
    assert drawn == {Colour.WHITE, Colour.BLACK}
    assert read_state(trf(*lines, "XXR 5"), total_rounds=7).total_rounds == 7


def test_unknown_lines_are_kept_verbatim():
    lines = ["### comment", "NED    1 m    Jansen", "DAT 0001 EMAIL x@y", *SMALL, "BBW 1.0"]
    doc = parse(trf(*lines))
    assert write(doc) == trf(*lines[:3], *SMALL, "BBW 1.0")


# --------------------------------------------------------------------- malformed input


ASYMMETRIC = [player(1, "1.0", "   2 w 1"), player(2, "0.0", "   3 b 0"), player(3, "1.0", "   2 w 1")]


@pytest.mark.parametrize(
    ("lines", "line_no", "reason"),
    [
        ([player(1, "1.0", "   2 w 1"), player(2, "0.0", "   1 b 0").replace("2000", "20x0")], 2, "rating"),
        ([player(1, "1.0", "   2 w 1"), player(2, "0.0", "   1 b X")], 2, "unknown result code"),
        ([player(1, "1.0", "   2 w 1"), player(2, "0.0", "   1 q 0")], 2, "unknown colour"),
        ([player(1, "1.0", "   2 w 1"), player(2, "0.0", "   9 b 0")], 2, "does not exist"),
        (ASYMMETRIC, 1, "1 plays 2 but 2's entry has 3"),
        ([player(1, "1.0", "   2 w 1"), player(2, "1.0", "   1 b 1")], 1, "does not match"),
        ([player(1, "1.0", "   2 w 1"), player(2, "0.0", "   1 w 0")], 1, "both have colour"),
        ([player(1, "2.0", "   2 w 1"), player(2, "0.0", "   1 b 0")], 1, "points column"),
        ([player(1, "1.0", "   2 w 1"), player(1, "0.0", "   1 b 0")], 2, "already on line 2"),
        ([player(1, "1.0", "   2 w 1"), player(2, "0.0", "   1 b 0") + " x"], 2, "unexpected text"),
        ([player(1, "1.0", "0002 - U"), player(2, "0.0")], 1, "bye code"),
        ([player(1, "1.0", "0000 - 1"), player(2, "0.0")], 1, "without an opponent"),
        ([player(1, "1.0", "   2 - 1"), player(2, "0.0", "   1 - 0")], 1, "colour w or b"),
        ([player(1, "1.0", "0000 w U"), player(2, "0.0")], 1, "without an opponent"),
        ([player(1, "1.0", "   1 w 1")], 1, "against himself"),
        ([player(1, "1.0", "0000 - U"), "XXS Q=3"], 2, "XXS"),
    ],
)
def test_malformed_input_names_the_line(lines, line_no, reason):
    with pytest.raises(TrfError) as caught:
        read_state(trf("012 Test", *lines, "XXR 5"), "bad.trf")
    err = caught.value
    assert err.line == line_no + 1  # the 012 line comes first
    assert reason in err.reason
    assert str(err).startswith(f"bad.trf:{line_no + 1}: ")


def test_unknown_number_of_rounds_is_refused():
    with pytest.raises(TrfError, match="number of rounds"):
        read_state(trf(player(1, "0.0"), player(2, "0.0")), "x.trf")


def test_no_players_is_refused():
    with pytest.raises(TrfError, match="no player"):
        read_state("012 Empty\nXXR 5\n")


# --------------------------------------------------------------------- writing


def test_player_line_columns():
    line = PlayerLine(
        number=1,
        sex="m",
        title="GM",
        name="Jansen, Piet",
        rating=2510,
        federation="NED",
        fide_id="1234567",
        birth="1990/05/17",
        points=2.5,
        rank=1,
    )
    text = line.text()
    assert text[4:8] == "   1" and text[9] == "m" and text[10:13] == " GM"
    assert text[14:26] == "Jansen, Piet" and text[48:52] == "2510" and text[53:56] == "NED"
    assert text[57:68] == "    1234567" and text[69:79] == "1990/05/17" and text[80:84] == " 2.5"
    assert text[85:89] == "   1"


def test_export_state_and_pairing_reads_back():
    state = read_state(trf(*SMALL))
    pairing = Pairing(boards=[Board(2, 3)], byes=[Bye(1, Kind.PAIRING_BYE)])
    doc = document_from_state(state, pairing)
    text = write(doc)
    again = parse(text)
    assert [p.entry(3).text() for p in again.players] == ["0000 - U", "   3 w  ", "   2 b  ", "0000 - H"]
    assert [p.points for p in again.players] == [2.5, 1.5, 0.0, 1.5]
    assert "XXR 5" in text and "XXC black1" in text
    # the history before the round is the same
    back = state_from_document(again, 3)
    assert [p.history for p in back.players] == [p.history for p in state.players]
    assert back.requested_byes == state.requested_byes


def test_export_extends_a_document():
    doc = parse(trf(*SMALL))
    state = state_from_document(doc, 3)
    out = write(document_from_state(state, Pairing(boards=[Board(1, 2)], byes=[Bye(3)]), doc))
    lines = out.splitlines()
    assert lines[0] == "012 Club championship" and lines[-2:] == ["XXR 5", "XXC black1"]
    assert lines[3].endswith("0000 - U")
