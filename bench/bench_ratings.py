"""Time the DSU rating of a simulated event: prints seconds for the whole report.

Usage: PYTHONPATH=. .venv/bin/python bench/bench_ratings.py [players] [rounds] [unrated]
"""

from __future__ import annotations

import random
import sys
import time
from fractions import Fraction

from ratings.maths.dsu import DsuEvent, Game, rate_event
from ratings.maths.report import rating_report


def simulate(n: int, rounds: int, unrated: int, seed: int = 1) -> tuple[list[Game], dict[str, int | None]]:
    """Random pairings each round (no repeats checked: only the maths is timed)."""
    rng = random.Random(seed)
    names = [f"P{i}" for i in range(n)]
    ratings: dict[str, int | None] = {p: rng.randint(1100, 2400) for p in names}
    for p in rng.sample(names, unrated):
        ratings[p] = None
    games = []
    for rnd in range(1, rounds + 1):
        order = names[:]
        rng.shuffle(order)
        for a, b in zip(order[::2], order[1::2], strict=False):
            games.append(Game(a, b, Fraction(rng.choice((0, 1, 2)), 2), round=rnd))
    return games, ratings


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 9
    unrated = int(sys.argv[3]) if len(sys.argv) > 3 else 20
    games, ratings = simulate(n, rounds, unrated)
    start = time.perf_counter()
    result = rate_event(DsuEvent(tuple(games), ratings))
    middle = time.perf_counter()
    rating_report(games, ratings)
    end = time.perf_counter()
    print(
        f"{n} players, {rounds} rounds, {unrated} unrated: rate_event {middle - start:.3f} s "
        f"({result.provisional.passes} passes, stable {result.provisional.stable}, "
        f"cycle {result.provisional.cycle}), "
        f"report {end - middle:.3f} s"
    )


if __name__ == "__main__":
    main()
