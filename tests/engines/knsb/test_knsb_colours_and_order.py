"""The colour rules and the order of publication of the three KNSB Swiss systems, over whole
simulated tournaments: seed 000 E1-E4 and F1, seed 001 E1-E4 and F2, seed 002 E1-E4 and F1.

Preferences are read from the seeds' definitions (000 A7, 001 A5, 002 A7), independently of the
engines: the colour difference counts played games only (forfeits have no colour, 000 F2); absolute
when it is beyond +-1 or the last two colours were the same, strong when it is not 0, mild (the
other colour than last time) when it is 0.
"""

from __future__ import annotations

import random

import pytest

from pairing.engines import registry
from pairing.engines.knsb_wp import standings
from pairing.engines.state import Colour, Kind, Player, RoundRecord, TournamentState

W, B = Colour.WHITE, Colour.BLACK
ABSOLUTE, STRONG, MILD = 3, 2, 1


def preference(player: Player) -> tuple[Colour | None, int]:
    """(preferred colour, strength) from the played games."""
    played = player.colours()
    if not played:
        return None, 0
    cd = sum(1 if c is W else -1 for c in played)
    if abs(cd) > 1 or (len(played) >= 2 and played[-1] is played[-2]):
        if abs(cd) > 1:
            return (B if cd > 0 else W), ABSOLUTE
        return played[-1].opposite, ABSOLUTE
    if cd:
        return (B if cd > 0 else W), STRONG
    return played[-1].opposite, MILD


def last_difference(a: Player, b: Player) -> Colour | None:
    """a's colour in the last round in which a and b both played and had different colours (E3)."""
    rounds = min(len(a.history), len(b.history))
    for i in range(rounds - 1, -1, -1):
        x, y = a.history[i], b.history[i]
        if x.kind is Kind.GAME and y.kind is Kind.GAME and x.colour and y.colour and x.colour is not y.colour:
            return x.colour
    return None


def check_round(state: TournamentState, boards, rank: dict[int, int]) -> None:
    scores = [(max(state.player(b.white).score(), state.player(b.black).score()),
               state.player(b.white).score() + state.player(b.black).score()) for b in boards]  # fmt: skip
    # F1 (000, 002) / F2 (001): the highest score on a board first, then the sum of the scores.
    assert scores == sorted(scores, reverse=True)
    for board in boards:
        white, black = state.player(board.white), state.player(board.black)
        (pw, sw), (pb, sb) = preference(white), preference(black)
        if pw is None or pb is None:
            continue
        if pw is W and pb is B:
            continue  # E1 granted
        assert not (pw is B and pb is W), "E1: both preferences could be granted"
        wanted = pw  # both want the same colour
        if sw != sb:  # E2: the stronger preference is granted
            granted, refused = (sw, sb) if wanted is W else (sb, sw)
            assert granted > refused, "E2: the stronger preference was not granted"
            continue
        earlier = last_difference(white, black)
        if earlier is not None:  # E3: alternate from the last round with different colours
            assert earlier is B, "E3: white had white when they last differed"
            continue
        # E4: the higher-ranked player's preference.
        higher = min((white, black), key=lambda p: rank[p.id])
        assert (higher is white) == (wanted is W), "E4: the higher-ranked player's preference was not granted"


def ranking(system: str, state: TournamentState) -> dict[int, int]:
    """The pairing order: points, then rating (000 A2, 002 A2; the rating falls with the start number
    here), or for seed 001 points, WP, SB, lot number (A4)."""
    if system == "knsb-wp":
        table = standings(state.players, state.rounds_played)
        key = {p.id: (-table[p.id].score, -table[p.id].wp, -table[p.id].sb, p.id) for p in state.players}
    else:
        key = {p.id: (-p.score(), -p.rating, p.id) for p in state.players}
    return {pid: i for i, pid in enumerate(sorted(key, key=key.get))}


def play_checked(system: str, n: int, rounds: int, seed: int) -> None:
    rnd = random.Random(seed)
    players = [Player(id=i, name=f"P{i}", rating=2400 - 13 * i) for i in range(1, n + 1)]
    state = TournamentState(players=players, total_rounds=rounds, round_to_pair=1)
    for r in range(1, rounds + 1):
        pairing = registry.pair(state, system)
        if r < rounds:  # the last round frees topscorers from B2 and so from the colour order
            check_round(state, pairing.boards, ranking(system, state))
        for b in pairing.boards:
            kind = Kind.FORFEIT if rnd.random() < 0.05 else Kind.GAME
            res = rnd.choice([1.0, 0.0] if kind is Kind.FORFEIT else [1.0, 0.5, 0.0])
            state.player(b.white).history.append(RoundRecord(kind, b.black, W, res))
            state.player(b.black).history.append(RoundRecord(kind, b.white, B, 1 - res))
        for bye in pairing.byes:
            state.player(bye.player).history.append(RoundRecord(bye.kind, None, None, bye.points))
        state.round_to_pair += 1


@pytest.mark.rule("000 E1")
@pytest.mark.rule("000 E2")
@pytest.mark.rule("000 E3")
@pytest.mark.rule("000 E4")
@pytest.mark.rule("000 F1")
@pytest.mark.parametrize("n", [9, 14, 20])
def test_dutch_1998_colours_and_order(n):
    play_checked("dutch-1998", n, 7, seed=n)


@pytest.mark.rule("001 E1")
@pytest.mark.rule("001 E2")
@pytest.mark.rule("001 E3")
@pytest.mark.rule("001 E4")
@pytest.mark.rule("001 F2")
@pytest.mark.parametrize("n", [9, 14, 20])
def test_knsb_wp_colours_and_order(n):
    play_checked("knsb-wp", n, 7, seed=n)


@pytest.mark.rule("002 E1")
@pytest.mark.rule("002 E2")
@pytest.mark.rule("002 E3")
@pytest.mark.rule("002 E4")
@pytest.mark.rule("002 F1")
@pytest.mark.parametrize("n", [9, 14, 20])
def test_knsb_rating_colours_and_order(n):
    play_checked("knsb-rating", n, 7, seed=n)
