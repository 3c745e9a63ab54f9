"""Standings kept up to date result by result (`tiebreaks.incremental`) equal the full computation.

Property: for random tournaments (games, forfeits won, lost and double, every kind of bye, absences,
players who withdraw; two point systems) whose games are entered one result at a time, in any order, and
corrected (a result changed again, a game turned into a forfeit and back), the live standings after every
change are exactly `standings(state, tiebreaks, explain=False)` of that state: the same order, ranks,
points and values, for every tie-break family of the catalogue, under both C.07 editions (2026: the dummy
opponent capped; 2023/2024: not) and the older rules, and every treatment of unrated opponents.
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pairing.engines.state import Colour, Kind, Player, RoundRecord, TournamentState
from pairing.engines.tiebreaks import Unrated, standings
from pairing.engines.tiebreaks.incremental import LiveStandings, ResultChange, game_result, reach
from tests.engines.tiebreaks.tiebreak_builders import random_tournament

CODES = [
    "DE", "DE1", "DE/P", "WIN", "WON", "BPG", "BWG", "PS", "PS/C1", "REP", "STD", "BH", "BH/C1", "BH/C2",
    "BH/M1", "BH/P", "AOB", "AOB/F", "FB", "FB/C1", "SB", "SB/C1", "SB/P", "KS", "KS/L60", "KS/L-1", "ARO",
    "ARO/C1", "TPR", "PTP", "APRO", "APPO", "RTNG", "TPN", "TPN/R", "WP", "WP/C1", "WSB", "KORR", "MKORR",
    "GRT", "LOT",
]  # fmt: skip
DEFAULT_LISTS = [
    ["PTS", "BH/C1", "BH", "SB", "DE"],  # C.07, individual Swiss
    ["PTS", "DE1", "WP", "WSB", "LOT"],  # seed 001 F12
    ["PTS", "DE1", "GRT", "LOT"],  # seed 000 F10
    ["PTS", "SB", "DE", "WIN"],  # round robin, seed 004 §24
    ["PTS", "KORR"],  # seed 004 §4.9.10.2
    ["PTS", "DE/P", "BH", "AOB", "ARO", "TPR"],  # AOB: a result moves values two meetings away
    ["PTS", "AOB/F", "APRO", "APPO", "KS", "MKORR"],
]
RULES = ["fide-2026", "fide-2023", "fide-pre2023", "knsb", "fide-roundrobin", "plain"]
UNRATED = [Unrated(), Unrated("leave-out"), Unrated("rating", 1400)]
PROPERTY = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


tiebreak_lists = st.one_of(
    st.sampled_from(DEFAULT_LISTS),
    st.lists(st.sampled_from(CODES), min_size=1, max_size=5, unique=True).map(lambda codes: ["PTS", *codes]),
)


def scaled(state: TournamentState, win: float, draw: float) -> TournamentState:
    """The same tournament under another point system (3/1/0: a win 3, a draw 1)."""
    if (win, draw) == (1.0, 0.5):
        return state

    def score(s: float | None) -> float | None:
        return None if s is None else {1.0: win, 0.5: draw, 0.0: 0.0}[s]

    players = [replace(p, history=[replace(r, score=score(r.score)) for r in p.history]) for p in state.players]
    return replace(state, players=players, win_points=win, draw_points=draw)


def games(state: TournamentState) -> list[tuple[int, int, int]]:
    """(round, white, black) of every paired game or forfeit."""
    return [
        (rnd, p.id, r.opponent)
        for p in state.players
        for rnd, r in enumerate(p.history, 1)
        if r.paired and r.colour is Colour.WHITE and r.opponent is not None
    ]


def with_records(state: TournamentState, records: dict[tuple[int, int], RoundRecord]) -> TournamentState:
    """`state` with (player, round) -> record put in, as a new state."""
    players = [
        replace(p, history=[records.get((p.id, rnd), r) for rnd, r in enumerate(p.history, 1)]) for p in state.players
    ]
    return replace(state, players=players)


def pending(state: TournamentState) -> TournamentState:
    """Every game of the tournament paired and in play (no result yet)."""
    out = {}
    for rnd, white, black in games(state):
        out[(white, rnd)] = RoundRecord(Kind.GAME, black, Colour.WHITE, None)
        out[(black, rnd)] = RoundRecord(Kind.GAME, white, Colour.BLACK, None)
    return with_records(state, out)


def result(state: TournamentState, roll: int) -> tuple[Kind, float, float]:
    """A result drawn from `roll`: a win, a draw, a loss, a forfeit either way or a double forfeit."""
    win, draw = state.win_points, state.draw_points
    choices = [
        (Kind.GAME, win, 0.0), (Kind.GAME, draw, draw), (Kind.GAME, 0.0, win),
        (Kind.FORFEIT, win, 0.0), (Kind.FORFEIT, 0.0, win), (Kind.FORFEIT, 0.0, 0.0), (Kind.GAME, None, None),
    ]  # fmt: skip
    return choices[roll % len(choices)]


def table(lines) -> list[tuple]:
    return [(line.player, line.rank, line.points, dict(line.values)) for line in lines]


def full(state: TournamentState, tiebreaks: list[str], rules: str, unrated: Unrated) -> list[tuple]:
    return table(standings(state, tiebreaks, rules=rules, unrated=unrated, explain=False))


@pytest.mark.rule("C.07 4")
@pytest.mark.rule("C.07 6")
@pytest.mark.rule("C.07 8.1")
@pytest.mark.rule("C.07 8.2")
@pytest.mark.rule("C.07 9.1")
@pytest.mark.rule("C.07 14")
@pytest.mark.rule("C.07 16.4")
@PROPERTY
@given(
    seed=st.integers(0, 10**6),
    tiebreaks=tiebreak_lists,
    rules=st.sampled_from(RULES),
    unrated=st.sampled_from(UNRATED),
    system=st.sampled_from([(1.0, 0.5), (3.0, 1.0)]),
    order=st.randoms(use_true_random=False),
    corrections=st.lists(st.tuples(st.integers(0, 10**4), st.integers(0, 6)), max_size=6),
)
def test_every_result_entered_gives_the_full_standings(seed, tiebreaks, rules, unrated, system, order, corrections):
    finished = scaled(random_tournament(seed), *system)
    state = pending(finished)
    live = LiveStandings(state, tiebreaks, rules=rules, unrated=unrated)
    assert table(live.lines()) == full(state, tiebreaks, rules, unrated)
    final = {(p.id, rnd): r for p in finished.players for rnd, r in enumerate(p.history, 1)}
    entered = games(finished)
    order.shuffle(entered)
    # The tournament's own results in a random order, then corrections of games already entered.
    steps = [(game, final[(game[1], game[0])], final[(game[2], game[0])]) for game in entered]
    for pick, roll in corrections if entered else []:
        rnd, white, black = entered[pick % len(entered)]
        kind, sw, sb = result(state, roll)
        white_record = RoundRecord(kind, black, Colour.WHITE, sw)
        steps.append(((rnd, white, black), white_record, RoundRecord(kind, white, Colour.BLACK, sb)))
    for (rnd, white, black), white_record, black_record in steps:
        state = with_records(state, {(white, rnd): white_record, (black, rnd): black_record})
        live.apply(game_result(rnd, white, black, white_record, black_record))
        assert table(live.lines()) == full(state, tiebreaks, rules, unrated), (rnd, white, black)


@pytest.mark.rule("C.07 4")
@pytest.mark.rule("C.07 6")
@pytest.mark.rule("C.07 8.1")
@pytest.mark.rule("C.07 8.2")
@pytest.mark.rule("C.07 9.1")
@pytest.mark.rule("C.07 14")
@pytest.mark.rule("C.07 16.4")
@PROPERTY
@given(
    seed=st.integers(0, 10**6),
    tiebreaks=tiebreak_lists,
    rules=st.sampled_from(["fide-2026", "fide-2023"]),
    rolls=st.lists(st.tuples(st.integers(0, 10**4), st.integers(0, 6)), min_size=1, max_size=8),
)
def test_the_changes_read_from_a_new_state_give_its_standings(seed, tiebreaks, rules, rolls):
    """Several results at once, read by comparing the states (as the pages do between two versions)."""
    state = random_tournament(seed)
    paired = games(state)
    if not paired:
        return
    live = LiveStandings(state, tiebreaks, rules=rules)
    records = {}
    for pick, roll in rolls:
        rnd, white, black = paired[pick % len(paired)]
        kind, sw, sb = result(state, roll)
        records[(white, rnd)] = RoundRecord(kind, black, Colour.WHITE, sw)
        records[(black, rnd)] = RoundRecord(kind, white, Colour.BLACK, sb)
    new = with_records(state, records)
    changes = live.changes_to(new)
    assert changes is not None
    live.apply(changes)
    assert table(live.lines()) == full(new, tiebreaks, rules, Unrated())
    assert live.changes_to(new) == []


def _two_round_state() -> TournamentState:
    """Four players, two rounds: 1-2 1-0 and 3-4 ½-½, then 1-3 and 2-4 in play."""
    h = {
        1: [RoundRecord(Kind.GAME, 2, Colour.WHITE, 1.0), RoundRecord(Kind.GAME, 3, Colour.WHITE, None)],
        2: [RoundRecord(Kind.GAME, 1, Colour.BLACK, 0.0), RoundRecord(Kind.GAME, 4, Colour.WHITE, None)],
        3: [RoundRecord(Kind.GAME, 4, Colour.WHITE, 0.5), RoundRecord(Kind.GAME, 1, Colour.BLACK, None)],
        4: [RoundRecord(Kind.GAME, 3, Colour.BLACK, 0.5), RoundRecord(Kind.GAME, 2, Colour.BLACK, None)],
    }
    players = [Player(id=p, name=f"P{p}", rating=2000 - 100 * p, history=recs) for p, recs in h.items()]
    return TournamentState(players, 2, 3)


@pytest.mark.rule("C.07 8.1")
def test_a_result_moves_the_opponents_buchholz_by_hand():
    """Round 2, 3 beats 1: 3 has 1½, 1 stays on 1, 4 on ½, 2 on 0 (the game 2-4 in play counts nothing).
    BH (C.07 8.1): 1 met 2 and 3, 0 + 1½; 2 met 1 and 4, 1 + ½; 3 met 4 and 1, ½ + 1; 4 met 3 and 2, 1½ + 0:
    1½ each. Then 4 beats 2: 4 has 1½ too, and BH 1: 0 + 1½, 2: 1 + 1½, 3: 1½ + 1, 4: 1½ + 0; 3 is ahead
    of 4 on Buchholz."""
    state = _two_round_state()
    live = LiveStandings(state, ["PTS", "BH", "DE"])
    touched = live.apply(
        game_result(2, 1, 3, RoundRecord(Kind.GAME, 3, Colour.WHITE, 0.0), RoundRecord(Kind.GAME, 1, Colour.BLACK, 1.0))
    )
    assert touched == {1, 2, 3, 4}  # the two players and their opponents (BH reads their scores)
    lines = {line.player: line for line in live.lines()}
    assert [lines[p].points for p in (1, 2, 3, 4)] == [1.0, 0.0, 1.5, 0.5]
    assert [lines[p].values["BH"] for p in (1, 2, 3, 4)] == [1.5, 1.5, 1.5, 1.5]
    assert [line.player for line in live.lines()] == [3, 1, 4, 2]
    live.apply(
        game_result(2, 2, 4, RoundRecord(Kind.GAME, 4, Colour.WHITE, 0.0), RoundRecord(Kind.GAME, 2, Colour.BLACK, 1.0))
    )
    lines = {line.player: line for line in live.lines()}
    assert [lines[p].values["BH"] for p in (1, 2, 3, 4)] == [1.5, 2.5, 2.5, 1.5]
    assert [(line.player, line.rank) for line in live.lines()] == [(3, 1), (4, 2), (1, 3), (2, 4)]
    assert lines[3].values["DE"] is None  # no tie left for direct encounter to break (C.07 6)


@pytest.mark.rule("000 F10")
@pytest.mark.rule("001 F12")
def test_direct_encounter_for_first_place_leaves_the_group_that_is_no_longer_first():
    """DE1 decides only the group tied for first place (seed 000 F10, seed 001 F12). 1 and 2 drew: tied
    first on ½, DE1 ½ each. Then 3 beats 4: 3 is first alone, and 1 and 2 share second without DE1."""
    players = [
        Player(id=1, history=[RoundRecord(Kind.GAME, 2, Colour.WHITE, 0.5)]),
        Player(id=2, history=[RoundRecord(Kind.GAME, 1, Colour.BLACK, 0.5)]),
        Player(id=3, history=[RoundRecord(Kind.GAME, 4, Colour.WHITE, None)]),
        Player(id=4, history=[RoundRecord(Kind.GAME, 3, Colour.BLACK, None)]),
    ]
    state = TournamentState(players, 1, 2)
    live = LiveStandings(state, ["PTS", "DE1"])
    assert [(line.player, line.rank, line.values["DE1"]) for line in live.lines()][:2] == [(1, 1, 0.5), (2, 1, 0.5)]
    won, lost = RoundRecord(Kind.GAME, 4, Colour.WHITE, 1.0), RoundRecord(Kind.GAME, 3, Colour.BLACK, 0.0)
    live.apply(game_result(1, 3, 4, won, lost))
    lines = [(line.player, line.rank, line.values["DE1"]) for line in live.lines()]
    assert lines == [(3, 1, None), (1, 2, None), (2, 2, None), (4, 4, None)]
    assert table(live.lines()) == full(with_records(state, {(3, 1): won, (4, 1): lost}), ["PTS", "DE1"], "fide-2026",
                                       Unrated())  # fmt: skip


def test_how_far_a_result_reaches():
    assert reach(["PTS", "WIN", "TPR", "DE", "LOT"]) == 0
    assert reach(["PTS", "BH", "SB", "KORR"]) == 1
    assert reach(["PTS", "APRO", "KS"]) == 1
    assert reach(["PTS", "AOB"]) == 2


@pytest.mark.parametrize(
    "change",
    [
        "pairing",
        "bye",
        "withdrawal",
        "rating",
        "settings",
        "new round",
    ],
)
def test_anything_but_a_result_asks_for_the_full_standings(change):
    state = _two_round_state()
    live = LiveStandings(state, ["PTS", "BH", "DE"])
    players = [replace(p, history=list(p.history)) for p in state.players]
    if change == "pairing":  # round 2 paired again: 1-4 and 2-3
        players[0].history[1] = RoundRecord(Kind.GAME, 4, Colour.WHITE, None)
        players[3].history[1] = RoundRecord(Kind.GAME, 1, Colour.BLACK, None)
    elif change == "bye":
        players[0].history[1] = RoundRecord(Kind.HALF_BYE, score=0.5)
    elif change == "withdrawal":
        players[1].withdrawn = True
    elif change == "rating":
        players[2].rating += 10
    elif change == "new round":
        for p in players:
            p.history.append(RoundRecord(Kind.ABSENT, score=0.0))
    new = replace(state, players=players, settings={"tiebreak_rules": "plain"} if change == "settings" else {})
    assert live.changes_to(new) is None
    with pytest.raises(ValueError):
        live.apply([ResultChange(1, 2, RoundRecord(Kind.HALF_BYE, score=0.5))])
    assert table(live.lines()) == full(state, ["PTS", "BH", "DE"], "fide-2026", Unrated())


def test_results_of_a_large_open_are_cheap():
    """A result in a 600-player field recomputes the values of a few dozen players, not of the field."""
    rng = random.Random(7)
    n, rounds = 600, 7
    history: dict[int, list[RoundRecord]] = {p: [] for p in range(1, n + 1)}
    for _rnd in range(rounds):
        order = list(history)
        rng.shuffle(order)
        for white, black in zip(order[::2], order[1::2], strict=True):
            sw = rng.choice([1.0, 0.5, 0.0])
            history[white].append(RoundRecord(Kind.GAME, black, Colour.WHITE, sw))
            history[black].append(RoundRecord(Kind.GAME, white, Colour.BLACK, 1.0 - sw))
    state = TournamentState([Player(id=p, history=h) for p, h in history.items()], rounds, rounds + 1)
    live = LiveStandings(state, ["PTS", "BH/C1", "BH", "SB", "DE"])
    last = history[1][-1]
    other = last.opponent
    assert other is not None
    flipped = 1.0 - (last.score or 0.0)
    mine = replace(last, score=flipped)
    theirs = replace(history[other][-1], score=1.0 - flipped)
    touched = live.apply([ResultChange(1, rounds, mine), ResultChange(other, rounds, theirs)])
    assert len(touched) <= 2 + 2 * rounds  # the two and their opponents
    new = with_records(state, {(1, rounds): mine, (other, rounds): theirs})
    assert table(live.lines()) == full(new, ["PTS", "BH/C1", "BH", "SB", "DE"], "fide-2026", Unrated())
