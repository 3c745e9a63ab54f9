"""Clubs, their members and seasons, and who may direct or view a club."""

from __future__ import annotations

from datetime import date

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class Club(models.Model):
    name = models.CharField(_("name"), max_length=120)
    slug = models.SlugField(_("short name"), unique=True)
    city = models.CharField(_("city"), max_length=80, blank=True)
    federation = models.CharField(_("federation"), max_length=3, blank=True, help_text=_("e.g. NED, DEN"))
    language = models.CharField(
        _("language"),
        max_length=8,
        choices=[("", _("none: each visitor's browser decides")), *settings.LANGUAGES],
        blank=True,
        help_text=_("for visitors who have not chosen a language, printouts and e-mails to members without one"),
    )

    class Meta:
        ordering = ["name"]
        indexes = [models.Index(fields=["name", "id"], name="club_name")]  # the home page, a page at a time
        verbose_name = _("club")
        verbose_name_plural = _("clubs")

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("club", args=[self.slug])

    def is_director(self, user) -> bool:
        if not user.is_authenticated:
            return False
        return user.is_superuser or self.roles.filter(user=user, role=ClubRole.Role.DIRECTOR).exists()


class Profile(models.Model):
    """What belongs to a user rather than to one club: the language of his pages and e-mails, the one he
    last chose on the site (the language switcher, or his own page)."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="profile")
    language = models.CharField(_("language"), max_length=8, choices=settings.LANGUAGES, blank=True)

    class Meta:
        verbose_name = _("user profile")
        verbose_name_plural = _("user profiles")

    def __str__(self) -> str:
        return f"{self.user}: {self.language or '-'}"


class ClubRole(models.Model):
    """Who directs a club's competitions (TD) and who may only view its private data."""

    class Role(models.TextChoices):
        DIRECTOR = "td", _("tournament director")
        VIEWER = "viewer", _("viewer")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="roles")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="club_roles")
    role = models.CharField(_("role"), max_length=10, choices=Role.choices, default=Role.VIEWER)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["club", "user"], name="one_role_per_club")]

    def __str__(self) -> str:
        return f"{self.user} {self.get_role_display()} {self.club}"


class Member(models.Model):
    """A club member. Birth date and sex are private: only the club's TDs see them."""

    class Sex(models.TextChoices):
        MALE = "m", _("male")
        FEMALE = "w", _("female")

    class Title(models.TextChoices):
        GM = "GM", "GM"
        IM = "IM", "IM"
        WGM = "WGM", "WGM"
        FM = "FM", "FM"
        WIM = "WIM", "WIM"
        CM = "CM", "CM"
        WFM = "WFM", "WFM"
        WCM = "WCM", "WCM"

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="members")
    first_name = models.CharField(_("first name"), max_length=60)
    last_name = models.CharField(_("last name"), max_length=80)
    sex = models.CharField(_("sex"), max_length=1, choices=Sex.choices, blank=True)
    birth_date = models.DateField(_("birth date"), null=True, blank=True)
    title = models.CharField(_("FIDE title"), max_length=3, choices=Title.choices, blank=True)
    fide_id = models.CharField(_("FIDE id"), max_length=11, blank=True)
    fide_rating = models.PositiveIntegerField(_("FIDE rating"), null=True, blank=True)
    federation = models.CharField(_("federation"), max_length=3, blank=True)
    national_id = models.CharField(_("national id"), max_length=20, blank=True)
    national_rating = models.PositiveIntegerField(_("national rating"), null=True, blank=True)
    is_guest = models.BooleanField(_("guest"), default=False)
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="member"
    )

    class Meta:
        ordering = ["last_name", "first_name"]
        verbose_name = _("member")
        verbose_name_plural = _("members")

    def __str__(self) -> str:
        return self.full_name

    @property
    def full_name(self) -> str:
        return f"{self.first_name} {self.last_name}".strip()

    @property
    def rating(self) -> int:
        """The rating competitions order by: national, else FIDE, else 0."""
        return self.national_rating or self.fide_rating or 0


class Season(models.Model):
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="seasons")
    name = models.CharField(_("name"), max_length=40, help_text=_("e.g. 2026-2027"))
    start = models.DateField(_("start"), null=True, blank=True)
    end = models.DateField(_("end"), null=True, blank=True)

    class Meta:
        ordering = ["-start", "-name"]
        verbose_name = _("season")
        verbose_name_plural = _("seasons")

    def __str__(self) -> str:
        return self.name


def current_season(club: Club, today: date | None = None) -> Season | None:
    """The season a new competition belongs to by default: the one running today, else the latest that has
    begun, else the newest."""
    today = today or timezone.localdate()
    seasons = list(club.seasons.all())
    running = [s for s in seasons if s.start and s.start <= today and (s.end is None or today <= s.end)]
    begun = [s for s in seasons if s.start and s.start <= today]
    return (running or begun or seasons or [None])[0]
