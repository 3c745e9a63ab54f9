"""TRF files in and out: import a competition (a large file by a worker), export one; its full JSON export."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from clubs.access import directed_club
from clubs.validation import InputError
from jobs.views import follow
from pairing import services
from pairing.engines.trf import TrfError

from ..access import directed_competition
from ..forms import TrfImportForm
from ..tasks import start
from ..trf_export import export_trf as do_export


@login_required
def import_trf(request, club):
    """A TRF file as a new competition; a malformed file is refused with its line number, nothing saved.

    A large file is imported by a worker (`tournaments.tasks`): the TD follows the job's page."""
    club = directed_club(request, club)
    form = TrfImportForm(request.POST or None, request.FILES or None, club=club)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        if request.FILES["file"].size > settings.TRF_INLINE_MAX_BYTES:  # a worker imports it, the page follows
            job = start(
                club, data["file"], request.FILES["file"].name, name=data["name"], slug=data["slug"],
                system=data["system"], user=request.user,
            )  # fmt: skip
            return follow(job)
        try:
            competition = services.import_trf(
                club, data["file"], request.user, name=data["name"], slug=data["slug"], system=data["system"],
                source=request.FILES["file"].name,
            )  # fmt: skip
        except services.StaleAction as error:  # another TD took the short name meanwhile
            form.add_error("slug", error)
        except (TrfError, InputError, ValidationError) as error:
            form.add_error("file", str(error))
        else:
            messages.success(request, _("Competition imported."))
            return redirect("manage", club.slug, competition.slug)
    return render(request, "tournaments/import_trf.html", {"club": club, "form": form})


@login_required
def export_trf(request, club, competition):
    competition = directed_competition(request, club, competition)
    response = HttpResponse(do_export(competition), content_type="text/plain; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{competition.slug}.trf"'
    return response


@login_required
def export_json(request, club, competition):
    """Everything the competition holds, as versioned JSON (`tournaments.backup.export_competition`)."""
    from ..backup import dumps, export_competition

    competition = directed_competition(request, club, competition)
    response = HttpResponse(dumps(export_competition(competition)), content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{competition.slug}.json"'
    return response
