"""The score groups of one round from the top, going back as seed 000 C13/C14, seed 002 C12/C13 and
seed 001 C2/C9 say (`pair_round`), and the explanation's line per group.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field

from ..notes import Note, joined, note_text
from ..state import NoValidPairing, TournamentState
from .context import Candidate, Context, Mode, Recut, next_group_can_pair, scores_of
from .pairable import Lookahead
from .players import Entrant, Rules, entrants

# The explanation: a line per score group, its notes after the head.
_NO_PAIRING = note_text("knsb.no_pairing", "No pairing of all players meets B1 and B2.")
_NO_LOWEST = note_text("knsb.no_lowest", "No pairing of the lowest score group meets B1 and B2.")
_LEFT_OVER = note_text("knsb.left_over", "Players are left unpaired after the lowest score group.")
_ANOTHER_FLOATS = note_text("knsb.another_floats", "%(article)s: another player floats so that the next group can pair")
_WENT_BACK = note_text("knsb.went_back", "%(article)s: the groups went back to form one lowest group")
_WENT_ON = note_text("knsb.went_on", "%(article)s: the lowest group could not be paired; this group went on")
_GROUP_LINE = note_text("knsb.group_line", "%(group)s (%(players)s): %(notes)s")
_SCORE_GROUP = note_text("knsb.score_group", "score group %(score)s")
_SCORE_GROUPS = note_text("knsb.score_groups", "score groups %(first)s to %(last)s")
_PLAYERS = note_text("knsb.players", "%(players)s players")
_PLAYERS_MOVED = note_text("knsb.players_moved", "%(players)s players, %(moved)s moved down")
_PLAYERS_WAITING = note_text("knsb.players_waiting", "%(players)s players, %(moved)s from the waiting room")


@dataclass
class Outcome:
    pairs: list[tuple[Entrant, Entrant]] = field(default_factory=list)
    bye: Entrant | None = None
    notes: list[Note] = field(default_factory=list)


def score_groups(players: Sequence[Entrant]) -> list[list[Entrant]]:
    groups: list[list[Entrant]] = []
    for e in players:
        if groups and groups[-1][0].score == e.score:
            groups[-1].append(e)
        else:
            groups.append([e])
    return groups


def fmt_score(x: float) -> str:
    return str(int(x)) if x == int(x) else f"{x:g}"


Bracket = Callable[[Context, list[Entrant], list[Entrant]], Iterator[tuple[Candidate, list[Note]]]]


@dataclass
class _Frame:
    """A score group being paired: its procedure's candidates in the text's order, the one taken."""

    residents: list[Entrant]
    movers: list[Entrant]
    ctx: Context
    candidates: Iterator[tuple[Candidate, list[Note]]]
    cand: Candidate = field(default_factory=lambda: Candidate([], [], None))
    notes: list[Note] = field(default_factory=list)

    @property
    def floaters(self) -> list[Entrant]:
        return sorted(self.cand.floaters, key=lambda e: e.key)

    def take(self, found: tuple[Candidate, list[Note]], *more: Note) -> None:
        self.cand, self.notes = found[0], [*found[1], *more]


class _Round:
    """Seed 000 C, 001 C and 002 C over the score groups, going back as the texts say:

    - 000 C13 / 002 C12 / 001 C2: when the players moved down leave the next group short (one of
      them without any opponent there, or, in a heterogeneous group, not each with his own), the
      group above is paired again from the start, taking its first pairing in which other players
      (as many; 002: on the same points) float with whom the next group can pair them;
    - 000 C14 / 002 C13: when the lowest group cannot be paired, the second-lowest goes on with its
      procedure where it was; when it has none left (p = 0), the two form the new lowest group and
      the group above goes on, and so on; 001 C9: the same without merging, the groups below the
      one going on being paired again.
    """

    def __init__(
        self, state: TournamentState, rules: Rules, bracket: Bracket, players: list[Entrant] | None = None
    ) -> None:
        self.rules, self.bracket = rules, bracket
        self.odd = state.round_to_pair % 2 == 1
        players = entrants(state, rules) if players is None else players
        self.look = Lookahead(rules)
        if not self.look(players):
            raise NoValidPairing(_NO_PAIRING())
        self.bands = score_groups(players)  # the residents of each group
        self.merged: list[Entrant] = []  # groups joined to the lowest one by 000 C14 / 002 C13

    def open(self, index: int, movers: list[Entrant], ctx: Context | None = None) -> _Frame:
        last = index == len(self.bands) - 1
        if ctx is None:
            lower = [e for g in self.bands[index + 1 :] for e in g] + ([] if last else self.merged)
            nxt = [] if last else [*self.bands[index + 1], *(self.merged if index + 2 == len(self.bands) else [])]
            ctx = Context(self.rules, self.odd, self.look, lower, last, nxt, merged=last and bool(self.merged))
        joined = [*movers, *(self.merged if last else [])]
        return _Frame(self.bands[index], movers, ctx, self.bracket(ctx, joined, self.bands[index]))

    def recut(self, frame: _Frame) -> None:
        """000 C13 / 002 C12 for the group of `frame`, whose floaters the next group cannot pair."""
        stuck = list(frame.ctx.stuck)
        chosen = [e for e in frame.cand.floaters if not any(e is s for s in stuck)]
        residents = frame.ctx.next_group
        if not chosen or next_group_can_pair(frame.cand.floaters, chosen, residents, self.rules):
            return
        recut = Recut(
            self.rules,
            frozenset(e.id for e in chosen),
            len(chosen),
            scores_of(chosen) if self.rules.later else None,
            stuck,
            residents,
        )
        old = frame.ctx
        ctx = Context(old.rules, old.odd_round, old.lookahead, old.lower, old.last, residents, Mode.RECUT, recut)
        again = self.open(len(self.frames) - 1, frame.movers, ctx)
        found = next(again.candidates, None)
        if found is not None:
            again.take(found, _ANOTHER_FLOATS(article=self.rules.recut_article))
            self.frames[-1] = again

    def run(self) -> Outcome:
        self.frames: list[_Frame] = []
        while True:
            self.descend()
            lowest, found = self.lowest(self.frames[-1].floaters if self.frames else [])
            if found is not None:
                break
            self.go_back()
        lowest.take(found)
        if self.merged:
            lowest.notes.insert(0, _WENT_BACK(article=self.rules.back_article))
        self.frames.append(lowest)
        return self.outcome()

    def descend(self) -> None:
        """Pair the groups above the lowest not paired yet, each with its first pairing."""
        while len(self.frames) < len(self.bands) - 1:
            frame = self.open(len(self.frames), self.frames[-1].floaters if self.frames else [])
            frame.take(next(frame.candidates))  # p = 0 at worst: the whole group moves down
            self.frames.append(frame)
            self.recut(frame)

    def go_back(self) -> None:
        """The lowest group cannot be paired: the group above goes on with its procedure where it was,
        now taking only pairings that leave every player below pairable under B1/B2 (the lowest group
        is tried with each; a pairing failing that test leads nowhere). When it has none left:
        000 C14 / 002 C13: it and the lowest form the new lowest group; 001 C9 (its whole group in
        the waiting room): one more group back, and the groups below are paired again."""
        back = self.rules.back_article
        while self.frames:
            above = self.frames[-1]
            above.ctx.mode, above.ctx.recut = Mode.GO_BACK, None
            found = next(above.candidates, None)
            if found is not None:
                above.take(found, _WENT_ON(article=back))
                return
            self.frames.pop()
            if not self.rules.waiting_room:
                self.merged = [*above.residents, *self.merged]
                del self.bands[len(self.frames)]
                return
        raise NoValidPairing(_NO_LOWEST())

    def lowest(self, movers: list[Entrant]) -> tuple[_Frame, tuple[Candidate, list[Note]] | None]:
        """The lowest group with these players moved down, and its first pairing of everyone but at
        most one (None when there is none; a matching test first, as no pairing exists without it)."""
        frame = self.open(len(self.frames), movers)
        if not self.look([*movers, *self.merged, *self.bands[-1]]):
            return frame, None
        return frame, next(frame.candidates, None)

    def outcome(self) -> Outcome:
        out = Outcome()
        for frame in self.frames:
            group = [*frame.residents, *(self.merged if frame is self.frames[-1] else [])]
            scores = sorted({e.score for e in group}, reverse=True)
            head = _SCORE_GROUP(score=fmt_score(scores[0]))
            if len(scores) > 1:
                head = _SCORE_GROUPS(first=fmt_score(scores[0]), last=fmt_score(scores[-1]))
            players = _PLAYERS(players=len(group))
            if frame.movers:
                moved = _PLAYERS_WAITING if self.rules.waiting_room else _PLAYERS_MOVED
                players = moved(players=len(group), moved=len(frame.movers))
            out.notes.append(_GROUP_LINE(group=head, players=players, notes=joined(frame.notes)))
            out.pairs.extend(frame.cand.pairs)
        floaters = self.frames[-1].cand.floaters
        if len(floaters) > 1:
            raise NoValidPairing(_LEFT_OVER())
        out.bye = floaters[0] if floaters else None
        return out


def pair_round(state: TournamentState, rules: Rules, bracket: Bracket, players: list[Entrant] | None = None) -> Outcome:
    """Pair every score group from the top (seed 000 C, 001 C, 002 C) with `bracket`, then the bye.
    `players`: the entrants in the order of the text (seed 001 A4), else the A2 order."""
    return _Round(state, rules, bracket, players).run()
