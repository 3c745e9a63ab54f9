"""Benchmark of the KNSB Swiss systems: pair a late round of 100, 300 and 1000 players.

The states are generated deterministically: ratings from a fixed random stream, each earlier round
paired by the system itself, results drawn from the rating difference with a fixed seed. Prints,
per system and size, the seconds for the measured round.

Usage: .venv/bin/python bench/bench_knsb.py [--every-round] [system ids...] [sizes...]
(default: all three systems; 100 300 1000 players). `--every-round`: play 11 rounds (lot seeds 1
and 2) and print the slowest round, the last rounds being where lower groups fail and the
procedure goes back to higher ones.
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pairing.engines import registry  # noqa: E402
from pairing.engines.state import Colour, Kind, Player, RoundRecord, TournamentState  # noqa: E402

SYSTEMS = ("dutch-1998", "knsb-rating", "knsb-wp")


def make_players(n: int, seed: int) -> list[Player]:
    rnd = random.Random(seed)
    return [Player(id=i + 1, name=f"P{i + 1:04d}", rating=int(rnd.gauss(1700, 250))) for i in range(n)]


def play_round(state: TournamentState, system: str, rnd: random.Random) -> None:
    """Pair `state.round_to_pair`, draw the results and append them to the players' histories."""
    pairing = registry.pair(state, system)
    for board in pairing.boards:
        w, b = state.player(board.white), state.player(board.black)
        expect = 1 / (1 + 10 ** ((b.rating - w.rating) / 400))
        roll = rnd.random()
        sw = 1.0 if roll < expect - 0.15 else 0.5 if roll < expect + 0.15 else 0.0
        w.history.append(RoundRecord(Kind.GAME, b.id, Colour.WHITE, sw))
        b.history.append(RoundRecord(Kind.GAME, w.id, Colour.BLACK, 1.0 - sw))
    for bye in pairing.byes:
        state.player(bye.player).history.append(RoundRecord(bye.kind, None, None, bye.points))
    state.round_to_pair += 1


def tournament(system: str, n: int, rounds: int, upto: int, seed: int = 1) -> TournamentState:
    """A tournament of `n` players and `rounds` rounds with rounds 1..upto-1 played."""
    players = make_players(n, seed)
    state = TournamentState(players=players, total_rounds=rounds, round_to_pair=1, seed=seed)
    rnd = random.Random(seed * 7919 + n)
    while state.round_to_pair < upto:
        play_round(state, system, rnd)
    return state


def main(systems: list[str], sizes: list[int]) -> None:
    for system in systems:
        for n in sizes:
            rounds = 9
            t0 = time.perf_counter()
            state = tournament(system, n, rounds, upto=7)
            build = time.perf_counter() - t0
            t0 = time.perf_counter()
            pairing = registry.pair(state, system)
            took = time.perf_counter() - t0
            print(
                f"{system:12s} n={n:5d} round 7 of {rounds}: {took:7.2f} s "
                f"({len(pairing.boards)} boards; rounds 1-6 generated in {build:.1f} s)",
                flush=True,
            )


def every_round(systems: list[str], sizes: list[int], rounds: int = 11) -> None:
    for system in systems:
        for n in sizes:
            for seed in (1, 2):
                state = tournament(system, n, rounds, upto=1, seed=seed)
                rnd = random.Random(seed)
                slowest, which = 0.0, 0
                while state.round_to_pair <= rounds:
                    number = state.round_to_pair
                    t0 = time.perf_counter()
                    play_round(state, system, rnd)
                    took = time.perf_counter() - t0
                    if took > slowest:
                        slowest, which = took, number
                line = f"{system:12s} n={n:5d} seed {seed}: slowest round {which} of {rounds}: {slowest:7.2f} s"
                print(line, flush=True)


if __name__ == "__main__":
    args = sys.argv[1:]
    systems = [a for a in args if not a.isdigit() and not a.startswith("--")] or list(SYSTEMS)
    sizes = [int(a) for a in args if a.isdigit()] or [100, 300, 1000]
    (every_round if "--every-round" in args else main)(systems, sizes)
