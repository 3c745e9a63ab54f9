"""Benchmark of the standings: rank 100, 300 and 1000 players after six rounds.

Reads ../oracle/perf/gen_N_r7in.trf (six rounds played) and prints, per size and tie-break list,
the seconds for one `standings` call (the median of three).

Usage: .venv/bin/python bench/bench_tiebreaks.py [sizes...]   (default 100 300 1000)
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pairing.engines import trf  # noqa: E402
from pairing.engines.tiebreaks import default_rules, default_tiebreaks, standings  # noqa: E402

PERF = Path("/work/shared/oracle/perf")
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


if __name__ == "__main__":
    main([int(a) for a in sys.argv[1:]] or [100, 300, 1000])
