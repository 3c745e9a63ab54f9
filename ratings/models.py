"""Rating lists imported for a club, every member's rating history, and the site's full rating lists.

A rating list (FIDE, KNSB or DSU) is read in one streaming pass that keeps only the rows matching the
club's members (`ratings.imports`); the result waits as a preview until the TD confirms it. Confirming
updates the members' ratings in one transaction and writes one `RatingChange` per changed rating, so
a member's rating on any past day can be read back (`rating_on`).

The site also keeps each federation's whole list (`RatingList`, `ListedPlayer`; loaded by
`ratings.full_lists`), shared by every club: the entry form looks players of other clubs and countries
up in it by id or by name.
"""

from __future__ import annotations

from datetime import date

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from clubs.models import Club, Member


class RatingSystem(models.TextChoices):
    FIDE = "fide", "FIDE"
    KNSB = "knsb", "KNSB"
    DSU = "dsu", "DSU"


# The member fields each system's list updates: (id field, rating field).
MEMBER_FIELDS: dict[str, tuple[str, str]] = {
    RatingSystem.FIDE: ("fide_id", "fide_rating"),
    RatingSystem.KNSB: ("national_id", "national_rating"),
    RatingSystem.DSU: ("national_id", "national_rating"),
}


class RatingListImport(models.Model):
    """One rating list read for a club: a preview until confirmed, then applied."""

    class Status(models.TextChoices):
        PREVIEW = "preview", _("waiting for confirmation")
        APPLIED = "applied", _("applied")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="rating_imports")
    source = models.CharField(_("list"), max_length=4, choices=RatingSystem.choices)
    file_name = models.CharField(_("file"), max_length=255)
    list_date = models.DateField(_("list date"))
    uploaded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    uploaded_at = models.DateTimeField(auto_now_add=True)
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.PREVIEW)
    applied_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    applied_at = models.DateTimeField(null=True, blank=True)
    players_read = models.PositiveIntegerField(_("players in the list"), default=0)
    matched_by_id = models.PositiveIntegerField(_("matched by id"), default=0)
    matched_by_name = models.PositiveIntegerField(_("matched by name"), default=0)
    updated = models.PositiveIntegerField(_("ratings changed"), default=0)
    unmatched = models.PositiveIntegerField(_("members not matched"), default=0)
    # The matches found (a few hundred at most: only the club's members are kept), see ratings.imports.
    proposals = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["-uploaded_at", "-id"]
        verbose_name = _("rating list import")
        verbose_name_plural = _("rating list imports")

    def __str__(self) -> str:
        return f"{self.get_source_display()} {self.list_date} ({self.file_name})"


class RatingChange(models.Model):
    """A member's rating in one system changed on a day: from `old` (None: unrated) to `new`."""

    member = models.ForeignKey(Member, on_delete=models.CASCADE, related_name="rating_changes")
    system = models.CharField(_("system"), max_length=4, choices=RatingSystem.choices)
    date = models.DateField(_("date"))
    old = models.PositiveIntegerField(_("old rating"), null=True, blank=True)
    new = models.PositiveIntegerField(_("new rating"), null=True, blank=True)
    source = models.ForeignKey(
        RatingListImport, on_delete=models.SET_NULL, null=True, blank=True, related_name="changes"
    )
    note = models.CharField(_("note"), max_length=200, blank=True)
    recorded_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-date", "-id"]
        indexes = [models.Index(fields=["member", "system", "date"])]
        verbose_name = _("rating change")
        verbose_name_plural = _("rating changes")

    def __str__(self) -> str:
        return f"{self.member} {self.system} {self.date}: {self.old or '-'} -> {self.new or '-'}"

    @property
    def difference(self) -> int | None:
        return None if self.old is None or self.new is None else self.new - self.old


def current_rating(member: Member, system: str) -> int | None:
    return getattr(member, MEMBER_FIELDS[system][1])


def ratings_on(members: list[Member], system: str, day: date) -> dict[int, int | None]:
    """Each member's rating in `system` on `day` (one query).

    A change dated after `day` means the rating on `day` was that change's old value (the earliest such
    change); with none, the member's current rating holds.
    """
    result = {m.id: current_rating(m, system) for m in members}
    later = RatingChange.objects.filter(member__in=[m.id for m in members], system=system, date__gt=day)
    seen: set[int] = set()
    for change in later.order_by("date", "id"):
        if change.member_id not in seen:
            seen.add(change.member_id)
            result[change.member_id] = change.old
    return result


class RatingList(models.Model):
    """A federation's whole rating list as the site holds it: one per system, the newest period loaded."""

    system = models.CharField(_("list"), max_length=4, choices=RatingSystem.choices)
    period = models.DateField(_("list date"))
    file_name = models.CharField(_("file"), max_length=255, blank=True)
    players = models.PositiveIntegerField(_("players in the list"), default=0)
    loaded_at = models.DateTimeField(auto_now_add=True)
    loaded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["system", "-period"]
        verbose_name = _("full rating list")
        verbose_name_plural = _("full rating lists")

    def __str__(self) -> str:
        return f"{self.get_system_display()} {self.period}"


class ListedPlayer(models.Model):
    """One player of a full rating list. `search` is the name as printed ("Surname, First names"),
    lower case without accents or punctuation ("de vries anna"), for prefix search; `name_key` the same
    words sorted (`lists.name_key`), for a name typed in any order. Both are indexed (PostgreSQL also gets
    a pattern index for prefix LIKE), so a look-up reads a few index pages whatever the list's size."""

    rating_list = models.ForeignKey(RatingList, on_delete=models.CASCADE, related_name="+")
    system = models.CharField(max_length=4, choices=RatingSystem.choices)
    player_id = models.CharField(max_length=20)
    name = models.CharField(max_length=141)
    search = models.CharField(max_length=141, db_index=True)
    name_key = models.CharField(max_length=141)
    federation = models.CharField(max_length=3, blank=True)
    title = models.CharField(max_length=3, blank=True)
    rating = models.PositiveIntegerField(null=True, blank=True)
    birth_year = models.PositiveSmallIntegerField(null=True, blank=True)

    class Meta:
        indexes = [
            models.Index(fields=["player_id", "system"], name="ratings_listed_id"),
            models.Index(fields=["name_key"], name="ratings_listed_name_key"),  # equality only: no pattern index
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.system} {self.player_id})"
