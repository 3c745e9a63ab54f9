"""A team league's printouts and files: the match card, the league table and a round's results as PDFs
(for anyone), the league as a TRF (for its organiser's TDs) and a league read from a TRF into a new one
(the TD's form; the writes are `pairing.services.league_import`)."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_safe

from clubs.access import directed_club
from pairing.engines.league_trf import write_league
from pairing.engines.league_trf_other import read_league
from pairing.engines.state import InvalidInput
from pairing.engines.trf import TrfError
from pairing.services.league_import import import_league
from tournaments.pdf import render_pdf

from .models import League
from .printing import card_boards, league_file, round_matches
from .table import league_table, outcome, read_cup

LEAGUE_CSS = "css/league-print.css"  # the printouts' own stylesheet


def public_league(club: str, league: str) -> League:
    """The league `league` of the club `club`, with its club and season, for anyone; 404 for no such league.
    The league's public pages (`teams.views`) read it too."""
    return get_object_or_404(League.objects.select_related("club", "season"), club__slug=club, slug=league)


@require_safe
def match_card_pdf(request, club, league, pk):
    """The match card the captains and the arbiter sign: line-ups, colours per board, result boxes."""
    league = public_league(club, league)
    match = get_object_or_404(league.matches.select_related("league", "home", "away"), pk=pk)
    context = {"league": league, "match": match, "boards": card_boards(match), "result": outcome(match)}
    name = f"{league.slug}-round-{match.round}-{match.pk}.pdf"
    return render_pdf(request, "teams/pdf_card.html", context, name, LEAGUE_CSS)


@require_safe
def league_table_pdf(request, club, league):
    """The league table; a cup's bracket (its rounds, byes, scores, winners and how a level match was decided)."""
    league = public_league(club, league)
    if league.rules.cup:
        context = {"league": league, "club": league.club, "cup": read_cup(league)}
        return render_pdf(request, "teams/pdf_bracket.html", context, f"{league.slug}-bracket.pdf", LEAGUE_CSS)
    context = {"league": league, "table": league_table(league)}
    return render_pdf(request, "teams/pdf_table.html", context, f"{league.slug}-table.pdf", LEAGUE_CSS)


@require_safe
def round_results_pdf(request, club, league, number):
    league = public_league(club, league)
    matches = round_matches(league, number)
    if not matches:
        raise Http404
    context = {"league": league, "number": number, "matches": matches}
    return render_pdf(request, "teams/pdf_round.html", context, f"{league.slug}-round-{number}.pdf", LEAGUE_CSS)


@login_required
@require_safe
def league_trf(request, club, league):
    """The league as a TRF (`pairing.engines.league_trf`), for the organiser's TDs."""
    league = get_object_or_404(League, club=directed_club(request, club), slug=league)
    try:
        text = write_league(league_file(league))
    except InvalidInput as error:
        return HttpResponse(str(error), status=409, content_type="text/plain; charset=utf-8")
    response = HttpResponse(text, content_type="text/plain; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{league.slug}.trf"'
    return response


class LeagueImportForm(forms.Form):
    """A TRF written by a league's export, or a team file of another program (`013` team lines and `001`
    games: `league_trf_other`), and the new league's name and short name (empty: the file's)."""

    file = forms.FileField(label=gettext_lazy("TRF file"))
    name = forms.CharField(label=gettext_lazy("name"), max_length=120, required=False)
    slug = forms.SlugField(label=gettext_lazy("short name"), required=False)

    def clean_file(self):
        raw = self.cleaned_data["file"].read()
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            text = raw.decode("latin-1")
        try:
            return read_league(text, self.cleaned_data["file"].name)
        except TrfError as error:
            raise ValidationError(
                _("Line %(line)s: %(reason)s") % {"line": error.line or "-", "reason": error.reason}
            ) from None


@login_required
def import_league_page(request, club):
    """The TD's form: a league's TRF read into a new league of the club."""
    club = directed_club(request, club)
    form = LeagueImportForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            league = import_league(club, request.user, data["file"], name=data["name"], slug=data["slug"])
        except ValidationError as error:
            form.add_error(None, error)
        else:
            messages.success(request, _("League imported."))
            return redirect("league", club.slug, league.slug)
    status = 400 if form.errors else 200
    return render(request, "teams/import.html", {"club": club, "form": form}, status=status)
