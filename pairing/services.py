"""Pair a competition's next round: database -> engine state -> engine -> database.

The views call these; everything runs in one transaction, so a failed pairing
leaves nothing behind.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _

from pairing.engines import notes, registry
from pairing.engines.state import EngineError, NoValidPairing, Pairing, TournamentState
from tournaments import versioning
from tournaments.models import Bye, Competition, Game, Participant, Result, Round, TDAction
from tournaments.notes import render_note
from tournaments.state import BYE_KINDS, ENGINE_TO_BYE, CompetitionData


def next_round_number(competition: Competition) -> int:
    last = competition.round_set.filter(paired_at__isnull=False).aggregate(n=Max("number"))["n"] or 0
    return last + 1


@dataclass
class PlannedRound:
    """A round computed but not yet saved: the engine's pairing of the state it was computed from."""

    number: int
    state: TournamentState
    pairing: Pairing


def plan_next_round(competition: Competition) -> PlannedRound:
    """Compute the next round's pairing without writing anything (a worker may do this outside any
    transaction); ValidationError when the round cannot be paired, naming why."""
    if competition.system == "knockout":  # matches of several games: tournaments.knockout
        raise ValidationError(_("A knockout is drawn match by match."))
    number = next_round_number(competition)
    planned = competition.planned_rounds()
    if planned and number > planned:
        raise ValidationError(_("All %(n)s rounds have been paired.") % {"n": planned})
    if competition.participants.count() < 2:
        raise ValidationError(_("Enter at least two players before pairing."))
    previous = competition.round_set.filter(number=number - 1).first()
    if previous and previous.games.filter(result="").exists():
        raise ValidationError(_("Round %(n)s still has games without a result.") % {"n": previous.number})
    if previous and previous.status == Round.Status.DRAFT:
        raise ValidationError(_("Publish round %(n)s first.") % {"n": previous.number})
    if previous and competition.gladiator:  # every encounter needs its winner (seed 004 §4.9.8)
        from tournaments.gladiator import check_decided

        check_decided(competition, previous.number)
    state = _state(competition, number)
    try:
        pairing = registry.pair(state, competition.system)
    except NoValidPairing as error:
        raise ValidationError(_("No valid pairing exists: %(why)s") % {"why": render_note(error.note)}) from error
    except EngineError as error:
        raise ValidationError(render_note(error.note)) from error
    return PlannedRound(number, state, pairing)


def _state(competition: Competition, number: int) -> TournamentState:
    """The engine's input for pairing round `number`: the rounds before it and the byes asked for it."""
    data = CompetitionData.load(competition)
    state = data.state(upto_round=number - 1, round_to_pair=number)
    start_of = {p.id: p.start_number for p in data.participants}
    for bye in data.byes:
        if bye.round.number == number:
            state.requested_byes[start_of[bye.participant_id]] = BYE_KINDS[bye.kind]
    return state


@transaction.atomic
def save_planned_round(competition: Competition, plan: PlannedRound, user) -> Round:
    """Save a planned round as a draft. When the competition changed since the plan was computed (a
    result corrected, a player added), the round is paired again from the new state, here."""
    versioning.bump(competition)  # first: the competition's row lock queues other writers behind this one
    if next_round_number(competition) != plan.number or _state(competition, plan.number) != plan.state:
        plan = plan_next_round(competition)
    number = plan.number
    previous = competition.round_set.filter(number=number - 1).first()
    if previous and previous.status == Round.Status.PUBLISHED:
        previous.status = Round.Status.FINISHED
        previous.save(update_fields=["status"])
    rnd, _created = Round.objects.select_for_update().get_or_create(competition=competition, number=number)
    participants = list(competition.participants.all())
    save_pairing(rnd, plan.pairing, participants, skip_byes=set(plan.state.requested_byes))
    rnd.explanation = [notes.to_json(note) for note in plan.pairing.explanation]
    rnd.paired_at = timezone.now()
    rnd.status = Round.Status.DRAFT
    rnd.save()
    TDAction.objects.create(competition=competition, round_number=number, user=user, action="pair")
    return rnd


@transaction.atomic
def pair_next_round(competition: Competition, user) -> Round:
    """Pair the next round with the competition's system and save it as a draft."""
    if competition.system == "knockout":  # matches of several games: tournaments.knockout
        from tournaments.knockout import pair_round

        return pair_round(competition, user)
    plan = plan_next_round(competition)
    return save_planned_round(competition, plan, user)


def save_pairing(rnd: Round, pairing: Pairing, participants: list[Participant], skip_byes: set[int]) -> None:
    """Write an engine's boards and byes into `rnd`, refusing a pairing that books a player twice."""
    by_start = {p.start_number: p for p in participants}
    seen: set[int] = set()
    for number in [n for b in pairing.boards for n in (b.white, b.black)] + [b.player for b in pairing.byes]:
        if number not in by_start:
            raise ValidationError(_("Start number %(n)s is not in this competition.") % {"n": number})
        if number in seen:
            raise ValidationError(
                _("%(name)s is paired twice in round %(round)s.") % {"name": by_start[number].name, "round": rnd.number}
            )
        seen.add(number)
    withdrawn = {
        p.start_number for p in participants if p.withdrawn_after is not None and p.withdrawn_after < rnd.number
    }
    games = []
    for board_number, board in enumerate(pairing.boards, start=1):
        result = Result.PENDING
        if board.white in withdrawn and board.black in withdrawn:
            result = Result.DOUBLE_FORFEIT
        elif board.black in withdrawn:
            result = Result.WHITE_FORFEIT_WIN
        elif board.white in withdrawn:
            result = Result.BLACK_FORFEIT_WIN
        white, black = by_start[board.white], by_start[board.black]
        # Gladiator: each board is an encounter, numbered like a knockout match (tournaments.gladiator).
        match = board_number if rnd.competition.gladiator else None
        games.append(Game(round=rnd, board=board_number, white=white, black=black, result=result, match=match))
    Game.objects.bulk_create(games)
    Bye.objects.bulk_create(
        Bye(round=rnd, participant=by_start[bye.player], kind=ENGINE_TO_BYE[bye.kind], points=bye.points)
        for bye in pairing.byes
        if bye.player not in skip_byes
    )


@dataclass(frozen=True)
class RuleBreak:
    rule: str
    message: str


def check_board(rnd: Round, white: Participant, black: Participant) -> list[RuleBreak]:
    """Absolute rules a hand-made board may break (those an override may set aside)."""
    breaks = []
    if white.withdrawn_after is not None and white.withdrawn_after < rnd.number:
        breaks.append(RuleBreak("withdrawn", _("%(name)s has withdrawn.") % {"name": white.name}))
    if black.withdrawn_after is not None and black.withdrawn_after < rnd.number:
        breaks.append(RuleBreak("withdrawn", _("%(name)s has withdrawn.") % {"name": black.name}))
    absent = set(rnd.byes.exclude(kind=Bye.Kind.PAIRING_BYE).values_list("participant_id", flat=True))
    for p in (white, black):
        if p.id in absent:
            breaks.append(RuleBreak("absent", _("%(name)s is marked absent this round.") % {"name": p.name}))
    met = Game.objects.filter(round__competition=rnd.competition, round__number__lt=rnd.number).filter(
        white__in=[white, black], black__in=[white, black]
    )
    if met.exclude(result__endswith="R").exists():
        breaks.append(
            RuleBreak(
                "rematch",
                _("%(a)s and %(b)s have already played each other (two players meet only once).")
                % {"a": white.name, "b": black.name},
            )
        )
    return breaks


def _locked_round(rnd: Round, override: bool) -> list[Game]:
    if rnd.status != Round.Status.DRAFT and not override:
        raise ValidationError(_("Round %(n)s is published: changing it needs the override.") % {"n": rnd.number})
    versioning.bump(rnd.competition_id)
    return list(rnd.games.select_for_update().select_related("white__member", "black__member"))


@transaction.atomic
def exchange_players(rnd: Round, a: Participant, b: Participant, user, override: bool = False) -> None:
    """Two players trade places (board and colour); with a bye, the other takes the bye.

    Every player stays on exactly one board. Absolute rules the new boards
    would break (rematch, absentee, withdrawn player) refuse the change with
    the rule named unless the TD confirms the override, which is recorded. A
    published round changes only with the override.
    """
    if a == b:
        raise ValidationError(_("Choose two different players."))
    games = _locked_round(rnd, override)
    touched = [g for g in games if {g.white_id, g.black_id} & {a.id, b.id}]
    if any(g.result for g in touched):
        raise ValidationError(_("A game with a result cannot be re-paired."))
    swap = {a.id: b, b.id: a}
    for g in touched:
        g.white = swap.get(g.white_id, g.white)
        g.black = swap.get(g.black_id, g.black)
        if g.white_id == g.black_id:
            raise ValidationError(_("A player cannot play himself."))
    breaks = [rule for g in touched for rule in check_board(rnd, g.white, g.black)]
    if breaks and not override:
        raise ValidationError([ValidationError(br.message, code="rule") for br in breaks])
    byes = list(rnd.byes.filter(participant__in=[a, b], kind=Bye.Kind.PAIRING_BYE))
    for bye in byes:
        bye.participant = swap[bye.participant_id]
    # Clear the boards first so the players' moves never look like a double booking.
    Game.objects.filter(pk__in=[g.pk for g in touched]).delete()
    for g in touched:
        g.pk = None
        g.save()
    Bye.objects.filter(pk__in=[bye.pk for bye in byes]).delete()
    for bye in byes:
        bye.pk = None
        bye.save()
    _record(rnd, user, "exchange", f"{a.start_number}<->{b.start_number}", breaks)


@transaction.atomic
def swap_colours(rnd: Round, game: Game, user, override: bool = False) -> None:
    _locked_round(rnd, override)
    if game.result:
        raise ValidationError(_("A game with a result cannot be re-paired."))
    game.white, game.black = game.black, game.white
    game.save(update_fields=["white", "black"])
    _record(rnd, user, "swap-colours", f"board {game.board}", [])


def _record(rnd: Round, user, action: str, detail: str, breaks: list[RuleBreak]) -> None:
    if breaks:
        detail += " override: " + "; ".join(br.rule for br in breaks)
    TDAction.objects.create(
        competition=rnd.competition, round_number=rnd.number, user=user, action=action, detail=detail
    )
