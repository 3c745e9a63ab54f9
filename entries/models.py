"""A competition's entry form (opened and closed by the TD) and the entries players send through it.

An entry is a request to play, not a participant: the TD accepts it (the player becomes a participant
through `pairing.services`), refuses it with a reason, merges it with a member or an earlier guest,
or puts it on the waiting list. A place that comes free is offered to the first on the waiting list, who
confirms it within the TD's number of hours (the entry is then waiting for the TD again) or loses it.
Birth year and e-mail are never shown on a public page; a player may ask to be listed by name only.
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from clubs.models import Member
from tournaments.models import Competition, Participant


def new_token() -> str:
    return secrets.token_urlsafe(24)


class EntrySettings(models.Model):
    """The TD's settings of a competition's entry form: when it is open, how many, and who may enter."""

    competition = models.OneToOneField(Competition, on_delete=models.CASCADE, related_name="entry_settings")
    open = models.BooleanField(_("entries open"), default=False)
    opens_at = models.DateTimeField(_("open from"), null=True, blank=True)
    closes_at = models.DateTimeField(_("open until"), null=True, blank=True)
    max_players = models.PositiveSmallIntegerField(
        _("maximum number of players"), null=True, blank=True, help_text=_("empty: no maximum")
    )
    members_only = models.BooleanField(_("club members only"), default=False)
    min_rating = models.PositiveSmallIntegerField(_("lowest rating"), null=True, blank=True)
    max_rating = models.PositiveSmallIntegerField(_("highest rating"), null=True, blank=True)
    min_birth_year = models.PositiveSmallIntegerField(_("born in or after"), null=True, blank=True)
    max_birth_year = models.PositiveSmallIntegerField(_("born in or before"), null=True, blank=True)
    ask_sex = models.BooleanField(_("ask for sex"), default=False, help_text=_("only when a prize or title needs it"))
    fee_link = models.URLField(
        _("payment link"), max_length=300, blank=True,
        help_text=_("the organiser's own payment page, shown after entering"),
    )  # fmt: skip
    fee_note = models.CharField(_("entry fee"), max_length=120, blank=True, help_text=_("e.g. € 25, juniors € 10"))
    offer_hours = models.PositiveSmallIntegerField(
        _("hours to confirm an offered place"), default=48, validators=[MinValueValidator(1), MaxValueValidator(720)],
        help_text=_("a place that comes free is offered to the first on the waiting list, who has this long to "
                    "confirm it; then it passes to the next"),
    )  # fmt: skip

    class Meta:
        verbose_name = _("entry settings")
        verbose_name_plural = _("entry settings")

    def __str__(self) -> str:
        return str(self.competition)

    def is_open(self, now=None) -> bool:
        now = now or timezone.now()
        if not self.open:
            return False
        if self.opens_at and now < self.opens_at:
            return False
        return not (self.closes_at and now >= self.closes_at)


class Entry(models.Model):
    class Status(models.TextChoices):
        PENDING = "pending", _("waiting for the TD")
        ACCEPTED = "accepted", _("accepted")
        WAITING = "waiting", _("waiting list")
        OFFERED = "offered", _("place offered")
        REFUSED = "refused", _("refused")
        WITHDRAWN = "withdrawn", _("withdrawn")

    class Sex(models.TextChoices):
        MALE = "m", _("male")
        FEMALE = "w", _("female")

    competition = models.ForeignKey(Competition, on_delete=models.CASCADE, related_name="entries")
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.PENDING)
    first_name = models.CharField(_("first name"), max_length=60)
    last_name = models.CharField(_("last name"), max_length=80)
    email = models.EmailField(_("e-mail"), max_length=254)
    club_name = models.CharField(_("club"), max_length=120, blank=True)
    federation = models.CharField(_("federation"), max_length=3, blank=True, help_text=_("e.g. NED, DEN"))
    fide_id = models.CharField(_("FIDE id"), max_length=11, blank=True)
    national_id = models.CharField(_("national id"), max_length=20, blank=True)
    birth_year = models.PositiveSmallIntegerField(_("year of birth"), null=True, blank=True)
    sex = models.CharField(_("sex"), max_length=1, choices=Sex.choices, blank=True)
    note = models.TextField(_("note to the tournament director"), max_length=500, blank=True)
    name_only = models.BooleanField(_("list me by name only"), default=False)
    language = models.CharField(max_length=10, default="en")
    # What the club's rating lists say of the player when he entered (`entries.lookup`).
    title = models.CharField(_("title"), max_length=3, blank=True)
    fide_rating = models.PositiveIntegerField(_("FIDE rating"), null=True, blank=True)
    national_rating = models.PositiveIntegerField(_("national rating"), null=True, blank=True)
    token = models.CharField(max_length=64, unique=True, default=new_token, editable=False)
    created_at = models.DateTimeField(_("entered"), default=timezone.now)
    decided_at = models.DateTimeField(null=True, blank=True)
    decided_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                                   related_name="+")  # fmt: skip
    reason = models.CharField(_("reason"), max_length=200, blank=True)
    member = models.ForeignKey(Member, on_delete=models.SET_NULL, null=True, blank=True, related_name="entries")
    participant = models.ForeignKey(Participant, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    paid = models.BooleanField(_("paid"), default=False)
    arrived = models.BooleanField(_("arrived"), default=False)
    reminded_at = models.DateTimeField(null=True, blank=True)
    # A place offered from the waiting list (`entries.services.offer_free_places`) is his until then.
    offer_expires_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["created_at", "id"]
        verbose_name = _("entry")
        verbose_name_plural = _("entries")

    def __str__(self) -> str:
        return self.full_name

    @property
    def full_name(self) -> str:
        return f"{self.first_name} {self.last_name}".strip()

    @property
    def rating(self) -> int:
        """The rating the entry list sorts by, as a member's: national, else FIDE, else 0 (unrated)."""
        return self.national_rating or self.fide_rating or 0

    @property
    def active(self) -> bool:
        return self.status in (self.Status.PENDING, self.Status.ACCEPTED, self.Status.WAITING, self.Status.OFFERED)
