"""Benchmark of the Keizer engine: a simulated season, paired round by round, then the standings.

    .venv/bin/python bench/bench_keizer.py [players] [rounds] [seed] [runs]   (default 80 40 1 7)

The season is simulated with the engine itself: every round about a tenth of the members are absent
with notice and a few play a club match; results are drawn from the ratings (logistic expectation, a
third of the games drawn). Prints the time per pairing, then the time to compute the standings after
the last round (seed 003 §1.6: every earlier round's ranking is recomputed) in each re-valuation mode:
the median of `runs` runs, wall-clock and processor time.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pairing.engines import registry  # noqa: E402
from pairing.engines.keizer import standings  # noqa: E402
from pairing.engines.keizer.settings import REVALUATION_MODES  # noqa: E402
from pairing.engines.notes import english  # noqa: E402
from pairing.engines.state import Colour, Kind, Player, RoundRecord, TournamentState  # noqa: E402


def simulate(n_players: int, n_rounds: int, seed: int) -> tuple[TournamentState, list[float], list[str]]:
    """A season of `n_rounds` rounds, each paired by the engine; the pairing times and the relaxations."""
    rng = random.Random(seed)
    players = [Player(i, f"P{i:02d}", rating=2200 - 20 * i) for i in range(1, n_players + 1)]
    state = TournamentState(players=players, total_rounds=n_rounds, round_to_pair=1, seed=seed)
    timings: list[float] = []
    relaxed: list[str] = []
    for rnd in range(1, n_rounds + 1):
        state.round_to_pair = rnd
        state.seed = seed * 1000 + rnd
        absent = {p.id: Kind.ABSENT_NOTICE for p in players if rng.random() < 0.1}
        absent |= {p.id: Kind.CLUB_MATCH for p in players if p.id not in absent and rng.random() < 0.03}
        state.requested_byes = absent
        start = time.perf_counter()
        pairing = registry.pair(state, "keizer")
        timings.append(time.perf_counter() - start)
        relaxed += [f"round {rnd}: {line}" for line in english(pairing.explanation) if line.startswith("Relaxed")]
        records: dict[int, RoundRecord] = {}
        for board in pairing.boards:
            w, b = state.player(board.white), state.player(board.black)
            expected = 1 / (1 + 10 ** ((b.rating - w.rating) / 400))
            roll = rng.random()
            score = 0.5 if rng.random() < 1 / 3 else (1.0 if roll < expected else 0.0)
            records[w.id] = RoundRecord(Kind.GAME, b.id, Colour.WHITE, score)
            records[b.id] = RoundRecord(Kind.GAME, w.id, Colour.BLACK, 1 - score)
        for bye in pairing.byes:
            score = float(rng.random() < 0.5) if bye.kind is Kind.CLUB_MATCH else 0.0
            records[bye.player] = RoundRecord(bye.kind, score=score)
        for p in players:
            p.history.append(records[p.id])
    state.round_to_pair = n_rounds + 1
    state.requested_byes = {}
    return state, timings, relaxed


def time_standings(state: TournamentState, runs: int) -> tuple[float, float, str]:
    """Median wall-clock and processor seconds of `standings(state)`, and a one-line summary."""
    wall: list[float] = []
    cpu: list[float] = []
    for _ in range(runs):
        start, start_cpu = time.perf_counter(), time.process_time()
        table = standings(state)
        wall.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
    leader = table.rows[0]
    summary = f"leader {leader.name} {leader.total:.1f}"
    cycles = sum("cycle" in note for note in english(table.notes))
    if state.settings.get("revaluation") == "fixed-point":
        summary += f"; {cycles} of {table.after_round} rounds cycled"
    return statistics.median(wall), statistics.median(cpu), summary


def main() -> None:
    given = [int(arg) for arg in sys.argv[1:5]]
    n_players, n_rounds, seed, runs = given + [80, 40, 1, 7][len(given) :]
    state, timings, relaxed = simulate(n_players, n_rounds, seed)
    print(f"Keizer season: {n_players} players, {n_rounds} rounds, seed {seed}")
    mean = 1000 * sum(timings) / len(timings)
    print(f"pairing: mean {mean:.0f} ms, max {1000 * max(timings):.0f} ms per round")
    print(f"rounds with relaxed limits: {len(relaxed)}")
    for line in relaxed:
        print("  " + line)
    print(f"standings after round {n_rounds}, median of {runs} runs:")
    for mode in REVALUATION_MODES:
        state.settings = {"revaluation": mode}
        wall, cpu, summary = time_standings(state, runs)
        print(f"  {mode:<12} {1000 * wall:7.1f} ms wall, {1000 * cpu:7.1f} ms processor; {summary}")


if __name__ == "__main__":
    main()
