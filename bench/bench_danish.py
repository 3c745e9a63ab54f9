"""Time the Danish systems (Monrad, Dansk Schweizer, Dubov 1997): seconds per round.

Two kinds of input:
- simulated tournaments paired by the system itself (results drawn from the rating gap); the
  figures are the slowest round and the last round;
- round 7 of the generated tournaments of the oracle (`perf/gen_N_r7in.trf`, six rounds played by
  another program's Dutch pairings, `XXR 9`): a late round on a history the system did not make.

Usage: PYTHONPATH=. .venv/bin/python bench/bench_danish.py [players] [rounds] [runs]
(defaults: 300 players, 9 rounds, 3 runs; the perf inputs for 100, 300 and 1000 players).
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path

from pairing.engines import registry, trf
from pairing.engines.state import Colour, Kind, Player, RoundRecord, TournamentState

SYSTEMS = ("monrad", "dansk", "dubov-1997")
PERF = Path(__file__).resolve().parents[1].parent / "shared" / "oracle" / "perf"


def simulate(system: str, n: int, rounds: int, seed: int = 1) -> list[tuple[float, float]]:
    """(wall, processor) seconds for each round of one simulated tournament of `n` players."""
    rng = random.Random(seed)
    players = [Player(id=i, name=f"P{i}", rating=2500 - 7 * i) for i in range(1, n + 1)]
    by_id = {p.id: p for p in players}
    times = []
    for rnd in range(1, rounds + 1):
        state = TournamentState(players=players, total_rounds=rounds, round_to_pair=rnd, seed=seed)
        start, cpu = time.perf_counter(), time.process_time()
        pairing = registry.pair(state, system)
        times.append((time.perf_counter() - start, time.process_time() - cpu))
        for board in pairing.boards:
            white, black = by_id[board.white], by_id[board.black]
            p = 0.5 + (black.rating - white.rating) / 800
            score = 1.0 if rng.random() < p - 0.15 else (0.5 if rng.random() < 0.3 else 0.0)
            white.history.append(RoundRecord(Kind.GAME, black.id, Colour.WHITE, score))
            black.history.append(RoundRecord(Kind.GAME, white.id, Colour.BLACK, 1.0 - score))
        for bye in pairing.byes:
            by_id[bye.player].history.append(RoundRecord(bye.kind, score=bye.points))
    return times


def perf_round(system: str, size: int, runs: int) -> tuple[float, float, int]:
    """Median wall and processor seconds, and the boards, pairing round 7 of `gen_<size>_r7in.trf`."""
    text = (PERF / f"gen_{size}_r7in.trf").read_text()
    walls, cpus = [], []
    boards = 0
    for _ in range(runs):
        state = trf.read_state(text, f"gen_{size}_r7in.trf")
        start, cpu = time.perf_counter(), time.process_time()
        pairing = registry.pair(state, system)
        walls.append(time.perf_counter() - start)
        cpus.append(time.process_time() - cpu)
        boards = len(pairing.boards)
    return statistics.median(walls), statistics.median(cpus), boards


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 300
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 9
    runs = int(sys.argv[3]) if len(sys.argv) > 3 else 3
    print(f"Simulated: {n} players, {rounds} rounds, each system pairing its own history")
    registry.pair(TournamentState(players=[], total_rounds=1, round_to_pair=1), "dansk")  # imports
    for system in SYSTEMS:
        try:
            times = simulate(system, n, rounds)
        except Exception as exc:  # a failed round is a figure too
            print(f"  {system:<11} stopped: {type(exc).__name__}: {exc}")
            continue
        walls = [wall for wall, _ in times]
        print(
            f"  {system:<11} last round {times[-1][0]:.3f} s ({times[-1][1]:.3f} s processor), "
            f"slowest round {max(walls):.3f} s, whole tournament {sum(walls):.3f} s"
        )
    if not PERF.is_dir():
        return
    print(f"Round 7 of 9 after six rounds of Dutch pairings ({PERF.name}/gen_N_r7in.trf), median of {runs} runs")
    for size in (100, 300, 1000):
        for system in SYSTEMS:
            try:
                wall, cpu, boards = perf_round(system, size, 1 if size >= 1000 else runs)
            except Exception as exc:  # noqa: BLE001
                print(f"  {size:>5} players {system:<11} stopped: {type(exc).__name__}: {exc}")
                continue
            print(f"  {size:>5} players {system:<11} {wall:.3f} s ({cpu:.3f} s processor, {boards} boards)")


if __name__ == "__main__":
    main()
