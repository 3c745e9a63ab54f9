"""Time the Danish systems on simulated tournaments: prints seconds per round.

Usage: PYTHONPATH=. .venv/bin/python bench/bench_danish.py [players] [rounds]
"""

from __future__ import annotations

import random
import sys
import time

from pairing.engines import registry
from pairing.engines.state import Colour, Kind, Player, RoundRecord, TournamentState


def simulate(system: str, n: int, rounds: int, seed: int = 1) -> list[float]:
    rng = random.Random(seed)
    players = [Player(id=i, name=f"P{i}", rating=2500 - 7 * i) for i in range(1, n + 1)]
    by_id = {p.id: p for p in players}
    times = []
    for rnd in range(1, rounds + 1):
        state = TournamentState(players=players, total_rounds=rounds, round_to_pair=rnd, seed=seed)
        start = time.perf_counter()
        pairing = registry.pair(state, system)
        times.append(time.perf_counter() - start)
        for board in pairing.boards:
            white, black = by_id[board.white], by_id[board.black]
            p = 0.5 + (black.rating - white.rating) / 800
            score = 1.0 if rng.random() < p - 0.15 else (0.5 if rng.random() < 0.3 else 0.0)
            white.history.append(RoundRecord(Kind.GAME, black.id, Colour.WHITE, score))
            black.history.append(RoundRecord(Kind.GAME, white.id, Colour.BLACK, 1.0 - score))
        for bye in pairing.byes:
            by_id[bye.player].history.append(RoundRecord(bye.kind, score=bye.points))
    return times


if __name__ == "__main__":
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 40
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 7
    for system in ("monrad", "dansk", "dubov-1997"):
        try:
            times = simulate(system, n, rounds)
        except (KeyError, ModuleNotFoundError) as exc:
            print(f"{system}: not available ({exc})")
            continue
        except Exception as exc:  # a failed round is a figure too
            print(f"{system}: stopped: {type(exc).__name__}: {exc}")
            continue
        print(f"{system}: {n} players, {rounds} rounds, max {max(times):.3f}s, total {sum(times):.3f}s per tournament")
