"""FIDE Dutch system (C.04.3, 2026) and the shared colour rules: hand-made cases from the rules."""

from __future__ import annotations

import pytest

from pairing.engines import registry
from pairing.engines.colours import (
    Edition,
    Float,
    allocate,
    bye_eligible,
    colour_state,
    float_in_round,
)
from pairing.engines.notes import english
from pairing.engines.state import (
    Colour,
    Kind,
    NoValidPairing,
    Player,
    RoundRecord,
    TournamentState,
)

W, B = Colour.WHITE, Colour.BLACK


def game(opponent: int, colour: Colour, score: float) -> RoundRecord:
    return RoundRecord(Kind.GAME, opponent, colour, score)


def with_colours(*colours: Colour) -> Player:
    return Player(id=1, history=[game(90 + i, c, 0.5) for i, c in enumerate(colours)])


def pair(players: list[Player], rnd: int, total: int = 5, top: Colour = W, **kw):
    state = TournamentState(players=players, total_rounds=total, round_to_pair=rnd, top_colour_round1=top, **kw)
    return registry.get("dutch").pair(state)


# ------------------------------------------------------------------ colour preferences (A.6 / 1.7)


@pytest.mark.rule("C.04.3 A6")
def test_colour_preference_kinds():
    assert colour_state(with_colours()).preference is None
    mild = colour_state(with_colours(W, B))
    assert (mild.preference, mild.mild, mild.strong, mild.absolute) == (W, True, False, False)
    strong = colour_state(with_colours(W, B, W))
    assert (strong.preference, strong.strong, strong.absolute) == (B, True, False)
    absolute = colour_state(with_colours(B, W, W))  # two whites in a row
    assert (absolute.preference, absolute.absolute) == (B, True)
    wide = colour_state(with_colours(B, B, W, B))  # CD = -2
    assert (wide.preference, wide.absolute, wide.difference) == (W, True, -2)


@pytest.mark.rule("C.04.3 A6")
def test_forfeits_and_byes_are_not_in_the_colour_history():
    p = Player(
        id=1,
        history=[
            game(2, W, 1),
            RoundRecord(Kind.FORFEIT, 3, W, 1.0),
            RoundRecord(Kind.PAIRING_BYE, score=1.0),
            game(4, W, 0),
        ],
    )
    state = colour_state(p)
    assert state.colours == (W, W) and state.absolute and state.preference is B


# ------------------------------------------------------------------ colour allocation (E.1-E.5 / 5.2)


@pytest.mark.rule("C.04.3 E1")
@pytest.mark.rule("C.04.3 E2")
def test_allocation_grants_both_preferences_then_the_stronger():
    assert allocate(colour_state(with_colours(B)), colour_state(with_colours(W)), 1, W) is W
    # Strong (CD -1) beats mild: the lower player wants black strongly, higher mildly black.
    higher = colour_state(with_colours(W, B, W, B, W, B))  # CD 0, last B: mild white
    lower = colour_state(with_colours(B, W, B))  # CD -1: strong white
    assert allocate(higher, lower, 1, W) is B


@pytest.mark.rule("C.04.3 E3")
def test_allocation_alternates_from_the_last_differing_round():
    # Both mild white; counted back, they last differed in round 2 (higher white, lower black):
    # E.3 alternates, so the higher player gets black.
    higher = colour_state(with_colours(B, W, W, B))
    lower = colour_state(with_colours(W, B, W, B))
    assert higher.preference is lower.preference is W
    assert allocate(higher, lower, 2, W) is B
    assert allocate(lower, higher, 1, W) is W


@pytest.mark.rule("C.04.3 E4")
@pytest.mark.rule("C.04.3 E5")
def test_allocation_by_rank_then_initial_colour():
    same_a = colour_state(with_colours(W, B))
    same_b = colour_state(with_colours(W, B))
    assert allocate(same_a, same_b, 7, B) is W  # E.4: the higher player's preference
    none = colour_state(with_colours())
    assert allocate(none, none, 1, B) is B  # E.5: odd number gets the initial colour
    assert allocate(none, none, 4, B) is W


# ------------------------------------------------------------------ byes and floats


@pytest.mark.rule("C.04.3 C2")
@pytest.mark.rule("C.04.3 A5")
def test_bye_eligibility_by_edition():
    pab = Player(id=1, history=[RoundRecord(Kind.PAIRING_BYE, score=1.0)])
    forfeit_win = Player(id=2, history=[RoundRecord(Kind.FORFEIT, 3, W, 1.0)])
    full_bye = Player(id=3, history=[RoundRecord(Kind.FULL_BYE, score=1.0)])
    half_bye = Player(id=4, history=[RoundRecord(Kind.HALF_BYE, score=0.5)])
    for edition in Edition:
        assert not bye_eligible(pab, edition)
        assert not bye_eligible(forfeit_win, edition)
        assert bye_eligible(half_bye, edition)
    assert bye_eligible(full_bye, Edition.FIDE_2017)
    assert not bye_eligible(full_bye, Edition.FIDE_2026)


@pytest.mark.rule("C.04.3 A4")
def test_floats_of_games_and_unplayed_rounds():
    a = Player(
        id=1,
        history=[
            game(2, W, 1.0),
            game(3, B, 0.0),
            RoundRecord(Kind.HALF_BYE, score=0.5),
            RoundRecord(Kind.ABSENT_NOTICE, score=0.0),
        ],
    )
    b = Player(id=2, history=[game(1, B, 0.0), game(9, W, 1.0)])
    scores = {1: [0, 1, 1, 1.5, 1.5], 2: [0, 0, 1], 3: [0, 1, 2]}
    assert float_in_round(a, 0, scores, Edition.FIDE_2026) is None  # 0 v 0
    assert float_in_round(a, 1, scores, Edition.FIDE_2026) is None  # 1 v 1 before round 2
    assert float_in_round(b, 1, {**scores, 9: [0, 1, 2]}, Edition.FIDE_2026) is Float.UP
    assert float_in_round(a, 2, scores, Edition.FIDE_2026) is Float.DOWN  # half-point bye
    assert float_in_round(a, 3, scores, Edition.FIDE_2026) is None  # zero-point absence: 2026
    assert float_in_round(a, 3, scores, Edition.FIDE_2017) is Float.DOWN  # 2017: any unplayed round


@pytest.mark.rule("C.04.3 A4")
def test_forfeits_float_by_their_points_only():
    lost = Player(id=1, history=[RoundRecord(Kind.FORFEIT, 2, W, 0.0)])
    won = Player(id=2, history=[RoundRecord(Kind.FORFEIT, 1, B, 1.0)])
    scores = {1: [0.0, 0.0], 2: [0.0, 1.0]}
    assert float_in_round(lost, 0, scores, Edition.FIDE_2026) is None
    assert float_in_round(won, 0, scores, Edition.FIDE_2026) is Float.DOWN
    assert float_in_round(lost, 0, scores, Edition.FIDE_2017) is Float.DOWN


# ------------------------------------------------------------------ whole rounds


@pytest.mark.rule("C.04.3 A2")
@pytest.mark.rule("C.04.3 B2")
@pytest.mark.rule("C.04.3 B3")
@pytest.mark.rule("C.04.3 E5")
@pytest.mark.rule("C.04.3 A1")
def test_round_one_top_half_against_bottom_half_with_alternating_colours():
    players = [Player(id=i) for i in range(1, 9)]
    pairing = pair(players, 1, top=W)
    assert [(b.white, b.black) for b in pairing.boards] == [(1, 5), (6, 2), (3, 7), (8, 4)]
    pairing = pair([Player(id=i) for i in range(1, 9)], 1, top=B)
    assert [(b.white, b.black) for b in pairing.boards] == [(5, 1), (2, 6), (7, 3), (4, 8)]


@pytest.mark.rule("C.04.3 A5")
@pytest.mark.rule("C.04.3 C2")
def test_round_one_odd_field_gives_the_bye_to_the_last_player():
    pairing = pair([Player(id=i) for i in range(1, 10)], 1)
    assert [b.player for b in pairing.byes] == [9]
    assert pairing.byes[0].kind is Kind.PAIRING_BYE
    assert any("bye" in line for line in english(pairing.explanation))


@pytest.mark.rule("C.04.3 C2")
@pytest.mark.rule("C.04.3 C5")
def test_bye_skips_a_player_who_already_had_one():
    # Round 2 of 3 players: 1 beat 2, 3 had the bye. Everyone eligible would put the bye on the
    # lowest score (2, C5), and 2 is eligible; after a second round where 2 had the bye, 2 is not.
    p1 = Player(id=1, history=[game(2, W, 1.0)])
    p2 = Player(id=2, history=[game(1, B, 0.0)])
    p3 = Player(id=3, history=[RoundRecord(Kind.PAIRING_BYE, score=1.0)])
    pairing = pair([p1, p2, p3], 2, total=3)
    assert [b.player for b in pairing.byes] == [2]
    assert {(b.white, b.black) for b in pairing.boards} == {(3, 1)}  # 3 wants nothing, 1 wants black


@pytest.mark.rule("C.04.3 C1")
@pytest.mark.rule("C.04.3 C2")
@pytest.mark.rule("C.04.3 A9")
def test_no_rematch_and_no_second_bye_means_no_valid_pairing():
    p1 = Player(id=1, history=[game(2, W, 1.0), RoundRecord(Kind.PAIRING_BYE, score=1.0)])
    p2 = Player(id=2, history=[game(1, B, 0.0), RoundRecord(Kind.PAIRING_BYE, score=1.0)])
    with pytest.raises(NoValidPairing):
        pair([p1, p2], 3, total=3)


@pytest.mark.rule("C.04.3 C1")
def test_forfeited_players_may_meet_again():
    p1 = Player(id=1, history=[RoundRecord(Kind.FORFEIT, 2, W, 1.0)])
    p2 = Player(id=2, history=[RoundRecord(Kind.FORFEIT, 1, B, 0.0)])
    pairing = pair([p1, p2], 2, total=3)
    assert len(pairing.boards) == 1


@pytest.mark.rule("C.04.3 A3")
@pytest.mark.rule("C.04.3 B1")
@pytest.mark.rule("C.04.3 C5")
@pytest.mark.rule("C.04.3 C6")
@pytest.mark.rule("C.04.3 A8")
def test_downfloater_is_the_lowest_player_of_an_odd_bracket_and_meets_the_next_bracket():
    # Round 2, 6 players: 1, 2, 3 won, 4, 5, 6 lost. The 1-point bracket is odd: its lowest
    # compatible player floats down to meet the highest of the 0-point group.
    history = {
        1: game(4, W, 1.0),
        2: game(5, B, 1.0),
        3: game(6, W, 1.0),
        4: game(1, B, 0.0),
        5: game(2, W, 0.0),
        6: game(3, B, 0.0),
    }
    players = [Player(id=i, history=[history[i]]) for i in range(1, 7)]
    pairing = pair(players, 2, total=3)
    pairs = {frozenset((b.white, b.black)) for b in pairing.boards}
    assert frozenset((1, 2)) in pairs  # 1 wants black, 2 white: 1-3 would both want black
    assert frozenset((3, 4)) in pairs  # 3 floats and meets the highest resident it has not met
    assert frozenset((5, 6)) in pairs
    assert any("go down to fewer points: 3" in line for line in english(pairing.explanation))


@pytest.mark.rule("C.04.3 A2")
def test_publication_order_puts_higher_scores_first():
    history = {
        1: game(4, W, 0.0),
        2: game(5, B, 1.0),
        3: game(6, W, 1.0),
        4: game(1, B, 1.0),
        5: game(2, W, 0.0),
        6: game(3, B, 0.0),
    }
    players = [Player(id=i, history=[history[i]]) for i in range(1, 7)]
    pairing = pair(players, 2, total=3)
    scores = {1: 0, 2: 1, 3: 1, 4: 1, 5: 0, 6: 0}
    tops = [max(scores[b.white], scores[b.black]) for b in pairing.boards]
    assert tops == sorted(tops, reverse=True)


@pytest.mark.rule("C.04.3 C10")
@pytest.mark.rule("C.04.3 C11")
@pytest.mark.rule("C.04.3 C12")
@pytest.mark.rule("C.04.3 C13")
@pytest.mark.rule("C.04.3 C5")
def test_explanation_names_the_colour_criteria_given_up():
    # Round 2: 1 and 3 won with white, 2 and 4 lost with black. Each scoregroup is one pair whose
    # players want the same colour (a strong preference after one game, A.6b): C5 (most pairs)
    # outranks C12 and C13, so both brackets give them up once and the explanation says so.
    history = {1: game(2, W, 1.0), 2: game(1, B, 0.0), 3: game(4, W, 1.0), 4: game(3, B, 0.0)}
    players = [Player(id=i, history=[history[i]]) for i in range(1, 5)]
    pairing = pair(players, 2, total=3)
    assert {frozenset((b.white, b.black)) for b in pairing.boards} == {frozenset((1, 3)), frozenset((2, 4))}
    brackets = [line for line in english(pairing.explanation) if line.startswith("bracket")]
    assert len(brackets) == 2
    for line in brackets:
        assert "C12 (colour preference not met) ×1" in line
        assert "C13 (strong colour preference not met) ×1" in line


def play_alike(seed: int, *pairers) -> None:
    """A random tournament (absences, forfeits, draws) paired round by round by each of `pairers`
    (functions of a state): every round comes out the same, boards, colours and byes."""
    import copy
    import random

    rng = random.Random(seed)
    n, rounds = rng.randint(10, 36), rng.randint(4, 7)
    players = [Player(id=i, name=f"P{i}", rating=2400 - rng.randint(5, 30) * i) for i in range(1, n + 1)]
    state = TournamentState(players=players, total_rounds=rounds, round_to_pair=1, top_colour_round1=W)
    for _ in range(rounds):
        state.requested_byes = {p.id: Kind.ABSENT_NOTICE for p in players if rng.random() < 0.06}
        first, *others = [pairer(copy.deepcopy(state)) for pairer in pairers]
        for other in others:
            assert [(b.white, b.black) for b in first.boards] == [(b.white, b.black) for b in other.boards]
            assert first.byes == other.byes
        for board in first.boards:
            kind = Kind.FORFEIT if rng.random() < 0.04 else Kind.GAME
            score = rng.choice([1.0, 0.0] if kind is Kind.FORFEIT else [1.0, 0.5, 0.5, 0.0])
            state.player(board.white).history.append(RoundRecord(kind, board.black, W, score))
            state.player(board.black).history.append(RoundRecord(kind, board.white, B, 1 - score))
        for bye in first.byes:
            state.player(bye.player).history.append(RoundRecord(bye.kind, None, None, bye.points))
        state.round_to_pair += 1


@pytest.mark.parametrize("seed", range(12))
def test_shortcuts_pair_exactly_as_the_full_solves(seed):
    """S1 against S2 in order taken without a solve is exact: on random tournaments every round
    pairs the same with it as with the transpositions solved player by player."""
    from pairing.engines.dutch import pair_round

    play_alike(seed, pair_round, lambda state: pair_round(state, shortcuts=False))


@pytest.mark.parametrize("seed", range(4))
def test_the_python_matcher_pairs_as_the_compiled_one(seed, monkeypatch):
    """Without the compiled matcher the engine runs on blossom.py (solving every graph from
    scratch): the same pairings, decision by decision."""
    from pairing.engines import dutch, matching

    def with_python_matcher(state):
        with monkeypatch.context() as patch:
            patch.setattr(dutch, "new_matcher", matching.PyMatcher)
            return dutch.pair_round(state)

    assert matching.COMPILED
    play_alike(100 + seed, dutch.pair_round, with_python_matcher)
