"""A cup's rounds written: the next bracket round paired (the first game of every match, the byes), the
further games a match needs, and a game's result checked against the bracket (seed 004 §4.9.7).

What to write comes from the pure engine (`pairing.engines.knockout`) through the cup read from the
database (`tournaments.knockout.Cup`): its matches, who advanced, the next game of each; this module
writes the rows. The guard (`guard.changed`) is passed by `rounds`, which calls these."""

from __future__ import annotations

from decimal import Decimal

from django.core.exceptions import ValidationError
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _

from audit.log import boards, record
from pairing.engines import knockout as engine
from pairing.engines.notes import to_json
from tournaments import versioning
from tournaments.knockout import Cup
from tournaments.models import Bye, Competition, Game, Participant, Result, Round

from . import records


@versioning.one_action
def pair_round(competition: Competition, user) -> Round:
    """Pair the next bracket round: the first game of every match (colours by lot) and the byes.

    Refused while a game of the round before has no result or a match of it is
    still open (its tie-break games are to be added and played first).
    """
    versioning.bump(competition)
    cup = Cup.load(competition)
    if len(cup.entrants()) < 2:
        raise ValidationError(_("Enter at least two players before pairing."))
    if cup.bracket is None:
        raise ValidationError(cup.problems)
    number = cup.next_round_number()
    if number > len(cup.bracket.rounds):
        raise ValidationError(_("Every round of the cup has been paired."))
    previous = cup.round(number - 1)
    if previous is not None:
        if previous.status == Round.Status.DRAFT:
            raise ValidationError(_("Publish round %(n)s first.") % {"n": previous.number})
        views = cup.matches(previous.number)
        # A match decided without its last game (a walkover after a withdrawal) drops that game.
        Game.objects.filter(pk__in=[g.pk for m in views if m.decided for g in m.games if not g.result]).delete()
        if any(m.pending for m in views if not m.decided):
            raise ValidationError(_("Round %(n)s still has games without a result.") % {"n": previous.number})
        open_matches = [m for m in views if not m.decided and not m.match.waiting]
        if open_matches:
            raise ValidationError(
                _("Match %(m)s of round %(n)s is not decided yet: add its next game.")
                % {"m": open_matches[0].number, "n": previous.number}
            )
        record(user, "finish", previous, {"status": previous.status}, {"status": Round.Status.FINISHED})
        previous.status = Round.Status.FINISHED
        previous.save(update_fields=["status"])
    rnd, _created = Round.objects.select_for_update().get_or_create(competition=competition, number=number)
    explanation = [engine.field_note(cup.bracket)]
    if number == 1:
        for seed, pid in enumerate(cup.bracket.seeds, 1):
            explanation.append(engine.SEED_NAMED(seed=seed, name=cup.by_start[pid].name, lot=cup.bracket.lots[pid]))
    board = 0
    for view in cup.matches(number):
        match = view.match
        if match.is_bye:
            Bye.objects.create(
                round=rnd, participant=cup.by_start[match.winner], kind=Bye.Kind.PAIRING_BYE, points=Decimal(1)
            )
            explanation.append(engine.MATCH(match=match.number, status=view.status))
        elif match.next_game is not None:
            board += 1
            _create_game(rnd, board, match, cup.by_start)
            explanation.append(engine.first_game_note(match))
        elif match.winner is not None:
            explanation.append(engine.MATCH(match=match.number, status=view.status))
    if competition.rounds != len(cup.bracket.rounds):
        competition.rounds = len(cup.bracket.rounds)
        competition.save(update_fields=["rounds"])
    rnd.explanation = [to_json(note) for note in explanation]
    rnd.paired_at = timezone.now()
    rnd.status = Round.Status.DRAFT
    rnd.save()
    record(user, "pair", rnd, None, boards(rnd))
    return rnd


def _create_game(rnd: Round, board: int, match: engine.Match, by_start: dict[int, Participant]) -> Game:
    game = match.next_game
    assert game is not None
    return Game.objects.create(
        round=rnd,
        board=board,
        white=by_start[game.white],
        black=by_start[game.black],
        match=match.number,
        stage=game.stage.value,
    )


def append_game(rnd: Round, white: Participant, black: Participant, match: int, stage: str) -> Game:
    """A further game of match `match` on the round's next board, so the boards keep the playing order.

    Shared with the Gladiator encounters (`pairing.services.gladiator`), stored the same way.
    """
    board = (rnd.games.aggregate(n=Max("board"))["n"] or 0) + 1
    return Game.objects.create(round=rnd, board=board, white=white, black=black, match=match, stage=stage)


@versioning.one_action
def add_next_games(rnd: Round, user, match_number: int | None = None) -> list[Game]:
    """Add the next game of every open match of `rnd` whose games all have a result (or of one match).

    The engine says which: the next normal game, or the first game of the
    tie-break stage a level match needs, with its colours by lot.
    """
    versioning.bump(rnd.competition_id)
    cup = Cup.load(rnd.competition)
    if rnd.status == Round.Status.FINISHED:
        raise ValidationError(_("Round %(n)s is finished.") % {"n": rnd.number})
    added = []
    for view in cup.matches(rnd.number):
        if view.needs_game and match_number in (None, view.number):
            game = view.match.next_game
            assert game is not None
            white, black = cup.by_start[game.white], cup.by_start[game.black]
            added.append(append_game(rnd, white, black, view.number, game.stage.value))
    if added:
        games = [f"{g.board}. {g.white.name} – {g.black.name}" for g in added]
        record(user, "add-games", rnd, None, games, params={"stage": sorted({g.stage for g in added})})
    return added


@versioning.one_action
def set_game_result(game: Game, result: str, user, based_on: str | None = None) -> Game:
    """Enter a knockout game's result, refusing what the bracket cannot take; `based_on` is the result the
    TD's page showed, checked as for any other game (`records.set_result`).

    A double forfeit decides nothing and is refused; so is a correction that
    makes a later game of the match superfluous while it has a result, or that
    changes who advanced once the next round is paired. Games still to play
    in a match the correction decided are removed.
    """
    versioning.bump(game.round.competition_id)
    if result == Result.DOUBLE_FORFEIT:
        raise ValidationError(_("A knockout game needs a winner or a draw; a double forfeit is not possible."))
    competition = game.round.competition
    before = Cup.load(competition)
    records.set_result(game, result, user, based_on=based_on)
    after = Cup.load(competition)
    if after.bracket is None:
        raise ValidationError(
            _("This result would leave later games of the match superfluous; clear them first.")
            + " "
            + " ".join(after.problems)
        )
    number = game.round.number
    if after.round(number + 1) is not None and before.bracket is not None:
        old = [m.winner for m in before.bracket.rounds[number - 1]]
        new = [m.winner for m in after.bracket.rounds[number - 1]]
        if old != new:
            raise ValidationError(
                _("This result changes who advanced, and round %(n)s is already paired.") % {"n": number + 1}
            )
    for view in after.matches(number):
        if view.decided:
            stale = [g.pk for g in view.games if not g.result]
            if stale:
                removed = [f"{g.board}. {g.white.name} – {g.black.name}" for g in view.games if not g.result]
                record(user, "remove-games", game.round, removed, None)
                Game.objects.filter(pk__in=stale).delete()
    if after.bracket is not None and number == len(after.bracket.rounds) and after.bracket.champion is not None:
        records.finish(game.round, user)  # the final is decided: the cup is over
    return game
