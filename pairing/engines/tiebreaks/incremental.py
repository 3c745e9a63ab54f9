"""Standings kept up to date result by result, equal to ranking them again in full.

    live = LiveStandings(state, ["PTS", "BH/C1", "BH", "SB", "DE"])
    changes = live.changes_to(new_state)  # None: more than results changed (pairing, withdrawal, ...)
    if changes is None:
        live = LiveStandings(new_state, ...)
    else:
        live.apply(changes)
    lines = live.lines()  # == standings(new_state, [...], explain=False)

A result changes the records of the two players of one game: their points, and every value computed from
them. Which values those are follows from what each tie-break reads (docs/tiebreaks.md, "Incremental
standings"):

- the player's own records only: PTS, WIN, WON, BPG, BWG, PS, REP, STD, ARO, GRT, TPR, PTP; RTNG, TPN and
  LOT read no result at all;
- also the opponents' scores or performances: BH, FB, SB, WP, WSB and their modifiers (C.07 8.1, 8.3, 9.1,
  14, 16: the opponents' adjusted scores, the dummy opponent's cap at the scheduled opponent's score),
  KS (C.07 9.2, the opponents' points), KORR and MKORR (Buchholz chains), APRO and APPO (C.07 10.4-10.5,
  the opponents' TPR and PTP);
- also the opponents' opponents: AOB (C.07 8.2, the opponents' Buchholz).

So the values of the players within that many meetings of the two are computed again (`Calculator.
set_records`), the others kept, and the whole field ranked again from the kept keys: direct encounter
(C.07 6) depends on who is tied and is always decided anew. A change of anything but a paired game's result
(a pairing, a bye, a withdrawal, a player's rating, the settings, the number of rounds) is no result:
`changes_to` says so, and the standings are made again.

Pure: no Django, no I/O.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, fields, replace

from ..state import Player, RoundRecord, TournamentState
from .catalogue import ENCOUNTER, Calculator
from .ranking import Standing, _order, _specs, encounter_writer
from .rules import Rules, Unrated

# How many meetings away a changed result can move a tie-break's value (see the module's docstring).
OWN_RECORDS = frozenset(
    {"PTS", "WIN", "WON", "BPG", "BWG", "PS", "REP", "STD", "ARO", "GRT", "TPR", "PTP", "RTNG", "TPN", "LOT"}
)
OPPONENTS_OF_OPPONENTS = frozenset({"AOB"})
_PLAYER_FIELDS = [f.name for f in fields(Player) if f.name != "history"]


def reach(acronyms: Iterable[str]) -> int:
    """The meetings over which a result can move the values of these tie-breaks: 0, 1 or 2."""
    found = set(acronyms) - ENCOUNTER
    if found & OPPONENTS_OF_OPPONENTS:
        return 2
    return 0 if found <= OWN_RECORDS else 1


@dataclass(frozen=True, slots=True)
class ResultChange:
    """One player's record of one round (1-based) replaced: a game's result is two of them, one per player."""

    player: int
    round: int
    record: RoundRecord


def game_result(rnd: int, white: int, black: int, white_record: RoundRecord, black_record: RoundRecord):
    """The two changes of one game's new result."""
    return [ResultChange(white, rnd, white_record), ResultChange(black, rnd, black_record)]


def _is_result(old: RoundRecord, new: RoundRecord) -> bool:
    """`new` differs from `old` only in the result of the same pairing: both paired (a game, in play or
    finished, or a forfeit), the same opponent and colour."""
    return old.paired and new.paired and old.opponent == new.opponent and old.colour == new.colour


class LiveStandings:
    """The standings of one state (`ranking.standings(state, tiebreaks, rounds, rules, unrated,
    explain=False)`), kept equal to it as results change (`apply`)."""

    def __init__(
        self,
        state: TournamentState,
        tiebreaks: list[str],
        rounds: int | None = None,
        rules: str | Rules | None = None,
        unrated: Unrated | None = None,
    ) -> None:
        self.tiebreaks = list(tiebreaks)
        self.rules = rules or state.settings.get("tiebreak_rules")
        self.unrated = unrated
        # What the standings were made from, to tell a result from any other change (`changes_to`): a copy,
        # whose records `apply` changes, so that what the calculator reads later is the current state.
        self.settings = replace(state, players=[])
        self.players = {p.id: replace(p, history=list(p.history)) for p in state.players}
        self.calc = Calculator(replace(state, players=list(self.players.values())), rounds, self.rules, unrated)
        self.specs, self.key = _specs(self.tiebreaks)
        self.depth = reach(spec.acronym for spec in self.specs)
        self._lines = {p.id: Standing(p.id, p.name, 0, 0.0) for p in sorted(state.players, key=lambda p: p.id)}
        self._write(self._lines)
        # The players by points, each points group split into its ties: a result re-ranks only the groups
        # of the players whose values moved (C.07: points first, the tie-breaks within equal points).
        self._group_of: dict[int, tuple[float, ...]] = {}
        self._groups: dict[tuple[float, ...], set[int]] = {}
        self._ties: dict[tuple[float, ...], list[list[int]]] = {}
        self._first: tuple[float, ...] | None = None  # the points of the group in first place
        self._place(self._lines)
        self._rank(set(self._groups))

    def _write(self, players: Iterable[int]) -> None:
        """The points and the tie-breaks of the catalogue of `players` (direct encounter: None until ranked)."""
        points = self.calc.field().points
        for pid in players:
            line = self._lines[pid]
            line.points = points[pid]
            for spec in self.specs:
                code = self.key[spec]
                line.values[code] = None if spec.acronym in ENCOUNTER else self.calc.plain_value(spec, pid)

    def _place(self, players: Iterable[int]) -> set[tuple[float, ...]]:
        """Put `players` in the points group of their current points; returns the groups they left and joined."""
        moved: set[tuple[float, ...]] = set()
        pts = self.specs[0]
        for pid in players:
            new = self.calc.points_key(pts, pid)
            old = self._group_of.get(pid)
            if old == new:
                moved.add(new)
                continue
            if old is not None:
                self._groups[old].discard(pid)
                if not self._groups[old]:
                    del self._groups[old], self._ties[old]
                moved.add(old)
            self._groups.setdefault(new, set()).add(pid)
            self._group_of[pid] = new
            moved.add(new)
        return moved

    def _rank(self, groups: set[tuple[float, ...]]) -> None:
        """Rank `groups` (points groups) within themselves by the tie-breaks after the points, direct
        encounter written anew for their players, as `ranking.rank` ranks the whole field: a group's order
        depends on its players' values, and on its place only through DE1, which looks at the group in
        first place alone (the group in first place, and the one that was, are ranked again whenever any is)."""
        order = sorted(self._groups, reverse=True)
        if not groups:
            return
        # The first group, and the one that was first: DE1 applies to the first group alone (seed 000 F10).
        groups = (groups | {order[0], self._first}) & set(order)
        self._first = order[0]
        codes = [self.key[spec] for spec in self.specs if spec.acronym in ENCOUNTER]
        seen = encounter_writer(self.key, self._lines, explain=False)
        offset = 0
        for points in order:
            members = self._groups[points]
            if points in groups:
                for pid in members:
                    for code in codes:
                        self._lines[pid].values[code] = None
                self._ties[points] = _order(self.calc, self.specs, sorted(members), 1, offset, seen)
            offset += len(members)
        self._ranked = []
        position = 1
        for points in order:
            for tie in self._ties[points]:
                for pid in sorted(tie):
                    line = self._lines[pid]
                    line.rank = position
                    self._ranked.append(line)
                position += len(tie)

    def changes_to(self, state: TournamentState) -> list[ResultChange] | None:
        """The results by which `state` differs from the standings' state, or None when anything else
        differs: the settings, the players and their fields, a round's pairing, a bye, the rounds counted."""
        if replace(state, players=[]) != self.settings or len(state.players) != len(self.players):
            return None
        out: list[ResultChange] = []
        for player in state.players:
            mine = self.players.get(player.id)
            if mine is None:
                return None
            if player == mine:
                continue
            if len(player.history) != len(mine.history) or any(
                getattr(player, name) != getattr(mine, name) for name in _PLAYER_FIELDS
            ):
                return None
            for rnd, (old, new) in enumerate(zip(mine.history, player.history, strict=True), 1):
                if old != new:
                    if not _is_result(old, new):
                        return None
                    out.append(ResultChange(player.id, rnd, new))
        return out

    def apply(self, changes: Iterable[ResultChange]) -> set[int]:
        """Put in the changed results, compute the values they can move again and rank the field again.
        Returns the players whose values were computed again. Raises ValueError for a change that is no
        result (`changes_to`); the standings are then as they were."""
        by_player: dict[int, dict[int, RoundRecord]] = {}
        for change in changes:
            history = self.players[change.player].history if change.player in self.players else []
            if not 1 <= change.round <= len(history) or not _is_result(history[change.round - 1], change.record):
                raise ValueError(f"not a result: player {change.player}, round {change.round}")
            by_player.setdefault(change.player, {})[change.round] = change.record
        if not by_player:
            return set()
        for pid, rounds in by_player.items():
            for rnd, record in rounds.items():
                self.players[pid].history[rnd - 1] = record
        counted = {
            pid: {rnd: record for rnd, record in rounds.items() if rnd <= self.calc.rounds}
            for pid, rounds in by_player.items()
        }
        touched = self.calc.set_records({pid: rounds for pid, rounds in counted.items() if rounds}, self.depth)
        self._write(touched)
        self._rank(self._place(touched))
        return touched

    def lines(self) -> list[Standing]:
        """The standings, best first: `ranking.standings(..., explain=False)` of the current state. The lines
        are copies: a later `apply` leaves them as they are."""
        return [Standing(line.player, line.name, line.rank, line.points, dict(line.values)) for line in self._ranked]
