"""A team league's pages: the public league page (table and schedule), the organiser's TD pages
(a new league, its teams and rosters, the schedule, a match's card) and a captain's card of his match.
Thin: each reads its form and calls `pairing.services.leagues`."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from clubs.access import directed_club
from clubs.models import Club
from pairing.engines.league import board_colours
from pairing.services import leagues as league_services
from pairing.services import team_cups as cup_services

from .caching import public_league_page
from .exports import public_league
from .forms import (
    BasedOn,
    CaptainForm,
    DeciderForm,
    DisputeForm,
    DrawForm,
    LeagueForm,
    LineupForm,
    ResultsForm,
    RosterForm,
    ScheduleForm,
    TeamForm,
)
from .models import League
from .table import cup_decision, league_table, outcome, public_boards, read_cup, score_table, team_sheet


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
    seen = {"based_on": league_services.league_seen(league)}
    cup = read_cup(league) if league.rules.cup else None
    return {
        "cup": cup,
        "draw_round": (cup.next_round if cup is not None else 1 if len(teams) >= 2 else None)
        if league.rules.cup
        else None,
        "draw_form": forms.get("draw_form") or DrawForm(initial=seen),
        "league": league,
        "club": league.club,
        "teams": teams,
        "scheduled": league.matches.exists(),
        "team_form": forms.get("team_form") or TeamForm(initial={"club": league.club, **seen}),
        "roster_form": forms.get("roster_form") or RosterForm(league=league, initial=seen),
        "schedule_form": forms.get("schedule_form") or ScheduleForm(initial=seen),
    }


@login_required
def manage_league(request, club, league):
    """The organiser's page of a league; its POST adds a team."""
    league = _directed_league(request, club, league)
    form = TeamForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            league_services.add_team(league, request.user, club=data["club"], name=data["name"], rank=data["rank"],
                                     captain=data["captain"], based_on=data["based_on"])  # fmt: skip
        except ValidationError as error:
            form.add_error(None, error)
        else:
            messages.success(request, _("Team added."))
            return redirect("league_manage", league.club.slug, league.slug)
    context = _manage_context(league, team_form=form if request.method == "POST" else None)
    return render(request, "teams/manage.html", context, status=400 if form.errors else 200)


def _manage_post(request, league: League, form, form_name: str, write: Callable[[dict], object], done: str,
                 back: str):  # fmt: skip
    """A form posted from the league's manage page: its valid data handed to `write` (the league's writer),
    which raises ValidationError when it refuses (shown on the form); done, the message `done` and a redirect
    to the league's page `back`; else the manage page again with the form (`form_name` in its context), 400."""
    if form.is_valid():
        try:
            write(form.cleaned_data)
        except ValidationError as error:
            form.add_error(None, error)
        else:
            messages.success(request, done)
            return redirect(back, league.club.slug, league.slug)
    return render(request, "teams/manage.html", _manage_context(league, **{form_name: form}), status=400)


@login_required
@require_POST
def set_roster(request, club, league):
    league = _directed_league(request, club, league)

    def write(data: dict) -> None:
        league_services.set_roster(data["team"], request.user, data["regulars"], data["reserves"],
                                   based_on=data["based_on"])  # fmt: skip

    form = RosterForm(request.POST, league=league)
    return _manage_post(request, league, form, "roster_form", write, _("Roster saved."), "league_manage")


@login_required
@require_POST
def make_schedule(request, club, league):
    league = _directed_league(request, club, league)

    def write(data: dict) -> None:
        first, weeks = data["first_date"], data["weeks"]
        rounds = (league.teams.count() + league.teams.count() % 2 - 1) * league.rules.cycles
        dates = [first + timedelta(weeks=weeks * n) for n in range(max(rounds, 0))] if first else []
        league_services.make_schedule(league, request.user, dates=dates, based_on=data["based_on"])

    form = ScheduleForm(request.POST)
    return _manage_post(request, league, form, "schedule_form", write, _("Schedule made."), "league")


@login_required
@require_POST
def draw_round(request, club, league):
    """The TD draws the cup's next round (round 1 by lot or seeded; later rounds from the winners)."""
    league = _directed_league(request, club, league)

    def write(data: dict) -> None:
        cup_services.draw_round(league, request.user, method=data["method"] or "lot", day=data["date"],
                                based_on=data["based_on"])  # fmt: skip

    form = DrawForm(request.POST)
    return _manage_post(request, league, form, "draw_form", write, _("Round drawn."), "league")


@require_safe
@public_league_page
def league_page(request, club, league):
    """The league table and every round's matches with their scores: for anyone."""
    league = public_league(club, league)
    matches = league.matches.select_related("league", "home", "away").prefetch_related("boards", "lineups")
    played = [(match, outcome(match)) for match in matches]
    rounds: dict[int, list] = {}
    for match, result in played:
        rounds.setdefault(match.round, []).append((match, result))
    teams = list(league.teams.exclude(number=None))
    free = {n: [t for t in teams if all(t.pk not in (m.home_id, m.away_id) for m, _ in ms)] for n, ms in rounds.items()}
    context = {
        "cup": read_cup(league) if league.rules.cup else None,
        "scores": score_table(league, played),
        "league": league,
        "club": league.club,
        "table": [] if league.rules.cup else league_table(league),
        "rounds": [(n, ms, free[n]) for n, ms in sorted(rounds.items())],
        "rules": league.rules,
        "directs": league.club.is_director(request.user),
    }
    return render(request, "teams/league.html", context)


def _match_forms(match, sides: tuple[str, ...], data=None, action: str = "", td: bool = False) -> dict:
    """The match page's forms for who sees it (`sides`: the line-ups he enters; `td`: the organiser's TD),
    the posted one bound to `data`, each carrying what the page showed (`match_seen`)."""
    boards = match.league.rules.boards
    initial = {"based_on": league_services.match_seen(match)}

    def bound(name):
        return data if action == name else None

    forms = {}
    for side in sides:
        team = getattr(match, side)
        forms[side] = LineupForm(bound(side), match=match, team=team, boards=boards, initial=initial)
    if td or not (match.locked or match.disputed):
        forms["results"] = ResultsForm(bound("results"), match=match, boards=boards, initial=initial)
    if td and match.league.rules.cup:
        decision = cup_decision(match)
        if decision.needs_decider or match.decider:
            forms["decider"] = DeciderForm(bound("decider"), match=match, initial=initial, prefix="decider")
    if td and match.disputed:
        forms["settle"] = ResultsForm(bound("settle"), match=match, boards=boards, initial=initial, prefix="settle")
    if not td and not (match.locked or match.disputed):
        forms["confirm"] = BasedOn(bound("confirm"), initial=initial, prefix="confirm")
        forms["dispute"] = DisputeForm(bound("dispute"), initial=initial, prefix="dispute")
    return forms


def _save_match_form(request, match, form, action: str) -> None:
    """Hand the valid form to the league's writer; ValidationError names what it refused."""
    seen = form.cleaned_data["based_on"]
    if action == "results":
        league_services.set_board_results(match, request.user, form.results(), based_on=seen)
    elif action == "settle":
        league_services.settle_dispute(match, request.user, form.results(), based_on=seen)
    elif action == "confirm":
        league_services.confirm_result(match, request.user, based_on=seen)
    elif action == "decider":
        cup_services.set_decider(match, request.user, form.cleaned_data["side"], based_on=seen)
    elif action == "dispute":
        league_services.dispute_result(match, request.user, form.cleaned_data["reason"], based_on=seen)
    else:
        league_services.set_lineup(match, form.team, request.user, form.players(), based_on=seen)


def _match_page(request, match, forms: dict, action: str, back: str, captain: str = ""):
    """Save the posted form (if valid and allowed), or show the match's card with its forms."""
    league = match.league
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
                return redirect(back, league.club.slug, league.slug, match.pk)
        status = 400
    colours = board_colours(league.rules.boards, league.rules.home_white)
    # The TD's card of a disputed match shows the settle form's fields: they are what its post is read from.
    results = forms.get("settle") or forms.get("results")
    rows = [results[f"result_{n}"] for n in range(1, league.rules.boards + 1)] if results is not None else []
    result = outcome(match)
    decision = cup_decision(match, result) if league.rules.cup else None
    context = {"league": league, "club": league.club, "match": match, "forms": forms, "outcome": result,
               "decision": decision, "rules": league.rules,
               "result_rows": list(zip(rows, colours, strict=False)), "captain": captain,
               "dispute_reason": league_services.dispute_reason(match),
               "boards": match.boards.select_related("home_player", "away_player")}  # fmt: skip
    return render(request, "teams/match.html", context, status=status)


def _match(league: League, pk: int):
    related = ("league__club", "home__club", "away__club", "home__captain", "away__captain")
    matches = league.matches.select_related(*related)
    return get_object_or_404(matches, pk=pk)


@login_required
def manage_match(request, club, league, pk):
    """A match's card for the organiser: each team's line-up, then the boards' results (and settling a
    disputed result)."""
    match = _match(_directed_league(request, club, league), pk)
    action = request.POST.get("action", "") if request.method == "POST" else ""
    forms = _match_forms(match, ("home", "away"), request.POST or None, action, td=True)
    return _match_page(request, match, forms, action, "league_match")


@login_required
def captain_match(request, club, league, pk):
    """A match's card for a team's captain (made for a phone): his team's line-up, the boards' results,
    then confirming or disputing the result. Anyone else: 403."""
    league = get_object_or_404(League, club=get_object_or_404(Club, slug=club), slug=league)
    match = _match(league, pk)
    side = league_services.captain_side(match, request.user)
    if not side:
        raise PermissionDenied
    action = request.POST.get("action", "") if request.method == "POST" else ""
    forms = _match_forms(match, (side,), request.POST or None, action)
    return _match_page(request, match, forms, action, "league_captain", captain=side)


@require_safe
@public_league_page
def match_page(request, club, league, pk):
    """A match for anyone: home and away, date, the line-ups once both are in, the colours and points of
    every board, the match's result and match points, and whether the captains confirmed or disputed it."""
    league = public_league(club, league)
    match = get_object_or_404(league.matches.select_related("home__club", "away__club").prefetch_related(
        "lineups", "boards__home_player", "boards__away_player"), pk=pk)  # fmt: skip
    match.league = league
    result = outcome(match)
    shown, boards = public_boards(match, result)
    context = {"league": league, "club": league.club, "match": match, "outcome": result, "boards": boards,
               "shown": shown, "directs": league.club.is_director(request.user)}  # fmt: skip
    return render(request, "teams/match_page.html", context)


@require_safe
@public_league_page
def team_page(request, club, league, pk):
    """A team for anyone: its club and captain, its roster in board order with each player's score (per
    board too), its matches and results, and its points per board."""
    league = public_league(club, league)
    team = get_object_or_404(league.teams.select_related("club", "captain"), pk=pk)
    team.league = league
    roster, matches, per_board = team_sheet(team)
    context = {"league": league, "club": league.club, "team": team, "roster": roster, "matches": matches,
               "per_board": per_board, "chooses": league_services.may_choose_captain(team, request.user)}  # fmt: skip
    return render(request, "teams/team.html", context)


@login_required
def team_captain(request, club, league, pk):
    """The page where the organiser's TD or a TD of the team's club chooses the team's captain; anyone
    else: 403."""
    league = public_league(club, league)
    team = get_object_or_404(league.teams.select_related("club", "captain"), pk=pk)
    team.league = league
    if not league_services.may_choose_captain(team, request.user):
        raise PermissionDenied
    initial = {"captain": team.captain, "based_on": league_services.team_seen(team)}
    form = CaptainForm(request.POST or None, team=team, initial=initial)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            league_services.set_captain(team, request.user, data["captain"], based_on=data["based_on"])
        except ValidationError as error:
            form.add_error(None, error)
        else:
            messages.success(request, _("Captain saved."))
            return redirect("league_team", league.club.slug, league.slug, team.pk)
    context = {"league": league, "club": league.club, "team": team, "form": form}
    return render(request, "teams/captain.html", context, status=400 if form.errors else 200)
