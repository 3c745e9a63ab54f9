"""Knockout competitions in the database (seed 004 §4.9.7).

The pure engine (`pairing.engines.knockout`) owns every rule: seeding, lot
numbers, byes, the stages of a match, colours by lot, when a match is decided.
This module only maps rows to the engine's data and back (the rows are written by
`pairing.services.cups`):

- a bracket round is a `Round`; every game of a match is a `Game` of that
  round with `match` (the match number in the round) and `stage`; `board` is
  a running number, so the games of a match keep their playing order;
- a bye of round 1 is a pairing bye;
- a match's results are read from its games in board order, as white's score.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal

from django.utils.translation import gettext as _

from pairing.engines import knockout as engine
from pairing.engines.notes import Note
from pairing.engines.state import InvalidInput, TournamentState

from .encounters import WHITE_SCORE
from .models import Competition, Game, Participant, Round, Stage
from .notes import render_note
from .state import CompetitionData


def round_name(bracket: engine.Bracket, number: int) -> str:
    """The round's name: final, semi-final, quarter-final, else "round of N"."""
    left = len(bracket.rounds) - number
    names = {0: _("Final"), 1: _("Semi-final"), 2: _("Quarter-final")}
    return names.get(left, _("Round of %(n)s") % {"n": 2 ** (left + 1)})


@dataclass
class Side:
    """One place of a match as the pages show it."""

    participant: Participant | None
    seed: int | None  # place in the strength order, 1 = strongest
    lot: int | None
    points: Decimal = Decimal(0)
    won: bool = False


@dataclass
class MatchView:
    """A match of the bracket with its games (rows) and a note saying where it stands."""

    match: engine.Match
    round_name: str
    sides: tuple[Side, Side]
    games: list[Game] = field(default_factory=list)
    stage_scores: list[tuple[str, str, Decimal, Decimal]] = field(default_factory=list)  # stage, label, a, b
    status: Note | None = None

    @property
    def number(self) -> int:
        return self.match.number

    @property
    def present(self) -> list[Side]:
        """The sides with a player (a bye has one)."""
        return [s for s in self.sides if s.participant is not None]

    @property
    def decided(self) -> bool:
        return self.match.winner is not None

    @property
    def pending(self) -> Game | None:
        return next((g for g in self.games if not g.result), None)

    @property
    def needs_game(self) -> bool:
        """Every game so far has a result and the match is still open: the next one is to be added."""
        return self.match.next_game is not None and self.pending is None and bool(self.games)

    @property
    def winner(self) -> Participant | None:
        return next((s.participant for s in self.sides if s.won), None)


@dataclass
class Cup:
    """A knockout competition read from the database: its bracket and each match's games."""

    data: CompetitionData
    bracket: engine.Bracket | None
    by_start: dict[int, Participant]
    games: dict[tuple[int, int], list[Game]]
    problems: list[str] = field(default_factory=list)

    @classmethod
    def load(cls, competition: Competition, public: bool = False) -> Cup:
        data = CompetitionData.load(competition, public=public)
        by_start = {p.start_number: p for p in data.participants}
        by_id = data.by_id
        games: dict[tuple[int, int], list[Game]] = {}
        for game in data.games:  # in round and board order
            game.white, game.black = by_id[game.white_id], by_id[game.black_id]
            if game.match is not None:
                games.setdefault((game.round.number, game.match), []).append(game)
        cup = cls(data, None, by_start, games)
        if len(cup.entrants()) >= 2:
            try:
                cup.bracket = engine.build_bracket(cup.state(), cup.results())
            except InvalidInput as error:
                cup.problems.append(render_note(error.note))
            else:
                cup.check_colours()
        return cup

    def entrants(self) -> list[Participant]:
        """The players of the draw: not those who withdrew before it, nor late entries (the lots are drawn)."""
        return [p for p in self.data.participants if p.joined_round == 1 and p.withdrawn_after != 0]

    def state(self) -> TournamentState:
        """The engine's state without round records: the games decide every match, not the records."""
        state = self.data.state()
        entrants = {p.start_number for p in self.entrants()}
        players = [p for p in state.players if p.id in entrants]
        for player in players:
            player.history = []
        return TournamentState(
            players=players, total_rounds=0, round_to_pair=1, settings=state.settings, seed=state.seed, name=state.name
        )

    def results(self) -> dict[tuple[int, int], list[float]]:
        """White's score in each game played, per (round, match), in playing order."""
        return {
            key: [WHITE_SCORE[g.result] for g in rows if g.result in WHITE_SCORE] for key, rows in self.games.items()
        }

    def check_colours(self) -> None:
        """The rows must hold the colours and stages the lots gave; a hand-made change is reported."""
        assert self.bracket is not None
        for rnd in self.bracket.rounds:
            for match in rnd:
                rows = [g for g in self.games.get((match.round, match.number), []) if g.result in WHITE_SCORE]
                expected = list(match.games)
                for row, game in zip(rows, expected, strict=False):
                    if (row.white.start_number, row.black.start_number, row.stage) != (
                        game.white,
                        game.black,
                        game.stage.value,
                    ):
                        self.problems.append(
                            _("Board %(board)s of round %(round)s does not have the colours drawn by lot.")
                            % {"board": row.board, "round": match.round}
                        )

    @property
    def paired_rounds(self) -> list[Round]:
        return [r for r in self.data.rounds if r.is_paired]

    def round(self, number: int) -> Round | None:
        return next((r for r in self.data.rounds if r.number == number and r.is_paired), None)

    def matches(self, number: int) -> list[MatchView]:
        """The matches of bracket round `number`, ready for a page."""
        if self.bracket is None or not 1 <= number <= len(self.bracket.rounds):
            return []
        seed_of = {pid: i for i, pid in enumerate(self.bracket.seeds, 1)}
        name = round_name(self.bracket, number)
        views = []
        for match in self.bracket.rounds[number - 1]:
            sides = tuple(
                Side(self.by_start.get(pid) if pid else None, seed_of.get(pid or 0), self.bracket.lots.get(pid or 0))
                for pid in match.players
            )
            view = MatchView(match, name, sides, list(self.games.get((number, match.number), [])))  # type: ignore[arg-type]
            self._score(view)
            view.status = self._status(view)
            views.append(view)
        return views

    def _score(self, view: MatchView) -> None:
        a, b = view.sides
        if a.participant is None or b.participant is None:
            for side in view.sides:
                side.won = side.participant is not None and view.match.winner is not None
            return
        by_stage: dict[str, list[Decimal]] = {}
        for game in view.games:
            if game.result not in WHITE_SCORE:
                continue
            pts = by_stage.setdefault(game.stage, [Decimal(0), Decimal(0)])
            a_white = game.white_id == a.participant.id
            pts[0] += game.white_points if a_white else game.black_points
            pts[1] += game.black_points if a_white else game.white_points
        labels = dict(Stage.choices)
        for stage in Stage.values:
            if stage in by_stage:
                view.stage_scores.append((stage, str(labels[stage]), *by_stage[stage]))
        a.points = sum((s[2] for s in view.stage_scores), Decimal(0))
        b.points = sum((s[3] for s in view.stage_scores), Decimal(0))
        for side in view.sides:
            side.won = view.match.winner is not None and side.participant.start_number == view.match.winner

    def _status(self, view: MatchView) -> Note | None:
        """Why the winner advanced, or what the match waits for (the engine's notes, with names)."""
        match = view.match
        if match.waiting:
            return engine.WAITS()
        if match.winner is None and match.next_game is None:
            return None
        if match.winner is None:
            nxt = match.next_game
            if view.pending is not None:
                return engine.IN_PLAY()
            if not view.games:
                return engine.TO_PAIR()
            white = self.by_start[nxt.white].name
            if nxt.stage is engine.Stage.ARMAGEDDON:
                w, b = engine.ARMAGEDDON_MINUTES
                return engine.NEXT_ARMAGEDDON(white=white, w=w, b=b)
            return engine.NEXT_GAME[nxt.stage.value](n=nxt.number, white=white)
        winner = self.by_start[match.winner].name
        if match.is_bye:
            return engine.HAS_BYE(name=winner)
        if match.decided_in is None:
            loser = self.by_start[match.loser].name if match.loser else ""
            return engine.ADVANCES_WALKOVER(name=winner, other=loser)
        if match.decided_in is engine.Stage.ARMAGEDDON:
            last = match.games[-1]
            if last.result == 0.5:
                return engine.ADVANCES_ARMAGEDDON_DRAW(name=winner)
            return engine.ADVANCES_ARMAGEDDON_WIN(name=winner)
        stage = match.decided_in.value
        win, lose = next(((s[2], s[3]) for s in view.stage_scores if s[0] == stage), (Decimal(0), Decimal(0)))
        if view.sides[1].won:
            win, lose = lose, win
        return engine.ADVANCES[stage](name=winner, score=f"{_points(win)}-{_points(lose)}")

    def champion(self) -> Participant | None:
        if self.bracket is None or self.bracket.champion is None:
            return None
        return self.by_start[self.bracket.champion]

    def next_round_number(self) -> int:
        return len(self.paired_rounds) + 1

    def can_pair(self) -> bool:
        return self.bracket is not None and self.next_round_number() <= len(self.bracket.rounds)


def _points(value: Decimal) -> str:
    whole, fraction = divmod(value, 1)
    if not fraction:
        return str(int(whole))
    return f"{int(whole)}½" if whole else "½"
