"""Dansk Schweizer: seed 004 §4.9.3 and the worked examples of the arbiter guide §4.9.4."""

import itertools

import pytest

from pairing.engines import registry
from pairing.engines.dansk import Preference, colour_sequence, preference
from pairing.engines.notes import english
from pairing.engines.state import Colour, InvalidInput, Kind, NoValidPairing, Player, RoundRecord, TournamentState
from tests.engines.danish.danish_helpers import boards_of, play_rounds, state_of

W, B = Colour.WHITE, Colour.BLACK
OUTSIDER = 99  # a withdrawn player who stands in as opponent in filler rounds


def example_state(groups: list[tuple[float, str]]) -> tuple[TournamentState, dict[str, int]]:
    """A state for a §4.9.4 example.

    `groups` lists each point group as (points, "A(-) B(F,G) ..."). Letters are start numbers in
    alphabetical order (A strongest, 3.1). The meetings of the example are spread over rounds;
    every other round is a game against a withdrawn outsider, chosen so that each player ends with
    as many whites as blacks and white, black in the last two rounds: everybody then has the same
    weak preference (white), so colour preferences cannot tell two arrangements apart (5.2) and
    the example's pairing is decided by the rules of 5.3-9 alone.
    """
    entries = []
    for pts, text in groups:
        for token in text.split():
            name, met = token[0], token[2:-1]
            entries.append((name, pts, [] if met == "-" else met.split(",")))
    ids = {name: i + 1 for i, (name, _, _) in enumerate(sorted(entries))}
    score = {ids[name]: pts for name, pts, _ in entries}
    edges = sorted({tuple(sorted((ids[n], ids[m]))) for n, _, ms in entries for m in ms})
    rounds: list[list[tuple[int, int]]] = []
    for u, v in edges:  # greedy edge colouring: each round a set of disjoint games
        for rnd in rounds:
            if all(u not in e and v not in e for e in rnd):
                rnd.append((u, v))
                break
        else:
            rounds.append([(u, v)])
    results = _meeting_results(edges, score)
    meetings = {pid: [] for pid in score}
    for r, rnd in enumerate(rounds):
        for u, v in rnd:
            meetings[u].append((r, v, W, results[u, v]))
            meetings[v].append((r, u, B, 1.0 - results[u, v]))

    def fits(total: int) -> bool:
        for pid, ms in meetings.items():
            whites = sum(c is W for _, _, c, _ in ms)
            need = score[pid] - sum(s for *_, s in ms)
            if whites > (total - 2) // 2 or len(ms) - whites > (total - 2) // 2:
                return False
            if not 0 <= need <= total - len(ms):
                return False
        return True

    total = max(2, len(rounds)) + 2
    total += total % 2
    while not fits(total):
        total += 2
    players = [Player(id=OUTSIDER, name="outsider", withdrawn=True)]
    for pid in sorted(score):
        by_round = {r: (opp, c, s) for r, opp, c, s in meetings[pid]}
        whites_left = (total - 2) // 2 - sum(c is W for _, c, _ in by_round.values())
        need = score[pid] - sum(s for _, _, s in by_round.values())
        history = []
        for r in range(total):
            if r in by_round:
                opp, colour, s = by_round[r]
                history.append(RoundRecord(Kind.GAME, opp, colour, s))
                continue
            if r >= total - 2:
                colour = W if r == total - 2 else B
            elif whites_left > 0:
                colour, whites_left = W, whites_left - 1
            else:
                colour = B
            s = min(1.0, need)
            need -= s
            history.append(RoundRecord(Kind.GAME, OUTSIDER, colour, s))
        players.append(Player(id=pid, name=chr(64 + pid), history=history))
    state = TournamentState(players=players, total_rounds=total + 3, round_to_pair=total + 1, seed=1)
    return state, ids


def _meeting_results(edges, score) -> dict[tuple[int, int], float]:
    """Results of the example's meetings: the player with more points won, equal points drew,
    unless that gives somebody more points than he has; then the first assignment that fits."""
    default = {(u, v): 0.5 if score[u] == score[v] else float(score[u] > score[v]) for u, v in edges}

    def fits(results) -> bool:
        got = dict.fromkeys(score, 0.0)
        for (u, v), r in results.items():
            got[u] += r
            got[v] += 1.0 - r
        return all(got[p] <= score[p] for p in score)

    if fits(default):
        return default
    for choice in itertools.product((0.5, 1.0, 0.0), repeat=len(edges)):
        results = dict(zip(edges, choice, strict=True))
        if fits(results):
            return results
    raise AssertionError("no results fit the example's points")


def pairs_by_name(state: TournamentState, ids: dict[str, int]) -> set[str]:
    names = {v: k for k, v in ids.items()}
    result = registry.pair(state, "dansk")
    return {"".join(sorted(names[b.white] + names[b.black])) for b in result.boards}


def check_example_state(state: TournamentState, ids: dict[str, int], groups) -> None:
    """The built state really is the example: points, meetings, and the same weak preference."""
    for pts, text in groups:
        for token in text.split():
            player = state.player(ids[token[0]])
            assert player.score() == pts
            met = {chr(64 + o) for o in player.opponents() if o != OUTSIDER}
            listed = set() if token[2:-1] == "-" else set(token[2:-1].split(","))
            assert listed <= met
            assert preference(colour_sequence(player)) == Preference(W, False)


EXAMPLES = {
    "intro (6.1, 5.4)": (
        [(4.5, "A(-) B(-) C(F,G) D(-) E(-)"), (4, "F(C) G(C) H(-)")],
        {"AD", "BE", "CH", "FG"},
    ),
    "1 (5.3 step 1)": ([(3, "A(-) B(F,G) C(-) D(-) E(-) F(B) G(B) H(-)")], {"AE", "BH", "CF", "DG"}),
    "2 (5.3 step 2)": ([(3, "A(-) B(F,G) C(-) D(G) E(-) F(B) G(B,D) H(-)")], {"AE", "BH", "CG", "DF"}),
    # The seed prints F(C) where D(F,G) says F met D; either reading gives the same pairing.
    "3 (5.3 step 2, twice)": (
        [(3, "A(-) B(F,G) C(-) D(F,G) E(-) F(C) G(B,D) H(-)")],
        {"AF", "BE", "CG", "DH"},
    ),
    "4 (5.3 step 4)": ([(3, "A(D,E) B(D) C(D,E) D(A,B,C) E(A,C) F(-)")], {"AC", "BE", "DF"}),
    # Examples 5 and 6 send two floaters to the next group; the guide does not show it, so a
    # group of two players G, H (one point less) receives them.
    "5 (6.2 floaters)": (
        [(3, "A(D,E,F) B(D,E) C(D,E) D(A,B,C,E) E(A,B,C,D) F(A)"), (2, "G(-) H(-)")],
        {"AB", "EF", "CG", "DH"},
    ),
    "6 (6.3 alternative floater)": (
        [(3, "A(B,D,E,F) B(A,D,E) C(D,E) D(A,B,C,E) E(A,B,C,D) F(A)"), (2, "G(-) H(-)")],
        {"AC", "EF", "BG", "DH"},
    ),
    "7 (9.1 floater pair re-opened)": (
        [(1.5, "A(-) B(-) C(-)"), (1, "D(-) E(F)"), (0.5, "F(E)")],
        {"AC", "BE", "DF"},
    ),
    "8 (9.1)": ([(1.5, "A(-) B(-) C(-)"), (1, "D(F) E(F)"), (0.5, "F(D,E)")], {"AC", "BF", "DE"}),
    "9 (9.1 then 6.3)": ([(1.5, "A(-) B(F) C(-)"), (1, "D(F) E(F)"), (0.5, "F(B,D,E)")], {"BC", "AF", "DE"}),
    # Not in the guide: B v D (nearest) leaves E, who has met F, G and H, without an opponent, so it
    # is re-opened (9.1); after B v E the players below form one group by points and start numbers
    # (9, last paragraph): a = D, F and b = G, H give D v G and F v H, where the point groups apart
    # would give D v F and G v H.
    "9.1 then one lowest group": (
        [(1.5, "A(-) B(-) C(-)"), (1, "D(-) E(F,G,H) F(E)"), (0.5, "G(E) H(E)")],
        {"AC", "BE", "DG", "FH"},
    ),
    "10 (6.3 nr. 3)": (
        [(2, "A(-) B(-) C(-) D(-) E(-)"), (1.5, "F(G,H) G(F,H)"), (1, "H(F,G)")],
        {"AE", "BF", "CG", "DH"},
    ),
    "11 (three floaters)": (
        [(2.5, "A(-) B(-) C(-)"), (2, "D(E,F,G) E(D,F,G,H) F(D,E,G) G(D,E,F) H(E)")],
        {"AD", "BE", "CF", "GH"},
    ),
}


@pytest.mark.rule("004 4.9.4")
@pytest.mark.rule("004 4.9.3")
@pytest.mark.parametrize("name", list(EXAMPLES))
def test_arbiter_guide_examples(name):
    groups, expected = EXAMPLES[name]
    state, ids = example_state(groups)
    check_example_state(state, ids, groups)
    assert pairs_by_name(state, ids) == expected


def _colour_player(pid: int, colours: str) -> Player:
    history = [RoundRecord(Kind.GAME, OUTSIDER, W if c == "H" else B, 0.5) for c in colours]
    return Player(id=pid, name=chr(64 + pid), history=history)


# §4.9.4 "Farvefordeling".  The seed's row for B repeats H's (HSHSH), yet its text says B had black
# in the last round and as many whites as H: B is given HSHHS, which fits every word of the text.
COLOUR_EXAMPLE = {
    "A": "SHSHS", "B": "HSHHS", "C": "HSSHH", "D": "HHSSH", "E": "SHHSH", "F": "HSHSH",
    "G": "HSHSH", "H": "HSHSH", "I": "HSHSH", "J": "HSHSH", "K": "HSHSH", "L": "HSHSH",
}  # fmt: skip


@pytest.mark.rule("004 4.9.4")
@pytest.mark.rule("004 4.9.3")
def test_colour_example_of_the_arbiter_guide():
    players = [Player(id=OUTSIDER, withdrawn=True)]
    players += [_colour_player(ord(n) - 64, c) for n, c in COLOUR_EXAMPLE.items()]
    state = TournamentState(players=players, total_rounds=9, round_to_pair=6, seed=1)
    result = registry.pair(state, "dansk")
    got = [(chr(64 + b.white), chr(64 + b.black)) for b in result.boards]
    # A white (fewer whites); B white (black last round); C black; D white (last three rounds);
    # E black (last four rounds); F black (7.4: the stronger takes the opposite of his last colour).
    assert got == [("A", "G"), ("B", "H"), ("I", "C"), ("D", "J"), ("K", "E"), ("L", "F")]
    rules = " ".join(english(result.explanation))
    for rule in ("7.2", "7.3 (previous round)", "7.3 (last 3 rounds)", "7.3 (last 4 rounds)", "7.4"):
        assert rule in rules


@pytest.mark.rule("004 4.9.3")
@pytest.mark.parametrize(
    ("colours", "expected"),
    [
        ("", Preference(None)),
        ("HHSH", Preference(B, True)),  # 3 whites, 1 black after 4 rounds: strong for black
        ("SS", Preference(W, True)),  # black twice: strong for white in round 3
        ("HHSHS", Preference(B, False)),  # one white more after an odd round: weak black
        ("HSHS", Preference(W, False)),  # balanced, black last: weak white
        ("HSSHH", Preference(B, True)),
    ],
)
def test_colour_preferences_of_the_supplementary_rules(colours, expected):
    assert preference(colour_sequence(_colour_player(1, colours))) == expected


@pytest.mark.rule("004 4.9.3")
def test_round_one_halves_and_colours():
    result = registry.pair(state_of(play_rounds(8, [])), "dansk")
    # a = 1-4, b = 5-8; the weakest of b (8) has white, 7 black, 6 white, 5 black (7.1).
    assert boards_of(result) == [(1, 5), (6, 2), (3, 7), (8, 4)]


@pytest.mark.rule("004 4.9.3")
def test_odd_field_player_x_scores_one_and_counts_as_white():
    result = registry.pair(state_of(play_rounds(5, [])), "dansk")
    # X (6) is the weakest: a = 1, 2, 3; b = 4, 5, X.
    assert [(b.player, b.kind, b.points) for b in result.byes] == [(3, Kind.PAIRING_BYE, 1.0)]
    assert sorted(tuple(sorted(b)) for b in boards_of(result)) == [(1, 4), (2, 5)]
    # Round 2: 3 has met X; his round counts as white.
    players = play_rounds(5, [[(1, 4, 1.0), (5, 2, 0.0), (3, 0, 1.0)]])
    assert colour_sequence(players[2]) == [W]
    second = registry.pair(state_of(players), "dansk")
    assert 3 not in [b.player for b in second.byes]
    # Points: 1, 2, 3 one point: 2 floats as the middle; 1 v 3 (3 white before: 1 has white? no:
    # 1 had white too, equal; 7.3 equal, 7.4: the stronger (1) takes black).
    assert (3, 1) in boards_of(second)


@pytest.mark.rule("004 4.9.3")
def test_strong_preferences_may_not_clash():
    # 1 and 2 both had white twice: two strong preferences for black, they may not meet; 3 and 4
    # both had black twice.  1-2 and 3-4 are the only pairs left.
    players = play_rounds(4, [[(1, 3, 0.5), (2, 4, 0.5)], [(1, 4, 0.5), (2, 3, 0.5)]])
    with pytest.raises(NoValidPairing):
        registry.pair(state_of(players, relax_strong_preferences=False), "dansk")
    relaxed = registry.pair(state_of(players), "dansk")
    assert {frozenset(b) for b in boards_of(relaxed)} == {frozenset((1, 2)), frozenset((3, 4))}
    assert any("relax_strong_preferences" in line for line in english(relaxed.explanation))


@pytest.mark.rule("004 4.9.3")
def test_acceleration_gives_the_strong_half_a_point():
    state = state_of(play_rounds(8, []), acceleration_groups=2)
    # Groups 1-4 (one pairing point) and 5-8 (none), each halved (rule 10, then 5.1); 7.1 from the
    # bottom board up.
    assert boards_of(registry.pair(state, "dansk")) == [(1, 3), (4, 2), (5, 7), (8, 6)]


@pytest.mark.rule("004 4.9.3")
def test_acceleration_only_for_the_rounds_asked():
    players = play_rounds(8, [[(1, 5, 0.5), (6, 2, 0.5), (3, 7, 0.5), (8, 4, 0.5)]])
    plain = registry.pair(state_of(players), "dansk")
    over = registry.pair(state_of(players, acceleration_groups=2, acceleration_rounds=1), "dansk")
    assert boards_of(plain) == boards_of(over)
    kept = registry.pair(state_of(players, acceleration_groups=2), "dansk")
    # Groups 1-4 and 5-8 again.  1-3 and 2-4 would give only one player of each pair his colour
    # (1, 3 prefer black; 2, 4 white): 5.2 takes the b order 4, 3, which meets every preference.
    assert boards_of(kept) == [(4, 1), (2, 3), (5, 8), (7, 6)]


@pytest.mark.rule("004 4.9.3")
@pytest.mark.parametrize(
    "settings",
    [{"acceleration_groups": 0}, {"acceleration_rounds": -1}, {"search_limit": "many"}, {"nonsense": 1}],
)
def test_settings_are_validated(settings):
    with pytest.raises(InvalidInput):
        registry.pair(state_of(play_rounds(4, []), **settings), "dansk")


@pytest.mark.rule("004 4.9.3")
@pytest.mark.parametrize("seed", range(6))
def test_simulated_events_keep_rules_1_2_and_strong_preferences(seed):
    import random

    rng = random.Random(seed)
    n, rounds = 11 + seed, 7
    players = [Player(id=i, name=f"P{i}") for i in range(1, n + 1)]
    by_id = {p.id: p for p in players}
    for rnd in range(1, rounds + 1):
        state = TournamentState(players=players, total_rounds=rounds, round_to_pair=rnd, seed=seed)
        result = registry.pair(state, "dansk")
        assert result == registry.pair(state, "dansk")  # deterministic
        seen = [p for b in result.boards for p in (b.white, b.black)] + [b.player for b in result.byes]
        assert sorted(seen) == list(range(1, n + 1))
        for board in result.boards:
            white, black = by_id[board.white], by_id[board.black]
            assert board.black not in white.opponents()  # 1.2
            pw, pb = preference(colour_sequence(white)), preference(colour_sequence(black))
            over_half = min(white.score(), black.score()) > (rnd - 1) / 2
            if not (rnd == rounds and over_half):  # the last-round exception
                assert not (pw.strong and pw.colour is B) and not (pb.strong and pb.colour is W)
        for board in result.boards:
            s = rng.choice([0.0, 0.5, 1.0])
            by_id[board.white].history.append(RoundRecord(Kind.GAME, board.black, W, s))
            by_id[board.black].history.append(RoundRecord(Kind.GAME, board.white, B, 1.0 - s))
        for bye in result.byes:
            assert not any(r.kind is Kind.PAIRING_BYE for r in by_id[bye.player].history)  # X met once
            by_id[bye.player].history.append(RoundRecord(Kind.PAIRING_BYE, score=1.0))


@pytest.mark.rule("004 4.9.3")
def test_last_round_exception_for_two_players_over_half():
    # 1 and 2 had white twice (a strong preference for black) and won twice.  They head the field
    # alone, so 5.1 pairs them: allowed in the last round (both over 50 %), not before it.
    rounds = [[(1, 3, 1.0), (2, 4, 1.0), (5, 6, 0.5)], [(1, 4, 1.0), (2, 5, 1.0), (6, 3, 0.5)]]
    last = registry.pair(state_of(play_rounds(6, rounds), total_rounds=3), "dansk")
    assert frozenset((1, 2)) in {frozenset(b) for b in boards_of(last)}
    earlier = registry.pair(state_of(play_rounds(6, rounds), total_rounds=5), "dansk")
    assert frozenset((1, 2)) not in {frozenset(b) for b in boards_of(earlier)}


@pytest.mark.rule("004 4.9.3")
def test_floater_takes_a_strong_opposite_preference_first():
    # 6.3 note.  Two points: 1, 2, 3 (2 floats, weak preference for white); one point: 4 (weak
    # black), 5 (strong black: white twice), 6.  2 takes 5 rather than the nearer 4.
    def player(pid: int, colours: str, pts: float) -> Player:
        each = pts / len(colours)
        history = [RoundRecord(Kind.GAME, OUTSIDER, W if c == "H" else B, each) for c in colours]
        return Player(id=pid, name=chr(64 + pid), history=history)

    players = [Player(id=OUTSIDER, withdrawn=True)]
    players += [player(1, "SH", 2), player(2, "HS", 2), player(3, "HS", 2)]
    players += [player(4, "SH", 1), player(5, "HH", 1), player(6, "HS", 1)]
    state = TournamentState(players=players, total_rounds=5, round_to_pair=3, seed=1)
    result = registry.pair(state, "dansk")
    # 1-3: equal whites, 3 had black last (7.3); 2-5: 5's strong preference; 4-6: 6 had black last.
    assert boards_of(result) == [(3, 1), (2, 5), (6, 4)]


@pytest.mark.rule("004 4.9.3")
def test_whole_field_as_one_group_when_the_named_floater_sets_all_fail():
    """9 (last paragraph) over the whole field when the floater sets of 6.1-6.3 all fail.

    After five rounds the groups are 3 points {1, 2, 4, 5, 8}, 2 points {7}, 1.5 points {3, 6}.
    Exactly two pairings avoid a rematch and a clash of strong preferences (2 strong black, 3
    strong white): 1-2, 3-4, 5-7, 6-8 and 1-6, 2-3, 4-7, 5-8. They float {4, 5, 8} or {1, 2, 4}
    from the top group, sets the 6.3 alternatives (exchanges, then the nearest above and below)
    do not reach. By points and start numbers (1, 2, 4, 5, 8, 7, 3, 6): 1 v 2; 4 v 7 would leave
    3 v 6 (met in round 2), so 4 v 3; 5 v 7; 8 v 6.
    """
    rounds = [
        [(1, 5, 0.0), (6, 2, 1.0), (3, 7, 1.0), (8, 4, 0.5)],
        [(6, 3, 0.5), (5, 4, 0.0), (1, 8, 0.5), (2, 7, 0.5)],
        [(3, 5, 0.0), (4, 6, 1.0), (8, 2, 0.0), (7, 1, 0.5)],
        [(2, 4, 0.5), (5, 6, 1.0), (1, 3, 1.0), (7, 8, 0.0)],
        [(4, 1, 0.0), (2, 5, 1.0), (8, 3, 1.0), (6, 7, 0.0)],
    ]
    pairing = registry.pair(state_of(play_rounds(8, rounds), total_rounds=7), "dansk")
    assert {frozenset(b) for b in boards_of(pairing)} == {frozenset(p) for p in ((1, 2), (3, 4), (5, 7), (6, 8))}
    lines = english(pairing.explanation)
    assert any(line.startswith("9: the point groups cannot be paired one by one") for line in lines)
    assert not any("relax_strong_preferences" in line for line in lines)
