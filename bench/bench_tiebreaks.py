"""Benchmark of the standings: rank 100, 300 and 1000 players after six rounds, and 300 after eleven.

Reads ../shared/oracle/perf/gen_N_r7in.trf (six rounds played) and prints, per size and tie-break list,
the seconds for one `standings` call (the median of three). Then a 300-player, 11-round Swiss made
here (paired by the Monrad engine, results drawn from the rating gap with a fixed seed) ranked with
five tiebreaks (target: under 0.2 s).

Usage: .venv/bin/python bench/bench_tiebreaks.py [sizes...]   (default 100 300 1000)
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import random  # noqa: E402

from pairing.engines import registry, trf  # noqa: E402
from pairing.engines.state import Colour, Kind, Player, RoundRecord, TournamentState  # noqa: E402
from pairing.engines.tiebreaks import default_rules, default_tiebreaks, standings  # noqa: E402

PERF = Path(__file__).resolve().parents[2] / "shared" / "oracle" / "perf"
FIVE = ["PTS", "BH/C1", "BH", "SB", "DE", "WIN"]
LISTS = {
    "dutch": default_tiebreaks("dutch"),
    "knsb-wp": default_tiebreaks("knsb-wp"),
    "dansk": default_tiebreaks("dansk"),
    "everything": ["BH/C1", "BH", "SB", "DE", "FB", "AOB", "KS", "ARO", "TPR", "PTP", "APRO", "APPO", "PS"],
}


def main(sizes: list[int]) -> None:
    for n in sizes:
        state = trf.read_state((PERF / f"gen_{n}_r7in.trf").read_text(), f"gen_{n}")
        rounds = state.rounds_played
        for name, codes in LISTS.items():
            rules = default_rules(name) if name != "everything" else "fide-2026"
            times = []
            for _ in range(3):
                start = time.perf_counter()
                standings(state, codes, rounds=rounds, rules=rules)
                times.append(time.perf_counter() - start)
            print(f"{n:5d} players  {name:11s} {statistics.median(times):8.3f} s")


def eleven_rounds(n: int = 300, rounds: int = 11, seed: int = 7) -> TournamentState:
    """An n-player Swiss of `rounds` rounds, paired by Monrad, results from the rating gap."""
    rng = random.Random(seed)
    players = [Player(i, f"Player {i}", rating=2400 - 3 * i) for i in range(1, n + 1)]
    for rnd in range(1, rounds + 1):
        state = TournamentState(players, total_rounds=rounds, round_to_pair=rnd, seed=seed)
        pairing = registry.pair(state, "monrad")
        for board in pairing.boards:
            white, black = state.player(board.white), state.player(board.black)
            expected = 1 / (1 + 10 ** ((black.rating - white.rating) / 400))
            roll = rng.random()
            score = 1.0 if roll < expected * 0.7 else (0.5 if roll < expected * 0.7 + 0.3 else 0.0)
            white.history.append(RoundRecord(Kind.GAME, black.id, Colour.WHITE, score))
            black.history.append(RoundRecord(Kind.GAME, white.id, Colour.BLACK, 1.0 - score))
        for bye in pairing.byes:
            state.player(bye.player).history.append(RoundRecord(bye.kind, score=bye.points))
    return TournamentState(players, total_rounds=rounds, round_to_pair=rounds + 1, seed=seed)


def main_eleven() -> None:
    state = eleven_rounds()
    wall, cpu = [], []
    for _ in range(5):
        start, start_cpu = time.perf_counter(), time.process_time()
        standings(state, FIVE)
        wall.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
    print(
        f"  300 players, 11 rounds, {' '.join(FIVE[1:])}: {statistics.median(wall):.3f} s wall, "
        f"{statistics.median(cpu):.3f} s processor (target 0.2 s)"
    )


if __name__ == "__main__":
    main([int(a) for a in sys.argv[1:]] or [100, 300, 1000])
    main_eleven()
