"""knsb-rating: KNSB Zwitsers op rating, later edition (seed 002)."""

import pytest

from pairing.engines import registry
from pairing.engines.knsb_rating import levels_002, xz_steps
from pairing.engines.knsb_swiss import RULES_002, absolute_ok, count_x1_z1, entrants
from pairing.engines.notes import english
from pairing.engines.state import RoundRecord

from .knsb_helpers import MERGE, TWO_STRONG_WHITES, absent, boards, byes, check_round, tournament
from .knsb_sim import play

SYSTEM = "knsb-rating"


def pair(state):
    return registry.pair(state, SYSTEM)


def test_registered():
    assert registry.get(SYSTEM).id == SYSTEM


@pytest.mark.rule("002 A2")
@pytest.mark.rule("002 E5")
@pytest.mark.rule("002 F4")
def test_round_one_f4_and_e5():
    assert boards(pair(tournament(8, [], 5))) == [(1, 5), (6, 2), (3, 7), (8, 4)]
    p = pair(tournament(7, [], 5))
    assert byes(p) == [7]


@pytest.mark.rule("002 C2")
@pytest.mark.rule("002 A8")
@pytest.mark.rule("002 C10")
def test_a8_x1_z1_by_the_printed_formulas():
    # Round 1: 1-5, 6-2, 3-7, 8-4, every white player wins: the group on 1 point is 1, 3, 6, 8,
    # all with a (mild) preference for black. P0 = 2, W = 0, B = 4: X1 = P0 - W - w - a = 2.
    state = tournament(8, [[(1, 5, 1.0), (6, 2, 1.0), (3, 7, 1.0), (8, 4, 1.0)]], 5)
    group = [e for e in entrants(state, RULES_002) if e.score == 1]
    assert [e.id for e in group] == [1, 3, 6, 8]
    assert count_x1_z1(group, 2, even=True) == (2, 2)
    assert count_x1_z1(group, 2, even=False) == (2, None)
    # Round 2 being even, they still pair 1-6 and 3-8 (C10e raises X/Z as needed).
    p = pair(state)
    pairs = {tuple(sorted(b)) for b in boards(p)}
    assert {(1, 6), (3, 8)} <= pairs


@pytest.mark.rule("002 A11")
@pytest.mark.rule("002 C10")
def test_c10e_order_of_x_and_z():
    # Even rounds: Z rises up to X, then X rises and Z starts again at Z1.
    got = [(x, z) for x, z, _ in xz_steps(1, 0, 3)]
    assert got == [(1, 0), (1, 1), (2, 0), (2, 1), (2, 2), (3, 0), (3, 1), (3, 2), (3, 3)]
    assert [x for x, _, _ in xz_steps(1, None, 3)] == [1, 2, 3]


@pytest.mark.rule("002 A7")
@pytest.mark.rule("002 B2")
@pytest.mark.rule("002 B5")
@pytest.mark.rule("002 B6")
@pytest.mark.rule("002 C10")
@pytest.mark.rule("002 C3")
def test_c10_relaxation_order_and_restarts():
    levels = list(levels_002(0, None, 1, odd=True, tops=True))
    labels = [lv.label.text() if lv.label else "" for lv in levels]
    assert labels[:5] == [
        "C3",
        "C10a: B6 ignored for upfloats",
        "C10b: B5 ignored for upfloats",
        "C10c: B6 ignored for downfloats",
        "C10d: B5 ignored for downfloats",
    ]
    assert labels[5] == "C10e: X raised to 1"
    assert [(lv.up6, lv.up5, lv.down6, lv.down5) for lv in levels[:5]] == [
        (True, True, True, True),
        (False, True, True, True),
        (False, False, True, True),
        (False, False, False, True),
        (False, False, False, False),
    ]
    # C10e restarts at C3e: the float criteria hold again with the raised X.
    assert levels[5].up6 and levels[5].down5 and levels[5].x == 1
    # C10f: A7d off, X back to X1 (restart at C3d); C10g: B2 off for topscorers, A7d on again (C3c).
    f = next(lv for lv in levels if not lv.a7d)
    assert f.x == 0 and f.b2_top
    g = next(lv for lv in levels if not lv.b2_top)
    assert g.a7d and g.x == 0 and "C10g" in g.label.text()
    assert len(levels) == 2 * 2 * 2 * 5


@pytest.mark.rule("002 A10")
@pytest.mark.rule("002 B2")
@pytest.mark.rule("002 C1")
@pytest.mark.rule("002 C10")
@pytest.mark.rule("002 C3")
def test_c10g_topscorers_may_break_b2_only_at_the_end():
    rounds = [[(1, 4, 1.0), (2, 5, 1.0), (6, 3, 0.5)], [(1, 6, 1.0), (2, 3, 1.0), (4, 5, 0.5)]]
    state = tournament(6, rounds, 3)
    e = {x.id: x for x in entrants(state, RULES_002)}
    assert absolute_ok(e[1], e[2], RULES_002)  # C1: B2 not for topscorers
    strict = next(iter(levels_002(0, None, 1, odd=True, tops=True)))
    assert not absolute_ok(e[1], e[2], RULES_002, strict)  # C3b: B2 active
    p = pair(state)
    assert boards(p) == [(2, 1), (3, 4), (5, 6)]
    assert "C10g: B2 ignored for topscorers" in english(p.explanation)[0]
    check_round(state, p, exempt=frozenset({1, 2}))


@pytest.mark.rule("002 C4")
@pytest.mark.rule("002 C5")
@pytest.mark.rule("002 D1")
@pytest.mark.rule("002 C10")
@pytest.mark.rule("002 C7")
@pytest.mark.rule("002 C8")
@pytest.mark.rule("002 D2")
def test_c7_and_c8_in_the_later_edition():
    p = pair(tournament(4, [[(1, 3, 0.5), (2, 4, 0.5)]], 5))
    assert sorted(tuple(sorted(b)) for b in boards(p)) == [(1, 4), (2, 3)]
    p = pair(tournament(4, [[(1, 3, 0.5), (2, 4, 0.5)], [(4, 1, 0.5), (3, 2, 0.5)]], 5))
    assert boards(p) == [(1, 2), (4, 3)]
    assert "D2 exchange of 2 with 3" in english(p.explanation)[0] and "C10e: X raised to 2" in english(p.explanation)[0]


@pytest.mark.rule("002 A4")
@pytest.mark.rule("002 A5")
@pytest.mark.rule("002 B1")
@pytest.mark.rule("002 C7")
def test_b1b_bye_is_a_downfloat():
    # As in seed 000: 7 had the bye (B1b: a downfloat), so C7 keeps him in the top group.
    state = tournament(7, [[(1, 4, 1.0), (5, 2, 0.0), (3, 6, 0.5), ("bye", 7)]], 5)
    p = pair(state)
    assert boards(p) == [(7, 1), (2, 3), (6, 5)] and byes(p) == [4]


@pytest.mark.rule("002 A6")
@pytest.mark.rule("000 C13")
@pytest.mark.rule("002 B5")
@pytest.mark.rule("002 C10")
@pytest.mark.rule("002 C12")
@pytest.mark.rule("002 C13")
def test_c12_another_player_floats_so_that_the_next_group_can_pair():
    # As seed 000 C13 (see test_dutch1998): 1 must float, which B5 for downfloats forbids until C10d.
    rounds = [[(1, 4, 0.5), (5, 2, 0.5), (3, 6, 1.0)], [(6, 1, 0.0), (2, 3, 0.5), (4, 5, 0.0)]]
    p = pair(tournament(6, rounds, 5))
    assert boards(p) == [(3, 5), (1, 2), (6, 4)]
    first = english(p.explanation)[0]
    assert "C10d: B5 ignored for downfloats" in first and "C12: another player floats" in first


@pytest.mark.rule("002 C14")
@pytest.mark.rule("002 B5")
@pytest.mark.rule("002 C1")
@pytest.mark.rule("002 C10")
@pytest.mark.rule("002 C8")
@pytest.mark.rule("002 D2")
@pytest.mark.rule("002 D3")
def test_c14b2_and_c8b_another_floater_in_s1():
    # Round 4. 1 and 7 (2½) meet. 4 and 8 (2) have met: C1 sends both down to 2, 5, 6 (1): M0 = 2.
    # With both floaters in S1 no pairing leaves 3 (0) an opponent, so C14b2 lowers M1 to 1. D3:
    # {4} first, which fails at every level up to C10b; then {8}: 8-2 (2 floats up, which B5 for
    # upfloats forbids until C10b), and in the rest 4, 5, 6 the exchange of 4 with 5 gives 5-6;
    # 4 floats on to meet 3.
    rounds = [
        [(1, 5, 1.0), (6, 2, 0.0), (3, 7, 0.0), (8, 4, 0.0)],
        [(4, 1, 0.5), (2, 7, 0.0), (6, 3, 1.0), (5, 8, 0.0)],
        [(1, 2, 1.0), (3, 5, 0.0), (7, 4, 0.5), (8, 6, 1.0)],
    ]
    p = pair(tournament(8, rounds, 7))
    assert boards(p) == [(7, 1), (2, 8), (4, 3), (5, 6)]
    line = english(p.explanation)[2]
    assert "C14b2: M1 lowered to 1" in line and "C10b: B5 ignored for upfloats" in line
    assert "C8b: floaters 8 in S1 (D3)" in line and "D2 exchange of 4 with 5" in line


@pytest.mark.rule("002 B1")
@pytest.mark.rule("002 B2")
@pytest.mark.rule("002 A3")
@pytest.mark.parametrize("n", [9, 14, 21])
def test_whole_tournaments_meet_the_absolute_criteria(n):
    play(SYSTEM, n, 7, seed=n)


@pytest.mark.rule("002 F3")
@pytest.mark.rule("002 F2")
@pytest.mark.rule("002 F5")
@pytest.mark.parametrize("n", [10, 17, 26])
def test_whole_tournaments_with_forfeits_and_absences(n):
    # F2: forfeits are no meeting and no colour; F5: absent players are not paired.
    play(SYSTEM, n, 7, seed=100 + n, mess=True)


@pytest.mark.rule("002 C9")
@pytest.mark.rule("000 C14")
@pytest.mark.rule("002 C13")
@pytest.mark.rule("002 C14")
@pytest.mark.rule("002 C6")
@pytest.mark.rule("002 D2")
def test_c13_the_last_group_cannot_be_paired_so_the_group_above_is_paired_again():
    # As seed 000 C14 (see test_dutch1998): the group on 1 pairs 2-4 and 3-5 by C6, which leaves 1
    # and 6, who met. C13: the second-last group is paired so that the last can be; P1 = 2 never
    # allows it, C14a lowers P1 to 1, and the D2 exchange of 2 with 3 keeps X = 0: 3-4.
    rounds = [[(1, 4, 0.0), (5, 2, 0.0), (3, 6, 1.0)], [(6, 1, 0.5), (2, 3, 0.5), (4, 5, 0.0)]]
    state = tournament(6, rounds, 5)
    p = pair(state)
    assert boards(p) == [(3, 4), (1, 2), (5, 6)]
    second = english(p.explanation)[1]
    assert "C14a: P1 lowered to 1" in second and "D2 exchange of 2 with 3" in second
    check_round(state, p)


@pytest.mark.rule("002 B4")
@pytest.mark.rule("002 E1")
@pytest.mark.rule("002 E2")
@pytest.mark.rule("002 A7")
@pytest.mark.rule("002 A8")
@pytest.mark.rule("002 C6")
@pytest.mark.rule("002 C7")
def test_a7e_a_mild_preference_takes_the_other_colour_only_as_needed():
    # Round 4 (even), score group 2: 1 BWB (strong white), 2 WBW (strong black), 3 WB and 4 BW,
    # both absent in round 3 (an odd number of unplayed games, mild: white and black). A8: W = 1,
    # B = 1, w = 1, b = 1, P0 = 2: X1 = P0 - B - b - a = 0 and Z1 = P0 - B - b - w - a = 0 (not
    # below 0). C6 pairs 1-3 and 2-4: no two strong preferences meet, but 3 and 4 would both have to
    # take the other colour, and A8a's X1 counts such pairs ("niet aan alle kleurvoorkeuren"), so X = 0
    # refuses it. A7e turns a mild preference only "zo nodig": C7's 1-4, 2-3 meets every preference.
    rounds = [
        [(5, 1, 0.0), (2, 6, 0.5), (3, 7, 1.0), (8, 4, 0.0)],
        [(1, 7, 0.5), (6, 2, 0.0), (8, 3, 0.0), (4, 5, 1.0)],
        [(8, 1, 0.5), (2, 5, 0.5), (6, 7, 0.5)],
    ]
    state = absent(tournament(8, rounds, 5), 3, 4)
    group = [e for e in entrants(state, RULES_002) if e.score == 2]
    assert [e.id for e in group] == [1, 2, 3, 4]
    assert count_x1_z1(group, 2, even=True) == (0, 0)
    p = pair(state)
    check_round(state, p)
    assert {(1, 4), (3, 2)} <= set(boards(p))
    assert "C7 transposition of S2; P1=2, X=0, Z=0" in english(p.explanation)[0]


@pytest.mark.rule("002 B4")
@pytest.mark.rule("002 E1")
@pytest.mark.rule("002 E2")
@pytest.mark.rule("002 A7")
@pytest.mark.rule("002 A8")
@pytest.mark.rule("002 C6")
@pytest.mark.rule("002 C7")
def test_a7e_a_mild_preference_takes_the_other_colour_rather_than_two_strong_ones_meet():
    # Round 4 (even), score group 2: 1 BWB and 3 BWB (strong white), 2 WBW (strong black), 4 WB and
    # absent in round 3 (mild white). A8: W = 2, B = 1, w = 1, P0 = 2: X1 = P0 - B - b - a = 1,
    # Z1 = P0 - B - b - w - a = 0. C6 pairs 1-3 (two strong preferences for white): Z = 0 refuses
    # it. C7 pairs 1-4 and 2-3: 4's mild preference gives way (one miss, X = 1), as A7e asks.
    state = absent(tournament(8, TWO_STRONG_WHITES, 5), 4, 5)
    group = [e for e in entrants(state, RULES_002) if e.score == 2]
    assert [e.id for e in group] == [1, 2, 3, 4]
    assert count_x1_z1(group, 2, even=True) == (1, 0)
    p = pair(state)
    check_round(state, p)
    assert {(1, 4), (3, 2)} <= set(boards(p))
    assert "C7 transposition of S2; P1=2, X=1, Z=0 (A7e: at most 0 pair(s)" in english(p.explanation)[0]


@pytest.mark.rule("002 A9")
@pytest.mark.rule("002 C1")
@pytest.mark.rule("002 C10")
@pytest.mark.rule("002 C13")
@pytest.mark.rule("002 C8")
@pytest.mark.rule("002 D3")
def test_c13_merged_lowest_group_is_heterogeneous_with_the_group_added_last_as_s1():
    # The position of MERGE (round 4 of 5, even: X and Z). Group 2 = 1 (moved down)
    # and 2, 5, 6: X1 = Z1 = 0, and with P1 = 2 only 1-5 and 2-6 can be paired, both pairs of two
    # strong preferences for one colour: C10e raises X and Z to 2. 7 is alone on 1½ and moves down
    # (C1); 3, 4 and 7 cannot be paired (none may have the bye). C13: the group on 1½ has P = 0, so it
    # and the lowest merge, and group 2 goes on: C14b1 lowers P1 to 1, 1-2 at X = 0, 5 and 6 float.
    # The merged group is heterogeneous with the players added last (5, 6 and 7) as S1 (M0 = 3), more
    # than S2 can take: C14b2 lowers M1 to 2, and D3's second subset, 5 and 7, pairs 5-3 and 7-4.
    state = tournament(7, MERGE, 5)
    p = pair(state)
    check_round(state, p)
    assert sorted(boards(p)) == [(2, 1), (3, 5), (7, 4)]
    assert byes(p) == [6]
    assert "C14b1: P1 lowered to 1" in english(p.explanation)[1]
    assert "C13: the lowest group could not be paired; this group went on" in english(p.explanation)[1]
    merged = english(p.explanation)[2]
    assert merged.startswith("score groups 1.5 to 1") and "C13: the groups went back" in merged
    assert "heterogeneous, M0 = 3" in merged and "C14b2: M1 lowered to 2" in merged
    assert "C8b: floaters 5, 7 in S1 (D3)" in merged


@pytest.mark.rule("002 F9")
def test_adjourned_game_counts_as_a_draw_f9():
    """002 F9: as long as adjourned games are not finished, they count as a draw for the pairing."""
    state = tournament(4, [[(1, 3, 0.5), (2, 4, 0.5)]], 5)
    for p in state.players:
        p.history[0] = RoundRecord(p.history[0].kind, p.history[0].opponent, p.history[0].colour, None)
    assert {e.score for e in entrants(state, RULES_002)} == {0.5}
