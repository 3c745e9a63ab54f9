"""Time the FIDE Dutch engine round by round, side by side with the reference program.

Inputs: the generated tournaments of the oracle (`perf/gen_N_r7in.trf`: six rounds played, nine in
all) for rounds 1-7, continued to rounds 8 and 9 with results drawn from the rating gap; and a
3000-player tournament generated here, paired by the engine, results drawn the same way. Every
round is written as a TRF and paired from that text by both programs: the same input for both.

Each pairing runs in a fresh process: the engine's time is reading the TRF and pairing it (the
interpreter's start is not counted), the reference's is its whole run (reading, pairing, writing).
Both report processor time and the process's peak memory. With `BBP=/path/to/bbpPairings.exe` the
reference pairs every input in the same run, its boards are compared with the engine's, and the
ratio (engine / reference wall time) is printed; without it only round 7 of the oracle files is
checked, against the answer recorded beside them.

Usage: python bench/bench_dutch.py [--sizes 300 1000 3000] [--rounds 1-9] [--runs R] [--timeout S]
  --runs: runs per input and program, the median is shown (default 3 below 1000 players, else 1)
  --timeout: seconds after which a reference run is stopped (default 600); shown as "> S"
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pairing.engines import trf  # noqa: E402
from pairing.engines.checks import state_before  # noqa: E402
from pairing.engines.state import Colour, Kind, Player, RoundRecord, TournamentState  # noqa: E402

PERF = Path(__file__).resolve().parents[1].parent / "shared" / "oracle" / "perf"
GENERATED = 3000  # players of the tournament generated here
ROUNDS = 9

Boards = set[tuple[int, int]]  # (white, black), a pairing-allocated bye as (player, 0)


# --------------------------------------------------------------------------- one measured run


def pair_file(path: str) -> None:
    """Child process: pair the TRF at `path`, print the timings and boards as JSON."""
    from pairing.engines.dutch import pair_round

    start, cpu = time.perf_counter(), time.process_time()
    state = trf.read_state(Path(path).read_text(), path)
    pairing = pair_round(state)
    wall, cpu = time.perf_counter() - start, time.process_time() - cpu
    boards = [[b.white, b.black] for b in pairing.boards]
    boards += [[b.player, 0] for b in pairing.byes if b.kind is Kind.PAIRING_BYE]
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(json.dumps({"wall": wall, "cpu": cpu, "peak_kb": peak, "boards": boards}))


def run_engine(path: Path) -> tuple[float, float, int, Boards]:
    out = subprocess.run(
        [sys.executable, __file__, "--pair", str(path)], check=True, capture_output=True, text=True
    ).stdout
    data = json.loads(out)
    return data["wall"], data["cpu"], data["peak_kb"], {tuple(b) for b in data["boards"]}  # type: ignore[misc]


def run_reference(exe: str, path: Path, timeout: float) -> tuple[float, float, int, Boards] | None:
    """(wall, processor, peak kB, boards) of one reference run; None when it overran `timeout`."""
    out = path.with_suffix(".bbp.txt")
    start = time.perf_counter()
    child = subprocess.Popen([exe, "--dutch", str(path), "-p", str(out)], stdout=subprocess.DEVNULL)
    while True:
        pid, status, usage = os.wait4(child.pid, os.WNOHANG)
        if pid:
            break
        if time.perf_counter() - start > timeout:
            child.kill()
            os.wait4(child.pid, 0)
            return None
        time.sleep(0.005)
    wall = time.perf_counter() - start
    code = os.waitstatus_to_exitcode(status)
    if code:
        raise RuntimeError(f"the reference failed on {path} (exit {code})")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss, read_boards(out)


def read_boards(path: Path) -> Boards:
    numbers = [int(x) for x in path.read_text().split()]
    return {(numbers[1 + 2 * i], numbers[2 + 2 * i]) for i in range(numbers[0])}


# --------------------------------------------------------------------------- the inputs


def play(state: TournamentState, boards: Boards, rng: random.Random) -> None:
    """Record round `state.round_to_pair` with results drawn from the rating gap, and move on."""
    players = {p.id: p for p in state.players}
    paired = set()
    for white, black in sorted(boards):
        if black == 0:
            players[white].history.append(RoundRecord(Kind.PAIRING_BYE, None, None, 1.0))
            paired.add(white)
            continue
        gap = (players[white].rating or 0) - (players[black].rating or 0) + 35
        expected = 1 / (1 + 10 ** (-gap / 400))
        draw = 0.3 * (1 - abs(2 * expected - 1))
        x = rng.random()
        score = 0.5 if x < draw else 1.0 if x < draw + (1 - draw) * expected else 0.0
        players[white].history.append(RoundRecord(Kind.GAME, black, Colour.WHITE, score))
        players[black].history.append(RoundRecord(Kind.GAME, white, Colour.BLACK, 1 - score))
        paired.update((white, black))
    for p in state.players:
        if p.id not in paired:
            p.history.append(RoundRecord(state.requested_byes.get(p.id, Kind.ABSENT), None, None, 0.0))
    state.round_to_pair += 1
    state.requested_byes = {}


def write(state: TournamentState, folder: Path, name: str) -> Path:
    path = folder / f"{name}_r{state.round_to_pair}.trf"
    path.write_text(trf.write(trf.document_from_state(state)))
    return path


def oracle(size: int) -> TournamentState | None:
    """The oracle's tournament of `size` players (seven rounds to pair), or None for the one
    generated here."""
    if size == GENERATED:
        return None
    path = PERF / f"gen_{size}_r7in.trf"
    return trf.read_state(path.read_text(), str(path))


def generated(size: int) -> TournamentState:
    """Round 1 of a tournament of `size` players rated 1000-2800."""
    rng = random.Random(size)
    ratings = sorted((rng.randint(1000, 2800) for _ in range(size)), reverse=True)
    players = [Player(id=i, name=f"Player {i:04}", rating=r) for i, r in enumerate(ratings, 1)]
    return TournamentState(players=players, total_rounds=ROUNDS, round_to_pair=1, top_colour_round1=Colour.WHITE)


# --------------------------------------------------------------------------- the table


def seconds(x: float | None, limit: float) -> str:
    return f"> {limit:.0f}" if x is None else f"{x:.2f}" if x < 100 else f"{x:.0f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", type=int, nargs="*", default=[300, 1000, GENERATED])
    parser.add_argument("--rounds", default="1-9", help="a round or a range, e.g. 2-4")
    parser.add_argument("--runs", type=int, default=None)
    parser.add_argument("--timeout", type=float, default=600.0)
    parser.add_argument("--pair", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.pair:
        pair_file(args.pair)
        return
    low, _, high = args.rounds.partition("-")
    wanted = range(int(low), int(high or low) + 1)
    exe = os.environ.get("BBP")
    print(f"reference: {exe or 'not timed (set BBP=/path/to/bbpPairings.exe)'}")
    head = f"{'players':>7} {'round':>5} | {'engine s':>8} {'cpu s':>6} {'peak MB':>7}"
    if exe:
        head += f" | {'reference s':>11} {'cpu s':>6} {'peak MB':>7} | {'ratio':>6}"
    print(head + " | boards")
    with tempfile.TemporaryDirectory() as tmp:
        for size in args.sizes:
            measure(size, wanted, args.runs or (3 if size < 1000 else 1), exe, args.timeout, Path(tmp))


def measure(size: int, wanted: range, runs: int, exe: str | None, timeout: float, folder: Path) -> None:
    """Print a line per wanted round of the tournament of `size` players."""
    rng = random.Random(size * 7)
    whole = oracle(size)
    state = generated(size) if whole is None else state_before(whole, 1)
    for rnd in range(1, max(wanted) + 1):
        if whole is not None and rnd <= 7:
            state = state_before(whole, rnd)  # the oracle file's history
        goes_on = rnd < max(wanted) and (whole is None or rnd >= 7)  # the next input needs this round
        if rnd not in wanted and not goes_on:
            continue
        path = write(state, folder, f"n{size}")
        mine = [run_engine(path) for _ in range(runs if rnd in wanted else 1)]
        ours = mine[0][3]
        if rnd in wanted:
            wall = statistics.median(m[0] for m in mine)
            line = f"{size:>7} {rnd:>5} | {wall:>8.2f} {statistics.median(m[1] for m in mine):>6.2f} "
            line += f"{max(m[2] for m in mine) / 1024:>7.0f}"
            verdict = ""
            if exe:
                theirs = [run_reference(exe, path, timeout) for _ in range(runs)]
                done = [t for t in theirs if t is not None]
                ref = statistics.median(t[0] for t in done) if len(done) == len(theirs) else None
                line += f" | {seconds(ref, timeout):>11} "
                if done:
                    line += f"{statistics.median(t[1] for t in done):>6.2f} {max(t[2] for t in done) / 1024:>7.0f}"
                    verdict = "same" if done[0][3] == ours else f"DIFFERENT ({len(done[0][3] ^ ours)} boards)"
                else:
                    line += f"{'':>6} {'':>7}"
                    verdict = "(reference stopped)"
                line += f" | {wall / ref if ref else 0:>6.3f}" if ref else f" | {'< ' + f'{wall / timeout:.3f}':>6}"
            elif rnd == 7 and (PERF / f"gen_{size}_r7expected.txt").exists():
                recorded = read_boards(PERF / f"gen_{size}_r7expected.txt")
                verdict = "same as recorded" if recorded == ours else "DIFFERENT from recorded"
            print(f"{line} | {verdict}", flush=True)
        if goes_on:
            play(state, ours, rng)

if __name__ == "__main__":
    main()
