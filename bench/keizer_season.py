"""Time the Keizer engine over a simulated season: pairing every round, then the standings.

    .venv/bin/python bench/keizer_season.py [players] [rounds] [seed]

Results are drawn from the ratings (logistic expectation, a third of the games drawn); each
round about a tenth of the members are absent with notice and a few play a club match.
Prints the time per pairing and for the final standings in each re-valuation mode.
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pairing.engines import registry  # noqa: E402
from pairing.engines.keizer import standings  # noqa: E402
from pairing.engines.state import Colour, Kind, Player, RoundRecord, TournamentState  # noqa: E402


def simulate(n_players: int, n_rounds: int, seed: int) -> tuple[TournamentState, list[float], list[str]]:
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
        relaxed += [f"round {rnd}: {line}" for line in pairing.explanation if line.startswith("Relaxed")]
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


def main() -> None:
    given = [int(arg) for arg in sys.argv[1:4]]
    n_players, n_rounds, seed = given + [40, 30, 1][len(given) :]
    state, timings, relaxed = simulate(n_players, n_rounds, seed)
    print(f"{n_players} players, {n_rounds} rounds")
    print(f"pairing: mean {1000 * sum(timings) / len(timings):.1f} ms, max {1000 * max(timings):.1f} ms per round")
    print(f"rounds with relaxed limits: {len(relaxed)}")
    for line in relaxed:
        print("  " + line)
    for mode in ("classic", "frozen", "fixed-point"):
        state.settings = {"revaluation": mode}
        start = time.perf_counter()
        table = standings(state)
        elapsed = time.perf_counter() - start
        cycles = sum("cycle" in note for note in table.notes)
        print(
            f"standings ({mode}): {1000 * elapsed:.1f} ms; leader {table.rows[0].name} {table.rows[0].total:.1f}"
            + (f"; {cycles} round(s) cycled" if mode == "fixed-point" else "")
        )


if __name__ == "__main__":
    main()
