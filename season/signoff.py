"""Members sign off for the coming round of each competition they play; the TD's present list.

An answer is checked against the competition's rules (`season.rules`), recorded (who, when) and put
on the round's presence at once through `pairing.services.set_absence`, so the TD's present list
starts from the answers. The TD may still change any player's presence: the TD decides.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import formats, timezone
from django.utils.translation import gettext as _

from audit.log import record, values
from audit.models import AuditEntry
from clubs.models import Member
from pairing import services
from tournaments.models import Bye, Competition, Participant, Round

from . import rules
from .models import ClubNight, PlannedRound, SignOff, SignOffRules

ANSWER_TO_BYE = {
    rules.PRESENT: None,
    rules.ABSENT_NOTICE: Bye.Kind.ABSENT_NOTICE,
    rules.HALF_BYE: Bye.Kind.HALF_BYE,
}


def limits(competition: Competition) -> rules.Limits:
    r = SignOffRules.of(competition)
    return rules.Limits(
        deadline_hours=r.deadline_hours, half_byes=r.half_byes, no_byes_last_rounds=r.no_byes_last_rounds
    )


def next_round_number(competition: Competition) -> int:
    return services.next_round_number(competition)


def refusal_text(refused: rules.Refused) -> str:
    v = refused.values
    texts = {
        "system": _("Players of this competition do not sign off online: ask the tournament director."),
        "unknown": _("“%(answer)s” is not an answer here.") % {"answer": v.get("answer", "")},
        "paired": _("Round %(n)s is already paired: ask the tournament director.") % {"n": v.get("round")},
        "deadline": _("Answers for this round were taken until %(deadline)s: ask the tournament director.")
        % {"deadline": formats.date_format(timezone.localtime(v["deadline"]), "SHORT_DATETIME_FORMAT")}
        if "deadline" in v
        else "",
        "keizer-bye": _("Keizer knows no requested byes: give notice of absence instead."),
        "no-byes": _("This competition allows no requested byes."),
        "bye-limit": _("You have had the %(n)s half-point byes this competition allows.") % {"n": v.get("limit")},
        "last-rounds": _("No requested byes in the last %(n)s rounds.") % {"n": v.get("rounds")},
        "closed": _("The tournament director takes no answers online for this competition."),
    }
    return texts[refused.code]


@dataclass
class Coming:
    """A member's coming round in one competition, with what may be answered and what was."""

    participant: Participant
    competition: Competition
    number: int
    night: ClubNight | None
    deadline: datetime | None
    choices: list[tuple[str, str]]
    current: str  # the presence as it stands: an answer value
    last_answer: SignOff | None
    closed_reason: str = ""
    answers: list[SignOff] = field(default_factory=list)

    @property
    def open(self) -> bool:
        return not self.closed_reason

    @property
    def td_kind(self) -> str:
        """The presence the TD set when it is none of the member's answers (e.g. a club-match game)."""
        if self.current in {value for value, _label in self.choices}:
            return ""
        return str(dict(Bye.Kind.choices).get(self.current, ""))


def _answer_labels() -> dict[str, str]:
    return {value: str(label) for value, label in SignOff.Answer.choices}


AHEAD = 12  # at most so many rounds ahead are offered for answering (a competition without a planned end)


def coming_numbers(competition: Competition) -> list[int]:
    """The rounds a member may answer for: the next one to pair and the later ones of the competition's
    plan (its number of rounds, or the rounds planned on club nights when it has none)."""
    number = next_round_number(competition)
    planned = competition.planned_rounds()
    if planned:
        return list(range(number, min(planned, number + AHEAD - 1) + 1))
    later = PlannedRound.objects.filter(competition=competition, number__gt=number).values_list("number", flat=True)
    return sorted({number, *later})[:AHEAD]


def _open_choices(
    participant: Participant, number: int, choices: list[str], lim: rules.Limits, taken: int
) -> list[str]:
    """The answers the rules still allow for round `number`: a half-point bye goes when the player has had
    the byes allowed or the round is one of the last rounds (seed 000 A5, seed 001 F9: the regulation's
    limits); the deadline is checked on the whole round (`Coming.closed_reason`)."""
    competition = participant.competition
    allowed = []
    for choice in choices:
        try:
            rules.check(competition.engine, choice, lim, round_number=number,
                        planned_rounds=competition.planned_rounds(), half_byes_taken=taken, now=timezone.now(),
                        night_start=None, paired=False)  # fmt: skip
        except rules.Refused:
            continue
        allowed.append(choice)
    return allowed


def coming_rounds_of(participant: Participant, now: datetime | None = None) -> list[Coming]:
    """The participant's coming rounds (the next one and the later ones planned), each with what may be
    answered and what was; none when the competition takes no answers."""
    competition = participant.competition
    if participant.withdrawn or competition.status == Competition.Status.FINISHED:
        return []
    if not rules.signs_off(competition.engine):
        return []
    numbers = coming_numbers(competition)
    now = now or timezone.now()
    nights = {
        plan.number: plan.night
        for plan in PlannedRound.objects.filter(competition=competition, number__in=numbers).select_related("night")
    }
    lim = limits(competition)
    labels = _answer_labels()
    byes = {
        b.round.number: b
        for b in Bye.objects.filter(participant=participant, round__competition=competition).select_related("round")
    }
    all_answers: dict[int, list[SignOff]] = {}
    for sign_off in SignOff.objects.filter(participant=participant, round_number__in=numbers).select_related(
        "answered_by"
    ):
        all_answers.setdefault(sign_off.round_number, []).append(sign_off)
    closed = not SignOffRules.of(competition).open
    found = []
    for number in numbers:
        night = nights.get(number)
        bye = byes.get(number)
        taken = sum(1 for n, b in byes.items() if b.kind == Bye.Kind.HALF_BYE and n != number)
        offered = rules.answers(competition.engine, lim)
        current = bye.kind if bye else rules.PRESENT  # the answers' values are the bye kinds' own
        allowed = [a for a in _open_choices(participant, number, offered, lim, taken)]
        if current in offered and current not in allowed:
            allowed.append(current)  # the answer given stays shown, even when no longer allowed
        answers = all_answers.get(number, [])
        coming = Coming(
            participant=participant,
            competition=competition,
            number=number,
            night=night,
            deadline=rules.deadline(night.starts_at if night else None, lim),
            choices=[(a, labels[a]) for a in offered if a in allowed],
            current=current,
            last_answer=answers[0] if answers else None,
            answers=answers,
        )
        if closed:
            coming.closed_reason = refusal_text(rules.Refused("closed"))
        elif coming.deadline and now > coming.deadline:
            coming.closed_reason = refusal_text(rules.Refused("deadline", deadline=coming.deadline))
        found.append(coming)
    return found


def coming_round(participant: Participant, now: datetime | None = None) -> Coming | None:
    """The next round of the participant's competition, or None when there is none to answer for."""
    found = coming_rounds_of(participant, now)
    return found[0] if found else None


def coming_rounds(member: Member, now: datetime | None = None) -> list[Coming]:
    """All the member's coming rounds in every competition, by date (rounds without a night last, in order)."""
    participations = member.participations.select_related("competition__club", "member")
    found = [c for p in participations for c in coming_rounds_of(p, now)]
    far = timezone.now() + timedelta(days=3650)
    return sorted(found, key=lambda c: (c.night.starts_at if c.night else far, c.competition.name, c.number))


@transaction.atomic
def answer(participant: Participant, number: int, answer: str, user, now: datetime | None = None) -> SignOff:
    """Record the member's answer for round `number` (the next round or a later one of the plan) and set the
    presence; ValidationError if the rules refuse."""
    participant = Participant.objects.select_for_update().select_related("competition", "member").get(pk=participant.pk)
    competition = participant.competition
    if not SignOffRules.of(competition).open:
        raise ValidationError(refusal_text(rules.Refused("closed")))
    if participant.withdrawn or number not in coming_numbers(competition):
        raise ValidationError(
            _("Round %(n)s cannot be answered for: answers are taken for the coming rounds only.") % {"n": number}
        )
    plan = PlannedRound.objects.filter(competition=competition, number=number).select_related("night").first()
    paired = Round.objects.filter(competition=competition, number=number, paired_at__isnull=False).exists()
    taken = Bye.objects.filter(participant=participant, kind=Bye.Kind.HALF_BYE).exclude(round__number=number).count()
    try:
        rules.check(
            competition.engine,
            answer,
            limits(competition),
            round_number=number,
            planned_rounds=competition.planned_rounds(),
            half_byes_taken=taken,
            now=now or timezone.now(),
            night_start=plan.night.starts_at if plan else None,
            paired=paired,
        )
    except rules.Refused as refused:
        raise ValidationError(refusal_text(refused)) from refused
    if services.set_absence(competition, participant, ANSWER_TO_BYE[answer], user, number=number) != number:
        raise ValidationError(_("Answers are taken for the coming rounds only."))  # paired meanwhile
    return SignOff.objects.create(participant=participant, round_number=number, answer=answer, answered_by=user)


@transaction.atomic
def td_decides(participant: Participant, kind: str | None, user, shown: str | None = None) -> int:
    """The TD sets a player's presence for the coming round, whatever the player answered; recorded (as
    every absence) by `services.set_absence`. `shown` is the presence the present list showed ("" present;
    None: not known): one the player or another TD changed meanwhile to something else is not overwritten."""
    return services.set_absence(participant.competition, participant, kind, user, shown=shown)


def rules_seen(competition: Competition) -> int:
    """What a page showing the competition's sign-off rules is based on (the log's "sign-off-rules")."""
    return services.latest_id(_rules_log(competition))


def _rules_log(competition: Competition):
    return AuditEntry.objects.filter(competition_id=competition.pk, action="sign-off-rules")


@transaction.atomic
def save_rules(rules_obj: SignOffRules, user, based_on: int | None = None) -> None:
    """The sign-off rules; `based_on` what the TD's page showed (`rules_seen`), checked under the
    competition's lock."""
    Competition.objects.select_for_update().get(pk=rules_obj.competition_id)
    services.check_basis(_rules_log(rules_obj.competition), based_on)
    fields = ("deadline_hours", "half_byes", "open")
    old = SignOffRules.objects.filter(pk=rules_obj.pk).first() if rules_obj.pk else None
    rules_obj.save()
    record(user, "sign-off-rules", rules_obj, values(old, *fields) if old else None, values(rules_obj, *fields))


@dataclass
class PresentRow:
    participant: Participant
    presence: str  # Bye kind, or "" for present
    answers: list[SignOff]

    @property
    def last_answer(self) -> SignOff | None:
        """The answer that counts: the latest."""
        return self.answers[0] if self.answers else None

    @property
    def earlier_answers(self) -> list[SignOff]:
        """The answers it replaced, newest first (kept: who answered what, when)."""
        return self.answers[1:]

    @property
    def presence_label(self) -> str:
        return str(dict(Bye.Kind.choices).get(self.presence, "")) if self.presence else str(_("present"))

    @property
    def td_decided(self) -> bool:
        """The presence differs from the player's last answer: the TD changed it."""
        last = self.last_answer
        return last is not None and (ANSWER_TO_BYE[last.answer] or "") != self.presence


def present_list(competition: Competition, number: int) -> list[PresentRow]:
    participants = list(competition.participants.select_related("member").filter(withdrawn_after__isnull=True))
    byes = {b.participant_id: b.kind for b in Bye.objects.filter(round__competition=competition, round__number=number)}
    answers: dict[int, list[SignOff]] = {}
    for s in SignOff.objects.filter(participant__competition=competition, round_number=number).select_related(
        "answered_by"
    ):
        answers.setdefault(s.participant_id, []).append(s)
    return [PresentRow(p, byes.get(p.id, ""), answers.get(p.id, [])) for p in participants]
