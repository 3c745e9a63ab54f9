from django.contrib.auth.decorators import login_required
from django.utils.translation import gettext as _

from clubs.access import directed_club

from .history import render_history
from .models import AuditEntry


@login_required
def club_history(request, club):
    """Everything written in the club, its competitions included (the club's TDs only)."""
    club = directed_club(request, club)
    entries = AuditEntry.objects.filter(club_id=club.pk)
    return render_history(request, entries, {"club": club, "title": _("History of %(club)s") % {"club": club.name}})
