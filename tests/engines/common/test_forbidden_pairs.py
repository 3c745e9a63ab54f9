"""Pairs the TD forbids (TRF26 record 260 with its round range, JaVaFo's XXP line; docs/json-state.md).

Every Swiss, Danish and Keizer system treats a forbidden pair as a game already played in the rounds
the ban covers: C.04.3 C1 (Dutch), seed 000/002 B1 (Dutch 1998, KNSB), seed 001 B1 (KNSB WP), Dansk
Schweizer 1.2, Monrad §4.9.1, Dubov 2.1; Keizer never relaxes it (its repeat limits it does).
Round-robin tables and knockout draws are fixed and cannot honour them.
"""

from pathlib import Path

import pytest

from pairing.cli import main
from pairing.engines import registry
from pairing.engines.jsonstate import read_json_state, write_json_state
from pairing.engines.state import ForbiddenPair, InvalidInput, NoValidPairing, TournamentState
from pairing.engines.trf import TrfError, document_from_state, parse, read_state, state_from_document, write
from tests.engines.danish.danish_helpers import boards_of, play_rounds, state_of

DATA = Path(__file__).resolve().parent / "data" / "forbidden"

SUPPORTING = ["dutch", "dutch-1998", "knsb-rating", "knsb-wp", "dansk", "monrad", "dubov-1997", "keizer"]
FIXED = ["roundrobin", "double-roundrobin", "knockout", "olympiad"]


def pair(state: TournamentState, system: str) -> list[tuple[int, int]]:
    return boards_of(registry.pair(state, system))


# --------------------------------------------------------------------- the registry


def test_the_registry_says_which_systems_honour_forbidden_pairs():
    assert sorted(s for s in registry.system_ids() if registry.get(s).forbidden_pairs) == sorted(SUPPORTING)
    assert sorted(s for s in registry.system_ids() if not registry.get(s).forbidden_pairs) == sorted(FIXED)


@pytest.mark.parametrize("system", ["roundrobin", "knockout"])
def test_a_fixed_system_refuses_a_forbidden_pair_instead_of_ignoring_it(system):
    state = state_of(play_rounds(4, []), total_rounds=3)
    state.forbidden = [ForbiddenPair((1, 4))]
    with pytest.raises(InvalidInput, match="cannot honour forbidden pairs"):
        registry.pair(state, system)
    state.forbidden = [ForbiddenPair((1, 4), 2, 3)]  # not in the round to pair: nothing to honour
    assert registry.pair(state, system).boards


# --------------------------------------------------------------------- every supporting engine

# Round 1 of six players (ratings 2390 .. 2340, so 1 is the strongest), without and with a ban on the
# pair the system puts on board 1. Each system's own rule then gives the boards:
# - Dutch (C.04.3), Dutch 1998, KNSB on rating: S1 = 1 2 3, S2 = 4 5 6; 1-4 is barred, the first
#   transposition of S2 that pairs all is 5 4 6: 1-5, 2-4, 3-6 (colours alternate by board).
# - KNSB WP (seed 001 D1): 1-6, 2-5, 3-4; with 1-6 barred 1 takes the next number of the scheme, 5,
#   and 2 the next left, 6: 1-5, 2-6, 3-4.
# - Dansk Schweizer: upper half against lower half, 1-4 barred: 1 meets 5, 2 meets 4, 3 meets 6.
# - Monrad (§4.9.1): the best placed meets the nearest following player he may meet: 1-2 barred, so
#   1-3, then 2-4, 5-6; the higher numbered has white in round 1.
# - Dubov (5): upper half against lower half; with 1-4 barred 1 takes 5 and 2 takes 4.
# - Keizer: top-down, 1 meets the next he may meet: 1-3, 2-4, 5-6.
ROUND_ONE = {
    "dutch": ((1, 4), [(1, 5), (4, 2), (3, 6)]),
    "dutch-1998": ((1, 4), [(1, 5), (4, 2), (3, 6)]),
    "knsb-rating": ((1, 4), [(1, 5), (4, 2), (3, 6)]),
    "knsb-wp": ((1, 6), [(1, 5), (2, 6), (3, 4)]),
    "dansk": ((4, 1), [(5, 1), (2, 4), (6, 3)]),
    "monrad": ((2, 1), [(3, 1), (4, 2), (6, 5)]),
    "dubov-1997": ((1, 4), [(1, 5), (4, 2), (3, 6)]),
    "keizer": ((1, 2), [(1, 3), (4, 2), (5, 6)]),
}


@pytest.mark.parametrize("system", SUPPORTING)
def test_the_forbidden_pair_is_avoided_while_another_pairing_exists(system):
    board_one, expected = ROUND_ONE[system]
    state = state_of(play_rounds(6, []), total_rounds=5)
    assert pair(state, system)[0] == board_one
    state.forbidden = [ForbiddenPair(board_one)]
    boards = pair(state, system)
    assert boards == expected
    assert all({w, b} != set(board_one) for w, b in boards)
    # A ban on other rounds leaves round 1 as it was.
    state.forbidden = [ForbiddenPair(board_one, 2, 5)]
    assert pair(state, system)[0] == board_one


# Four players after two rounds (1-2 and 3-4, then 3-1 and 2-4, all drawn): only 1-4 and 2-3 are left.
TWO_ROUNDS = [[(1, 2, 0.5), (3, 4, 0.5)], [(3, 1, 0.5), (2, 4, 0.5)]]


@pytest.mark.parametrize("system", [s for s in SUPPORTING if s != "keizer"])
def test_when_only_forbidden_pairs_are_left_there_is_no_pairing_as_when_all_have_met(system):
    state = state_of(play_rounds(4, TWO_ROUNDS), total_rounds=5)
    assert sorted(tuple(sorted(b)) for b in pair(state, system)) == [(1, 4), (2, 3)]
    # Both left pairs forbidden in round 3: the system answers as when everybody has met everybody.
    state.forbidden = [ForbiddenPair((1, 4)), ForbiddenPair((2, 3), 3, 3)]
    with pytest.raises(NoValidPairing) as forbidden:
        registry.pair(state, system)
    all_met = state_of(play_rounds(4, [*TWO_ROUNDS, [(1, 4, 0.5), (2, 3, 0.5)]]), total_rounds=5)
    with pytest.raises(NoValidPairing) as met:
        registry.pair(all_met, system)
    assert forbidden.value.note == met.value.note
    # Bans outside round 3 leave it free.
    state.forbidden = [ForbiddenPair((1, 4), 4, 5), ForbiddenPair((2, 3), 1, 2)]
    assert sorted(tuple(sorted(b)) for b in pair(state, system)) == [(1, 4), (2, 3)]


def test_keizer_relaxes_repeats_but_never_a_forbidden_pair():
    # Keizer relaxes its repeat limits when it must (seeds README item 4): with 1-4 and 2-3 forbidden,
    # round 3 repeats 1-2 and 3-4 rather than break a ban.
    state = state_of(play_rounds(4, TWO_ROUNDS), total_rounds=5)
    state.forbidden = [ForbiddenPair((1, 4)), ForbiddenPair((2, 3))]
    assert sorted(tuple(sorted(b)) for b in pair(state, "keizer")) == [(1, 2), (3, 4)]
    # When a ban leaves no pairing at all the round cannot be paired.
    two = state_of(play_rounds(2, []), total_rounds=5)
    two.forbidden = [ForbiddenPair((1, 2))]
    with pytest.raises(NoValidPairing, match="forbids"):
        registry.pair(two, "keizer")


@pytest.mark.parametrize("system", SUPPORTING)
def test_a_group_ban_keeps_all_of_its_players_apart(system):
    # 260 may list more than two players: none of them meets another. Round 1 of six, 1, 2 and 3
    # forbidden to meet each other: every board has at most one of them.
    state = state_of(play_rounds(6, []), total_rounds=5)
    state.forbidden = [ForbiddenPair((1, 2, 3))]
    boards = pair(state, system)
    assert len(boards) == 3
    assert all(len({w, b} & {1, 2, 3}) == 1 for w, b in boards)


# --------------------------------------------------------------------- TRF 260 and XXP, python -m pairing

# The Dutch files of tests/engines/common/data/forbidden, each with the boards `python -m pairing` gives;
# the reference program (bbpPairings 6, --dutch) gives the same boards and exit codes on them.
# - round1_xxp / round1_260: six players, 1-4 forbidden (XXP; 260 over rounds 1-5). S1 = 1 2 3 and
#   S2 = 4 5 6; C1 bars 1-4, and the first transposition of S2 that pairs everybody is 5 4 6
#   (C.04.3 transpositions in lexicographic order): 1-5, 2-4, 3-6, white alternating from board 1.
# - round1_260_later: the 260 covers rounds 2-5 only, so round 1 is the plain 1-4, 2-5, 3-6.
# - round2_none: after 1-4 1-0, 5-2 0-1, 3-6 1-0: scoregroups 1 2 3 (1 point) and 4 5 6; 1-2 keeps
#   every colour preference, 3 floats down to 4 (4 wants white), 6-5.
# - round2_260: the same with 260 forbidding 1-2 in rounds 2-3. One of 1, 2, 3 floats. 1-3 (both
#   want black) breaks a preference; 2-3 keeps both (2 white), and 1 can then meet neither 4 (met) nor
#   5 without breaking one (both want black), so 1 meets 6, who wants white: 2-3, 6-1, 4-5 is the only
#   pairing with one floater and no unmet colour preference.
# - round3_open: four players after two drawn rounds, the only pairs not yet met are 1-4 and 2-3;
#   260 forbids them in rounds 4-5 and 1-2, so round 3 pairs them: 4 (two blacks) white against 1,
#   3 (two whites) black against 2.
# - round3_only_repeats: the same with XXP 1 4 and 260 forbidding 2-3 in round 3: every pairing
#   breaks C1, exit code 1 (no valid pairing), as the reference program.
TRF_CASES = [
    ("round1_xxp.trf", 0, "3\n1 5\n4 2\n3 6\n"),
    ("round1_260.trf", 0, "3\n1 5\n4 2\n3 6\n"),
    ("round1_260_later.trf", 0, "3\n1 4\n5 2\n3 6\n"),
    ("round2_none.trf", 0, "3\n2 1\n4 3\n6 5\n"),
    ("round2_260.trf", 0, "3\n2 3\n6 1\n4 5\n"),
    ("round3_open.trf", 0, "2\n4 1\n2 3\n"),
    ("round3_only_repeats.trf", 1, ""),
]


def test_the_forbidden_pair_files_are_there():
    assert sorted(p.name for p in DATA.glob("*.trf")) == sorted(name for name, _, _ in TRF_CASES)


@pytest.mark.parametrize(("name", "code", "output"), TRF_CASES, ids=[c[0] for c in TRF_CASES])
def test_python_m_pairing_on_dutch_files_with_260_and_xxp(name, code, output, capsys):
    assert main(["--system", "dutch", str(DATA / name), "-p"]) == code
    captured = capsys.readouterr()
    assert captured.out == output
    if code:
        assert "no valid pairing" in captured.err


def test_260_and_xxp_are_read_with_their_round_ranges():
    text = (DATA / "round3_only_repeats.trf").read_text()
    assert read_state(text).forbidden == [ForbiddenPair((1, 4)), ForbiddenPair((2, 3), 3, 3)]
    text = (DATA / "round3_open.trf").read_text()
    assert read_state(text).forbidden == [ForbiddenPair((1, 4), 4, 5), ForbiddenPair((2, 3), 1, 2)]


def test_a_ban_given_both_as_260_and_xxp_counts_once():
    text = (DATA / "round1_xxp.trf").read_text().replace("XXP 1 4", "260   1   5    1    4\nXXP 4 1")
    assert read_state(text).forbidden == [ForbiddenPair((1, 4), 1, 5)]


def test_the_writer_gives_260_and_xxp_and_reading_it_back_gives_the_same_bans():
    state = read_state((DATA / "round2_260.trf").read_text())
    state.forbidden = [ForbiddenPair((1, 2), 2, 3), ForbiddenPair((3, 5, 6))]
    text = write(document_from_state(state))
    lines = text.splitlines()
    assert "260   2   3    1    2" in lines
    assert "260   1   5    3    5    6" in lines and "XXP 3 5 6" in lines  # every round: XXP too
    assert not any(line.startswith("XXP 1 2") for line in lines)  # JaVaFo's XXP has no round range
    again = read_state(text)
    assert again.forbidden == [ForbiddenPair((1, 2), 2, 3), ForbiddenPair((3, 5, 6), 1, 5)]
    # Exporting over the document it was read from replaces its ban lines instead of doubling them.
    doc = parse(text)
    assert write(document_from_state(again, doc=doc)).count("260 ") == 2


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        ("260   1   5    1    9", "player 9 does not exist"),
        ("260   4   2    1    2", "first round 4 is after last round 2"),
        ("260   0   2    1    2", "not a round number"),
        ("260   1   2    1", "two or more different players"),
        ("XXP 2 2", "two or more different players"),
        ("XXP 1 x", "not a pairing number"),
    ],
)
def test_a_bad_ban_line_is_refused_naming_the_line(line, reason):
    text = (DATA / "round2_none.trf").read_text().replace("XXR 5", f"{line}\nXXR 5")
    doc = parse(text, "t.trf")
    line_no = next(n for n, raw in enumerate(text.splitlines(), 1) if raw == line)
    with pytest.raises(TrfError, match=reason) as err:
        state_from_document(doc, 2)
    assert f"t.trf:{line_no}" in str(err.value)


# --------------------------------------------------------------------- the JSON state


def test_the_json_state_carries_the_bans():
    state = read_state((DATA / "round2_260.trf").read_text())
    state.forbidden.append(ForbiddenPair((4, 5, 6), None, 4))
    again = read_json_state(write_json_state(state))
    assert again.forbidden == state.forbidden
    assert registry.pair(again, "dutch").boards == registry.pair(state, "dutch").boards


@pytest.mark.parametrize(
    ("ban", "reason"),
    [
        ('{"players": [1]}', "two or more"),
        ('{"players": [1, 7]}', "no player 7"),
        ('{"players": [1, 2], "first_round": 3, "last_round": 2}', "after last round"),
        ('{"players": [1, 2], "first_round": 0}', "numbered from 1"),
        ('{"players": ["1", 2]}', "list of start numbers"),
        ('[1, 2]', "expected an object"),
    ],
)
def test_a_bad_json_ban_names_its_place(ban, reason):
    state = read_state((DATA / "round2_none.trf").read_text())
    text = write_json_state(state).rstrip().rstrip("}") + f', "forbidden": [{ban}]}}'
    with pytest.raises(InvalidInput, match=reason) as err:
        read_json_state(text, "t.json")
    assert "t.json:forbidden[0]" in str(err.value)


def test_the_checker_reports_a_recorded_board_that_breaks_a_ban(tmp_path, capsys):
    # round2_260 with round 2 recorded as 2-1 (forbidden in rounds 2-3), 4-3, 6-5: `-c` names the board.
    text = (DATA / "round2_none.trf").read_text()
    state = read_state(text)
    state.forbidden = [ForbiddenPair((1, 2), 2, 3)]
    pairing = registry.pair(read_state(text), "dutch")  # without the ban: 2-1, 4-3, 6-5
    assert boards_of(pairing) == [(2, 1), (4, 3), (6, 5)]
    path = tmp_path / "t.trf"
    path.write_text(write(document_from_state(state, pairing)))
    assert main(["--system", "dutch", str(path), "-c"]) == 1
    out = capsys.readouterr().out
    assert "round 2: board 2-1: C1 rematch 2 and 1 are a forbidden pair in this round" in out


def test_the_command_line_refuses_a_ban_a_fixed_system_cannot_honour(capsys):
    assert main(["--system", "roundrobin", str(DATA / "round1_xxp.trf"), "-p"]) == 3
    assert "cannot honour forbidden pairs" in capsys.readouterr().err
    # A ban for later rounds does not stop round 1.
    assert main(["--system", "roundrobin", str(DATA / "round1_260_later.trf"), "-p"]) == 0
