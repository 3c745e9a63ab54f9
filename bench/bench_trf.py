"""Time TRF reading and writing on the oracle's files: prints milliseconds per file.

Usage: PYTHONPATH=. .venv/bin/python bench/bench_trf.py
"""

from __future__ import annotations

import time
from pathlib import Path

from pairing.engines.checks import check_round, recorded_pairing
from pairing.engines.trf import parse, read_file, read_state, state_from_document, write

ORACLE = Path(__file__).resolve().parents[1].parent / "shared" / "oracle"


def timed(action, repeat: int = 5) -> float:
    """Best of `repeat` runs, in milliseconds."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        action()
        best = min(best, time.perf_counter() - start)
    return best * 1000


def measure(path: Path) -> str:
    text = read_file(str(path))
    doc = parse(text, str(path))
    rounds = doc.last_paired_round
    full = state_from_document(doc, rounds + 1, rounds + 1)

    def check_all() -> None:
        for rnd in range(1, rounds + 1):
            check_round(state_from_document(doc, rnd), recorded_pairing(full, rnd))

    reading = timed(lambda: read_state(text, total_rounds=rounds + 2))
    return f"{path.name:<28} {len(doc.players):>7} {reading:>10.1f} {timed(lambda: write(doc)):>8.1f} " + (
        f"{timed(check_all, 1):>16.1f}"
    )


def main() -> None:
    print(f"{'file':<28} {'players':>7} {'read_state':>10} {'write':>8} {'check all rounds':>16}  (ms)")
    files = sorted((ORACLE / "perf").glob("*.trf")) + sorted((ORACLE / "dutch").glob("*_n300_*.trf"))[:2]
    for path in files:
        print(measure(path))


if __name__ == "__main__":
    main()
