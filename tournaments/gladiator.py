"""The Gladiator model in the database (seed 004 §4.9.8): every pairing is an encounter with a winner.

The pure module `pairing.engines.gladiator` owns the rules (which game comes next, its colours,
who won, the tie-breaks). A round of a Gladiator competition is paired by its own system (round
robin, Swiss); every board is an encounter, stored like a knockout match
(`tournaments.knockout`): its games are `Game` rows of the round with the same `match` number
and a `stage` (classical: the ordinary game, rapid: the replay at reduced time, blitz). An
encounter whose first game is a forfeit is that game alone. The games are read into encounters
by `tournaments.encounters`, ranked by `tournaments.standings`; this module adds games and takes results.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from audit.log import record, values
from pairing.engines import gladiator as engine
from pairing.engines.state import InvalidInput

from . import services, versioning
from .encounters import encounters, groups, scores
from .knockout import append_game
from .models import Game, Result, Round, Stage
from .state import CompetitionData

STAGES = {
    engine.GameKind.ORDINARY: Stage.CLASSICAL,
    engine.GameKind.REDUCED: Stage.RAPID,
    engine.GameKind.BLITZ: Stage.BLITZ,
}


def next_game(encounter: engine.Encounter) -> engine.GladiatorGame | None:
    """The game an undecided encounter needs next: the engine's kind and colours for the game that
    would follow the results so far (its result here is a placeholder)."""
    if encounter.winner is not None:
        return None
    results = [game.result for game in encounter.games]
    variation = {"ordinary_games": encounter.ordinary_games, "reduced_games": encounter.reduced_games}
    return engine.play_encounter(encounter.round, *encounter.players, [*results, 0.5], **variation).games[-1]


@dataclass
class EncounterView:
    """A board of a Gladiator round as the TD's page shows it: its games and where it stands."""

    match: int | None  # None: a game stored without a match number, shown as it is
    games: list[Game]
    encounter: engine.Encounter | None  # None: the first game was a forfeit, or no match number
    status: str = ""
    action: str = ""  # the label of the button that adds the next game, when one is needed

    @property
    def decided(self) -> bool:
        return self.encounter is None or self.encounter.winner is not None


def round_view(data: CompetitionData, games: list[Game]) -> list[EncounterView]:
    """The encounters of one round's games (with `white` and `black` set), by match number."""
    start_of = {p.id: p.start_number for p in data.participants}
    by_start = {p.start_number: p for p in data.participants}
    found = encounters(games, start_of, **data.competition.gladiator_format)
    views = [EncounterView(None, [game], None) for game in games if game.match is None]
    for (number, match), rows in groups(games).items():
        encounter = found.get((number, match))
        view = EncounterView(match, rows, encounter)
        if encounter is not None:
            _describe(view, encounter, by_start)
        views.append(view)
    return sorted(views, key=lambda view: view.games[0].board)


def _describe(view: EncounterView, encounter: engine.Encounter, by_start: dict) -> None:
    if encounter.winner is not None:
        name = by_start[encounter.winner].name
        kind = encounter.games[-1].kind
        texts = {
            engine.GameKind.ORDINARY: _("%(name)s wins the encounter in the ordinary game"),
            engine.GameKind.REDUCED: _("%(name)s wins the encounter in the replay"),
            engine.GameKind.BLITZ: _("%(name)s wins the encounter in blitz"),
        }
        view.status = texts[kind] % {"name": name}
        return
    if any(not game.result for game in view.games):
        view.status = _("in play")
        return
    nxt = next_game(encounter)
    assert nxt is not None
    white = by_start[nxt.white].name
    if nxt.kind is engine.GameKind.ORDINARY:
        view.status = _("the next ordinary game, %(white)s has white") % {"white": white}
        view.action = _("add the next ordinary game")
    elif nxt.kind is engine.GameKind.REDUCED:
        view.status = _("drawn: a replay with colours reversed and reduced time, %(white)s has white") % {
            "white": white
        }
        view.action = _("add the replay")
    else:
        view.status = _("still level: a blitz game, %(white)s has white") % {"white": white}
        view.action = _("add the next blitz game")


@versioning.one_action
def add_next_game(rnd: Round, match: int, user) -> Game:
    """Add the game an undecided encounter needs: the replay, then blitz games (§4.9.8)."""
    versioning.bump(rnd.competition_id)
    if rnd.status != Round.Status.PUBLISHED:
        raise ValidationError(_("Games can only be added to a published round that is not closed."))
    data = CompetitionData.load(rnd.competition)
    games = [g for g in data.games if g.round_id == rnd.id]
    start_of = {p.id: p.start_number for p in data.participants}
    encounter = encounters(games, start_of, **data.competition.gladiator_format).get((rnd.number, match))
    rows = groups(games).get((rnd.number, match), [])
    if encounter is None or any(not g.result for g in rows):
        raise ValidationError(_("This encounter needs no further game now."))
    nxt = next_game(encounter)
    if nxt is None:
        raise ValidationError(_("This encounter is decided."))
    by_start = {p.start_number: p for p in data.participants}
    game = append_game(rnd, by_start[nxt.white], by_start[nxt.black], match, STAGES[nxt.kind].value)
    record(user, "add-games", game, None, values(game, "board", "white", "black", "match", "stage"))
    return game


@versioning.one_action
def set_game_result(game: Game, result: str, user, override: bool = False, based_on: str | None = None) -> Game:
    """Enter a result of a Gladiator round, refusing what the encounter cannot take.

    Refused: a double forfeit after the first game (the encounter needs a winner), a result
    after the decisive game, a game cleared while a later one has a result. Games still to play
    in an encounter the result decided are removed.
    """
    versioning.bump(game.round.competition_id)
    if game.match is None:
        return services.set_result(game, result, user, override=override, based_on=based_on)
    rows = list(game.round.games.filter(match=game.match).order_by("board"))
    if result == Result.DOUBLE_FORFEIT and rows[0].pk != game.pk:
        raise ValidationError(_("A replay or blitz game needs a winner or a draw; a double forfeit is not possible."))
    services.set_result(game, result, user, override=override, based_on=based_on)
    rows = list(game.round.games.filter(match=game.match).select_related("round").order_by("board"))
    later = [g for g in rows[1:] if g.result]
    if rows[0].is_forfeit:
        if later:
            raise ValidationError(_("The first game is a forfeit: clear the later games of the encounter first."))
        if rows[1:]:
            record(user, "remove-games", game.round, [_text(g) for g in rows[1:]], None)
        Game.objects.filter(pk__in=[g.pk for g in rows[1:]]).delete()
        return game
    if len(scores(rows)) < len([g for g in rows if g.result]):
        raise ValidationError(_("A later game of this encounter has a result; clear it first."))
    try:
        encounter = engine.play_encounter(
            game.round.number,
            rows[0].white_id,
            rows[0].black_id,
            scores(rows),
            **game.round.competition.gladiator_format,
        )
    except InvalidInput as error:
        raise ValidationError(
            _("This result would leave later games of the encounter superfluous; clear them first.")
        ) from error
    if encounter.winner is not None:
        unplayed = [g for g in rows if not g.result]
        if unplayed:
            record(user, "remove-games", game.round, [_text(g) for g in unplayed], None)
        Game.objects.filter(pk__in=[g.pk for g in unplayed]).delete()
    return game


def _text(game: Game) -> str:
    return f"{game.board}. {game.white.name} – {game.black.name} ({game.stage})"
