"""Dubov (1997): seed 004 §4.9.6 and seeds README item 5."""

import random

import pytest

from pairing.engines import registry
from pairing.engines.dubov import _context, allocate, aro_list, colour_allowed, due_colour
from pairing.engines.notes import english
from pairing.engines.state import Colour, InvalidInput, Kind, NoValidPairing, Player, RoundRecord, TournamentState

W, B = Colour.WHITE, Colour.BLACK


def build(spec: dict[int, tuple[int, list[tuple[int, str, float]]]], outsiders: dict[int, int], **kw):
    """Players from {id: (rating, [(opponent, 'w'/'b', score), ...])}; outsiders are withdrawn
    opponents {id: rating} who only serve to give the players their colours and ARO."""
    players = [
        Player(
            id=pid,
            name=f"P{pid}",
            rating=rating,
            history=[RoundRecord(Kind.GAME, opp, W if c == "w" else B, s) for opp, c, s in games],
        )
        for pid, (rating, games) in spec.items()
    ]
    players += [Player(id=oid, name=f"O{oid}", rating=r, withdrawn=True) for oid, r in outsiders.items()]
    played = max(len(games) for _, games in spec.values())
    settings = kw.pop("settings", {})
    return TournamentState(
        players=players, total_rounds=kw.pop("total_rounds", 9), round_to_pair=played + 1, settings=settings, **kw
    )


def boards(state) -> list[tuple[int, int]]:
    return [(b.white, b.black) for b in registry.pair(state, "dubov-1997").boards]


@pytest.mark.rule("004 4.9.6")
def test_due_colour_readme_item_5():
    assert due_colour([]) is None
    assert due_colour([B, W, B]) is W  # more blacks
    assert due_colour([W, B]) is W  # equal, black last
    assert due_colour([B, W]) is B  # equal, white last (the seed's text repeats the white case)
    assert due_colour([W, W, B]) is B


@pytest.mark.rule("004 4.9.6")
def test_restrictions_2_3_and_2_4():
    assert not colour_allowed([W, W], W)  # three times running
    assert not colour_allowed([W, B, W, W], W)
    assert not colour_allowed([W, W, B, W], W)  # difference would be 3
    assert colour_allowed([W, B, W], B)


@pytest.mark.rule("004 4.9.6")
def test_round_one_halves_and_colour_lot():
    players = [Player(id=i, rating=2400 - 10 * i) for i in range(1, 8)]
    state = TournamentState(players=players, total_rounds=5, round_to_pair=1, top_colour_round1=W)
    result = registry.pair(state, "dubov-1997")
    assert [(b.white, b.black) for b in result.boards] == [(1, 4), (5, 2), (3, 6)]
    assert [b.player for b in result.byes] == [7]
    state.top_colour_round1 = B
    assert boards(state) == [(4, 1), (2, 5), (6, 3)]


def _round_two_spec():
    # Ratings 2390 .. 2320.  Round 1: 1-5, 6-2, 3-7, 8-4; 1, 2, 3 and 4 won.
    r = {i: 2400 - 10 * i for i in range(1, 9)}
    games = {
        1: [(5, "w", 1.0)], 5: [(1, "b", 0.0)], 6: [(2, "w", 0.0)], 2: [(6, "b", 1.0)],
        3: [(7, "w", 1.0)], 7: [(3, "b", 0.0)], 8: [(4, "w", 0.0)], 4: [(8, "b", 1.0)],
    }  # fmt: skip
    return {i: (r[i], games[i]) for i in range(1, 9)}


@pytest.mark.rule("004 4.9.6")
def test_standard_procedure_6_2():
    # One point: 1 and 3 are due black, 2 and 4 white.  Whites by rising ARO: 4 (met 8, 2320),
    # 2 (met 6, 2340); blacks by falling R: 1, 3.  Rows 4-1, 2-3.  No points: whites 7 (ARO 2370),
    # 5 (2390); blacks 6, 8: rows 7-6, 5-8.
    state = build(_round_two_spec(), {})
    assert boards(state) == [(4, 1), (2, 3), (5, 8), (7, 6)]


@pytest.mark.rule("004 4.9.6")
def test_improvement_6_3_takes_a_black_from_a_lower_row():
    # All on one point.  Whites: 3 (ARO 2100, met 1), 4 (ARO 2200); blacks: 1, 2.
    # Row 1 would be 3-1, a rematch: 3 takes the first black below, 2; then 4-1.
    spec = {
        1: (2400, [(3, "w", 0.5), (101, "w", 0.5)]),
        2: (2300, [(102, "b", 0.5), (103, "w", 0.5)]),
        3: (2200, [(1, "b", 0.5), (104, "b", 0.5)]),
        4: (2100, [(105, "w", 0.5), (106, "b", 0.5)]),
    }
    state = build(spec, {101: 2000, 102: 2000, 103: 2000, 104: 1800, 105: 2200, 106: 2200})
    result = registry.pair(state, "dubov-1997")
    assert [(b.white, b.black) for b in result.boards] == [(4, 1), (3, 2)]
    assert any("6.3" in line for line in english(result.explanation))


@pytest.mark.rule("004 4.9.6")
def test_move_7_1_and_7_2():
    # 1 and 2 (one point) have met; the group below (half a point) gives 4 (due black, the opposite
    # of 1's white, highest R) by 7.1, then the odd group of three takes 3 (due white, opposite of
    # the dominant black) by 7.2.  Whites 3 (ARO 2000), 1 (ARO 2195); blacks 2, 4.
    spec = {
        1: (2400, [(2, "w", 0.5), (101, "b", 0.5)]),
        2: (2390, [(1, "b", 0.5), (102, "w", 0.5)]),
        3: (2380, [(103, "w", 0.5), (104, "b", 0.0)]),
        4: (2370, [(105, "b", 0.5), (106, "w", 0.0)]),
        5: (2360, [(107, "w", 0.5), (108, "b", 0.0)]),
        6: (2350, [(109, "b", 0.5), (110, "w", 0.0)]),
    }
    state = build(spec, {i: 2000 for i in range(101, 111)})
    result = registry.pair(state, "dubov-1997")
    assert [(b.white, b.black) for b in result.boards] == [(1, 4), (3, 2), (5, 6)]
    text = " ".join(english(result.explanation))
    assert "7.1: 4 moved up" in text and "7.2: 3 moved up" in text


@pytest.mark.rule("004 4.9.6")
def test_move_7_2_prefers_the_colour_opposite_to_the_dominant_one():
    # One point: 1 and 2 due black, 3 due white: black dominates, so 5 (due white, higher R than 6)
    # moves up, not 4 (due black).
    spec = {
        1: (2400, [(101, "w", 1.0)]),
        2: (2390, [(102, "w", 1.0)]),
        3: (2380, [(103, "b", 1.0)]),
        4: (2370, [(104, "w", 0.0)]),
        5: (2360, [(105, "b", 0.0)]),
        6: (2350, [(106, "b", 0.0)]),
    }
    outsiders = {101: 2000, 102: 2000, 103: 2000, 104: 2000, 105: 2100, 106: 2000}
    result = registry.pair(build(spec, outsiders), "dubov-1997")
    assert [(b.white, b.black) for b in result.boards] == [(3, 1), (5, 2), (6, 4)]
    assert any("7.2: 5 moved up" in line for line in english(result.explanation))


@pytest.mark.rule("004 4.9.6")
def test_move_7_3_lowest_aro_white_goes_to_black():
    spec = {
        1: (2400, [(101, "w", 0.5), (102, "w", 0.5)]),
        2: (2300, [(103, "w", 0.5), (104, "b", 0.5)]),
        3: (2200, [(105, "w", 0.5), (106, "b", 0.5)]),
        4: (2100, [(107, "w", 0.5), (108, "b", 0.5)]),
    }
    outsiders = {101: 2000, 102: 2000, 103: 2000, 104: 2000, 105: 2100, 106: 2100, 107: 2200, 108: 2200}
    result = registry.pair(build(spec, outsiders), "dubov-1997")
    # Whites 2, 3, 4 against black 1: 2 (ARO 2000) moves.  Whites 3, 4; blacks 1, 2.
    # 4 v 2: both due white, same colours: the higher ARO (4) has white (3).
    assert [(b.white, b.black) for b in result.boards] == [(3, 1), (4, 2)]
    assert any(line.startswith("7.3: 2") for line in english(result.explanation))


@pytest.mark.rule("004 4.9.6")
def test_move_7_4_highest_aro_black_goes_to_white():
    spec = {
        1: (2400, [(101, "b", 0.5), (102, "b", 0.5)]),
        2: (2300, [(103, "b", 0.5), (104, "w", 0.5)]),
        3: (2200, [(105, "b", 0.5), (106, "w", 0.5)]),
        4: (2100, [(107, "b", 0.5), (108, "w", 0.5)]),
    }
    outsiders = {101: 2000, 102: 2000, 103: 2300, 104: 2300, 105: 2100, 106: 2100, 107: 2200, 108: 2200}
    result = registry.pair(build(spec, outsiders), "dubov-1997")
    # Blacks 2, 3, 4 against white 1: 2 (ARO 2300) moves.  Whites 1 (ARO 2000), 2; blacks 3, 4.
    assert [(b.white, b.black) for b in result.boards] == [(1, 3), (2, 4)]
    assert any(line.startswith("7.4: 2") for line in english(result.explanation))


@pytest.mark.rule("004 4.9.6")
def test_bye_lowest_rating_in_the_lowest_group_and_rule_2_2():
    spec = {
        1: (2400, [(101, "w", 1.0)]),
        2: (2300, [(102, "b", 1.0)]),
        3: (2200, [(103, "w", 0.0)]),
        4: (2100, [(104, "b", 0.0)]),
        5: (2000, [(105, "w", 0.0)]),
    }
    outsiders = {i: 2000 for i in range(101, 106)}
    result = registry.pair(build(spec, outsiders), "dubov-1997")
    assert [b.player for b in result.byes] == [5]
    # Everybody on one point, 5 by a forfeit win: 2.2 passes the bye on to the next lowest R, 4.
    spec = {i: (2500 - 100 * i, [(100 + i, "w" if i % 2 else "b", 1.0)]) for i in range(1, 5)}
    state = build(spec, outsiders)
    state.players.append(Player(id=5, name="P5", rating=2000, history=[RoundRecord(Kind.FORFEIT, 105, None, 1.0)]))
    state = TournamentState(players=state.players, total_rounds=9, round_to_pair=2)
    result = registry.pair(state, "dubov-1997")
    assert [b.player for b in result.byes] == [4]


@pytest.mark.rule("004 4.9.6")
def test_bye_tie_on_rating_takes_the_dominant_due_colour():
    spec = {
        1: (2400, [(101, "w", 1.0)]),
        2: (2300, [(102, "b", 1.0)]),
        3: (2000, [(103, "w", 0.0)]),
        4: (2000, [(104, "b", 0.0)]),
        5: (2200, [(105, "b", 0.0)]),
    }
    # No points: 3 due black, 4 and 5 due white (dominant): of 3 and 4 (both 2000) 4 has the bye.
    result = registry.pair(build(spec, {i: 2000 for i in range(101, 106)}), "dubov-1997")
    assert [b.player for b in result.byes] == [4]


@pytest.mark.rule("004 4.9.6")
def test_aro_list_for_publication():
    state = build(_round_two_spec(), {})
    rows = aro_list(state)
    assert rows[0] == (1, "P1", 1.0, 2390, 2350.0)
    assert [row[0] for row in rows] == [1, 2, 3, 4, 5, 6, 7, 8]


@pytest.mark.rule("004 4.9.6")
@pytest.mark.parametrize("seed", range(6))
def test_simulated_events_respect_the_absolute_restrictions(seed):
    rng = random.Random(seed)
    n, rounds = 12 + seed % 3, 7
    players = [Player(id=i, name=f"P{i}", rating=2400 - 15 * i) for i in range(1, n + 1)]
    by_id = {p.id: p for p in players}
    for rnd in range(1, rounds + 1):
        state = TournamentState(players=players, total_rounds=rounds, round_to_pair=rnd, seed=seed)
        result = registry.pair(state, "dubov-1997")
        seen = [p for b in result.boards for p in (b.white, b.black)] + [b.player for b in result.byes]
        assert sorted(seen) == list(range(1, n + 1))
        for board in result.boards:
            white, black = by_id[board.white], by_id[board.black]
            assert board.black not in white.opponents()  # 2.1
            assert colour_allowed(white.colours(), W) and colour_allowed(black.colours(), B)  # 2.3, 2.4
            s = rng.choice([0.0, 0.5, 1.0])
            white.history.append(RoundRecord(Kind.GAME, black.id, W, s))
            black.history.append(RoundRecord(Kind.GAME, white.id, B, 1.0 - s))
        for bye in result.byes:
            assert not any(r.kind is Kind.PAIRING_BYE for r in by_id[bye.player].history)  # 2.2
            by_id[bye.player].history.append(RoundRecord(Kind.PAIRING_BYE, score=1.0))


@pytest.mark.rule("004 4.9.6")
def test_settings_are_validated():
    state = build(_round_two_spec(), {}, settings={"upfloat_limits": "no"})
    with pytest.raises(InvalidInput):
        registry.pair(state, "dubov-1997")


def _floater_state(**kw):
    # 1 and 2 (2.5 points) have met.  3-6 (1 point) moved up in rounds 2 and 3 (their outsiders had
    # more points), so 2.5 forbids moving them up again: 1 and 2 float down (6.4) and are paired
    # first in the group below (8): white-due 2 first, with 3 (highest R, due black); then 1
    # (due black) with 4 (highest R of the white-due).
    def outsider(oid: int) -> Player:
        return Player(id=oid, rating=2000, withdrawn=True, history=[RoundRecord(Kind.FULL_BYE, score=1.0)] * 3)

    spec = {
        1: (2400, [(101, "w", 1.0), (102, "b", 1.0), (2, "w", 0.5)]),
        2: (2390, [(103, "b", 1.0), (104, "w", 1.0), (1, "b", 0.5)]),
    }
    for pid, rating, first in ((3, 2300, "w"), (4, 2290, "b"), (5, 2280, "w"), (6, 2270, "b")):
        second = "b" if first == "w" else "w"
        games = [(100 + 10 * pid, first, 0.0), (101 + 10 * pid, second, 0.0), (102 + 10 * pid, first, 1.0)]
        spec[pid] = (rating, games)
    state = build(spec, {}, **kw)
    ids = {opp for _, games in spec.values() for opp, _, _ in games if opp > 100}
    state.players.extend(outsider(oid) for oid in sorted(ids))
    return TournamentState(players=state.players, total_rounds=9, round_to_pair=4, settings=state.settings)


@pytest.mark.rule("004 4.9.6")
def test_floaters_section_8_when_rule_2_5_blocks_moving_up():
    result = registry.pair(_floater_state(), "dubov-1997")
    assert [(b.white, b.black) for b in result.boards] == [(4, 1), (2, 3), (6, 5)]
    text = " ".join(english(result.explanation))
    assert "6.4: 1, 2 float(s) down" in text
    assert "8: floater v the highest R of the opposite due colour" in text


@pytest.mark.rule("004 4.9.6")
def test_without_rule_2_5_players_move_up_instead():
    result = registry.pair(_floater_state(settings={"upfloat_limits": False}), "dubov-1997")
    assert [(b.white, b.black) for b in result.boards] == [(4, 1), (2, 3), (6, 5)]
    text = " ".join(english(result.explanation))
    assert "7.1: 4 moved up" in text and "7.2: 3 moved up" in text and "6.4" not in text


@pytest.mark.rule("004 4.9.6")
def test_colour_limits_relaxed_only_when_nothing_else_pairs():
    # 1 and 2 both had white twice: 2.4 forbids white for either, so no pairing keeps 2.3/2.4.
    spec = {1: (2400, [(101, "w", 1.0), (102, "w", 1.0)]), 2: (2300, [(103, "w", 1.0), (104, "w", 1.0)])}
    outsiders = {i: 2000 for i in range(101, 105)}
    with pytest.raises(NoValidPairing):
        registry.pair(build(spec, outsiders, settings={"relax_colour_limits": False}), "dubov-1997")
    result = registry.pair(build(spec, outsiders), "dubov-1997")
    assert len(result.boards) == 1
    assert any("relaxed" in line for line in english(result.explanation))


@pytest.mark.rule("004 4.9.6")
@pytest.mark.parametrize(
    ("c1", "c2", "aro1", "aro2", "white", "rule"),
    [
        ("wb", "bw", 2000, 2000, 1, "both due colours"),  # 1 due white, 2 due black
        ("bww", "wbb", 2000, 2000, 2, "2.3/2.4"),  # only 2 white, 1 black keeps 2.4
        ("wbw", "bw", 2000, 2000, 2, "equalise"),  # both due black; 1 has a white more
        ("wbbw", "bwwb", 2000, 2000, 2, "both due colours"),
        ("bwbw", "wbbw", 2000, 2000, 2, "first difference"),  # round 2: 1 white, 2 black
        ("wb", "wb", 2100, 2000, 1, "higher ARO"),
        ("wb", "wb", 2000, 2000, 2, "lower R"),
    ],
)
def test_colour_allocation_section_3(c1, c2, aro1, aro2, white, rule):
    spec = {
        1: (2400, [(100 + i, c, 0.5) for i, c in enumerate(c1)]),
        2: (2300, [(200 + i, c, 0.5) for i, c in enumerate(c2)]),
    }
    outsiders = {100 + i: aro1 for i in range(len(c1))} | {200 + i: aro2 for i in range(len(c2))}
    ctx = _context(build(spec, outsiders))
    got_white, _, got_rule = allocate(ctx, 1, 2)
    assert (got_white, rule in got_rule.text()) == (white, True)
