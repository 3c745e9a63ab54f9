"""The single writes the actions of `pairing.services` are made of (not the pairing itself): entries and start
numbers, results, absences, a club match's points, publish, finish, undo. Called by the actions (`rounds`,
`players`, `cups`, `gladiator`, `settings`), which pass the guard first; by nothing else.

Every write happens in a transaction and is recorded once, in the audit log (`audit.log.record`): who,
when, the action's code, its parameters, the values before and after.
"""

from __future__ import annotations

import random
from decimal import Decimal

from django.core.exceptions import ValidationError
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _

from audit.history import RESULT_ACTIONS, author, moment
from audit.log import boards, record, values
from audit.models import AuditEntry
from clubs.models import Member
from pairing.engines import keizer
from tournaments import encounters, versioning
from tournaments.models import TITLE_ORDER, Bye, Competition, Game, Participant, Result, Round
from tournaments.state import CompetitionData

# What the TD types in the result box, and the result it stands for.
RESULT_KEYS: dict[str, str] = {
    "1": Result.WHITE_WINS,
    "1-0": Result.WHITE_WINS,
    "0": Result.BLACK_WINS,
    "0-1": Result.BLACK_WINS,
    "=": Result.DRAW,
    "5": Result.DRAW,
    "½": Result.DRAW,
    "½-½": Result.DRAW,
    "1/2": Result.DRAW,
    "+": Result.WHITE_FORFEIT_WIN,
    "1-0r": Result.WHITE_FORFEIT_WIN,
    "-": Result.BLACK_FORFEIT_WIN,
    "0-1r": Result.BLACK_FORFEIT_WIN,
    "--": Result.DOUBLE_FORFEIT,
    "0-0r": Result.DOUBLE_FORFEIT,
    "": Result.PENDING,
}


def parse_result(text: str) -> str:
    """The result a typed key stands for; ValidationError naming the input otherwise."""
    key = text.strip().lower().replace(" ", "")
    if key not in RESULT_KEYS:
        raise ValidationError(
            _("“%(text)s” is not a result. Type 1, 0, = (draw), + or - (forfeit), -- (both forfeit).") % {"text": text}
        )
    return RESULT_KEYS[key]


def keizer_start_order(competition: Competition, participants: list[Participant]) -> list[Participant]:
    """Seed 003 §1.10: last season's TPR after enough games, the rating otherwise; newcomers slotted by rating."""
    last_season: dict[int, list[tuple[int, float]]] = {}
    if competition.previous_id:
        data = CompetitionData.load(competition.previous)
        state = data.state()
        rating = {p.start_number: p.rating for p in data.participants}
        for p in data.participants:
            games = [(rating[r.opponent], r.score) for r in state.player(p.start_number).history if r.played]
            last_season[p.member_id] = [(opp, score) for opp, score in games if score is not None]
    settings = competition.engine.settings(competition.settings)
    entries = [
        keizer.StartEntry(key=p.id, name=p.name, rating=p.rating, last_season=last_season.get(p.member_id))
        for p in participants
    ]
    ranked = keizer.start_ranking(entries, settings["start_min_games"], settings["tpr_limit"])
    by_id = {p.id: p for p in participants}
    return [by_id[place.entry.key] for place in ranked]


def start_number_order(competition: Competition, participants: list[Participant]) -> list[Participant]:
    """Seed 000 A2 (rating, then title, then name), Keizer's start ranking, or for lot systems a recorded lot."""
    if competition.engine.season_start:
        return keizer_start_order(competition, participants)
    if competition.engine.lots:
        ordered = sorted(participants, key=lambda p: p.member_id)
        random.Random(competition.seed).shuffle(ordered)
        return ordered

    def key(p: Participant):
        title = p.title if p.title in TITLE_ORDER else ""
        return (-p.rating, TITLE_ORDER.index(title), p.member.last_name, p.member.first_name)

    return sorted(participants, key=key)


@versioning.one_action
def renumber(competition: Competition) -> None:
    """Give start numbers per the system's rules; only before round 1 is paired."""
    if competition.round_set.paired().exists():
        raise ValidationError(_("Start numbers are fixed once round 1 is paired."))
    versioning.bump(competition)
    participants = list(competition.participants.select_related("member"))
    ordered = start_number_order(competition, participants)
    # Two passes so the unique (competition, start_number) constraint never clashes.
    offset = len(ordered) + 1000
    for p in participants:
        p.start_number += offset
    Participant.objects.bulk_update(participants, ["start_number"])
    for number, p in enumerate(ordered, start=1):
        p.start_number = number
    Participant.objects.bulk_update(ordered, ["start_number"])


@versioning.one_action
def add_participants(competition: Competition, members: list[Member], user=None) -> list[Participant]:
    """Enter members; before round 1 is paired the start numbers follow the system's order.

    After round 1 is paired an entry is a late entry: the missed rounds are scored per the
    competition's setting (`late_entry_points`), and recorded.
    """
    versioning.bump(competition)
    paired = list(competition.round_set.paired().order_by("number"))
    if paired and competition.engine.scheduled:
        raise ValidationError(_("A round robin's schedule is fixed: no entries after round 1 is paired."))
    if paired and competition.engine.teams:  # the teams are dealt from every player (seed 004 §4.9.9.5)
        raise ValidationError(_("The teams are fixed once round 1 is paired."))
    if paired and competition.engine.bracket:  # the lot numbers are drawn (seed 004 §4.9.7)
        raise ValidationError(_("The draw of the cup is made: no entries after round 1 is paired."))
    entered = set(competition.participants.values_list("member_id", flat=True))
    last = competition.participants.aggregate(n=Max("start_number"))["n"] or 0
    participants = []
    for member in members:
        if member.id in entered:
            raise ValidationError(_("%(name)s is already entered.") % {"name": member.full_name})
        entered.add(member.id)
        last += 1
        participant = Participant.objects.create(
            competition=competition,
            member=member,
            start_number=last,
            rating=member.rating,
            title=member.title,
            joined_round=len(paired) + 1,
        )
        participants.append(participant)
        after = values(participant, "member", "rating", "joined_round")
        late = {"rounds_missed_points": str(competition.late_entry_points)} if paired else {}
        record(user, "late-entry" if paired else "participant-add", participant, after=after | late)
        if paired:
            Bye.objects.bulk_create(
                Bye(
                    round=rnd,
                    participant=participant,
                    kind=Bye.Kind.ABSENT_NOTICE,
                    points=competition.late_entry_points,
                )
                for rnd in paired
            )
    if not paired and participants:
        renumber(competition)
        for participant in participants:
            participant.refresh_from_db(fields=["start_number"])
    return participants


def add_participant(competition: Competition, member: Member, user=None) -> Participant:
    return add_participants(competition, [member], user)[0]


@versioning.one_action
def withdraw(participant: Participant, user) -> None:
    competition = participant.competition
    versioning.bump(competition)
    last = competition.round_set.last_number()
    before = values(participant, "withdrawn_after")
    participant.withdrawn_after = last
    participant.save(update_fields=["withdrawn_after"])
    record(user, "withdraw", participant, before, values(participant, "withdrawn_after"))


class ResultConflict(ValidationError):
    """The board's result changed after the TD's page was shown: the new entry is not saved."""


@versioning.one_action
def set_result(
    game: Game, result: str, user, override: bool = False, based_on: str | None = None, locked: bool = False
) -> Game:
    """Enter or correct a result; a finished round needs the TD's explicit override.

    `based_on` is the result the TD saw when typing (None: not known). When someone else entered another
    result on the board meanwhile, nothing is overwritten: ResultConflict names who entered what and when,
    and the TD chooses by typing the result again on the page that now shows it. `locked`: `game` was read
    under the lock just now, with its round and competition (else it is read again here).
    """
    if not locked:
        games = Game.objects.select_for_update(of=("self", "round", "round__competition"))
        games = games.select_related("round__competition__club", "white__member", "black__member")
        game = games.get(pk=game.pk)
    if result not in RESULT_KEYS.values():
        raise ValidationError(_("“%(text)s” is not a result.") % {"text": result})
    if based_on is not None and game.result != based_on and game.result != result:
        raise _conflict(game, result)
    rnd = game.round
    if rnd.status == Round.Status.FINISHED and not override:
        raise ValidationError(_("Round %(n)s is finished: changing a result needs the override.") % {"n": rnd.number})
    if rnd.status == Round.Status.DRAFT:
        raise ValidationError(_("Publish the round before entering results."))
    if game.result == result:
        return game
    versioning.bump(rnd.competition_id, result=True)
    record(user, "result-override" if override else "result", game, {"result": game.result}, {"result": result})
    game.result = result
    # Marked with the version just raised, in the same statement (tournaments.live reads the results since).
    game.result_version = Competition.objects.filter(pk=rnd.competition_id).values("version")[:1]
    game.save(update_fields=["result", "result_version"])
    del game.result_version  # read again from the database when asked
    return game


def last_result_entry(game: Game) -> AuditEntry | None:
    """The audit log's latest entry of a result on `game` (who typed the result the board shows)."""
    entries = AuditEntry.objects.filter(object_type="game", object_id=str(game.pk), action__in=RESULT_ACTIONS)
    return entries.filter(competition_id=game.round.competition_id).order_by("-at", "-id").first()


def _conflict(game: Game, typed: str) -> ResultConflict:
    entry = last_result_entry(game)
    theirs = game.result or _("no result")
    values = {"theirs": theirs, "yours": typed or _("no result")}
    if entry is None or not entry.username:
        return ResultConflict(
            _("Meanwhile the result became %(theirs)s; you typed %(yours)s. Type yours again to replace it.") % values,
            code="conflict",
        )
    values |= {"who": author(entry), "when": moment(entry.at)}
    return ResultConflict(
        _("Meanwhile %(who)s entered %(theirs)s (at %(when)s); you typed %(yours)s. Type yours again to replace it.")
        % values,
        code="conflict",
    )


@versioning.one_action
def set_absence(competition: Competition, number: int, participant: Participant, kind: str | None, user) -> None:
    """Record (or clear, with kind None) an absence or requested bye for a round not yet paired."""
    versioning.bump(competition)
    rnd, _created = Round.objects.get_or_create(competition=competition, number=number)
    if rnd.is_paired:
        raise ValidationError(_("Round %(n)s is already paired.") % {"n": number})
    old = Bye.objects.filter(round=rnd, participant=participant).first()
    own = user is not None and participant.member.user_id == getattr(user, "id", None)
    record(user, "notice" if own else "absence", rnd, {"kind": old.kind if old else None}, {"kind": kind},
           label=participant.name, params={"player": participant.name})  # fmt: skip
    Bye.objects.filter(round=rnd, participant=participant).delete()
    if kind:
        points = {
            Bye.Kind.FULL_BYE: Decimal(1),
            Bye.Kind.HALF_BYE: Decimal("0.5"),
        }.get(kind, Decimal(0))
        Bye.objects.create(round=rnd, participant=participant, kind=kind, points=points)


CLUB_MATCH_POINTS = {"1": Decimal(1), "=": Decimal("0.5"), "½": Decimal("0.5"), "0": Decimal(0)}


@versioning.one_action
def set_club_match_result(bye: Bye, text: str, user) -> None:
    """1, = or 0 for a club-match game on club night; recorded like any result."""
    points = CLUB_MATCH_POINTS.get(text.strip())
    if points is None:
        raise ValidationError(_("“%(text)s” is not a result. Type 1, = or 0.") % {"text": text})
    before = values(bye, "points")
    versioning.bump(bye.round.competition_id)
    bye.points = points
    bye.save(update_fields=["points"])
    record(user, "club-match-result", bye, before, values(bye, "points"))


@versioning.one_action
def publish(rnd: Round, user) -> None:
    if not rnd.is_paired:
        raise ValidationError(_("Pair the round before publishing it."))
    if rnd.status != Round.Status.DRAFT:
        return
    versioning.bump(rnd.competition_id)
    rnd.status = Round.Status.PUBLISHED
    rnd.published_at = timezone.now()
    rnd.save(update_fields=["status", "published_at"])
    record(user, "publish", rnd, {"status": Round.Status.DRAFT}, {"status": rnd.status})
    competition = rnd.competition
    if competition.status == Competition.Status.DRAFT:
        competition.status = Competition.Status.RUNNING
        competition.save(update_fields=["status"])


@versioning.one_action
def finish(rnd: Round, user) -> None:
    """Close a round once every game has a result."""
    if rnd.games.unfinished().exists():
        raise ValidationError(_("Some games of round %(n)s have no result yet.") % {"n": rnd.number})
    competition = rnd.competition
    versioning.bump(competition)
    if competition.gladiator:
        check_decided(competition, rnd.number)
    record(user, "finish", rnd, {"status": rnd.status}, {"status": Round.Status.FINISHED})
    rnd.status = Round.Status.FINISHED
    rnd.save(update_fields=["status"])
    if rnd.number >= competition.planned_rounds():
        competition.status = Competition.Status.FINISHED
        competition.save(update_fields=["status"])


@versioning.one_action
def undo_last_round(competition: Competition, user) -> int:
    """Remove the last paired round, if no game of it has a result (published data: an explicit act)."""
    rnd = competition.round_set.last_paired()
    if rnd is None:
        raise ValidationError(_("No round has been paired yet."))
    if rnd.games.finished().exists():
        raise ValidationError(_("Round %(n)s has results: it cannot be undone.") % {"n": rnd.number})
    versioning.bump(competition)
    number = rnd.number
    record(user, "undo-round", rnd, boards(rnd), None)
    rnd.games.all().delete()
    rnd.byes.filter(kind=Bye.Kind.PAIRING_BYE).delete()
    rnd.status = Round.Status.DRAFT
    rnd.paired_at = None
    rnd.published_at = None
    rnd.explanation = []
    rnd.save()
    return number


def check_decided(competition: Competition, number: int) -> None:
    """Every encounter of round `number` must have a winner before the round closes (§4.9.8)."""
    data = CompetitionData.load(competition)
    games = [g for g in data.games if g.round.number == number]
    start_of = {p.id: p.start_number for p in data.participants}
    groups = encounters.groups(games)
    for key, encounter in encounters.encounters(games, start_of, **competition.gladiator_format).items():
        if encounter.winner is None:
            raise ValidationError(
                _("The encounter on board %(board)s of round %(n)s is not decided yet: add its next game.")
                % {"board": groups[key][0].board, "n": number}
            )
