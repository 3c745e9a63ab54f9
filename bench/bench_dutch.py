"""Time the Dutch engine on round 7 of the generated 100/300/1000-player tournaments.

Checks every board (pairs, colours, order) against the reference answers beside the inputs and
prints a table of median wall times. Usage: python bench/bench_dutch.py [runs] [sizes...]

`--round K` pairs round K of the same files instead (rounds K.. taken out of the history); there
is no reference answer for those rounds, so only the time is printed:
python bench/bench_dutch.py --round 2 1 300 1000
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pairing.engines import trf  # noqa: E402
from pairing.engines.checks import state_before  # noqa: E402
from pairing.engines.dutch import pair_round  # noqa: E402
from pairing.engines.state import Kind, Pairing  # noqa: E402

PERF = Path("/work/shared/oracle/perf")
REFERENCE_SECONDS = {100: 0.05, 300: 1.14, 1000: 45.3}  # bbpPairings v6, median, same kind of machine


def expected(size: int) -> list[tuple[int, int]]:
    """The reference boards in order, a bye as (player, 0)."""
    lines = (PERF / f"gen_{size}_r7expected.txt").read_text().split("\n")
    count = int(lines[0])
    return [tuple(int(x) for x in line.split()) for line in lines[1 : 1 + count]]  # type: ignore[misc]


def timed(size: int, runs: int, rnd: int = 7) -> tuple[list[float], Pairing]:
    """Pair round `rnd` of the `size`-player perf file `runs` times (once at 1000 players or more):
    the wall times and the pairing. Rounds before 7 take the later ones out of the history."""
    name = f"gen_{size}_r7in.trf"
    text = (PERF / name).read_text()
    times = []
    for _ in range(1 if size >= 1000 else runs):
        state = state_before(trf.read_state(text, name), rnd)
        start = time.perf_counter()
        pairing = pair_round(state)
        times.append(time.perf_counter() - start)
    return times, pairing


def other_round(rnd: int, runs: int, sizes: list[int]) -> None:
    """Time round `rnd` of each perf file (no reference answer for it)."""
    print(f"{'players':>8} {'round':>6} {'runs':>5} {'median s':>9}")
    for size in sizes:
        times, _ = timed(size, runs, rnd)
        print(f"{size:>8} {rnd:>6} {len(times):>5} {statistics.median(times):>9.2f}")


def main() -> None:
    if sys.argv[1:2] == ["--round"]:
        rnd = int(sys.argv[2])
        runs = int(sys.argv[3]) if len(sys.argv) > 3 else 3
        other_round(rnd, runs, [int(x) for x in sys.argv[4:]] or [100, 300, 1000])
        return
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    sizes = [int(x) for x in sys.argv[2:]] or [100, 300, 1000]
    print(f"{'players':>8} {'runs':>5} {'median s':>9} {'reference s':>12} {'ratio':>6}  boards")
    for size in sizes:
        times, pairing = timed(size, runs)
        got = [(b.white, b.black) for b in pairing.boards]
        got += [(b.player, 0) for b in pairing.byes if b.kind is Kind.PAIRING_BYE]
        want = expected(size)
        if got == want:
            verdict = "identical"
        elif sorted(got) == sorted(want):
            verdict = "same pairs and colours, other order"
        else:
            verdict = f"DIFFERENT ({len(set(got) - set(want))} boards)"
        median = statistics.median(times)
        ref = REFERENCE_SECONDS[size]
        print(f"{size:>8} {len(times):>5} {median:>9.2f} {ref:>12.2f} {median / ref:>6.1f}  {verdict}")


if __name__ == "__main__":
    main()
