"""A team league's pages: the public league page (table and schedule) and the organiser's TD pages
(a new league, its teams and rosters, the schedule). Thin: each reads its form and calls
`teams.league_services`."""

from __future__ import annotations

from datetime import timedelta

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from clubs.access import directed_club
from clubs.models import Club
from pairing.engines.league import board_colours

from . import league_services
from .forms import LeagueForm, LineupForm, ResultsForm, RosterForm, ScheduleForm, TeamForm
from .models import League
from .table import league_table, outcome, score_table


def _directed_league(request, club: str, league: str) -> League:
    """The league `league` organised by the club `club`, if the user directs that club; 403 or 404."""
    return get_object_or_404(League, club=directed_club(request, club), slug=league)


@login_required
def new_league(request, club):
    club = directed_club(request, club)
    form = LeagueForm(request.POST or None, club=club)
    if request.method == "POST" and form.is_valid():
        try:
            league = league_services.create_league(
                club, request.user, name=form.cleaned_data["name"], slug=form.cleaned_data["slug"],
                settings=form.rule_settings(), tiebreaks=form.tiebreak_codes(),
            )  # fmt: skip
        except ValidationError as error:
            form.add_error(None, error)
        else:
            messages.success(request, _("League created."))
            return redirect("league_manage", club.slug, league.slug)
    return render(request, "teams/new.html", {"club": club, "form": form})


def _manage_context(league: League, **forms) -> dict:
    teams = list(league.teams.select_related("club", "captain").prefetch_related("players__member"))
    return {
        "league": league,
        "club": league.club,
        "teams": teams,
        "scheduled": league.matches.exists(),
        "team_form": forms.get("team_form") or TeamForm(initial={"club": league.club}),
        "roster_form": forms.get("roster_form") or RosterForm(league=league),
        "schedule_form": forms.get("schedule_form") or ScheduleForm(),
    }


@login_required
def manage_league(request, club, league):
    """The organiser's page of a league; its POST adds a team."""
    league = _directed_league(request, club, league)
    form = TeamForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            league_services.add_team(league, request.user, club=data["club"], name=data["name"], rank=data["rank"])
        except ValidationError as error:
            form.add_error(None, error)
        else:
            messages.success(request, _("Team added."))
            return redirect("league_manage", league.club.slug, league.slug)
    context = _manage_context(league, team_form=form if request.method == "POST" else None)
    return render(request, "teams/manage.html", context, status=400 if form.errors else 200)


@login_required
@require_POST
def set_roster(request, club, league):
    league = _directed_league(request, club, league)
    form = RosterForm(request.POST, league=league)
    if form.is_valid():
        data = form.cleaned_data
        try:
            league_services.set_roster(data["team"], request.user, data["regulars"], data["reserves"])
        except ValidationError as error:
            form.add_error(None, error)
        else:
            messages.success(request, _("Roster saved."))
            return redirect("league_manage", league.club.slug, league.slug)
    return render(request, "teams/manage.html", _manage_context(league, roster_form=form), status=400)


@login_required
@require_POST
def make_schedule(request, club, league):
    league = _directed_league(request, club, league)
    form = ScheduleForm(request.POST)
    if form.is_valid():
        first, weeks = form.cleaned_data["first_date"], form.cleaned_data["weeks"]
        rounds = (league.teams.count() + league.teams.count() % 2 - 1) * league.rules.cycles
        dates = [first + timedelta(weeks=weeks * n) for n in range(max(rounds, 0))] if first else []
        try:
            league_services.make_schedule(league, request.user, dates=dates)
        except ValidationError as error:
            form.add_error(None, error)
        else:
            messages.success(request, _("Schedule made."))
            return redirect("league", league.club.slug, league.slug)
    return render(request, "teams/manage.html", _manage_context(league, schedule_form=form), status=400)


@require_safe
def league_page(request, club, league):
    """The league table and every round's matches with their scores: for anyone."""
    league = get_object_or_404(League, club=get_object_or_404(Club, slug=club), slug=league)
    matches = league.matches.select_related("league", "home", "away").prefetch_related("boards", "lineups")
    played = [(match, outcome(match)) for match in matches]
    rounds: dict[int, list] = {}
    for match, result in played:
        rounds.setdefault(match.round, []).append((match, result))
    teams = list(league.teams.exclude(number=None))
    free = {n: [t for t in teams if all(t.pk not in (m.home_id, m.away_id) for m, _ in ms)] for n, ms in rounds.items()}
    context = {
        "scores": score_table(league, played),
        "league": league,
        "club": league.club,
        "table": league_table(league),
        "rounds": [(n, ms, free[n]) for n, ms in sorted(rounds.items())],
        "rules": league.rules,
        "directs": league.club.is_director(request.user),
    }
    return render(request, "teams/league.html", context)


def _match_forms(match, data=None, action: str = "") -> dict:
    """The match page's forms: each team's line-up and the results, the posted one bound to `data`."""
    boards = match.league.rules.boards
    forms = {}
    for side, team in (("home", match.home), ("away", match.away)):
        bound = data if action == side else None
        forms[side] = LineupForm(bound, match=match, team=team, boards=boards)
    forms["results"] = ResultsForm(data if action == "results" else None, match=match, boards=boards)
    return forms


def _save_match_form(request, match, form, action: str) -> None:
    """Hand the valid form to the league's writer; ValidationError names what it refused."""
    if action == "results":
        league_services.set_board_results(match, request.user, form.results())
    else:
        league_services.set_lineup(match, form.team, request.user, form.players())


@login_required
def manage_match(request, club, league, pk):
    """A match's card for the organiser: each team's line-up, then the boards' results."""
    league = _directed_league(request, club, league)
    match = get_object_or_404(league.matches.select_related("league", "home__club", "away__club"), pk=pk)
    action = request.POST.get("action", "") if request.method == "POST" else ""
    forms = _match_forms(match, request.POST or None, action)
    form = forms.get(action)
    status = 200
    if request.method == "POST":
        if form is not None and form.is_valid():
            try:
                _save_match_form(request, match, form, action)
            except ValidationError as error:
                form.add_error(None, error)
            else:
                messages.success(request, _("Saved."))
                return redirect("league_match", league.club.slug, league.slug, match.pk)
        status = 400
    colours = board_colours(league.rules.boards, league.rules.home_white)
    context = {"league": league, "club": league.club, "match": match, "forms": forms, "outcome": outcome(match),
               "result_rows": list(zip(forms["results"], colours, strict=True))}  # fmt: skip
    return render(request, "teams/match.html", context, status=status)
