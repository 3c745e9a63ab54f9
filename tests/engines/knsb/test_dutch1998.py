"""dutch-1998: the 1998 FIDE Dutch system, seed 000 (KNSB 1996) = seed 004 §4.9.5, hand-made groups."""

from itertools import product

import pytest

from pairing.engines import registry
from pairing.engines.knsb_swiss import RULES_000, absolute_ok, count_x, entrants
from pairing.engines.notes import english
from pairing.engines.state import Colour, Kind, NoValidPairing, RoundRecord

from .knsb_helpers import MERGE, TWO_STRONG_WHITES, absent, boards, byes, check_round, tournament
from .knsb_sim import play

SYSTEM = "dutch-1998"


def pair(state):
    return registry.pair(state, SYSTEM)


def test_registered():
    assert registry.get(SYSTEM).id == SYSTEM


@pytest.mark.rule("000 A2")
@pytest.mark.rule("000 A6")
@pytest.mark.rule("000 C4")
@pytest.mark.rule("000 C5")
@pytest.mark.rule("000 C6")
@pytest.mark.rule("000 A7")
@pytest.mark.rule("000 E4")
@pytest.mark.rule("000 F4")
@pytest.mark.rule("004 4.9.5")
def test_round_one_f4_top_half_against_bottom_half_e4_alternating_colours():
    # F4: S1 = 1-4 against S2 = 5-8 in order; E4/A7: odd S1 numbers get the lot colour (white).
    assert boards(pair(tournament(8, [], 5))) == [(1, 5), (6, 2), (3, 7), (8, 4)]


@pytest.mark.rule("000 F4")
def test_round_one_lot_colour_black():
    state = tournament(8, [], 5, top_colour_round1=Colour.BLACK)
    assert boards(pair(state)) == [(5, 1), (2, 6), (7, 3), (4, 8)]


@pytest.mark.rule("000 A5")
@pytest.mark.rule("000 F4")
def test_round_one_odd_field_f4_lowest_gets_the_bye():
    p = pair(tournament(7, [], 5))
    assert boards(p) == [(1, 4), (5, 2), (3, 6)]
    assert byes(p) == [7]


@pytest.mark.rule("000 A9")
@pytest.mark.rule("000 B1")
@pytest.mark.rule("000 C6")
@pytest.mark.rule("000 C7")
@pytest.mark.rule("000 D1")
@pytest.mark.rule("004 4.9.5")
def test_c7_transposition_when_c6_repeats_a_game():
    # All on ½: S1 = 1, 2; S2 = 3, 4. C6 gives 1-3 again (B1), D1's next order 4, 3 gives 1-4, 2-3.
    p = pair(tournament(4, [[(1, 3, 0.5), (2, 4, 0.5)]], 5))
    assert sorted(tuple(sorted(b)) for b in boards(p)) == [(1, 4), (2, 3)]
    assert "C7 transposition" in english(p.explanation)[0]


@pytest.mark.rule("000 C2")
@pytest.mark.rule("000 C3")
@pytest.mark.rule("000 A8")
@pytest.mark.rule("000 B4")
@pytest.mark.rule("000 C12")
@pytest.mark.rule("000 C7")
@pytest.mark.rule("000 C8")
@pytest.mark.rule("000 D2")
@pytest.mark.rule("000 E4")
@pytest.mark.rule("004 4.9.5")
def test_c8_exchange_c12_x_raised_and_b4_mild_misses():
    # Round 3: 1 and 2 have met 3 and 4, so only 1-2 and 3-4 remain: no transposition of S2 = 3, 4
    # works (C7); the D2 exchange a) of 2 with 3 does. Both pairs want the same colour (1 and 2 white,
    # 3 and 4 black, all mild), while A8 gives x = 0: C12 raises x to 1, and B4 (stronger
    # preferences first) then allows the second miss, as it falls on mild preferences.
    state = tournament(4, [[(1, 3, 0.5), (2, 4, 0.5)], [(4, 1, 0.5), (3, 2, 0.5)]], 5)
    assert count_x(entrants(state, RULES_000)) == (0, 0)
    p = pair(state)
    assert boards(p) == [(1, 2), (4, 3)]  # E4: the higher player's preference
    assert "B4 (stronger preferences first): one more miss, on a mild preference (2)" in english(p.explanation)[0]
    assert "p=2, x=1 (B4: up to 2 colour misses, those beyond 1 on mild preferences)" in english(p.explanation)[0]
    assert "D2 exchange of 2 with 3" in english(p.explanation)[0]


@pytest.mark.rule("000 A4")
@pytest.mark.rule("000 C10")
@pytest.mark.rule("000 A5")
@pytest.mark.rule("000 B5")
@pytest.mark.rule("000 C6")
@pytest.mark.rule("000 C7")
def test_b5_bye_counts_as_downfloat_so_c7_keeps_the_player_up():
    # Round 1: 1-4 1-0, 5-2 0-1, 3-6 draw, 7 bye (A5: a downfloat). Group 1: 1, 2, 7; C6 would pair
    # 1-2 and float 7 again (B5), so C7 pairs 1-7 and 2 floats down: 2-3 in the ½ group (the
    # floater against the highest of S2), 6 floats on to 4, 5 and meets 5 (4 would repeat 6's white
    # wish: x = 0); 4 gets the bye.
    state = tournament(7, [[(1, 4, 1.0), (5, 2, 0.0), (3, 6, 0.5), ("bye", 7)]], 5)
    p = pair(state)
    assert boards(p) == [(7, 1), (2, 3), (6, 5)]
    assert byes(p) == [4]
    assert "C7 transposition" in english(p.explanation)[0]
    assert "heterogeneous" in english(p.explanation)[1]


@pytest.mark.rule("000 B5")
@pytest.mark.rule("000 C10")
@pytest.mark.rule("000 C13")
@pytest.mark.rule("000 C6")
@pytest.mark.rule("000 C7")
@pytest.mark.rule("000 D2")
def test_c13_another_player_floats_so_that_the_next_group_can_pair():
    # Round 3. On 1½: 1, 3, 5; below them 2 (1), 4 (½), 6 (0). C6 gives 1-3 and floats 5, but 5 has
    # met 2 already; so has 3 (C7's 1-5). C13: the first pairing whose floater can meet 2 is the
    # exchange of 1 with 3 (S1 = 3): 3-5, floating 1. 1 floated down in round 2, so only after C10
    # drops B5 for downfloats.
    rounds = [[(1, 4, 0.5), (5, 2, 0.5), (3, 6, 1.0)], [(6, 1, 0.0), (2, 3, 0.5), (4, 5, 0.0)]]
    p = pair(tournament(6, rounds, 5))
    assert boards(p) == [(3, 5), (1, 2), (6, 4)]
    first = english(p.explanation)[0]
    assert "C10: B5 dropped for downfloats" in first and "D2 exchange of 1 with 3" in first
    assert "C13: another player floats" in first


@pytest.mark.rule("000 B2")
def test_topscorers_in_the_last_round_are_free_of_b2():
    # Last round: 1 and 2 have 2/2 with white twice; they meet although one gets white a third time.
    rounds = [[(1, 4, 1.0), (2, 5, 1.0), (6, 3, 0.5)], [(1, 6, 1.0), (2, 3, 1.0), (4, 5, 0.5)]]
    state = tournament(6, rounds, 3)
    e = {x.id: x for x in entrants(state, RULES_000)}
    assert e[1].top and e[2].top and not e[3].top
    assert absolute_ok(e[1], e[2], RULES_000)
    assert not absolute_ok(e[3], e[5], RULES_000)  # both had black twice
    p = pair(state)
    assert boards(p) == [(2, 1), (3, 4), (5, 6)]
    check_round(state, p, exempt=frozenset({1, 2}))
    # One round earlier (not the last), 1 and 2 could not meet.
    state.total_rounds = 5
    assert not absolute_ok(*[x for x in entrants(state, RULES_000) if x.id in (1, 2)], RULES_000)


@pytest.mark.rule("000 F3")
@pytest.mark.rule("000 B1")
@pytest.mark.rule("000 F2")
def test_forfeit_is_neither_meeting_nor_colour_f2_and_bars_the_bye_b1():
    state = tournament(3, [], 5)
    p1, p2, p3 = state.players
    p1.history.append(RoundRecord(Kind.FORFEIT, 2, Colour.WHITE, 1.0))
    p2.history.append(RoundRecord(Kind.FORFEIT, 1, Colour.BLACK, 0.0))
    p3.history.append(RoundRecord(Kind.PAIRING_BYE, None, None, 1.0))
    state.round_to_pair = 2
    p = pair(state)
    # 1 and 3 have a point without playing: neither may get the bye; 1-2 may meet again (F2).
    assert byes(p) == [2]
    assert sorted(boards(p)[0]) == [1, 3]


@pytest.mark.rule("000 F9")
def test_adjourned_game_counts_as_a_draw_f9():
    state = tournament(4, [[(1, 3, 0.5), (2, 4, 0.5)]], 5)
    for p in state.players:
        p.history[0] = RoundRecord(p.history[0].kind, p.history[0].opponent, p.history[0].colour, None)
    assert {e.score for e in entrants(state, RULES_000)} == {0.5}


def test_no_valid_pairing():
    state = tournament(2, [[(1, 2, 0.5)]], 3)
    with pytest.raises(NoValidPairing):
        pair(state)


@pytest.mark.rule("000 B1")
@pytest.mark.rule("000 B2")
@pytest.mark.rule("000 B3")
@pytest.mark.rule("000 B6")
@pytest.mark.rule("000 C9")
@pytest.mark.rule("000 A3")
@pytest.mark.parametrize("n", [9, 14, 21])
@pytest.mark.rule("004 4.9.5")
def test_whole_tournaments_meet_the_absolute_criteria(n):
    play(SYSTEM, n, 7, seed=n)


@pytest.mark.rule("000 F2")
@pytest.mark.rule("000 F5")
@pytest.mark.parametrize("n", [10, 17, 26])
def test_whole_tournaments_with_forfeits_and_absences(n):
    # F2: forfeits are no meeting and no colour; F5: absent players are not paired.
    play(SYSTEM, n, 7, seed=100 + n, mess=True)


def _brute_transpositions(ctx, s1, s2, level, may_stay):
    """D1 read literally: every permutation of S2 in order, duplicates of the first |S1| removed."""
    from itertools import permutations

    from pairing.engines.knsb_swiss import conflict, pair_ok

    seen, out = set(), []
    for perm in permutations(range(len(s2))):
        head = perm[: len(s1)]
        if head in seen:
            continue
        seen.add(head)
        pairs = [(a, s2[j]) for a, j in zip(s1, head, strict=False)]
        if not all(pair_ok(ctx, level, a, b) for a, b in pairs):
            continue
        if sum(conflict(a, b) for a, b in pairs) > level.x:
            continue
        if all(may_stay(s2[j]) for j in range(len(s2)) if j not in head):
            out.append([(a.id, b.id) for a, b in pairs])
    return out


@pytest.mark.rule("000 D1")
@pytest.mark.parametrize("seed", range(6))
def test_pruned_transpositions_equal_the_literal_d1_order(seed):
    """The pruned walk yields exactly the acceptable transpositions of D1, in D1's order."""
    from pairing.engines.knsb_swiss import Context, Level, Lookahead
    from pairing.engines.knsb_swiss.groups import stay_rule
    from pairing.engines.knsb_swiss.transpositions import transpositions

    state = play(SYSTEM, 12, 4, seed=seed)
    state.round_to_pair = 4
    for p in state.players:
        del p.history[3:]
    players = entrants(state, RULES_000)
    group = players[seed % 3 : seed % 3 + 7 + seed % 2]
    p = len(group) // 2
    found = 0
    for level in (Level(0, None), Level(1, None, down5=False), Level(p, None, False, False, False, False)):
        ctx = Context(RULES_000, False, Lookahead(RULES_000), [], last=False)
        may_stay = stay_rule(ctx, level)
        got = [
            [(a.id, b.id) for a, b in pairs]
            for pairs, _, _ in transpositions(ctx, group[:p], group[p:], level, may_stay)
        ]
        want = _brute_transpositions(ctx, group[:p], group[p:], level, may_stay)
        assert got == want
        found += len(want)
    assert found > 0


@pytest.mark.rule("000 C11")
@pytest.mark.rule("000 A3")
@pytest.mark.rule("000 C1")
@pytest.mark.rule("000 C14")
@pytest.mark.rule("000 C15")
@pytest.mark.rule("000 C6")
@pytest.mark.rule("000 D2")
def test_c14_the_last_group_cannot_be_paired_so_the_group_above_is_paired_again():
    # Round 3. 2 and 3 (1½) have met: C1 sends both down to 4 and 5 (1), who have met too; half the
    # group moved down, so it is homogeneous (A3). Every pairing with p = 2 (C6: 2-4, 3-5) leaves
    # 1 and 6 (½), who met in round 2: the last group cannot be paired. C14: the group above goes on
    # where it was; no p = 2 candidate works, so C15 lowers p to 1, and the first candidate at x = 0
    # is the exchange of 2 with 3 (2-4 would miss both black preferences): 3-4, and 2 and 5 float.
    rounds = [[(1, 4, 0.0), (5, 2, 0.0), (3, 6, 1.0)], [(6, 1, 0.5), (2, 3, 0.5), (4, 5, 0.0)]]
    state = tournament(6, rounds, 5)
    p = pair(state)
    assert boards(p) == [(3, 4), (1, 2), (5, 6)]
    assert "C15: p lowered to 1" in english(p.explanation)[1] and "D2 exchange of 2 with 3" in english(p.explanation)[1]
    check_round(state, p)


@pytest.mark.rule("000 A7")
@pytest.mark.rule("000 F4")
def test_round_one_a7_colours_by_rank_among_the_players_paired():
    # 000 A7/E5: the odd-ranked players of S1 get the lot's colour. 2 is absent: 1, 3, 4 form S1 and
    # 3 is ranked second, so he gets black; 8, the lowest, has the bye (F4).
    state = tournament(8, [], 5, requested_byes={2: Kind.ABSENT_NOTICE})
    p = pair(state)
    assert boards(p) == [(1, 5), (6, 3), (4, 7)]
    assert byes(p) == [8, 2]


@pytest.mark.rule("000 A7")
@pytest.mark.rule("000 A8")
@pytest.mark.rule("000 C6")
@pytest.mark.rule("000 C7")
@pytest.mark.rule("000 E1")
@pytest.mark.rule("000 E2")
def test_a8_last_sentence_a_mild_preference_takes_the_miss():
    # Round 4, score group 2: 1 BWB (strong white), 2 WBW (strong black), 3 BWB (strong white),
    # 4 WB and absent (colour difference 0, last black: mild white). A8: w = 3, z = 1, q = 2, so
    # x = 1. "Bekijk of u x kleiner kunt maken": 4's mild preference turned gives w = 2, z = 2, x = 0.
    # C6 pairs 1-3 (two strong preferences for white) and 2-4: one miss, which x = 0 does not
    # allow; C7 (S2 = 4, 3) pairs 1-4 and 2-3: the only miss falls on 4's mild preference.
    # Without the sentence x = 1 and C6's 1-3, 2-4 stood.
    state = absent(tournament(8, TWO_STRONG_WHITES, 5), 4, 5)
    group = [e for e in entrants(state, RULES_000) if e.score == 2]
    assert [e.id for e in group] == [1, 2, 3, 4]
    assert count_x(group) == (1, 1)
    p = pair(state)
    check_round(state, p)
    assert {(1, 4), (3, 2)} <= set(boards(p))  # E2: 1's strong preference; E1: 3 white, 2 black
    assert "C7 transposition of S2; p=2, x=0 (A8: 1 less 1 mild preference(s)" in english(p.explanation)[0]


@pytest.mark.rule("000 E2")
@pytest.mark.rule("000 A8")
@pytest.mark.rule("000 B4")
@pytest.mark.rule("000 C12")
@pytest.mark.rule("000 C6")
@pytest.mark.rule("000 D2")
def test_b4_stronger_preference_first_before_x_is_raised():
    # Round 4, score group 2: 1 BWB and 4 BWB (strong white), 3 WB and absent (mild white), 2, 5, 6
    # WBW (strong black); 1 has met 2, 5 and 6. A8: w = z = 3, x = 0. 1 can only meet 3 or 4, so a
    # pair wants white twice and another black twice: two misses. C12 raises x; B4 ("met voorrang
    # voor een sterkere voorkeur") first allows the second miss only on a mild preference. Every
    # transposition of S2 = 4, 5, 6 pairs 1-4 (strong white twice) and 2 with 5 or 6 (strong black
    # twice); the first D2 exchange (3 with 4) pairs 1-3, 2-5, 4-6: 3's mild preference takes the
    # miss. When x is simply raised to 2, C6's 1-4, 2-5, 3-6 is taken.
    rounds = [
        [(2, 1, 0.5), (5, 4, 0.5), (3, 7, 1.0), (6, 8, 1.0), (9, 10, 0.5)],
        [(1, 5, 0.5), (4, 2, 0.5), (8, 3, 0.0), (7, 6, 0.0)],
        [(6, 1, 0.0), (2, 7, 1.0), (5, 8, 1.0), (9, 4, 0.0)],
    ]
    state = absent(tournament(10, rounds, 5), 3, 10)
    state.player(9).history.insert(1, RoundRecord(Kind.ABSENT_NOTICE, None, None, 0.0))
    state.player(10).history.insert(1, RoundRecord(Kind.ABSENT_NOTICE, None, None, 0.0))
    group = [e for e in entrants(state, RULES_000) if e.score == 2]
    assert [e.id for e in group] == [1, 2, 3, 4, 5, 6]
    assert count_x(group) == (0, 0)
    p = pair(state)
    check_round(state, p)
    pairs = {frozenset(b) for b in boards(p)}
    assert {frozenset((1, 3)), frozenset((2, 5)), frozenset((4, 6))} <= pairs
    assert "B4 (stronger preferences first)" in english(p.explanation)[0]
    assert "D2 exchange of 3 with 4" in english(p.explanation)[0]


@pytest.mark.rule("000 B4")
@pytest.mark.rule("000 C1")
@pytest.mark.rule("000 C12")
@pytest.mark.rule("000 C14")
@pytest.mark.rule("000 C15")
@pytest.mark.rule("000 C6")
@pytest.mark.rule("000 D2")
def test_c14_the_lowest_groups_merge_and_the_group_above_goes_on_where_it_was():
    # 1 moves down (C1). Group 2 is heterogeneous, S1 = 1: with x = 0 only 1-2 (C6) passes B4, and
    # then 5-6 have met; C12 raises x to 1: 1-5 (both want black) and the remainder 2-6. 7 is alone on
    # 1½ and moves down (C1); 3, 4 and 7 cannot be paired, as none of them may have the bye. C14: the
    # group on 1½ has reached p = 0, so it and the lowest form one lowest group; group 2 goes on where
    # it was: the remainder's p lowered to 0 (C15), 1-2 at x = 0, 5 and 6 float. In {5, 6, 7, 3, 4}
    # S1 = 5, 6 leaves 3, 4 or 7 for the bye; the D2 exchange of 6 with 7 pairs 5-3, 7-4 and 6 has
    # the bye. (Looking ahead from group 2 instead would have kept 1-5 and floated 2 and 6.)
    state = tournament(7, MERGE, 5)
    p = pair(state)
    check_round(state, p)
    assert sorted(boards(p)) == [(2, 1), (3, 5), (7, 4)]
    assert byes(p) == [6]
    assert "C15 (remainder): p lowered to 0" in english(p.explanation)[1]
    assert "C14: the lowest group could not be paired; this group went on" in english(p.explanation)[1]
    assert english(p.explanation)[2].startswith("score groups 1.5 to 1")
    assert "C14: the groups went back to form one lowest group" in english(p.explanation)[2]
    assert "D2 exchange of 6 with 7" in english(p.explanation)[2]


@pytest.mark.rule("000 A3")
@pytest.mark.rule("000 C1")
@pytest.mark.rule("000 C13")
def test_c13_the_next_group_must_reach_p_pairs_not_only_give_each_floater_an_opponent():
    # C13: "waardoor in de daaropvolgende groep wel p paringen te realiseren zijn". Two players moved
    # down into a heterogeneous group of five (p = 2) whose only possible opponent there is the same
    # resident: each has an opponent (C1 holds), but the group cannot reach p = 2 pairs.
    from dataclasses import replace

    from pairing.engines.knsb_swiss import next_group_can_pair

    e = {x.id: x for x in entrants(tournament(7, [], 5), RULES_000)}
    f1 = replace(e[1], met=frozenset({4, 5, 6}))
    f2 = replace(e[2], met=frozenset({4, 5, 6}))
    residents = [e[i] for i in (3, 4, 5, 6)]
    assert not next_group_can_pair([f1, f2], [f1, f2], residents, RULES_000)
    assert next_group_can_pair([f1, replace(e[2], met=frozenset({3, 5, 6}))], [f1], residents, RULES_000)
    # Half or more moved down: a homogeneous group (A3), where the floaters may meet each other.
    assert next_group_can_pair([f1, f2], [f1, f2], residents[:2], RULES_000)
    # C1's case: a floater without any opponent there.
    assert not next_group_can_pair([f1], [f1], [e[4], e[5]], RULES_000)


@pytest.mark.rule("000 C14")
@pytest.mark.parametrize("seed", range(8))
def test_going_back_skips_only_candidates_that_leave_the_players_below_unpairable(seed):
    """C14: a group going on takes the first candidate after which everyone below can be paired.
    The walk with its cuts (`BelowCut`, `groups._any_acceptable`) yields exactly the candidates of the
    plain walk that pass that test, in the same order."""
    from pairing.engines.knsb_swiss import Context, Level, Lookahead, Mode, homogeneous

    state = play(SYSTEM, 14, 5, seed=seed)
    state.round_to_pair = 5
    for p in state.players:
        del p.history[4:]
    players = entrants(state, RULES_000)
    cut = 6 + seed % 3
    group = players[:cut]
    look = Lookahead(RULES_000)
    level = Level(len(group) // 2, None, False, False, False, False)
    compared = 0
    # Below: all other players, or only the last three or four (a lowest group).
    for lower, pairs in product((players[cut:], players[-(3 + seed % 2) :]), range(len(group) // 2, 0, -1)):
        plain = Context(RULES_000, False, look, list(lower), last=False)
        back = Context(RULES_000, False, look, list(lower), last=False, mode=Mode.GO_BACK)
        want = [
            [(a.id, b.id) for a, b in c.pairs]
            for c in homogeneous(plain, group, pairs, level)
            if look([*c.floaters, *lower])
        ]
        got = [[(a.id, b.id) for a, b in c.pairs] for c in homogeneous(back, group, pairs, level)]
        assert got == want
        compared += len(want)
    assert compared > 0
