"""Tie-breaks and prizes: the explanation of a standings value, the TD's settings, the prize list."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from pairing import services
from pairing.engines.prizes import default_sharing

from .. import prizes, standings
from ..access import club_competition, directed_competition
from ..caching import public_page
from ..flash import flash_errors
from ..models import PrizeTable
from ..pdf import render_pdf
from ..prizes import PrizeTableForm, prize_list, tiebreak_name
from ..state import CompetitionData
from .common import _page


@public_page
def tiebreak_explanation(request, club, competition, number, index):
    """How one standings value came about: opponents, their scores, cuts, unplayed rounds (htmx: the partial)."""
    competition = club_competition(club, competition)
    data = CompetitionData.load(competition, public=True)
    found = standings.explanation(data, number, index)
    if found is None:
        raise Http404
    code, explanation = found
    by_start = {p.start_number: p for p in data.participants}
    items = [
        {"item": item, "opponent": by_start.get(item.opponent) if item.opponent else None}
        for item in explanation.items
    ]  # fmt: skip
    context = {
        "competition": competition,
        "participant": by_start[number],
        "code": code,
        "name": tiebreak_name(code),
        "explanation": explanation,
        "notes": explanation.notes,
        "items": items,
        "number": number,
    }
    return _page(request, "tournaments/tiebreaks_explain.html", context, "explanation")


@login_required
def tiebreak_settings(request, club, competition):
    """The competition's tie-break list: free until round 1 is paired, then only by a recorded override."""
    competition = directed_competition(request, club, competition)
    current = list(competition.tiebreaks or [])
    teams = competition.engine.teams
    initial = {
        "codes": ", ".join(current or prizes.competition_defaults(competition)),
        "unrated_opponents": competition.unrated_opponents,
        "unrated_rating": competition.unrated_rating,
        "based_on": services.seen(competition, services.TIEBREAK_ACTIONS),
    }
    form = prizes.TiebreakForm(request.POST or None, initial=initial, teams=teams)
    if request.method == "POST" and form.is_valid():
        cleaned = form.cleaned_data
        try:
            unrated = None
            if cleaned.get("unrated_opponents"):
                unrated = (cleaned["unrated_opponents"], cleaned["unrated_rating"])
            services.set_tiebreaks(
                competition, cleaned["codes"], request.user, cleaned["override"], unrated, cleaned["based_on"]
            )
        except services.StaleAction as error:  # the page shows the tie-breaks as they are now
            flash_errors(request, error)
            return redirect("tiebreak_settings", club, competition.slug)
        except ValidationError as error:
            form.add_error(None, error)
        else:
            messages.success(request, _("Tie-breaks saved."))
            return redirect("tiebreak_settings", club, competition.slug)
    context = {
        "competition": competition,
        "form": form,
        "default": prizes.competition_defaults(competition),
        "uses_default": not current,
        "locked": prizes.tiebreaks_locked(competition),
        "catalogue": prizes.catalogue(teams),
        "teams": teams,
    }
    return render(request, "tournaments/tiebreaks.html", context)


@login_required
def prize_settings(request, club, competition):
    """The prize table: prizes by place, prize groups, and the regulation for equal points."""
    competition = directed_competition(request, club, competition)
    table = PrizeTable.objects.filter(competition=competition).first() or PrizeTable(competition=competition)
    initial = {"based_on": services.seen(competition, services.PRIZE_ACTIONS)}
    form = PrizeTableForm(request.POST or None, instance=table, initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            services.save_prize_table(form.save(commit=False), request.user, form.cleaned_data["based_on"])
        except services.StaleAction as error:  # the page shows the prize table as it is now
            flash_errors(request, error)
            return redirect("prize_settings", club, competition.slug)
        messages.success(request, _("Prize table saved."))
        return redirect("prize_list", club, competition.slug)
    default = dict(PrizeTable.Sharing.choices)[default_sharing(competition.system)]
    return render(request, "tournaments/prizes.html", {"competition": competition, "form": form, "default": default})


@public_page
def prize_list_page(request, club, competition):
    """The prize list: winners by name and prize (no private data), as a page or a PDF."""
    competition = club_competition(club, competition)
    data = CompetitionData.load(competition, public=True)
    context = {
        "competition": competition,
        "prizes": prize_list(data),
        "is_director": competition.club.is_director(request.user),
        "list_only": True,
    }
    if request.GET.get("format") == "pdf":
        return render_pdf(request, "tournaments/prizes.html", context, f"{competition.slug}-prizes.pdf")
    return render(request, "tournaments/prizes.html", context)
