"""The competition a page is about, looked up once for every app: by its club's slug and its own."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _

from audit.history import author, moment
from audit.models import AuditEntry
from clubs.access import directed_club

from .models import Competition


def club_competition(club_slug: str, slug: str, **filters) -> Competition:
    """A club's competition by slug (404 when there is none, or it does not match `filters`)."""
    competitions = Competition.objects.select_related("club", "season")
    return get_object_or_404(competitions, club__slug=club_slug, slug=slug, **filters)


def directed_competition(request, club_slug: str, slug: str, **filters) -> Competition:
    """The competition the signed-in TD directs: refused (403) unless he directs its club."""
    directed_club(request, club_slug)
    return club_competition(club_slug, slug, **filters)


def slug_taken(club, slug: str) -> str:
    """Why a new competition of `club` cannot have the short name `slug` ("" when it can): another
    competition has it, made by whom and when (the audit log's entry of its making, when it has one)."""
    taken = Competition.objects.filter(club=club, slug=slug).values_list("pk", flat=True).first()
    if taken is None:
        return ""
    made = AuditEntry.objects.filter(competition_id=taken, action__in=("competition-create", "import-trf"))
    entry = made.order_by("id").first()
    if entry is None:
        return _("This short name is taken; choose another.")
    values = {"who": author(entry), "when": moment(entry.at), "slug": slug, "name": entry.competition_name}
    return (
        _(
            "Meanwhile %(who)s made the competition %(name)s with the short name %(slug)s (at %(when)s): nothing was "
            "saved. Choose another short name."
        )
        % values
    )
