"""`python -m pairing`: pair or check a tournament file without a database (docs/README.md, "The command line").

    python -m pairing --system dutch tournament.trf -p [pairs.txt]   # pair the next round
    python -m pairing --system dutch tournament.trf -c               # check every round of the file
    python -m pairing --system dutch tournament.trf -p --explain     # reasons on stderr
    python -m pairing SUBCOMMAND --system ID file                    # a system's own command

Input is TRF (docs/trf.md) or the engine's JSON state (a `.json` file, docs/json-state.md).
Exit codes as JaVaFo and bbpPairings: 0 done, 1 no valid pairing (or, with -c, deviations found),
2 an unexpected error, 3 invalid input (one line on stderr naming file, line and problem),
5 file not readable or writable.
"""

from __future__ import annotations

import argparse
import sys
import traceback
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import NoReturn, TextIO

from .engines import keizer, registry, tiebreaks
from .engines.checks import boards_of, check_round, recorded_pairing, rules_for, state_before
from .engines.jsonstate import read_json_state
from .engines.notes import english
from .engines.state import InvalidInput, NoValidPairing, Pairing, TournamentState
from .engines.trf import parse, read_file, state_from_document, total_rounds_of

EXIT_OK, EXIT_NO_PAIRING, EXIT_INTERNAL, EXIT_INVALID, EXIT_FILE = 0, 1, 2, 3, 5


class CliError(Exception):
    """Stops the command with an exit code and one stderr line."""

    def __init__(self, code: int, message: str) -> None:
        super().__init__(message)
        self.code = code


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:  # a bad request is invalid input (exit 3), one line
        raise CliError(EXIT_INVALID, f"{self.prog}: {message} (see --help)")


# --------------------------------------------------------------------------- input


@dataclass
class Tournament:
    """A file read for the command line.

    `state` holds every recorded round as history and is the state to pair the next round;
    `total` is the number of rounds (None when neither the file nor --rounds gives it);
    `state_for(r)` is the state to pair round r from the rounds before it.
    """

    path: str
    state: TournamentState
    total: int | None
    rounds_recorded: int
    state_for: Callable[[int], TournamentState]


def load(path: str, total_rounds: int | None = None, seed: int | None = None) -> Tournament:
    """Read a TRF or JSON file; `InvalidInput` on a malformed file, `OSError` if unreadable."""
    text = read_file(path)
    if path.lower().endswith(".json"):
        state = read_json_state(text, path)
        if total_rounds:
            state.total_rounds = total_rounds
        if seed is not None:
            state.seed = seed
        recorded = max((len(p.history) for p in state.players), default=0)
        return Tournament(path, state, state.total_rounds, recorded, lambda rnd: state_before(state, rnd))
    doc = parse(text, path)
    last = doc.last_paired_round
    total = total_rounds or total_rounds_of(doc)
    known = total or doc.rounds_recorded
    state = state_from_document(doc, last + 1, max(known, last + 1), seed)
    return Tournament(path, state, total, last, lambda rnd: state_from_document(doc, rnd, max(known, rnd), seed))


# --------------------------------------------------------------------------- pair and check


def format_pairing(pairing: Pairing) -> str:
    """JaVaFo/bbpPairings `-p` output: the number of boards (bye included), `white black` lines, `N 0`."""
    boards = boards_of(pairing)
    return "".join(f"{line}\n" for line in [str(len(boards)), *(f"{b.white} {b.black}" for b in boards)])


def _pair(system: registry.PairingSystem, state: TournamentState, path: str) -> Pairing:
    try:
        registry.refuse_unhonoured(system, state)
        return system.pair(state)
    except NoValidPairing as err:
        raise CliError(EXIT_NO_PAIRING, f"{path}: round {state.round_to_pair}: no valid pairing: {err}") from err
    except InvalidInput as err:
        raise CliError(EXIT_INVALID, f"{path}: round {state.round_to_pair}: {err}") from err


def deviations(recorded: Pairing, paired: Pairing) -> Iterator[tuple[tuple[int, int], str]]:
    """Each recorded board (a bye as `N-0`) the system did not give, with what it gave instead."""
    given = {frozenset((b.white, b.black)): (b.white, b.black) for b in boards_of(paired)}
    board_of = {pid: board for board in given.values() for pid in board if pid}
    for board in boards_of(recorded):
        pair = (board.white, board.black)
        mine = given.get(frozenset(pair))
        if mine == pair:
            continue
        if mine is not None:
            yield pair, f"colours: the system gives {mine[0]}-{mine[1]}"
            continue
        parts = []
        for pid in (p for p in pair if p):
            other = board_of.get(pid)
            text = f"{pid} unpaired" if other is None else (f"{other[0]}-{other[1]}" if other[1] else f"bye {pid}")
            if text not in parts:
                parts.append(text)
        yield pair, "pairing: the system pairs " + ", ".join(parts)
    recorded_ids = {pid for b in boards_of(recorded) for pid in (b.white, b.black)}
    for white, black in given.values():
        if white not in recorded_ids and black not in recorded_ids:
            yield (white, black), "pairing: not in the recorded round"


def check(system: registry.PairingSystem, tournament: Tournament, out: TextIO, explain: TextIO | None) -> int:
    """`-c`: re-pair every recorded round from the rounds before it; list deviations and violations.

    With `explain`, the system's reasons for each round that deviates go there.
    """
    rules = rules_for(system.id, system.scheduled)
    problems = 0
    for rnd in range(1, tournament.rounds_recorded + 1):
        state = tournament.state_for(rnd)
        recorded = recorded_pairing(tournament.state, rnd)
        paired = _pair_or_none(system, state, out)
        lines = [f"board {w}-{b}: {why}" for (w, b), why in deviations(recorded, paired)]
        if rules is not None:
            lines += [str(v) for v in check_round(state, recorded, **rules)]  # type: ignore[arg-type]
        for line in lines:
            out.write(f"round {rnd}: {line}\n")
        problems += len(lines)
        if explain and lines:
            for line in english(paired.explanation):
                explain.write(f"round {rnd}: {line}\n")
    return EXIT_NO_PAIRING if problems else EXIT_OK


def _pair_or_none(system: registry.PairingSystem, state: TournamentState, out: TextIO) -> Pairing:
    try:
        registry.refuse_unhonoured(system, state)
        return system.pair(state)
    except NoValidPairing as err:
        out.write(f"round {state.round_to_pair}: no valid pairing: {err}\n")
        return Pairing(boards=[])
    except InvalidInput as err:
        raise CliError(EXIT_INVALID, f"round {state.round_to_pair}: {err}") from err


# --------------------------------------------------------------------------- commands


def _system(system_id: str) -> registry.PairingSystem:
    try:
        return registry.get(system_id)
    except KeyError:
        known = ", ".join(registry.system_ids())
        raise CliError(EXIT_INVALID, f"unknown system {system_id!r} (known: {known})") from None
    except ImportError as err:
        raise CliError(EXIT_INTERNAL, f"system {system_id!r} cannot be loaded: {err}") from err


def _common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--system", required=True, help=f"pairing system: {', '.join(registry.system_ids())}")
    parser.add_argument("file", help="tournament file: TRF, or the engine's JSON state (.json)")
    parser.add_argument("--rounds", type=int, metavar="N", help="total rounds when the file has no XXR/142")
    parser.add_argument("--seed", type=int, metavar="N", help="seed for every lot (round-1 colour, ...)")


def pair_command(argv: list[str]) -> int:
    """The default command: `-p [out]` pairs the next round, `-c` checks every recorded round."""
    parser = _Parser(prog="python -m pairing", description="Pair or check a chess tournament file.")
    _common(parser)
    action = parser.add_mutually_exclusive_group(required=True)
    action.add_argument("-p", dest="pair_out", nargs="?", const="-", metavar="OUT", help="pair the next round")
    action.add_argument("-c", dest="check", action="store_true", help="check every round of the file")
    parser.add_argument("--explain", action="store_true", help="the reasons behind the pairing, on stderr")
    args = parser.parse_args(argv)
    system = _system(args.system)
    tournament = _load(args.file, args.rounds, args.seed)
    if args.check:
        return check(system, tournament, sys.stdout, sys.stderr if args.explain else None)
    state = tournament.state
    if tournament.total is None:
        raise CliError(EXIT_INVALID, f"{args.file}: the number of rounds is unknown: add XXR or 142, or give --rounds")
    if state.round_to_pair > tournament.total:
        raise CliError(EXIT_INVALID, f"{args.file}: all {tournament.total} rounds are paired")
    pairing = _pair(system, state, args.file)
    if args.explain:
        for line in english(pairing.explanation):
            sys.stderr.write(line + "\n")
    text = format_pairing(pairing)
    if args.pair_out == "-":
        sys.stdout.write(text)
    else:
        try:
            with open(args.pair_out, "w", encoding="utf-8") as fh:
                fh.write(text)
        except OSError as err:
            raise CliError(EXIT_FILE, f"{args.pair_out}: cannot write: {err.strerror or err}") from err
    return EXIT_OK


def _load(path: str, rounds: int | None, seed: int | None) -> Tournament:
    try:
        return load(path, rounds, seed)
    except OSError as err:
        raise CliError(EXIT_FILE, f"{path}: cannot read: {err.strerror or err}") from err
    except InvalidInput as err:
        text = str(err)
        raise CliError(EXIT_INVALID, text if text.startswith(path) else f"{path}: {text}") from err


def standings_text(system_id: str, state: TournamentState, codes: list[str] | None = None) -> str:
    """The standings after the recorded rounds: the system's own (Keizer, seed 003 §1.5), else points and
    tiebreaks."""
    if registry.get(system_id).own_standings:
        return keizer.standings_text(state)

    codes = codes or tiebreaks.default_tiebreaks(system_id)
    lines = tiebreaks.standings(state, codes, rules=tiebreaks.default_rules(system_id))
    shown = [code for code in codes if code != "PTS"]
    width = max([len(line.name) for line in lines] + [4])
    out = [f"{'#':>4} {'Nr':>4} {'Name':<{width}} {'Pts':>5} " + " ".join(f"{c:>7}" for c in shown)]
    for line in lines:
        values = " ".join(f"{line.values[c]:>7g}" if line.values.get(c) is not None else f"{'':>7}" for c in shown)
        out.append(f"{line.rank:>4} {line.player:>4} {line.name:<{width}} {line.points:>5g} {values}")
    return "\n".join(out) + "\n"


def standings_command(argv: list[str]) -> int:
    """`python -m pairing standings --system ID FILE [--tiebreaks CODES]`: the standings as text."""
    parser = _Parser(prog="python -m pairing standings", description="Print the standings of a tournament file.")
    _common(parser)
    parser.add_argument("--tiebreaks", metavar="CODES", help="comma-separated tiebreak codes (default: the system's)")
    args = parser.parse_args(argv)
    _system(args.system)
    tournament = _load(args.file, args.rounds, args.seed)
    codes = [c.strip() for c in args.tiebreaks.split(",")] if args.tiebreaks else None
    try:
        sys.stdout.write(standings_text(args.system, tournament.state, codes))
    except InvalidInput as err:
        raise CliError(EXIT_INVALID, f"{args.file}: {err}") from err
    return EXIT_OK


# Sub-commands by name (`python -m pairing NAME ...`); a system with more to say than boards adds one.
SUBCOMMANDS: dict[str, Callable[[list[str]], int]] = {"standings": standings_command}


def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    command = SUBCOMMANDS.get(args[0]) if args else None
    try:
        return command(args[1:]) if command else pair_command(args)
    except CliError as err:
        sys.stderr.write(" ".join(str(err).split("\n")) + "\n")
        return err.code
    except Exception:  # an engine's defect: the traceback, and the reference programs' code 2
        traceback.print_exc()
        return EXIT_INTERNAL
