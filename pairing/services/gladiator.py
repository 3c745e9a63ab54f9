"""A Gladiator round's further games and results written (seed 004 §4.9.8): the replay and blitz games an
undecided encounter needs, and a result checked against its encounter, the games it made superfluous removed.

What comes next is the pure engine's (`pairing.engines.gladiator`), read through `tournaments.gladiator`
and `tournaments.encounters`; this module writes the rows. The guard (`guard.changed`) is passed by `rounds`."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from audit.log import record, values
from pairing.engines import gladiator as engine
from pairing.engines.state import InvalidInput
from tournaments import versioning
from tournaments.encounters import encounters, groups, scores
from tournaments.gladiator import STAGES, next_game
from tournaments.models import Game, Result, Round
from tournaments.state import CompetitionData

from . import records
from .cups import append_game


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
        return records.set_result(game, result, user, override=override, based_on=based_on)
    rows = list(game.round.games.filter(match=game.match).order_by("board"))
    if result == Result.DOUBLE_FORFEIT and rows[0].pk != game.pk:
        raise ValidationError(_("A replay or blitz game needs a winner or a draw; a double forfeit is not possible."))
    records.set_result(game, result, user, override=override, based_on=based_on)
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
