"""The TD's rating pages: import a rating list (upload, preview, confirm), rating history, rating report.

Thin views: look up with permission (`clubs.access.directed_club`), call `ratings.imports` or
`ratings.reports`, render. The upload is stored and read by a worker (`ratings.jobs`; a full FIDE list
takes up to a minute, see bench/bench_rating_list.py); the job's page leads to the preview.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _

from clubs.access import directed_club
from clubs.validation import csv_writer, key_number
from jobs.views import follow
from pairing import services
from tournaments.models import Competition
from tournaments.pdf import render_pdf
from tournaments.state import CompetitionData

from . import imports, reports, tasks
from .forms import MatchesForm, RatingListForm, TimeControlForm
from .graphs import rating_chart
from .maths.titles import QualifyingKind
from .models import RatingChange, RatingListImport, RatingSystem


@login_required
def rating_lists(request, club):
    """Upload a list; the club's earlier imports."""
    club = directed_club(request, club)
    form = RatingListForm(request.POST or None, request.FILES or None, initial={"source": reports.default_system(club)})
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        job = tasks.start(club, data["source"], data["file"], data["list_date"], request.user)
        return follow(job)
    context = {"club": club, "form": form, "imports": club.rating_imports.select_related("uploaded_by")[:30]}
    return render(request, "ratings/lists.html", context)


@login_required
def rating_list(request, club, pk):
    """A read list: the matches to confirm, then (once applied) the ratings changed."""
    club = directed_club(request, club)
    list_import = get_object_or_404(RatingListImport, club=club, pk=pk)
    if request.method == "POST":
        if list_import.status != RatingListImport.Status.PREVIEW:
            messages.error(request, _("This list has already been applied."))
        else:
            members = {match["member"] for match in list_import.proposals.get("by_name", [])}
            form = MatchesForm(request.POST, members=sorted(members))
            lines = form.lines() if form.is_valid() else []
            count = imports.apply(list_import, lines, request.user)
            messages.success(request, _("%(count)s ratings changed.") % {"count": count})
        return redirect("rating_list", club.slug, list_import.pk)
    proposals: dict[int, list[dict]] = {}
    for match in list_import.proposals.get("by_name", []):
        proposals.setdefault(match["member"], []).append(match)
    context = {
        "club": club,
        "list_import": list_import,
        "by_id": list_import.proposals.get("by_id", []),
        "proposals": list(proposals.values()),
        "different_birth": list_import.proposals.get("different_birth", []),
        "unmatched": list_import.proposals.get("unmatched", []),
        "accepted": set(list_import.proposals.get("accepted", [])),
        "changes": list_import.changes.select_related("member"),
        "is_preview": list_import.status == RatingListImport.Status.PREVIEW,
    }
    return render(request, "ratings/list.html", context)


@login_required
def rating_history(request, club):
    """Every recorded rating change of the club's members, newest first (?member=<id> for one)."""
    club = directed_club(request, club)
    changes = RatingChange.objects.filter(member__club=club).select_related("member", "source")
    member = request.GET.get("member", "")
    chart = None
    if (member_id := key_number(member)) is not None:
        changes = changes.filter(member_id=member_id)
        chosen = club.members.filter(pk=member_id).first()
        chart = rating_chart(chosen) if chosen else None
    return render(request, "ratings/history.html", {"club": club, "changes": changes[:500], "rating_chart": chart})


@login_required
def rating_report(request, club, competition):
    """The competition's rating report; ?system=fide|knsb|dsu, ?qualifying=<§26 kind>|none, ?format=pdf|csv.

    A POST sets the competition's time control (the FIDE report rates by it)."""
    club = directed_club(request, club)
    competition = get_object_or_404(Competition.objects.select_related("club"), club=club, slug=competition)
    if request.method == "POST":
        return _set_time_control(request, club, competition)
    system = request.GET.get("system")
    system = system if system in RatingSystem.values else None
    qualifying = reports.DEFAULT_QUALIFYING
    if request.GET.get("qualifying") == "none":
        qualifying = None
    elif request.GET.get("qualifying") in {k.value for k in QualifyingKind}:
        qualifying = QualifyingKind(request.GET["qualifying"])
    data = CompetitionData.load(competition)
    error = ""
    try:
        report = reports.build_report(data, system, qualifying)
    except ValueError as problem:  # e.g. FIDE rules before 1 March 2024 are not implemented
        report, error = None, str(problem)
    context = {
        "competition": competition,
        "club": club,
        "report": report,
        "error": error,
        "default_system": RatingSystem(reports.default_system(club)).label,
        "systems": RatingSystem.choices,
        "qualifying_kinds": [(k.value, label) for k, label in reports.QUALIFYING_NAMES.items()],
        "time_controls": Competition.TimeControl.choices,
        "time_control_seen": services.seen(competition, services.TIME_CONTROL_ACTIONS),
    }
    name = f"{competition.slug}-rating-{report.system if report else 'report'}"
    if report and request.GET.get("format") == "csv":
        return _report_csv(report, f"{name}.csv")
    if request.GET.get("format") == "pdf":
        return render_pdf(request, "ratings/report.html", context, f"{name}.pdf")
    return render(request, "ratings/report.html", context)


def _set_time_control(request, club, competition: Competition) -> HttpResponse:
    """The TD sets the time control the FIDE report rates by; recorded (`services.set_time_control`)."""
    form = TimeControlForm(request.POST)
    try:
        if not form.is_valid():
            raise ValidationError(_("The form is out of date; reload the page."))
        data = form.cleaned_data
        services.set_time_control(competition, data["time_control"], request.user, data["based_on"])
    except ValidationError as problem:
        messages.error(request, " ".join(problem.messages))
    else:
        messages.success(request, _("Time control saved."))
    return redirect(reverse("rating_report", args=[club.slug, competition.slug]) + "?system=fide")


def _report_csv(report: reports.RatingReport, filename: str) -> HttpResponse:
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    writer = csv_writer(response)
    writer.writerow(
        ["start_number", "name", "id", "old_rating", "games", "score", "expected", "bonus", "k", "new_rating", "change"]
    )
    id_field = "fide_id" if report.system == RatingSystem.FIDE else "national_id"
    for row in report.rows:
        member = row.participant.member
        expected = "" if row.expected is None else f"{float(row.expected):.2f}"
        bonus = "" if row.bonus is None else f"{float(row.bonus):.2f}"
        writer.writerow(
            [
                row.participant.start_number, member.full_name, getattr(member, id_field), row.old_rating or "",
                row.games, float(row.score), expected, bonus, row.k or "", row.new_rating or "",
                "" if row.change is None else row.change,
            ]
        )  # fmt: skip
    return response
