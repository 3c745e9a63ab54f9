"""DSU's knockout system (seed 004 §4.9.7; the 16-player scheme per seeds README item 15).

Seeding: DSU rating, title, Elo, lot (`groups.strength_order`). Lot numbers
are drawn once, before round 1, and fix the whole bracket: round 1 pairs lot
numbers 1-2, 3-4, ...; round r pairs the winners of neighbouring blocks of
2^(r-1) lot numbers. Seeds 1-2 draw lot numbers 1 and N, seeds 3-4 draw N/2
and N/2+1, seeds 5-8 draw N/4, N/4+1, 3N/4, 3N/4+1, and so on: each seed group
draws the lot numbers on both sides of the block boundaries one level down,
so players seeded for the final meet no earlier than the final, those seeded
for the semi-final no earlier than the semi-final, and so on. For N = 16 this
is the section's scheme (1 and 16; 8 and 9; 4, 5, 12, 13; the rest).

A field that is not a power of two is filled up to one with empty places,
the lowest seeds; they sit opposite the highest seeds, who get the byes of
round 1.

A match is `games` games at the normal time control; on a tie two rapid
games, then two blitz games, then one blitz game with 5 minutes for white and
4 for black in which a draw wins the match for black. A stage of 0 games is
skipped; the last game always finds a winner. Colours are drawn by lot before
each match and before each new kind of tie-break game; within a stage the
players alternate colours.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from . import setting_checks as checks
from .groups import strength_order
from .notes import Note, note_text
from .registry import PairingSystem
from .state import Board, Bye, InvalidInput, Kind, Pairing, TournamentState


class Stage(StrEnum):
    CLASSICAL = "classical"
    RAPID = "rapid"
    BLITZ = "blitz"
    ARMAGEDDON = "armageddon"  # 5 v 4 minutes; a draw wins for black


ARMAGEDDON_MINUTES = (5, 4)  # white, black

# The round's explanation, and why a match's winner advanced (`Match.reason`).
_FIELD = note_text("knockout.field", "Knockout of %(players)s players, bracket of %(size)s (seed 004 §4.9.7).")
_SEED = note_text("knockout.seed", "Seed %(seed)s: player %(player)s, lot number %(lot)s.")
SEED_NAMED = note_text("knockout.seed_named", "Seed %(seed)s: %(name)s, lot number %(lot)s.")
MATCH = note_text("knockout.match", "Match %(match)s: %(status)s.")
_PLAYER_BYE = note_text("knockout.player_bye", "%(player)s has a bye")
_FIRST_GAME = note_text("knockout.first_game", "colours of the first game by lot")
IN_PLAY = note_text("knockout.in_play", "in play")
_BYE = note_text("knockout.bye", "bye")
_WALKOVER = note_text("knockout.walkover", "walkover: %(player)s withdrew")
_RECORDED = note_text("knockout.recorded", "result recorded")
_ARMAGEDDON_DRAW = note_text("knockout.armageddon_draw", "drew the armageddon game with black")
_ARMAGEDDON_WIN = note_text("knockout.armageddon_win", "won the armageddon game")
_WON_STAGE = {
    "classical": note_text("knockout.won_classical", "won the classical games %(score)s"),
    "rapid": note_text("knockout.won_rapid", "won the rapid games %(score)s"),
    "blitz": note_text("knockout.won_blitz", "won the blitz games %(score)s"),
}
# Where a match stands, as the pages say it with the players' names (tournaments.knockout).
WAITS = note_text("knockout.waits", "waits for the round before")
TO_PAIR = note_text("knockout.to_pair", "to be paired")
NEXT_ARMAGEDDON = note_text(
    "knockout.next_armageddon",
    "level: a final game is needed, %(white)s has white (%(w)s minutes against %(b)s; a draw wins for black)",
)
NEXT_GAME = {
    "classical": note_text("knockout.next_classical", "next: normal game %(n)s, %(white)s has white"),
    "rapid": note_text("knockout.next_rapid", "next: rapid game %(n)s, %(white)s has white"),
    "blitz": note_text("knockout.next_blitz", "next: blitz game %(n)s, %(white)s has white"),
}
HAS_BYE = note_text("knockout.has_bye", "%(name)s has a bye")
ADVANCES_WALKOVER = note_text("knockout.advances_walkover", "%(name)s advances: %(other)s withdrew (walkover)")
ADVANCES_ARMAGEDDON_DRAW = note_text(
    "knockout.advances_armageddon_draw", "%(name)s advances: drew the final game with black"
)
ADVANCES_ARMAGEDDON_WIN = note_text("knockout.advances_armageddon_win", "%(name)s advances: won the final game")
ADVANCES = {
    "classical": note_text("knockout.advances_classical", "%(name)s advances: won the match %(score)s"),
    "rapid": note_text("knockout.advances_rapid", "%(name)s advances: won the rapid tie-break %(score)s"),
    "blitz": note_text("knockout.advances_blitz", "%(name)s advances: won the blitz tie-break %(score)s"),
}


@dataclass(frozen=True, slots=True)
class MatchFormat:
    """Games per stage (seed 004 §4.9.7: "Typisk to partier")."""

    games: int = 2
    rapid_games: int = 2
    blitz_games: int = 2

    def stages(self) -> list[tuple[Stage, int]]:
        counts = {Stage.CLASSICAL: self.games, Stage.RAPID: self.rapid_games, Stage.BLITZ: self.blitz_games}
        return [(s, n) for s, n in counts.items() if n > 0] + [(Stage.ARMAGEDDON, 1)]


@dataclass(frozen=True, slots=True)
class Game:
    """One game of a match. `result` is white's score; None while still to play."""

    stage: Stage
    number: int  # within its stage, 1-based
    white: int
    black: int
    result: float | None = None

    @property
    def played(self) -> bool:
        return self.result is not None


@dataclass(slots=True)
class Match:
    """One match of the bracket; `players` are in lot-number order, None an empty place."""

    round: int
    number: int  # within the round, from the top of the bracket
    lots: tuple[int, int]  # the first and last lot number of the block it decides
    players: tuple[int | None, int | None]
    games: list[Game] = field(default_factory=list)
    winner: int | None = None
    reason: Note | None = None  # why the winner advanced
    decided_in: Stage | None = None
    next_game: Game | None = None  # the game to play next, colours known
    waiting: bool = False  # a place is still to be decided by the round before

    @property
    def loser(self) -> int | None:
        if self.winner is None:
            return None
        other = [p for p in self.players if p is not None and p != self.winner]
        return other[0] if other else None

    @property
    def is_bye(self) -> bool:
        return not self.waiting and (self.players[0] is None) != (self.players[1] is None)


@dataclass(slots=True)
class Bracket:
    """The whole knockout: seeding, lot numbers, rounds of matches."""

    size: int  # places in round 1, a power of two
    seeds: list[int]  # player ids, first seed first
    lots: dict[int, int]  # player id -> lot number
    rounds: list[list[Match]]

    @property
    def champion(self) -> int | None:
        return self.rounds[-1][0].winner if self.rounds else None

    def round_name(self, rnd: int) -> str:
        """The name of round `rnd`: final, semi-final, quarter-final, else "round of N" (a key to translate)."""
        left = len(self.rounds) - rnd
        names = {0: "final", 1: "semi-final", 2: "quarter-final"}
        return names.get(left, f"round of {2 ** (left + 1)}")

    def played_games(self) -> list[tuple[Match, Game]]:
        """Every game played, in bracket order; all are rated (seed 004 §4.5.4.2)."""
        return [(m, g) for rnd in self.rounds for m in rnd for g in m.games if g.played]


def bracket_size(n_players: int) -> int:
    """The smallest power of two holding the field."""
    size = 1
    while size < n_players:
        size *= 2
    return size


def seed_lot_groups(size: int) -> list[tuple[range, list[int]]]:
    """(seeds, lot numbers they draw among), first seeds first, for a bracket of `size`."""
    groups = [(range(1, 3), [1, size])]
    level = 1
    while (1 << (level + 1)) <= size:
        block = size >> level
        lots = [m * block + d for m in range(1, 1 << level, 2) for d in (0, 1)]
        groups.append((range((1 << level) + 1, (1 << (level + 1)) + 1), lots))
        level += 1
    return groups


def _first_round_opponent(lot: int) -> int:
    return lot + 1 if lot % 2 else lot - 1


def draw_lots(seeds: Sequence[int], seed: int | str | None) -> tuple[int, dict[int, int]]:
    """Lot numbers for players in seed order; returns (bracket size, id -> lot).

    Within each seed group the lot numbers are shuffled by lot. The empty
    places (seeds beyond the field) take the lot numbers opposite the highest
    seeds, so those seeds have the byes.
    """
    n = len(seeds)
    if n < 2:
        raise InvalidInput("a knockout needs at least 2 players")
    size = bracket_size(n)
    rng = random.Random(f"{seed}/knockout/lots")
    lots: dict[int, int] = {}
    for seed_range, numbers in seed_lot_groups(size):
        numbers = list(numbers)
        rng.shuffle(numbers)
        real = [s for s in seed_range if s <= n]
        if len(real) < len(seed_range):
            # The lowest group holds the empty places: keep the lot numbers
            # facing seeds 1..(size - n) empty, draw the rest.
            facing = {_first_round_opponent(lots[seeds[s - 1]]) for s in range(1, size - n + 1)}
            numbers = [x for x in numbers if x not in facing]
        for s, number in zip(real, numbers, strict=True):
            lots[seeds[s - 1]] = number
    return size, lots


def _colour_lot(seed: int | str | None, rnd: int, match: int, stage: Stage) -> bool:
    """True when the first-named player has white in the stage's first game."""
    return random.Random(f"{seed}/knockout/colour/{rnd}/{match}/{stage.value}").random() < 0.5


def play_match(match: Match, fmt: MatchFormat, results: Sequence[float], seed: int | str | None) -> None:
    """Fill `match` from the results (white's score per game, in playing order).

    Each stage ends as soon as its outcome is settled; a tie after a stage
    leads to the next one. Raises `InvalidInput` for a result after the match
    was decided or a score other than 1, ½, 0.
    """
    a, b = match.players
    if a is None or b is None:
        raise InvalidInput(f"round {match.round} match {match.number} has no two players")
    pending = list(results)
    where = f"round {match.round} match {match.number}"
    for stage, count in fmt.stages():
        a_white = _colour_lot(seed, match.round, match.number, stage)
        points = {a: 0.0, b: 0.0}
        for number in range(1, count + 1):
            white, black = (a, b) if a_white == (number % 2 == 1) else (b, a)
            if not pending:
                match.next_game = Game(stage, number, white, black)
                return
            score = pending.pop(0)
            if score not in (0.0, 0.5, 1.0):
                raise InvalidInput(f"{where}: result {score} is not 1, ½ or 0")
            match.games.append(Game(stage, number, white, black, score))
            points[white] += score
            points[black] += 1.0 - score
            if stage is Stage.ARMAGEDDON:
                match.winner = white if score == 1.0 else black
                drawn = score == 0.5
                match.reason = _ARMAGEDDON_DRAW() if drawn else _ARMAGEDDON_WIN()
                break
            lead = abs(points[a] - points[b])
            if lead > count - number:  # the rest of the stage cannot change it
                match.winner = a if points[a] > points[b] else b
                loser = _other(match, match.winner)
                score = f"{_fmt(points[match.winner])}-{_fmt(points[loser])}"
                match.reason = _WON_STAGE[stage.value](score=score)
                break
        if match.winner is not None:
            match.decided_in = stage
            if pending:
                raise InvalidInput(f"{where}: {len(pending)} game(s) after the match was decided")
            return


def _other(match: Match, player: int) -> int:
    a, b = match.players
    return b if player == a else a  # type: ignore[return-value]


def _fmt(points: float) -> str:
    whole = int(points)
    return (str(whole) if whole or points == whole else "") + ("½" if points != whole else "")


def _recorded_winner(state: TournamentState, match: Match) -> int | None:
    """The player whose record of the round scores 1 against the other: he advanced."""
    for p in match.players:
        if p is None:
            continue
        history = state.player(p).history
        if len(history) >= match.round:
            record = history[match.round - 1]
            if record.opponent == _other(match, p) and record.score == 1.0:
                return p
    return None


def build_bracket(
    state: TournamentState,
    games: Mapping[tuple[int, int], Sequence[float]] | None = None,
) -> Bracket:
    """The bracket of `state`: seeding, lots and every match as far as known.

    `games` maps (round, match number) to white's score in each game played,
    in order; a match without an entry is decided by the round's records in
    the players' histories (the winner's record scores 1), by a withdrawal
    (walkover), or is still open.
    """
    settings = SYSTEM.settings(state.settings)
    fmt = MatchFormat(settings["games"], settings["rapid_games"], settings["blitz_games"])
    seeds = [p.id for p in strength_order(state.players, state.seed)]
    size, lots = draw_lots(seeds, state.seed)
    by_lot: dict[int, int | None] = {lot: None for lot in range(1, size + 1)}
    by_lot.update({lot: pid for pid, lot in lots.items()})
    entrants: list[int | None] = [by_lot[lot] for lot in range(1, size + 1)]
    rounds: list[list[Match]] = []
    rnd, block, open_entry = 1, 2, [False] * size
    while len(entrants) > 1:
        matches: list[Match] = []
        next_entrants: list[int | None] = []
        next_open: list[bool] = []
        for i in range(len(entrants) // 2):
            pair = (entrants[2 * i], entrants[2 * i + 1])
            match = Match(rnd, i + 1, (i * block + 1, (i + 1) * block), pair)
            match.waiting = open_entry[2 * i] or open_entry[2 * i + 1]
            if not match.waiting:
                _decide(state, match, fmt, (games or {}).get((rnd, i + 1)))
            matches.append(match)
            next_entrants.append(match.winner)
            next_open.append(match.winner is None and pair != (None, None))
        rounds.append(matches)
        entrants, open_entry = next_entrants, next_open
        rnd, block = rnd + 1, block * 2
    return Bracket(size, seeds, lots, rounds)


def _decide(state: TournamentState, match: Match, fmt: MatchFormat, results: Sequence[float] | None) -> None:
    a, b = match.players
    if a is None or b is None:
        match.winner = a if b is None else b
        match.reason = _BYE() if match.winner is not None else None
        return
    if results is not None:
        play_match(match, fmt, results, state.seed)
        if match.winner is not None:
            return
    withdrawn = [p for p in (a, b) if state.player(p).withdrawn]
    if len(withdrawn) == 1:
        match.winner = _other(match, withdrawn[0])
        match.reason = _WALKOVER(player=withdrawn[0])
        match.next_game = None
        return
    if results is None:
        recorded = _recorded_winner(state, match)
        if recorded is not None:
            match.winner, match.reason = recorded, _RECORDED()
            return
        play_match(match, fmt, [], state.seed)  # the first game, colours by lot


def _pair(state: TournamentState) -> Pairing:
    bracket = build_bracket(state)
    rnd = state.round_to_pair
    if not 1 <= rnd <= len(bracket.rounds):
        raise InvalidInput(f"round {rnd} is outside the knockout's {len(bracket.rounds)} rounds")
    boards: list[Board] = []
    byes: list[Bye] = []
    explanation = [field_note(bracket)]
    if rnd == 1:
        for i, pid in enumerate(bracket.seeds, 1):
            explanation.append(_SEED(seed=i, player=pid, lot=bracket.lots[pid]))
    for match in bracket.rounds[rnd - 1]:
        if match.is_bye:
            byes.append(Bye(match.winner or 0, Kind.PAIRING_BYE))
            explanation.append(MATCH(match=match.number, status=_PLAYER_BYE(player=match.winner)))
        elif match.waiting:
            raise InvalidInput(f"round {rnd} match {match.number}: the previous round is not decided")
        elif match.next_game is not None and not match.games:
            boards.append(Board(match.next_game.white, match.next_game.black))
            explanation.append(first_game_note(match))
        else:
            explanation.append(MATCH(match=match.number, status=match.reason or IN_PLAY()))
    return Pairing(boards=boards, byes=byes, explanation=explanation)


def field_note(bracket: Bracket) -> Note:
    """The explanation's first line: the field and the size of the bracket."""
    return _FIELD(players=len(bracket.seeds), size=bracket.size)


def first_game_note(match: Match) -> Note:
    return MATCH(match=match.number, status=_FIRST_GAME())


def _validate(settings: dict[str, Any]) -> None:
    checks.whole_numbers(settings, ["games"], least=1)
    checks.whole_numbers(settings, ["rapid_games", "blitz_games"], least=0)


SYSTEM = PairingSystem(
    id="knockout",
    name="DSU knockout",
    pair=_pair,
    defaults={"games": 2, "rapid_games": 2, "blitz_games": 2},
    validate=_validate,
    bracket=True,
    gladiator=False,
)
