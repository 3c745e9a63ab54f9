"""The absolute-rule checker: C.04.1 and the Dutch C1-C3 (dutch2017.md §1, §5, §9)."""


import pytest

from pairing.engines.checks import check_round, recorded_pairing, rules_for, state_before
from pairing.engines.state import Board, Bye, Colour, Kind, Pairing, Player, RoundRecord, TournamentState
from pairing.engines.trf import parse, read_file, state_from_document
from tests.shared_data import DUTCH_CORPUS, data_files

CORPUS = DUTCH_CORPUS


def line(number: int, *rounds: str) -> str:
    """A 001 line with a blank points column, rounds as 'OOOO c r'."""
    head = f"001 {number:>4}      {'Player ' + str(number):<33} {2400 - number:>4}"
    return head.ljust(89) + "".join("  " + r for r in rounds)


def violations(lines: list[str], rnd: int, total: int = 5, **options) -> list[str]:
    doc = parse("\n".join([*lines, f"XXR {total}"]) + "\n", "broken.trf")
    full = state_from_document(doc, doc.last_paired_round + 1, max(total, doc.last_paired_round + 1))
    return [str(v) for v in check_round(state_from_document(doc, rnd, total), recorded_pairing(full, rnd), **options)]


REMATCH = [
    line(1, "   3 w 1", "   3 b 0"),
    line(2, "   4 w =", "   4 b ="),
    line(3, "   1 b 0", "   1 w 1"),
    line(4, "   2 b =", "   2 w ="),
]


@pytest.mark.rule("C.04.3 C1")
def test_rematch_found_in_the_round_it_happens():
    assert violations(REMATCH, 1) == []
    assert violations(REMATCH, 2) == [
        "board 3-1: C1 rematch 3 and 1 met in round 1",
        "board 4-2: C1 rematch 4 and 2 met in round 1",
    ]


@pytest.mark.rule("C.04.3 C1")
def test_a_forfeit_is_no_meeting():
    lines = [
        line(1, "   3 w +", "   3 b 0"),
        line(2, "   4 w =", "   4 b ="),
        line(3, "   1 b -", "   1 w 1"),
        line(4, "   2 b =", "   2 w ="),
    ]
    assert violations(lines, 2) == ["board 4-2: C1 rematch 4 and 2 met in round 1"]


THREE_WHITES = [
    line(1, "   4 w 1", "   5 w 1", "   6 w 1"),
    line(2, "   5 w 1", "   6 b 0", "   3 w 1"),
    line(3, "   6 w 1", "   4 b 0", "   2 b 0"),
    line(4, "   1 b 0", "   3 w 1", "   5 b 0"),
    line(5, "   2 b 0", "   1 b 0", "   4 w 1"),
    line(6, "   3 b 0", "   2 w 1", "   1 b 0"),
]


@pytest.mark.rule("C.04.3 A6")
@pytest.mark.rule("C.04.3 C3")
def test_third_colour_in_a_row():
    assert violations(THREE_WHITES, 2) == []
    assert violations(THREE_WHITES, 3) == [
        "board 1-6: C3 colour 1 gets white three times in a row, colour difference +3"
    ]
    # not a criterion of the other Swiss systems
    assert violations(THREE_WHITES, 3, colours=False) == []


def test_topscorer_exempt_in_the_last_round():
    # three rounds: round 3 is the last; player 1 has 2 of 2 points (A.7 topscorer)
    assert violations(THREE_WHITES, 3, total=3) == []


def _state(histories: dict[int, list[RoundRecord]], total: int = 9) -> TournamentState:
    rounds = len(next(iter(histories.values()))) + 1
    return TournamentState([Player(pid, history=h) for pid, h in histories.items()], total, rounds)


def _game(opponent: int, colour: Colour, score: float = 0.5) -> RoundRecord:
    return RoundRecord(Kind.GAME, opponent, colour, score)


@pytest.mark.rule("C.04.3 C3")
def test_colour_difference_beyond_two():
    w, b = Colour.WHITE, Colour.BLACK
    # 1 has W W B W: white again gives +3 without three whites in a row
    state = _state({1: [_game(2, w), _game(3, w), _game(4, b), _game(5, w)], 9: [RoundRecord(Kind.ABSENT)] * 4})
    assert [str(v) for v in check_round(state, Pairing([Board(1, 9)]))] == [
        "board 1-9: C3 colour 1 gets colour difference +3"
    ]
    assert check_round(state, Pairing([Board(9, 1)])) == []


SECOND_BYE = [
    line(1, "   2 w 1", "   3 w 1"),
    line(2, "   1 b 0", "   5 w 1"),
    line(3, "   5 w 1", "   1 b 0"),
    line(4, "0000 - U", "0000 - U"),
    line(5, "   3 b 0", "   2 b 0"),
]


@pytest.mark.rule("C.04.3 C2")
def test_second_pairing_allocated_bye():
    assert violations(SECOND_BYE, 1) == []
    assert violations(SECOND_BYE, 2) == ["board 4-0: C2 bye 4 had the pairing-allocated bye in round 1"]


@pytest.mark.rule("C.04.3 C2")
def test_bye_after_a_point_without_playing_by_edition():
    forfeit_win = [
        line(1, "   2 w +", "   3 w 1"),
        line(2, "   1 b -", "0000 - U"),
        line(3, "0000 - U", "   1 b 0"),
    ]
    assert violations(forfeit_win, 2, edition="2017") == []  # 2 lost by forfeit
    won = [line(1, "   2 w -", "   3 w 1"), line(2, "   1 b +", "0000 - U"), line(3, "0000 - U", "   1 b 0")]
    assert violations(won, 2, edition="2017") == ["board 2-0: C2 bye 2 won by forfeit in round 1"]
    full_bye = [line(1, "   2 w 1", "   3 w 1"), line(2, "   1 b 0", "0000 - U"), line(3, "0000 - F", "   1 b 0")]
    full_then_pab = [
        line(1, "   3 w 1", "   4 w 1"),
        line(2, "0000 - F", "0000 - U"),
        line(3, "   1 b 0", "   5 w 1"),
        line(4, "   5 w 1", "   1 b 0"),
        line(5, "   4 b 0", "   3 b 0"),
    ]
    assert violations(full_bye, 2, edition="2026") == []
    assert violations(full_then_pab, 2, edition="2017") == []
    assert violations(full_then_pab, 2, edition="2026") == ["board 2-0: C2 bye 2 had a full-point bye in round 1"]


@pytest.mark.rule("C.04.3 A9")
@pytest.mark.rule("C.04.3 C2")
def test_completeness_of_a_pairing():
    state = _state({pid: [] for pid in range(1, 7)})
    state.requested_byes[6] = Kind.HALF_BYE
    pairing = Pairing(
        boards=[Board(1, 2), Board(2, 3), Board(6, 7)],
        byes=[Bye(4), Bye(5)],
    )
    assert [str(v) for v in check_round(state, pairing)] == [
        "board 1-2: paired twice 2 appears 2 times",
        "board 6-7: absent paired 6 is absent or withdrawn",
        "board 6-7: unknown player 7 is not in the tournament",
        "C2 bye more than one pairing-allocated bye (4, 5)",
    ]
    assert [str(v) for v in check_round(state, Pairing([Board(1, 2)]))][-3:] == [
        "unpaired 3 has neither a board nor a bye",
        "unpaired 4 has neither a board nor a bye",
        "unpaired 5 has neither a board nor a bye",
    ]


def test_unknown_edition_is_refused():
    with pytest.raises(ValueError):
        check_round(_state({1: []}), Pairing([]), edition="1998")


def test_rules_per_system():
    assert rules_for("roundrobin", scheduled=True) is None
    assert rules_for("keizer") is None
    assert rules_for("dutch") == {"edition": "2026", "colours": True}
    assert rules_for("monrad") == {"edition": "2017", "colours": False}


def test_state_before_matches_the_trf_reading():
    doc = parse("\n".join(SECOND_BYE) + "\nXXR 5\n")
    full = state_from_document(doc, 3)
    for rnd in (1, 2, 3):
        mine, theirs = state_before(full, rnd), state_from_document(doc, rnd)
        assert [p.history for p in mine.players] == [p.history for p in theirs.players]
        assert mine.round_to_pair == rnd


@pytest.mark.rule("C.04.3 C1")
@pytest.mark.rule("C.04.3 C3")
@pytest.mark.parametrize("path", data_files(CORPUS, "*.trf"), ids=lambda p: p.stem)
def test_corpus_rounds_break_no_absolute_rule(path):
    """The corpus was paired by a conforming Dutch (2026) engine: no round may break C1-C3."""
    doc = parse(read_file(str(path)), str(path))
    full = state_from_document(doc, doc.last_paired_round + 1, doc.last_paired_round + 1)
    for rnd in range(1, doc.last_paired_round + 1):
        assert check_round(state_from_document(doc, rnd), recorded_pairing(full, rnd)) == [], rnd
