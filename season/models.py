"""A club's season around the board: club nights, the rounds planned on them, members' sign-off answers,
and each member's calendar feed and mail choice."""

from __future__ import annotations

import secrets
from datetime import datetime, timedelta

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from clubs.models import Club, Member, Season
from tournaments.models import Competition, Participant, Round

# A club night without an end time lasts this long in the calendar feeds.
DEFAULT_NIGHT_LENGTH = timedelta(hours=4)


class ClubNight(models.Model):
    """A dated evening of a season; rounds of several competitions may be played on it."""

    class Kind(models.TextChoices):
        CLUB_NIGHT = "club", _("club night")
        HOLIDAY = "holiday", _("holiday (no play)")
        SIMUL = "simul", _("simultaneous exhibition")
        TEAM_MATCH = "team-match", _("team match night")

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="nights")
    date = models.DateField(_("date"))
    start = models.TimeField(_("start time"))
    end = models.TimeField(_("end time"), null=True, blank=True)
    kind = models.CharField(_("kind"), max_length=12, choices=Kind.choices, default=Kind.CLUB_NIGHT)
    note = models.CharField(_("note"), max_length=120, blank=True)
    # Raised on every move, so calendar programs replace the event they hold (RFC 5545 §3.8.7.4).
    sequence = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["date", "start"]
        constraints = [models.UniqueConstraint(fields=["season", "date"], name="one_night_per_date")]
        verbose_name = _("club night")
        verbose_name_plural = _("club nights")

    def __str__(self) -> str:
        return f"{self.date:%Y-%m-%d} {self.get_kind_display()}"

    @property
    def club(self) -> Club:
        return self.season.club

    @property
    def starts_at(self) -> datetime:
        return timezone.make_aware(datetime.combine(self.date, self.start))

    @property
    def ends_at(self) -> datetime:
        if self.end and self.end > self.start:
            return timezone.make_aware(datetime.combine(self.date, self.end))
        return self.starts_at + DEFAULT_NIGHT_LENGTH

    @property
    def holds_rounds(self) -> bool:
        return self.kind != self.Kind.HOLIDAY


class PlannedRound(models.Model):
    """Round `number` of a competition is played on `night` (the round itself exists once it is paired)."""

    competition = models.ForeignKey(Competition, on_delete=models.CASCADE, related_name="round_plan")
    number = models.PositiveSmallIntegerField(_("round"))
    night = models.ForeignKey(ClubNight, on_delete=models.CASCADE, related_name="planned_rounds")

    class Meta:
        ordering = ["night__date", "competition__name", "number"]
        constraints = [
            models.UniqueConstraint(fields=["competition", "number"], name="round_planned_once"),
        ]

    def __str__(self) -> str:
        return f"{self.competition} {self.number}: {self.night}"

    def round(self) -> Round | None:
        return Round.objects.filter(competition=self.competition, number=self.number).first()


class SignOffRules(models.Model):
    """How members of a competition may sign off: the deadline and the limits of the system's rules."""

    competition = models.OneToOneField(Competition, on_delete=models.CASCADE, related_name="sign_off_rules")
    open = models.BooleanField(_("members may sign off online"), default=True)
    deadline_hours = models.PositiveSmallIntegerField(
        _("deadline (hours before the night starts)"),
        default=24,
        help_text=_("answers are taken until this many hours before the round's club night begins"),
    )
    half_byes = models.PositiveSmallIntegerField(
        _("half-point byes a player may request"),
        default=0,
        help_text=_("Swiss systems: 0 allows none (the tournament regulations decide, seed 001 F9)"),
    )
    no_byes_last_rounds = models.PositiveSmallIntegerField(
        _("no requested byes in the last rounds"), default=0, help_text=_("e.g. 2: none in the last two rounds")
    )

    class Meta:
        verbose_name = _("sign-off rules")
        verbose_name_plural = _("sign-off rules")

    def __str__(self) -> str:
        return f"{self.competition}: {self.deadline_hours} h"

    @classmethod
    def of(cls, competition: Competition) -> SignOffRules:
        """The competition's rules, or unsaved defaults."""
        return cls.objects.filter(competition=competition).first() or cls(competition=competition)


class SignOff(models.Model):
    """One answer for a round: what, by whom, when. The latest answer of a player for a round counts."""

    class Answer(models.TextChoices):
        PRESENT = "present", _("present")
        ABSENT_NOTICE = "absent-notice", _("absent with notice")
        HALF_BYE = "half-bye", _("half-point bye")

    participant = models.ForeignKey(Participant, on_delete=models.CASCADE, related_name="sign_offs")
    round_number = models.PositiveSmallIntegerField(_("round"))
    answer = models.CharField(_("answer"), max_length=14, choices=Answer.choices)
    answered_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True)
    answered_at = models.DateTimeField(_("answered at"), auto_now_add=True)

    class Meta:
        ordering = ["-answered_at", "-id"]
        indexes = [models.Index(fields=["participant", "round_number"])]
        verbose_name = _("sign-off answer")
        verbose_name_plural = _("sign-off answers")

    def __str__(self) -> str:
        return f"{self.participant.name} {self.round_number}: {self.answer}"


def new_token() -> str:
    return secrets.token_urlsafe(24)


class MemberCalendar(models.Model):
    """A member's private calendar feed (an unguessable token) and whether pairings come by mail."""

    member = models.OneToOneField(Member, on_delete=models.CASCADE, related_name="calendar")
    token = models.CharField(max_length=64, unique=True, default=new_token)
    mail_pairings = models.BooleanField(_("e-mail me when pairings are published"), default=False)

    def __str__(self) -> str:
        return f"{self.member}"

    @classmethod
    def of(cls, member: Member) -> MemberCalendar:
        calendar, _created = cls.objects.get_or_create(member=member)
        return calendar


class PairingMail(models.Model):
    """A published round whose pairings were mailed: sent once, whatever happens to the round later."""

    round = models.OneToOneField(Round, on_delete=models.CASCADE, related_name="pairing_mail")
    queued_at = models.DateTimeField(auto_now_add=True)
    sent_at = models.DateTimeField(null=True, blank=True)
    recipients = models.PositiveIntegerField(default=0)

    def __str__(self) -> str:
        return f"{self.round}: {self.recipients}"
