"""knsb-wp: KNSB Zwitsers op weerstandspunten (seed 001)."""

import pytest

from pairing.engines import registry
from pairing.engines.knsb_wp import checksums, round_one, standings, wp_sb
from pairing.engines.notes import english
from pairing.engines.state import Colour, InvalidInput, Kind, RoundRecord

from .knsb_helpers import MERGE, boards, byes, check_round, tournament
from .knsb_sim import play

SYSTEM = "knsb-wp"


def pair(state):
    return registry.pair(state, SYSTEM)


def test_registered():
    assert registry.get(SYSTEM).id == SYSTEM


@pytest.mark.rule("001 A1")
def test_a1c_wp_and_sb_of_player_57():
    opp = [3.5, 4.5, 2, 5, 4, 6, 5.5]
    res = [0, 0.5, 1, 1, 0.5, 0.5, 0]
    assert wp_sb(0.0, list(zip(opp, res, strict=True))) == (30.5, 14.25)


@pytest.mark.rule("001 A1")
def test_a1d_forfeits_count_as_a_draw_against_oneself():
    # 5-16 1-0R lowers 5's WS to 4; 8-57 0-1R: 57 (3½ with the 1R, WS 3) meets himself in that round.
    rounds = [(3.5, 0), (4, 0.5), (None, 1), (5, 1), (4, 0.5), (6, 0.5), (5.5, 0)]
    assert wp_sb(3.0, rounds) == (31, 13.5)


@pytest.mark.rule("001 F8")
def test_f8_checksums_over_a_whole_tournament():
    # README item 10: total WS = ½·D·R and total WP = ½·D·R·R with D the real number of players.
    state = play(SYSTEM, 11, 5, seed=3)
    table = standings(state.players, 5)
    assert sum(s.ws for s in table.values()) == pytest.approx(0.5 * 11 * 5)
    assert sum(s.wp for s in table.values()) == pytest.approx(0.5 * 11 * 5 * 5)
    points = sum(p.score() for p in state.players)
    assert points == pytest.approx(sum(s.score for s in table.values()))


@pytest.mark.rule("001 F8")
def test_f8_checksums_run_before_each_round_is_paired():
    # Round 3 of 6 players: 3 points a round, WS ½·6·2 = 6, WP ½·6·2·2 = 12.
    rounds = [[(1, 4, 1.0), (2, 5, 0.5), (3, 6, 0.0)], [(6, 1, 0.5), (4, 2, 1.0), (5, 3, 0.0)]]
    state = tournament(6, rounds, 5)
    problems, line = checksums(state)
    assert (problems, line.text()) == ([], "F8 after round 2: points 6, WS 6 = ½·D·R, WP 12 = ½·D·R·R (D = 6)")
    assert checksums(state)[1] in pair(state).explanation
    # A result entered wrongly on one side: 5 also won the game 2-5 of round 1.
    state.player(5).history[0] = RoundRecord(Kind.GAME, 2, Colour.BLACK, 1.0)
    problems, _ = checksums(state)
    assert problems[0] == "round 1: 2-5 gives 1.5 points in all"
    with pytest.raises(InvalidInput, match="F8 checksums do not hold: round 1: 2-5 gives 1.5 points"):
        pair(state)
    # A forfeit lost by both gives no points at all, and is in order.
    state.player(2).history[0] = RoundRecord(Kind.FORFEIT, 5, Colour.WHITE, 0.0)
    state.player(5).history[0] = RoundRecord(Kind.FORFEIT, 2, Colour.BLACK, 0.0)
    assert checksums(state)[0] == []


@pytest.mark.rule("001 D")
@pytest.mark.rule("001 F2")
def test_round_one_d1_fold_and_d2_adjacent():
    assert round_one([1, 2, 3, 4, 5, 6], fold=True) == [(1, 6), (2, 5), (3, 4)]
    assert round_one(range(1, 8), fold=True) == [(1, None), (2, 7), (3, 6), (4, 5)]
    assert round_one(range(1, 8), fold=False) == [(1, 2), (3, 4), (5, 6), (7, None)]
    p = pair(tournament(6, [], 5))
    assert boards(p) == [(1, 6), (2, 5), (3, 4)]  # D: the first named has white
    state = tournament(7, [], 5, settings={"round1": "adjacent"})
    p = pair(state)
    assert boards(p) == [(1, 2), (3, 4), (5, 6)] and byes(p) == [7]


def test_bad_setting():
    with pytest.raises(InvalidInput):
        pair(tournament(6, [], 5, settings={"round1": "snake"}))


@pytest.mark.rule("001 B3")
@pytest.mark.rule("001 C5")
def test_c5_highest_against_the_lowest_possible():
    # Round 1 1-8, 2-7, 3-6, 4-5 all drawn: one group, equal WP and SB, so lot order 1..8.
    # C5: 1 against the lowest he has not met (7), 2 against 8, 3 against 5, 4 against 6.
    state = tournament(8, [[(1, 8, 0.5), (2, 7, 0.5), (3, 6, 0.5), (4, 5, 0.5)]], 5)
    p = pair(state)
    assert boards(p) == [(7, 1), (8, 2), (5, 3), (6, 4)]


@pytest.mark.rule("001 C5")
@pytest.mark.rule("001 C6")
def test_c6_undo_the_last_pair_when_the_rest_cannot_be_paired():
    # All drawn in round 1 (1-2, 3-4, 5-6): lot order. C5: 1-6, 2-5, then 3-4 again. C6 undoes 2-5;
    # 2's next lowest opponent is 4, and 3-5 follows.
    state = tournament(6, [[(1, 2, 0.5), (3, 4, 0.5), (5, 6, 0.5)]], 5)
    assert boards(pair(state)) == [(6, 1), (2, 4), (5, 3)]


@pytest.mark.rule("001 A4")
@pytest.mark.rule("001 A1")
def test_a1_wp_and_sb_from_the_games():
    rounds = [[(1, 6, 1.0), (2, 5, 1.0), (3, 4, 0.0)], [(4, 1, 0.5), (5, 3, 0.0), (6, 2, 0.5)]]
    state = tournament(6, rounds, 5)
    table = standings(state.players, 2)
    assert table[1].score == 1.5 and table[2].score == 1.5
    # 1 beat 6 and drew with 4: WP = 6 + 4, SB = 6 + half of 4 (nobody had an unplayed round).
    assert table[1].wp == table[6].score + table[4].score == 2.0
    assert table[1].sb == table[6].score + 0.5 * table[4].score == 1.25


@pytest.mark.rule("001 A3")
@pytest.mark.rule("001 A4")
@pytest.mark.rule("001 C3")
@pytest.mark.rule("001 C4")
def test_c4_waiting_room_goes_to_the_higher_placed_when_all_else_ties():
    # 1, 2, 3 won with white in round 1: one of them must wait (C3: an odd group). Points, the next
    # group, colours (all want black) tie; C4.5 sends the higher placed player, 1, to the waiting room.
    state = tournament(6, [[(1, 6, 1.0), (2, 5, 1.0), (3, 4, 1.0)]], 5)
    p = pair(state)
    assert "C4: waiting room 1" in english(p.explanation)[0]
    assert {tuple(sorted(b)) for b in boards(p)} == {(2, 3), (1, 5), (4, 6)}


@pytest.mark.rule("001 C4")
@pytest.mark.rule("001 C5")
def test_c4_2_the_waiting_room_avoids_players_who_would_wait_again():
    # On 1½: 1, 3, 5; the next group is 2 alone, whom 3 and 5 have met: only 1 can go (C4.2).
    # C5: 3 against the lowest possible, 5.
    rounds = [[(1, 4, 0.5), (5, 2, 0.5), (3, 6, 1.0)], [(6, 1, 0.0), (2, 3, 0.5), (4, 5, 0.0)]]
    p = pair(tournament(6, rounds, 5))
    assert "C4: waiting room 1" in english(p.explanation)[0]
    assert {tuple(sorted(b)) for b in boards(p)} == {(3, 5), (1, 2), (4, 6)}


@pytest.mark.rule("001 B1")
@pytest.mark.rule("001 B2")
@pytest.mark.rule("001 C1")
@pytest.mark.rule("001 C8")
@pytest.mark.rule("001 A2")
@pytest.mark.rule("001 A5")
@pytest.mark.parametrize("n", [9, 14, 21])
def test_whole_tournaments_meet_the_absolute_criteria(n):
    play(SYSTEM, n, 7, seed=n)


@pytest.mark.rule("001 F3")
@pytest.mark.rule("001 F1")
@pytest.mark.rule("001 F4")
@pytest.mark.rule("001 F2")
@pytest.mark.rule("001 F5")
@pytest.mark.parametrize("n", [10, 17, 26])
def test_whole_tournaments_with_forfeits_and_absences(n):
    # F2: forfeits are no meeting and no colour; F5: absent players are not paired.
    play(SYSTEM, n, 7, seed=100 + n, mess=True)


def _naive_c5(left, ok):
    """C5/C6 read literally: depth-first, the highest against the lowest possible, undo on failure."""
    if not left:
        return []
    a = left[0]
    for b in reversed(left[1:]):
        if ok(a, b):
            tail = _naive_c5([e for e in left[1:] if e is not b], ok)
            if tail is not None:
                return [(a, b), *tail]
    return None


@pytest.mark.rule("001 C5")
@pytest.mark.parametrize("seed", range(8))
def test_c5_shortcut_equals_the_literal_depth_first_walk(seed):
    from pairing.engines.knsb_swiss import Lookahead, absolute_ok
    from pairing.engines.knsb_wp import RULES_001, _c5_pairing, _entrants

    state = play(SYSTEM, 12, 5, seed=seed)
    state.round_to_pair = 5
    for p in state.players:
        del p.history[4:]
    players = _entrants(state)
    checked = 0
    for start in range(0, 5):
        group = players[start : start + 8]
        got = _c5_pairing(group, Lookahead(RULES_001))
        want = _naive_c5(group, lambda a, b: absolute_ok(a, b, RULES_001))
        assert (got and [(a.id, b.id) for a, b in got]) == (want and [(a.id, b.id) for a, b in want])
        checked += want is not None
    assert checked


@pytest.mark.rule("001 C2")
@pytest.mark.rule("001 C3")
@pytest.mark.rule("001 C4")
@pytest.mark.rule("001 C5")
@pytest.mark.rule("001 C7")
@pytest.mark.rule("001 C9")
def test_c3_and_c9_the_waiting_room_grows_by_two():
    # Round 3. 3 and 6 (1½) have met: C2 sends both to the waiting room. The group on 1 (3, 6, 4, 5)
    # can be paired in full (3-5, 4-6), but then 1 and 2 (½), who met, are left: C9 re-pairs the group
    # with a larger waiting room, C3: 0 + 2. Rooms leaving a pair: {4, 6}, {3, 5}, {3, 4}; C4.1-C4.3
    # tie; C4.4: 5-6 want the same colour, so {3, 4} gives fewer their colour; C4.5: the higher
    # placed, 3, goes: {3, 5}. 4-6 (4 had black twice: white). Below: 3 against the lowest he may
    # meet, 2 (C5), and 5-1.
    rounds = [[(1, 6, 0.0), (2, 5, 0.0), (3, 4, 1.0)], [(2, 1, 0.5), (6, 3, 0.5), (5, 4, 0.0)]]
    state = tournament(6, rounds, 9)
    p = pair(state)
    assert boards(p) == [(4, 6), (3, 2), (1, 5)]
    assert "C3/C7: waiting room enlarged to 2; C4: waiting room 3, 5" in english(p.explanation)[1]
    check_round(state, p)


@pytest.mark.rule("001 B2")
@pytest.mark.rule("001 C2")
@pytest.mark.rule("001 C5")
def test_b2_not_for_topscorers_in_the_last_round():
    # 001 B2: "Dit geldt echter niet bij het indelen van de laatste ronde bij spelers met een score van
    # meer dan 50%". 1 and 2 (2/2) both had white twice; in the last round they meet (C5), one of them
    # with white a third time; with rounds to go B2 holds and both go to the waiting room (C2).
    rounds = [[(1, 4, 1.0), (2, 5, 1.0), (6, 3, 0.5)], [(1, 6, 1.0), (2, 3, 1.0), (4, 5, 0.5)]]
    last = tournament(6, rounds, 3)
    p = pair(last)
    assert boards(p) == [(2, 1), (3, 4), (5, 6)]
    check_round(last, p, exempt=frozenset({1, 2}))
    p = pair(tournament(6, rounds, 5))
    assert "C2: 1, 2 to the waiting room" in english(p.explanation)[0]
    assert boards(p) == [(5, 1), (6, 2), (3, 4)]


@pytest.mark.rule("001 C2")
@pytest.mark.rule("001 C3")
@pytest.mark.rule("001 C4")
@pytest.mark.rule("001 C5")
@pytest.mark.rule("001 F1")
def test_c4_3_the_waiting_room_that_leaves_the_smallest_one_below():
    # Round 4. 1 (3) has no opponent alone (C2) and joins 4 and 6 (2): one must wait (C3). C4.1: 4 or
    # 6 (2 points); C4.2: both have an opponent in the group on 1½ (2, 3, 5). C4.3: with 4 there, 4
    # can only meet 2, and 3 and 5 have met, so that group's waiting room would be 2 (C3: 0, then
    # +2); with 6 there, 6-5 and 2-3 pair everyone: 0. So 6 waits, 1-4; then 6 meets the lowest he
    # may (5, C5), 2-3, and 7 is left with the bye (F1).
    rounds = [
        [("bye", 1), (2, 7, 0.5), (3, 6, 1.0), (4, 5, 0.0)],
        [(7, 1, 0.0), (6, 2, 1.0), (5, 3, 0.5), ("bye", 4)],
        [(1, 5, 1.0), ("bye", 2), (3, 4, 0.0), (7, 6, 0.0)],
    ]
    state = tournament(7, rounds, 9)
    p = pair(state)
    assert "C4: waiting room 6" in english(p.explanation)[1]
    assert boards(p) == [(4, 1), (6, 5), (2, 3)] and byes(p) == [7]
    check_round(state, p)


@pytest.mark.rule("001 C2")
@pytest.mark.rule("001 C4")
def test_c2_a_player_from_the_waiting_room_without_opponent_sends_the_search_back():
    # Round 3: 1 on 2, 2 and 3 on 1½ (both have met 4, the only one on 1), 5-8 on ½. 1 waits (C2:
    # nobody on 2 to meet). On 1½ the waiting room holds one player: C4.1 sends one of 2 and 3 (fewer
    # points than 1), and he has no opponent on 1. C2: "bekijk dan eerst of de vorige puntengroep
    # niet anders kan worden ingedeeld": with 1 waiting, 2-3 and, on 1, 1-4. (Sending 2 or 3 on to
    # the ½ group instead, as a look-ahead would allow, pairs 1 with the other.)
    rounds = [
        [(1, 5, 1.0), (2, 4, 0.5), (3, 6, 1.0), (7, 8, 0.5)],
        [(1, 7, 1.0), (2, 8, 1.0), (4, 3, 0.5), (5, 6, 0.5)],
    ]
    state = tournament(8, rounds, 5)
    p = pair(state)
    check_round(state, p)
    assert {(3, 2), (4, 1)} <= set(boards(p))
    assert "C4: waiting room 1" in english(p.explanation)[1]
    assert "C2: another player floats so that the next group can pair" in english(p.explanation)[1]


@pytest.mark.rule("001 C3")
@pytest.mark.rule("001 C4")
@pytest.mark.rule("001 C5")
@pytest.mark.rule("001 C9")
def test_c9_the_lowest_group_sends_the_search_back_group_by_group():
    # The position of MERGE (round 4). On 2 (with 1 from the waiting room) C5 pairs 1-5 and 6-2;
    # 7 is alone on 1½ and waits; 3, 4 and 7 cannot be paired (none may have the bye). C9: the group
    # on 1½ has no other waiting room (all of it waits), so one more group back: the group on 2
    # takes its next waiting room, two players (C3): 6 and 2. The group on 1½ is paired again:
    # C4.1 first sends 7 (fewest points), 2-6, and the lowest group fails as before; C9: its next
    # waiting room is 6, 2-7; below, 4-3, and 6 has the bye.
    state = tournament(7, MERGE, 5)
    p = pair(state)
    check_round(state, p)
    assert sorted(boards(p)) == [(2, 7), (3, 4), (5, 1)] and byes(p) == [6]
    went_on = "C9: the lowest group could not be paired; this group went on"
    assert "C4: waiting room 6, 2" in english(p.explanation)[1] and went_on in english(p.explanation)[1]
    assert "C4: waiting room 6;" in english(p.explanation)[2] and went_on in english(p.explanation)[2]
    assert english(p.explanation)[3].startswith("score group 1 (2 players, 1 from the waiting room)")


@pytest.mark.rule("001 F11")
def test_adjourned_game_counts_as_a_draw_f11():
    """001 F11: as long as adjourned games are not finished, they count as a draw for the pairing:
    the pairing order (A4: points, WP, SB) counts ½ for each."""
    state = tournament(4, [[(1, 3, 0.5), (2, 4, 0.5)]], 5)
    for p in state.players:
        p.history[0] = RoundRecord(p.history[0].kind, p.history[0].opponent, p.history[0].colour, None)
    table = standings(state.players, 1)
    assert {table[p].score for p in (1, 2, 3, 4)} == {0.5}


@pytest.mark.rule("001 F9")
def test_f9_a_voluntary_half_point_bye_counts_as_a_draw_against_oneself():
    """001 F9: voluntary byes worth ½ point follow F3 (a draw against oneself for WP and SB) and F4
    (no colour). Round 1: 1-2 1-0, 3-4 ½-½; round 2: 2-3 1-0, 1 and 4 take a half-point bye.
    WS (unplayed rounds ½): 1: 1½, 2: 1, 3: ½, 4: 1. WP(1) = WS(2) + own 1½ = 2½; SB(1) = 1 + ½·1½ = 1¾.
    WP(4) = WS(3) + own 1 = 1½; SB(4) = ½·½ + ½·1 = ¾."""
    state = tournament(4, [[(1, 2, 1.0), (3, 4, 0.5)], [(2, 3, 1.0)]], 5)
    for pid in (1, 4):
        state.player(pid).history.append(RoundRecord(Kind.HALF_BYE, score=0.5))
    table = standings(state.players, 2)
    assert (table[1].score, table[1].ws, table[1].wp, table[1].sb) == (1.5, 1.5, 2.5, 1.75)
    assert (table[4].score, table[4].ws, table[4].wp, table[4].sb) == (1.0, 1.0, 1.5, 0.75)
    assert state.player(1).colours() == [Colour.WHITE]
