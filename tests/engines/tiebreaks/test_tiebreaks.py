"""Tie-breaks on hand-computed cases: seed 001's worked example, FIDE C.07's unplayed rounds (2023,
2026 and the pre-2023 virtual opponent), cuts, direct encounter, ratings, Danish korrektion."""

from __future__ import annotations

import pytest

from pairing.engines.state import Colour, InvalidInput, Kind, Player, RoundRecord, TournamentState
from pairing.engines.tiebreaks import Calculator, Rules, Unrated, parse, standings, unrated_rule_note
from pairing.engines.tiebreaks.defaults import DEFAULTS, default_tiebreaks
from pairing.engines.tiebreaks.rules import drawn_as_opponent
from ratings.maths.tables import FIDE_TABLE_812
from tests.engines.tiebreaks.tiebreak_builders import build

G, F = Kind.GAME, Kind.FORFEIT


def _rec(kind: Kind, opponent: int | None, score: float, colour: Colour | None = None) -> RoundRecord:
    return RoundRecord(kind, opponent, colour or (Colour.WHITE if opponent else None), score)


# ---------------------------------------------------------------- seed 001 A1c / A1d


def _seed001_state(forfeits: bool) -> TournamentState:
    """Player 57 of seed 001 A1c: opponents 1, 5, 8, 14, 21, 28, 39 with final scores 3½, 4½, 2, 5, 4,
    6, 5½; 57 scored 0, ½, 1, 1, ½, ½, 0. With `forfeits` (A1d): 8-57 0-1R in round 3 and opponent 5
    won a round by forfeit (5-16 1-0R). The opponents' other rounds are games against fillers."""
    own = [(1, 0.0), (5, 0.5), (8, 1.0), (14, 1.0), (21, 0.5), (28, 0.5), (39, 0.0)]
    finals = {1: 3.5, 5: 4.5, 8: 2.0, 14: 5.0, 21: 4.0, 28: 6.0, 39: 5.5}
    players = [Player(57, history=[_rec(F if forfeits and o == 8 else G, o, s) for o, s in own])]
    for rnd, (opp, s) in enumerate(own):
        rest = finals[opp] - (1 - s)
        history = []
        for r in range(7):
            if r == rnd:
                history.append(_rec(F if forfeits and opp == 8 else G, 57, 1 - s, Colour.BLACK))
                continue
            got = min(1.0, rest)
            rest -= got
            kind = F if forfeits and opp == 5 and r == 0 else G  # 5-16 1-0R
            history.append(_rec(kind, 100 + r, got))
        assert rest == 0
        players.append(Player(opp, history=history))
    return TournamentState(players, 7, 8)


@pytest.mark.rule("001 A1")
def test_seed001_a1c_wp_and_sb():
    calc = Calculator(_seed001_state(forfeits=False), rules="knsb")
    assert calc.value("WP", 57) == 30.5
    assert calc.value("WSB", 57) == 14.25
    # Without unplayed rounds every convention gives the same numbers.
    fide = Calculator(_seed001_state(forfeits=False), rules="fide-2026")
    assert (fide.value("BH", 57), fide.value("SB", 57)) == (30.5, 14.25)


@pytest.mark.rule("001 A1")
@pytest.mark.rule("001 F3")
def test_seed001_a1d_forfeits_are_a_draw_against_oneself():
    state = _seed001_state(forfeits=True)
    calc = Calculator(state, rules="fide-2026")
    assert calc.value("WP", 57) == 31  # 3½ + 4 + 3 + 5 + 4 + 6 + 5½
    assert calc.value("WSB", 57) == 13.5  # 0 + 2 + 1½ + 5 + 2 + 3 + 0
    items = calc.explain("WP", 57).items
    assert [i.value for i in items] == [3.5, 4.0, 3.0, 5.0, 4.0, 6.0, 5.5]
    assert items[2].opponent is None and "draw against oneself" in items[2].note.text()
    assert "4.5 points counted as 4" in items[1].note.text()


@pytest.mark.rule("C.07 16.4")
@pytest.mark.rule("C.07 8.1")
def test_the_same_forfeits_under_each_fide_edition():
    state = _seed001_state(forfeits=True)
    # C.07 2023: own forfeit win = dummy with own score 3½, won; 5's forfeit win counts as it is.
    calc = Calculator(state, rules="fide-2023")
    assert (calc.value("BH", 57), calc.value("SB", 57)) == (32, 15.75)
    # 2026: the dummy is capped at the scheduled opponent's score (8 has 2).
    calc = Calculator(state, rules="fide-2026")
    assert (calc.value("BH", 57), calc.value("SB", 57)) == (30.5, 14.25)
    # Pre-2023: virtual opponent ½ + 0 + 4 × ½ = 2½; opponents' unplayed games count as draws.
    calc = Calculator(state, rules="fide-pre2023")
    assert (calc.value("BH", 57), calc.value("SB", 57)) == (30.5, 14.5)
    # Unplayed rounds ignored, scores as they are.
    calc = Calculator(state, rules="plain")
    assert (calc.value("BH", 57), calc.value("SB", 57)) == (28.5, 12.25)


# ---------------------------------------------------------------- pre-2023 worked check (2009)


@pytest.mark.rule("C.07 16.4")
def test_virtual_opponent_2009_example():
    """Old C.02 art. 13: A has 2 after round 2, wins round 3 by forfeit, ends on 6 of 9: his own round
    3 counts 2 + 0 + 6 × ½ = 5, and others see him on 5½. B, 4 after 6 rounds, absent in round 7,
    ends on 6: own round 7 counts 4 + 1 + 2 × ½ = 6, others see him on 6½."""
    a = [_rec(G, 10, 1), _rec(G, 11, 1), _rec(F, 12, 1)]
    a += [_rec(G, 13 + i, s) for i, s in enumerate([1, 1, 1, 0, 0, 0])]
    b = [_rec(G, 20 + i, s) for i, s in enumerate([1, 1, 1, 1, 0, 0])]
    b += [RoundRecord(Kind.ABSENT, score=0.0), _rec(G, 30, 1), _rec(G, 31, 1)]
    fillers = [Player(i) for i in range(10, 32)]  # opponents whose own rounds do not matter here
    state = TournamentState([Player(1, history=a), Player(2, history=b), *fillers], 9, 10)
    calc = Calculator(state, rules="fide-pre2023")
    assert calc.explain("BH", 1).items[2].value == 5
    assert calc.explain("BH", 2).items[6].value == 6
    field = calc.field()
    assert (field.adjusted[1], field.adjusted[2]) == (5.5, 6.5)


# ---------------------------------------------------------------- C.07 art. 16 categories


@pytest.mark.rule("C.07 16.1")
@pytest.mark.rule("C.07 16.2")
@pytest.mark.parametrize(
    ("kinds", "expected"),
    [
        ("GHG", [False, False, False]),  # a bye followed by a game: as it is
        ("GHZ", [False, True, True]),  # followed only by VURs, and the last round
        ("GH-", [False, True, False]),  # a forfeit loss is a VUR but not a requested bye
        ("GGH", [False, False, True]),  # requested in the last round
        ("ZUG", [False, False, False]),  # a pairing-allocated bye is not voluntary
        ("GGAA", [False, False, True, True]),  # withdrawal: every later round a zero-point bye
    ],
)
def test_category_5_rounds(kinds, expected):
    table = {
        "G": _rec(G, 9, 1),
        "H": RoundRecord(Kind.HALF_BYE, score=0.5),
        "Z": RoundRecord(Kind.ABSENT_NOTICE, score=0.0),
        "A": RoundRecord(Kind.ABSENT, score=0.0),
        "U": RoundRecord(Kind.PAIRING_BYE, score=1.0),
        "-": _rec(F, 9, 0),
    }
    assert drawn_as_opponent([table[k] for k in kinds]) == expected


def _withdrawal_state() -> TournamentState:
    """4 rounds. 3 beats 1 and 4, then withdraws (absent rounds 3-4). 1 (2 points) also has a
    half-point bye in round 2, then beats 2 (2½) and draws with 4 (1, a zero-point bye in round 3)."""
    return build(
        4,
        [
            [("0-1", 1, 3), ("=", 2, 4)],
            [("H", 1), ("0-1", 4, 3), ("U", 2)],
            [("1-0", 1, 2), ("Z", 4)],
            [("=", 1, 4), ("U", 2)],
        ],
        withdrawn=(3,),
    )


@pytest.mark.rule("C.07 16.3")
@pytest.mark.rule("C.07 8.1")
def test_withdrawal_counts_as_draws_for_the_opponents():
    state = _withdrawal_state()
    calc = Calculator(state, rules="fide-2026")
    # 3 has 2 points; rounds 3 and 4 (category 5) count as draws: 3 as an opponent is worth 3.
    assert calc.field().points[3] == 2 and calc.field().adjusted[3] == 3
    bh1 = calc.explain("BH", 1)
    assert [i.value for i in bh1.items] == [3.0, 2.0, 2.5, 1.0]
    # Player 1: 0 (r1), ½ bye (dummy, own 2), 1 vs 2 (2½), ½ vs 4 (1).
    assert bh1.value == 8.5
    assert bh1.items[1].opponent is None and "own score 2" in bh1.items[1].note.text()
    assert calc.field().adjusted[1] == 2  # his bye is followed by games: as it is
    assert calc.field().adjusted[4] == 1  # so is 4's zero-point bye
    # Plain rules: the withdrawn player counts at his 2 points, the bye not at all.
    assert Calculator(state, rules="plain").value("BH", 1) == 2 + 2.5 + 1


@pytest.mark.rule("C.07 14")
@pytest.mark.rule("C.07 16.5")
def test_cut_takes_the_voluntary_unplayed_round_first():
    state = _withdrawal_state()
    fide = Calculator(state, rules="fide-2023")
    # Contributions of 1: 3 (opp 3), 2 (half-point bye, dummy), 2½, 1. C.07 16.5: cut the bye.
    exp = fide.explain("BH/C1", 1)
    assert exp.value == 6.5
    assert [i.counted for i in exp.items] == [True, False, True, True]
    plain_cut = Calculator(state, rules=Rules("dummy", "adjusted", False))
    assert plain_cut.value("BH/C1", 1) == 7.5  # the lowest (1) goes instead
    assert fide.value("BH/M1", 1) == 3.5  # bye and the highest (3) cut
    assert fide.value("BH/C2", 1) == 5.5
    assert fide.value("BH/C9", 1) == 0  # more cut than there are rounds: all of them


@pytest.mark.rule("C.07 16.4")
@pytest.mark.rule("C.07 9.1")
def test_dummy_cap_of_2026_for_byes():
    # 2 rounds: 1 wins a game and gets the pairing-allocated bye: 2 points, dummy capped at 2 × ½ = 1.
    state = build(3, [[("1-0", 1, 2), ("U", 3)], [("U", 1), ("1-0", 2, 3)]])
    assert Calculator(state, rules="fide-2023").explain("BH", 1).items[1].value == 2
    capped = Calculator(state, rules="fide-2026").explain("BH", 1)
    assert capped.items[1].value == 1 and "capped at half the rounds 1" in capped.items[1].note.text()
    assert Calculator(state, rules="fide-2026").value("SB", 1) == 1 * 1 + 1 * 1


# ---------------------------------------------------------------- counts, PS, FB, AOB, KS


def _five_players() -> TournamentState:
    return build(
        5,
        [
            [("1-0", 1, 2), ("=", 3, 4), ("U", 5)],
            [("0-1", 5, 1), ("+-", 2, 3), ("H", 4)],
            [("=", 1, 3), ("1-0", 4, 5), ("Z", 2)],
            [("0-1", 4, 1), ("1-0", 2, 5), ("F", 3)],
        ],
        ratings={1: 2000, 2: 1900, 3: 1800, 4: 1700, 5: 1600},
    )


@pytest.mark.rule("C.07 7.1")
@pytest.mark.rule("C.07 7.2")
@pytest.mark.rule("C.07 7.3")
@pytest.mark.rule("C.07 7.4")
@pytest.mark.rule("C.07 7.6")
def test_counting_tiebreaks():
    calc = Calculator(_five_players())
    # 1: W (white) r1, W (black) r2, D r3, W (black) r4.
    assert [calc.value(c, 1) for c in ("WIN", "WON", "BPG", "BWG", "REP")] == [3, 3, 2, 2, 4]
    # 2: L r1, forfeit win r2, zero-point bye r3, W r4: WIN counts the forfeit win, WON does not.
    assert [calc.value(c, 2) for c in ("WIN", "WON", "BPG", "BWG", "REP")] == [2, 1, 1, 0, 3]
    # 3: D, forfeit loss, D, full-point bye: REP leaves out the forfeit loss (a VUR).
    assert [calc.value(c, 3) for c in ("WIN", "WON", "REP")] == [1, 0, 3]
    # 5: pairing-allocated bye r1 counts as a win for WIN, not for WON.
    assert [calc.value(c, 5) for c in ("WIN", "WON", "BPG")] == [1, 0, 2]


@pytest.mark.rule("C.07 16.1")
@pytest.mark.rule("C.07 8.1")
@pytest.mark.rule("C.07 9.1")
@pytest.mark.rule("004 4.9.10.1")
def test_double_forfeit():
    # Round 2: 1 and 2 both fail to appear. Neither met the other; both rounds are forfeit losses.
    state = build(3, [[("1-0", 1, 2), ("U", 3)], [("--", 1, 2), ("U", 3)], [("=", 1, 3), ("U", 2)]])
    calc = Calculator(state, rules="fide-2023")
    assert [calc.value(c, 1) for c in ("PTS", "WIN", "REP")] == [1.5, 1, 2]
    bh = calc.explain("BH", 1)
    assert bh.items[1].what.text() == "forfeit loss" and bh.items[1].opponent is None
    assert bh.items[1].value == 1.5  # dummy opponent with his own score
    assert calc.value("BH/C1", 1) == calc.value("BH", 1) - 1.5  # the VUR is cut first
    # 2 (1 point) beaten, the dummy (1½) lost to, 3 (2½) drawn.
    assert calc.value("SB", 1) == 1 * 1 + 0 * 1.5 + 0.5 * 2.5
    assert calc.value("BH", 1) == 1 + 1.5 + 2.5
    assert calc.value("BH/P", 1) == 1 + 1 + 2.5  # /P: the forfeit counts as played against 2


@pytest.mark.rule("C.07 7.5")
@pytest.mark.rule("C.07 14")
def test_progressive_score_and_cut():
    calc = Calculator(_five_players())
    # 1: running 1, 2, 2½, 3½.
    assert calc.value("PS", 1) == 9
    assert calc.value("PS/C1", 1) == 8
    assert [i.value for i in calc.explain("PS", 1).items] == [1, 2, 2.5, 3.5]


@pytest.mark.rule("C.07 8.3")
def test_fore_buchholz_draws_the_last_round():
    state = _five_players()
    calc = Calculator(state, rules="plain")
    # Plain scores: 1: 3½, 2: 2, 3: 2, 4: 2, 5: 1. Fore: last round 4-1 and 2-5 drawn -> 4: 2½,
    # 2: 1½, 5: 1½; 3 (full-point bye, not paired) keeps 2.
    assert calc.value("BH", 1) == 2 + 1 + 2 + 2
    assert calc.value("FB", 1) == 1.5 + 1.5 + 2 + 2.5


@pytest.mark.rule("C.07 8.2")
def test_average_of_opponents_buchholz():
    state = build(3, [[("1-0", 1, 2), ("U", 3)], [("=", 1, 3), ("U", 2)]])
    calc = Calculator(state, rules="plain")
    # BH(2) = 1½ (only 1), BH(3) = 1½ (only 1): AOB(1) = 1½. BH(1) = 1 + 1½ = 2½.
    assert calc.value("AOB", 1) == 1.5
    assert calc.value("AOB", 2) == 2.5


@pytest.mark.rule("C.07 9.2")
def test_koya_and_its_limit():
    state = _five_players()
    calc = Calculator(state, rules="plain")
    # 4 rounds: the limit is 2 points. 1 met 2 (2), 5 (1), 3 (2), 4 (2): 1 + ½ + 1 = 2½.
    assert calc.value("KS", 1) == 2.5
    assert calc.value("KS/L-1", 1) == 2.5  # limit 1½: still not 5
    assert calc.value("KS/L-2", 1) == 3.5  # limit 1: 5 too
    assert calc.value("KS/L+4", 1) == 0


# ---------------------------------------------------------------- ratings


@pytest.mark.rule("C.07 10.2")
@pytest.mark.rule("C.07 10.3")
def test_tpr_and_ptp_at_the_extremes():
    # 1 met 2 (2000) and 3 (1800).
    def calc(result: str) -> Calculator:
        ratings = {1: 1900, 2: 2000, 3: 1800}
        state = build(3, [[(result, 1, 2), ("U", 3)], [(result, 1, 3), ("U", 2)]], ratings=ratings)
        return Calculator(state)

    win, loss, draw = calc("1-0"), calc("0-1"), calc("=")
    assert (win.value("TPR", 1), loss.value("TPR", 1)) == (1900 + 800, 1900 - 800)
    # 100 %: the lowest rating whose expected score is 1.00 against both, PD(D) = 1.00 from D = 736
    # (table 8.1.2); 0 %: the article's exception, the lowest opponent - 800.
    assert (win.value("PTP", 1), loss.value("PTP", 1)) == (2000 + 736, 1800 - 800)
    # 1 of 2: at 1899 the expected score is .36 + .64 = 1.00, at 1898 .36 + .63.
    assert draw.value("PTP", 1) == 1899 and draw.value("TPR", 1) == 1900


@pytest.mark.rule("C.07 10.1")
@pytest.mark.rule("C.07 10.2")
@pytest.mark.rule("C.07 10.3")
@pytest.mark.rule("C.07 15")
@pytest.mark.rule("000 F10")
def test_aro_tpr_ptp_from_games_only():
    calc = Calculator(_five_players())
    # 1 met 2 (1900), 5 (1600), 3 (1800), 4 (1700): ARO 1750; 3½ of 4 = .88 -> +336.
    assert calc.value("ARO", 1) == 1750
    assert calc.value("ARO/C1", 1) == 1800
    assert calc.value("TPR", 1) == 1750 + 336
    assert calc.value("GRT", 1) == 1750
    # 2 played 1 and 5 over the board: the forfeit win and the bye are not games.
    assert calc.value("ARO", 2) == (2000 + 1600) / 2
    # PTP: the lowest R whose expected score against 1900, 1600, 1800, 1700 reaches 3½.
    ptp = int(calc.value("PTP", 1))
    ratings = (1900, 1600, 1800, 1700)
    assert sum(FIDE_TABLE_812.expected(ptp - r) for r in ratings) >= 3.5
    assert sum(FIDE_TABLE_812.expected(ptp - 1 - r) for r in ratings) < 3.5
    exp = calc.explain("ARO/C1", 1)
    assert [i.counted for i in exp.items] == [True, False, True, True]


@pytest.mark.rule("C.07 10.1")
def test_unrated_opponents_are_left_out():
    """C.07 art. 10, regulations choosing "leave out": the game against unrated 2 does not count."""
    state = build(3, [[("1-0", 1, 2), ("U", 3)], [("=", 1, 3), ("U", 2)]], ratings={1: 1500, 3: 1700})
    calc = Calculator(state, unrated=Unrated("leave-out"))
    assert calc.value("ARO", 1) == 1700
    assert calc.explain("ARO", 1).items[0].note.text() == "unrated opponent"
    assert calc.value("TPR", 1) == 1700  # ½ of 1 against the rated one


@pytest.mark.rule("000 F10")
@pytest.mark.rule("C.07 10.1")
def test_grt_is_exact_and_aro_rounded():
    ratings = {1: 1600, 2: 1501, 3: 1500, 4: 1400}
    state = build(4, [[("1-0", 1, 2), ("=", 3, 4)], [("=", 1, 3), ("1-0", 2, 4)]], ratings=ratings)
    calc = Calculator(state)
    assert calc.value("GRT", 1) == 1500.5
    assert calc.value("ARO", 1) == 1501


# ---------------------------------------------------------------- parsing


def test_codes():
    assert parse("bh-c1").code == "BH/C1" and parse("BH/C1").cut == 1
    assert parse("BH/M2").median == 2 and parse("KS/L-1").limit == -1
    assert parse("AOB/F").fore and parse("SB/P/C1").forfeits_played
    for bad in ("XYZ", "PS/M1", "WIN/C1", "BH/Q"):
        with pytest.raises(InvalidInput):
            parse(bad)


# ---------------------------------------------------------------- standings


def _round_robin_4(results: list[str]) -> TournamentState:
    pairs = [[(1, 4), (2, 3)], [(4, 3), (1, 2)], [(2, 4), (3, 1)]]
    it = iter(results)
    return build(4, [[(next(it), w, b) for w, b in rnd] for rnd in pairs])


@pytest.mark.rule("C.07 6")
def test_direct_encounter_when_all_have_met():
    # 1 beats 2, 2 beats 3, 3 beats 1, all beat 4: 1, 2 and 3 on 2 points, 1 each among themselves.
    state = _round_robin_4(["1-0", "1-0", "0-1", "1-0", "1-0", "1-0"])
    table = standings(state, ["DE"])
    assert [(s.player, s.rank) for s in table] == [(1, 1), (2, 1), (3, 1), (4, 4)]
    assert [s.values["DE"] for s in table[:3]] == [1, 1, 1]
    assert table[3].values["DE"] is None  # alone on his points: not applied


@pytest.mark.rule("C.07 6")
@pytest.mark.rule("000 F10")
@pytest.mark.rule("001 F12")
def test_direct_encounter_separates_and_de1_only_for_first_place():
    # 1 and 2 on 2 (1 beat 2); 4 and 3 on 1 (4 beat 3).
    state = _round_robin_4(["1-0", "1-0", "1-0", "1-0", "1-0", "1-0"])
    assert {s.player: s.points for s in standings(state, [])} == {1: 2, 2: 2, 3: 1, 4: 1}
    table = standings(state, ["DE"])
    assert [(s.player, s.rank) for s in table] == [(1, 1), (2, 2), (4, 3), (3, 4)]
    # Seed 000 F10 / 001 F12: the mutual result only decides first place; 3 and 4 share third.
    table = standings(state, ["DE1"])
    assert [(s.player, s.rank) for s in table] == [(1, 1), (2, 2), (3, 3), (4, 3)]


@pytest.mark.rule("C.07 6")
def test_direct_encounter_when_not_all_have_met():
    # Swiss, 3 rounds, 6 players. 1, 2 and 3 end on 2: 1 beat 2; 3 met neither. 1 leads the mini-table
    # with 1, but 3 could still reach 1 by winning a missing game: nobody is first; all stay tied.
    state = build(
        6,
        [
            [("1-0", 1, 4), ("1-0", 2, 5), ("1-0", 3, 6)],
            [("1-0", 1, 2), ("0-1", 4, 3), ("1-0", 5, 6)],
            [("0-1", 1, 5), ("1-0", 2, 6), ("0-1", 3, 4)],
        ],
    )
    table = standings(state, ["DE", "TPN"])
    tied = [s for s in table if s.points == 2]
    assert {s.player for s in tied} == {1, 2, 3, 5}
    # 5 beat 1 and lost to 2: 1 beat 2. With 3 missing games nobody is safe; TPN decides.
    assert [s.player for s in tied] == [1, 2, 3, 5]


@pytest.mark.rule("C.07 4")
def test_lot_from_the_recorded_seed():
    state = build(4, [[("=", 1, 2), ("=", 3, 4)]], seed=7)
    table = standings(state, ["LOT"])
    lots = {s.player: s.values["LOT"] for s in table}
    assert sorted(lots.values()) == [1, 2, 3, 4]
    assert [s.player for s in table] == sorted(lots, key=lambda p: lots[p])
    assert [s.rank for s in table] == [1, 2, 3, 4]
    assert [s.player for s in standings(state, ["LOT"])] == [s.player for s in table]  # reproducible
    draws = {
        tuple(s.player for s in standings(build(4, [[("=", 1, 2), ("=", 3, 4)]], seed=k), ["LOT"])) for k in range(20)
    }
    assert len(draws) > 1  # the seed, not the start numbers, decides


@pytest.mark.rule("C.07 4")
def test_shared_places_when_everything_is_equal():
    state = build(4, [[("=", 1, 2), ("=", 3, 4)]])
    table = standings(state, ["BH", "SB"])
    assert [s.rank for s in table] == [1, 1, 1, 1]


@pytest.mark.rule("004 4.9.10.2")
def test_almindelig_korrektion_restores_the_dropped_opponents():
    # Seed 004 §4.9.10.2: BH without the two lowest; if equal, the second lowest back; then the lowest.
    calc = Calculator(_five_players(), rules="plain")
    exp = calc.explain("KORR", 1)
    assert exp.key == (calc.value("BH/C2", 1), calc.value("BH/C1", 1), calc.value("BH", 1))
    assert exp.value == calc.value("BH/C2", 1)


@pytest.mark.rule("004 4.9.10.3")
def test_middelkorrektion_by_number_of_rounds():
    state = _five_players()
    for total, chain in ((8, ("BH/M1", "BH")), (9, ("BH/M2", "BH/M1")), (13, ("BH/M3", "BH/M2", "BH/M1"))):
        state.total_rounds = total
        calc = Calculator(state, rules="plain")
        assert calc.explain("MKORR", 1).key == tuple(calc.value(c, 1) for c in chain)


@pytest.mark.rule("004 4.9.10.2")
def test_korr_ranks_on_the_restored_value():
    # 1 met 3 (1), 5 (2½), 7 (½); 2 met 4 (0), 6 (2½), 8 (1½). Both 2 points, BH/C2 2½ each;
    # restoring the second lowest: 1 has 3½, 2 has 4.
    state = build(
        8,
        [
            [("1-0", 1, 3), ("1-0", 2, 4), ("=", 5, 7), ("=", 6, 8)],
            [("1-0", 5, 1), ("1-0", 6, 2), ("1-0", 3, 7), ("0-1", 4, 8)],
            [("1-0", 1, 7), ("1-0", 2, 8), ("0-1", 3, 5), ("0-1", 4, 6)],
        ],
    )
    calc = Calculator(state, rules="plain")
    assert calc.value("BH/C2", 1) == calc.value("BH/C2", 2) == 2.5
    assert (calc.value("BH/C1", 1), calc.value("BH/C1", 2)) == (3.5, 4)
    table = standings(state, ["KORR"], rules="plain")
    assert {s.player for s in table[:2]} == {5, 6}  # 2½ points
    assert [s.player for s in table][2:4] == [2, 1]
    assert table[2].values["KORR"] == 2.5 and table[2].rank == 3


def test_system_defaults():
    assert default_tiebreaks("roundrobin") == ["PTS", "SB", "DE", "WIN"]
    assert default_tiebreaks("knsb-wp") == ["PTS", "DE1", "WP", "WSB", "LOT"]
    assert default_tiebreaks("dansk") == ["PTS", "KORR"]
    for system, default in DEFAULTS.items():
        for code in default.tiebreaks:
            parse(code)
        assert default.rules, system


def test_explanations_for_the_web_app():
    table = standings(_withdrawal_state(), ["BH/C1", "SB"], rules="fide-2023")
    line = next(s for s in table if s.player == 1)
    exp = line.explanations["BH/C1"]
    assert exp.value == line.values["BH/C1"]
    assert any(n.text().startswith("cut: round 2") for n in exp.notes)
    assert exp.items[0].note.text() == "opponent's 2 points counted as 3"


@pytest.mark.rule("C.07 8.2")
def test_aob_averages_the_opponents_met_over_the_board():
    """AOB (8.2) is over the opponents met; /P is no modifier of AOB in C.07. It is read as the
    opponents' BH/P, the forfeited opponent still not counted."""
    state = build(3, [[("+-", 1, 2), ("U", 3)], [("1-0", 1, 3), ("U", 2)], [("1-0", 2, 3), ("U", 1)]])
    calc = Calculator(state, rules="fide-2023")
    # 1 met only 3 over the board: BH(3) = own-score dummy 1 + 3 for 1 + 2 for 2 = 6.
    assert calc.value("AOB", 1) == calc.value("BH", 3) == 6
    assert [i.opponent for i in calc.explain("AOB", 1).items] == [3]
    assert calc.value("AOB/P", 1) == calc.value("BH/P", 3)
    assert [i.opponent for i in calc.explain("AOB/P", 1).items] == [3]


@pytest.mark.rule("C.07 6")
def test_direct_encounter_places_the_safe_leader_then_ranks_the_rest():
    # 1, 2, 3, 4 end on 2. Among them: 1 beat 2 and 3 (2); 2-3 drawn, both beat 4; 1 and 4 never
    # met. Nobody can reach 1's 2 (4 at most 1): 1 is first. 2, 3, 4 have all met: 2 and 3 on 1½
    # (their own game drawn: still equal), 4 on 0.
    state = build(
        8,
        [
            [("1-0", 1, 2), ("1-0", 3, 4), ("1-0", 5, 6), ("1-0", 7, 8)],
            [("1-0", 1, 3), ("1-0", 2, 4), ("1-0", 5, 7), ("0-1", 6, 8)],
            [("=", 2, 3), ("0-1", 1, 5), ("1-0", 4, 6), ("1-0", 7, 8)],
            [("0-1", 1, 6), ("=", 2, 7), ("=", 3, 8), ("1-0", 4, 5)],
        ],
    )
    points = {s.player: s.points for s in standings(state, [])}
    assert [p for p in points if points[p] == 2] == [1, 2, 3, 4]
    table = standings(state, ["DE"])
    assert [(s.player, s.points) for s in table[:2]] == [(5, 3), (7, 2.5)]
    assert [(s.player, s.rank) for s in table[2:6]] == [(1, 3), (2, 4), (3, 4), (4, 6)]
    assert [s.values["DE"] for s in table[2:6]] == [2, 1.5, 1.5, 0]
    assert table[2].explanations["DE"].notes[0].text().endswith("not all have met")


@pytest.mark.rule("C.07 9.1")
@pytest.mark.rule("C.07 16.5")
def test_sb_cut_keeps_a_voluntary_round_worth_less_than_the_least_significant():
    # 1: beats 2 (½ point at the end), zero-point bye, draws with 3 (2½). C.07 16.5: the VUR is cut
    # first unless its contribution is lower than the least significant one's.
    state = build(
        4,
        [
            [("1-0", 1, 2), ("1-0", 3, 4)],
            [("Z", 1), ("0-1", 2, 3), ("U", 4)],
            [("=", 1, 3), ("=", 2, 4)],
        ],
    )
    calc = Calculator(state, rules="fide-2023")
    # BH: ½, 1½ (dummy, VUR), 2½: the VUR goes.
    assert calc.value("BH/C1", 1) == 0.5 + 2.5
    # SB: ½ × 1, 1½ × 0 (VUR), 2½ × ½: the VUR's 0 is below the least significant ½: that one goes.
    exp = calc.explain("SB/C1", 1)
    assert exp.value == 0 + 1.25
    assert [i.counted for i in exp.items] == [False, True, True]


@pytest.mark.rule("C.07 9.2")
def test_round_robin_rules_and_koya_count_forfeits():
    # Round robin; round 1: 3 forfeits to 2. Points 1: 2½, 2: 2½, 3: 1, 4: 0.
    state = _round_robin_4(["1-0", "+-", "0-1", "=", "1-0", "0-1"])
    rr = Calculator(state, rules="fide-roundrobin")
    # The forfeit counts as a game against 3 (1 point): 1 + 2½ × ½ + 0.
    assert rr.value("SB", 2) == 1 + 1.25
    assert rr.value("SB", 1) == 0 + 1.25 + 1
    assert Calculator(state, rules="fide-2023").value("SB", 2) == 2.5 + 1.25  # dummy: own 2½
    # KS: limit 1½ of 3 rounds; with /L-1 (limit 1) the forfeit win against 3 counts too.
    assert rr.value("KS", 2) == 0.5
    assert rr.value("KS/L-1", 2) == 1.5
    table = standings(state, ["SB", "DE", "WIN"], rules="fide-roundrobin")
    assert [(s.player, s.rank) for s in table] == [(1, 1), (2, 1), (3, 3), (4, 4)]


def test_values_are_keyed_by_the_codes_as_given():
    table = standings(_withdrawal_state(), ["bh-c1", "SB"], rules="fide-2023")
    line = next(s for s in table if s.player == 1)
    assert set(line.values) == {"PTS", "bh-c1", "SB"}
    assert line.values["bh-c1"] == 6.5 and line.explanations["bh-c1"].code == "BH/C1"


def _one_unrated_opponent() -> TournamentState:
    """3 rounds, player 1 (1500) meets 2 (1900), 3 (unrated) and 4 (1700): 1 win, 1 draw, 1 loss."""
    return build(
        4,
        [[("1-0", 1, 2), ("=", 3, 4)], [("=", 1, 3), ("1-0", 2, 4)], [("0-1", 1, 4), ("=", 2, 3)]],
        ratings={1: 1500, 2: 1900, 4: 1700},
    )


@pytest.mark.rule("C.07 10.1")
@pytest.mark.parametrize(
    "unrated, aro",
    [
        # C.07 art. 10's default: unrated players take part, the regulations rate nobody: no ARO.
        (Unrated(), None),
        # Leave the unrated opponent out: (1900 + 1700) / 2 = 1800.
        (Unrated("leave-out"), 1800),
        # The regulations rate unrated players 1000: (1900 + 1000 + 1700) / 3 = 1533.3 -> 1533.
        (Unrated("rating", 1000), 1533),
    ],
    ids=["drop", "leave-out", "rating-1000"],
)
def test_aro_with_an_unrated_opponent_in_each_setting(unrated, aro):
    """C.07 art. 10: the rating-based tie-breaks need ratings; the regulations say how unrated
    participants are rated, and without such a rule these tie-breaks are not used."""
    calc = Calculator(_one_unrated_opponent(), unrated=unrated)
    assert calc.value("ARO", 1) == aro
    lines = standings(_one_unrated_opponent(), ["PTS", "ARO"], unrated=unrated)
    assert {line.player: line.values["ARO"] for line in lines}[1] == aro
    if aro is None:
        assert calc.value("TPR", 1) is None and calc.value("APRO", 1) is None
        assert "C.07 art. 10" in calc.explain("ARO", 1).notes[0].text()
    else:
        assert calc.value("ARO/C1", 1) == (1900 if unrated.how == "leave-out" else 1800)


@pytest.mark.rule("C.07 10.1")
def test_the_standings_say_which_unrated_rule_applies():
    assert unrated_rule_note(["PTS", "BH", "SB"]) is None
    assert unrated_rule_note(["ordinary wins", "direct encounter"]) is None  # the Gladiator columns
    assert "not used" in unrated_rule_note(["BH", "ARO"]).text()
    assert "do not count" in unrated_rule_note(["TPR"], Unrated("leave-out")).text()
    assert "rating 1200" in unrated_rule_note(["ARO/C1"], Unrated("rating", 1200)).text()
    with pytest.raises(InvalidInput):
        Unrated("guess")
    with pytest.raises(InvalidInput):
        Unrated("rating", 0)


# ---------------------------------------------------------------- values over no games, 2026 codes


def _byes_and_forfeits_only() -> TournamentState:
    """1 loses to 2 and 3 (rated 500) and has a pairing bye; 4 has only a forfeit win, a zero-point bye
    and a forfeit loss. Both end on 1 point."""
    return build(
        5,
        [
            [("0-1", 1, 2), ("+-", 4, 3), ("U", 5)],
            [("0-1", 1, 3), ("Z", 4), ("1-0", 2, 5)],
            [("-+", 4, 5), ("=", 2, 3), ("U", 1)],
        ],
        ratings={1: 1500, 2: 500, 3: 500, 4: 1600, 5: 1400},
    )


@pytest.mark.rule("C.07 10.1")
@pytest.mark.rule("C.07 10.2")
@pytest.mark.rule("C.07 10.3")
@pytest.mark.rule("C.07 10.4")
@pytest.mark.rule("C.07 10.5")
@pytest.mark.rule("C.07 8.2")
def test_values_over_no_games_are_undefined():
    """4 played no game over the board: ARO, TPR, PTP, APRO, APPO and AOB have nothing to count, so
    no value at all (not 0), and the explanation says so."""
    calc = Calculator(_byes_and_forfeits_only())
    for code in ("ARO", "ARO/C1", "TPR", "PTP", "APRO", "APPO", "AOB", "GRT"):
        assert calc.value(code, 4) is None, code
        assert "no games to count" in calc.explain(code, 4).notes[0].text()
    # 1 lost both games to 500s: TPR 500 - 800 = -300, PTP 500 - 800; defined, if negative.
    assert calc.value("TPR", 1) == -300 and calc.value("PTP", 1) == -300


@pytest.mark.rule("C.07 14")
@pytest.mark.rule("C.07 10.1")
def test_a_cut_of_every_game_leaves_no_value():
    """C.07 14: cutting more contributions than there are cuts them all, and ARO over none has no value.
    5 met only 2 over the board (round 2)."""
    calc = Calculator(_byes_and_forfeits_only())
    assert calc.value("ARO", 5) == 500
    assert calc.value("ARO/C1", 5) is None
    assert calc.value("ARO/M1", 5) is None


@pytest.mark.rule("C.07 10.2")
@pytest.mark.rule("C.07 4")
def test_an_undefined_value_ranks_last_never_as_zero():
    """1 and 4 both have 1 point. 1's TPR of -300 ranks above 4's undefined TPR, which would rank
    first if it counted as 0."""
    state = _byes_and_forfeits_only()
    table = standings(state, ["TPR", "TPN"])
    assert [(line.player, line.points) for line in table][-2:] == [(1, 1.0), (4, 1.0)]
    assert table[-1].values["TPR"] is None and table[-1].rank == 5
    # Undefined values are equal to each other: TPN decides between two of them.
    assert Calculator(state).explain("TPR", 4).key == Calculator(state).explain("ARO", 4).key


@pytest.mark.rule("C.07 14")
@pytest.mark.rule("C.07 10.1")
def test_aro_median_cuts_the_lowest_and_the_highest():
    calc = Calculator(_five_players())
    # 1 met 2 (1900), 5 (1600), 3 (1800), 4 (1700).
    assert calc.value("ARO/C1", 1) == 1800
    assert calc.value("ARO/M1", 1) == 1750  # 1800 and 1700
    assert calc.value("ARO/M2", 1) is None
    cut = [i.round for i in calc.explain("ARO/M1", 1).items if not i.counted]
    assert cut == [1, 2]


@pytest.mark.rule("C.07 10.6")
def test_rtng_with_unrated_players_needs_a_rating_for_them():
    """C.07 art. 10: the rating tie-breaks, RTNG among them, are dropped while unrated players take
    part, unless the regulations rate them. Leaving their games out rates nobody: RTNG is dropped."""
    state = build(3, [[("1-0", 1, 2), ("U", 3)]], ratings={1: 1800, 2: 1900})
    assert Calculator(state).value("RTNG", 1) is None
    assert Calculator(state, unrated=Unrated("leave-out")).value("RTNG", 1) is None
    assert Calculator(state, unrated=Unrated("leave-out")).value("ARO", 1) == 1900
    rated = Calculator(state, unrated=Unrated("rating", 1000))
    assert [rated.value("RTNG", p) for p in (1, 2, 3)] == [1800, 1900, 1000]
    table = standings(state, ["RTNG"], unrated=Unrated("rating", 1000))
    assert [line.player for line in table] == [1, 3, 2]  # 1 and 3 (the bye) on 1 point: 1800, 1000


@pytest.mark.rule("C.07 10.6")
def test_reverse_order_of_pairing_number_and_rating():
    """C.07 2026 `/R`: TPN higher first, RTNG lower first. Everyone on 0 points."""
    state = build(3, [[("--", 1, 2), ("Z", 3)]], ratings={1: 1800, 2: 1900, 3: 1700})
    assert [line.player for line in standings(state, ["TPN"])] == [1, 2, 3]
    assert [line.player for line in standings(state, ["TPN/R"])] == [3, 2, 1]
    assert [line.player for line in standings(state, ["RTNG"])] == [2, 1, 3]
    assert [line.player for line in standings(state, ["RTNG/R"])] == [3, 1, 2]


@pytest.mark.rule("C.07 7.6")
def test_ge_is_the_old_name_of_rep():
    assert parse("GE").code == "REP" and parse("ge").acronym == "REP"
    calc = Calculator(_five_players())
    assert [calc.value("GE", p) for p in range(1, 6)] == [calc.value("REP", p) for p in range(1, 6)]


@pytest.mark.rule("C.07 9.2")
def test_koya_limit_as_a_percentage():
    assert parse("KS/L60").percent == 60 and parse("KS/L60").limit == 0
    assert parse("KS/L+1").limit == 1 and parse("KS/L+1").percent == 50
    with pytest.raises(InvalidInput):
        parse("KS/L120")
    with pytest.raises(InvalidInput):
        parse("TPN/P")


@pytest.mark.rule("C.07 6")
def test_direct_encounter_with_a_repeated_pairing_averages_the_meetings():
    """C.07 6: several games between the same two count as their average, and they have met. 1, 2 and
    3 end on 2 points. 1 won against 2 by forfeit (round 1) and lost to 2 over the board (round 3);
    3 beat 2 (round 2), 1 beat 3 (round 4). With /P the forfeit is a meeting: 1-2 averages ½ each and
    all three have met: 1: ½ + 1 = 1½, 3: 1, 2: ½ + 0 = ½, so 1, 3, 2. (The TEC checker counts 2's
    second meeting with 1 as its only opponent met, so 2 could still score a win against 3 and it
    leaves the three tied; docs/tiebreaks.md.) Without /P only the game counts: 1, 2 and 3 have 1
    each, and the pairing numbers decide."""
    state = build(
        6,
        [
            [("+-", 1, 2), ("1-0", 3, 5)],
            [("0-1", 2, 3), ("0-1", 1, 4)],
            [("0-1", 1, 2), ("1-0", 6, 3), ("0-1", 4, 5)],
            [("1-0", 1, 3), ("1-0", 2, 4)],
        ],
    )
    table = standings(state, ["DE/P", "TPN"], rules="fide-2026")
    assert [(line.player, line.points) for line in table][:3] == [(1, 2.0), (3, 2.0), (2, 2.0)]
    assert [line.rank for line in table][:3] == [1, 2, 3]
    assert {line.player: line.values["DE/P"] for line in table[:3]} == {1: 1.5, 3: 1.0, 2: 0.5}
    plain = standings(state, ["DE", "TPN"], rules="fide-2026")
    assert [line.player for line in plain][:3] == [1, 2, 3]
    assert {line.player: line.values["DE"] for line in plain[:3]} == {1: 1.0, 2: 1.0, 3: 1.0}


def _two_vurs_under_the_caps() -> TournamentState:
    """5 rounds. 1 scores 3½: a forfeit win against 2 (who ends on 1), a half-point bye, a forfeit loss
    against 3 (4½), wins against 4 and 5 (2½ each). 2, 3, 4 and 5 play every round."""
    return build(
        10,
        [
            [("+-", 1, 2), ("1-0", 3, 6), ("1-0", 4, 7), ("1-0", 5, 8)],
            [("H", 1), ("1-0", 2, 6), ("1-0", 3, 7), ("0-1", 4, 8), ("1-0", 5, 9)],
            [("-+", 1, 3), ("0-1", 2, 10), ("1-0", 4, 9), ("0-1", 5, 6)],
            [("1-0", 1, 4), ("0-1", 2, 7), ("1-0", 3, 8), ("=", 5, 10)],
            [("1-0", 1, 5), ("0-1", 2, 8), ("=", 3, 9), ("=", 4, 10)],
        ],
    )


@pytest.mark.rule("C.07 16.5")
@pytest.mark.rule("C.07 16.4")
def test_the_vur_cut_first_is_the_lowest_contribution_under_the_2026_caps():
    """1's SB contributions under the 2026 caps: the forfeit win's dummy is capped at 2's score, 1 (1 x 1
    = 1, the least significant: the lowest opponent's score); the half-point bye's at half the rounds,
    2½ (x ½ = 1¼); the forfeit loss's dummy keeps 1's own 3½ (3 has 4½), x 0 = 0; 4 and 5: 2½ each.
    SB = 7¼. Cut-1 (16.5): the VURs are the bye and the forfeit loss; the lowest VUR contribution, 0,
    is lower than the least significant value, so the least significant, 1, is cut: 6¼. (The TEC
    checker takes the VUR with the lowest dummy score, the bye's 2½, and cuts its 1¼: 6.) Without the
    caps (2023/2024) every dummy has 1's own score and both readings cut a 2½: 10¼ - 2½."""
    calc = Calculator(_two_vurs_under_the_caps(), rules="fide-2026")
    assert [i.value for i in calc.explain("SB", 1).items] == [1, 1.25, 0, 2.5, 2.5]
    assert calc.value("SB/C1", 1) == 6.25
    assert [i.round for i in calc.explain("SB/C1", 1).items if not i.counted] == [1]
    old = Calculator(_two_vurs_under_the_caps(), rules="fide-2023")
    assert (old.value("SB", 1), old.value("SB/C1", 1)) == (10.25, 7.75)
