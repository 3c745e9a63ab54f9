"""Knockout pages: the public bracket (and its PDF) and the TD's cup page (seed 004 §4.9.7); rating groups (§65).

Thin views over `tournaments.knockout`; the standings and pairings pages of a
knockout competition show the bracket.
"""

from __future__ import annotations

from collections import Counter

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from pairing import services
from pairing.engines.state import InvalidInput

from .. import groups, knockout
from ..access import club_competition, directed_competition
from ..caching import public_page
from ..flash import flash_errors
from ..forms import CupFormatForm, GroupSizeForm, NextGamesForm, PairForm, TeamSettingsForm
from ..models import Competition, Round
from ..notes import render_note
from ..olympiad import team_event
from ..pdf import render_pdf
from ..prizes import team_tiebreak_name
from ..state import CompetitionData
from .common import enter_posted_results, publish_posted


def _knockout(competition: Competition) -> Competition:
    """The competition, when it is a knockout (a cup page of another kind does not exist)."""
    if not competition.engine.bracket:
        raise Http404
    return competition


def _rounds(cup: knockout.Cup) -> list[dict]:
    if cup.bracket is None:
        return []
    return [
        {"number": n, "name": knockout.round_name(cup.bracket, n), "matches": cup.matches(n)}
        for n in range(1, len(cup.bracket.rounds) + 1)
    ]


def _format(competition: Competition) -> dict:
    return {key: competition.settings.get(key) for key in ("games", "rapid_games", "blitz_games")}


def render_bracket(request, competition: Competition) -> HttpResponse:
    """The bracket as far as the published rounds go; ?format=pdf prints it."""
    cup = knockout.Cup.load(competition, public=True)
    context = {
        "competition": competition,
        "cup": cup,
        "rounds": _rounds(cup),
        "champion": cup.champion(),
        "format": _format(competition),
        "settings_seen": services.seen(competition, services.SETTINGS_ACTIONS),
        "entrants": cup.entrants(),
    }
    if request.GET.get("format") == "pdf":
        return render_pdf(request, "tournaments/bracket.html", context, f"{competition.slug}-bracket.pdf")
    return render(request, "tournaments/bracket.html", context)


@public_page
def bracket_page(request, club, competition):
    return render_bracket(request, _knockout(club_competition(club, competition)))


def _cup_context(competition: Competition) -> dict:
    cup = knockout.Cup.load(competition)
    rounds = _rounds(cup)
    current = cup.paired_rounds[-1] if cup.paired_rounds else None
    matches = rounds[current.number - 1]["matches"] if current and rounds else []
    # Offer the next round once the current one is published and every match in it is decided.
    ready = current is None or (current.status != Round.Status.DRAFT and all(m.decided for m in matches))
    return {
        "competition": competition,
        "club": competition.club,
        "cup": cup,
        "rounds": rounds,
        "round": current,
        "boards_seen": services.boards_seen(current) if current else 0,
        "matches": matches,
        "round_name": rounds[current.number - 1]["name"] if current and rounds else "",
        "needing_games": [m for m in matches if m.needs_game],
        "next_number": cup.next_round_number() if ready and cup.can_pair() else None,
        "next_name": knockout.round_name(cup.bracket, cup.next_round_number()) if ready and cup.can_pair() else "",
        "champion": cup.champion(),
        "format": _format(competition),
        "settings_seen": services.seen(competition, services.SETTINGS_ACTIONS),
        "entrants": cup.entrants(),
    }


@login_required
def cup_page(request, club, competition):
    """The TD's page: pair a round, publish it, enter results, add the games a match needs."""
    competition = _knockout(directed_competition(request, club, competition))
    return render(request, "tournaments/knockout_cup.html", _cup_context(competition))


@login_required
@require_POST
def cup_format(request, club, competition):
    """Games per match and per tie-break stage, until round 1 is paired."""
    competition = _knockout(directed_competition(request, club, competition))
    fixed = _("The match format is fixed once round 1 is paired.")
    form = CupFormatForm(request.POST)
    try:
        if not form.is_valid():
            raise ValidationError(_("Give whole numbers of games."))
        settings = {key: form.cleaned_data[key] for key in ("games", "rapid_games", "blitz_games")}
        services.save_format(competition, settings, request.user, fixed, based_on=form.cleaned_data["based_on"])
    except ValidationError as error:
        flash_errors(request, error)
    else:
        messages.success(request, _("Match format saved."))
    return redirect("cup", club, competition.slug)


@login_required
@require_POST
def cup_pair(request, club, competition):
    competition = _knockout(directed_competition(request, club, competition))
    try:
        rnd = services.pair_next_round(competition, request.user, expected=PairForm(request.POST).expected())
    except services.StaleAction as error:
        messages.info(request, " ".join(error.messages))
    except ValidationError as error:
        flash_errors(request, error)
    else:
        messages.success(request, _("Round %(n)s is paired. Check the boards, then publish.") % {"n": rnd.number})
    return redirect("cup", club, competition.slug)


@login_required
@require_POST
def cup_publish(request, club, competition, number):
    competition = _knockout(directed_competition(request, club, competition))
    rnd = get_object_or_404(Round, competition=competition, number=number)
    publish_posted(request, rnd)
    return redirect("cup", club, competition.slug)


@login_required
@require_POST
def cup_next_games(request, club, competition, number):
    """Add the next game of every match that needs one (or of the match posted)."""
    competition = _knockout(directed_competition(request, club, competition))
    rnd = get_object_or_404(Round.objects.paired(), competition=competition, number=number)
    form = NextGamesForm(request.POST)
    try:
        if not form.is_valid():
            raise ValidationError(_("The form did not say which boards it showed; reload the page."))
        posted = form.cleaned_data
        added = services.add_next_games(rnd, request.user, posted["match"], based_on=posted["based_on"])
    except ValidationError as error:
        flash_errors(request, error)
    else:
        if added:
            messages.success(request, _("%(n)s game(s) added.") % {"n": len(added)})
        else:
            messages.info(request, _("No match needs another game now."))
    return redirect("cup", club, competition.slug)


@login_required
@require_POST
def cup_result(request, club, competition, number, board):
    """One game's result typed on the cup page (htmx: the row back), or every game of the form."""
    competition = _knockout(directed_competition(request, club, competition))
    rnd = get_object_or_404(Round.objects.paired(), competition=competition, number=number)
    games = rnd.games.order_by("board")
    errors = enter_posted_results(request, games.filter(board=board) if board else games)
    if request.htmx and board:
        context = _cup_context(competition) | {"errors": errors}
        view = next((m for m in context["matches"] if any(g.board == board for g in m.games)), None)
        if view is None or (context["champion"] and not errors):  # a game removed, or the cup is won
            return HttpResponse(headers={"HX-Refresh": "true"})
        context["m"] = view
        context["game"] = next(g for g in view.games if g.board == board)
        template = "tournaments/knockout_cup.html"
        row = render_to_string(f"{template}#game-row", context, request=request)
        head = render_to_string(f"{template}#match-head", context | {"oob": True}, request=request)
        return HttpResponse(row + head)
    for message in errors:
        messages.error(request, message)
    if not errors:
        messages.success(request, _("Results saved."))
    return redirect("cup", club, competition.slug)


@login_required
def split_groups(request, club, competition):
    """Rating groups (seed 004 §65): preview the division for a group size, then create one competition per group."""
    competition = directed_competition(request, club, competition)
    form = GroupSizeForm(request.POST if request.method == "POST" else request.GET)
    size = form.data.get("size", "")
    division, error = [], ""
    if size or request.method == "POST":
        if form.is_valid():
            try:
                division = groups.divide(competition, form.cleaned_data["size"])
            except ValueError:
                error = _("Give the number of players per group.")
            except ValidationError as problem:
                error = " ".join(problem.messages)
        else:
            error = " ".join(form.errors["size"])
    if request.method == "POST" and not error:
        try:
            created = services.split_into_groups(
                competition, form.cleaned_data["size"], request.user, form.cleaned_data["based_on"]
            )
        except ValidationError as problem:
            error = " ".join(problem.messages)
        else:
            messages.success(request, _("%(n)s competitions created, one per group.") % {"n": len(created)})
            return redirect("club", club)
    context = {"competition": competition, "club": competition.club, "size": size, "division": division,
               "based_on": services.seen(competition, services.GROUP_ACTIONS)}  # fmt: skip
    return render(request, "tournaments/split_groups.html", context | {"error": error})


def render_team_standings(request, competition: Competition) -> HttpResponse:
    """The olympiad team tournament (seed 004 §4.9.9.5): team table, crosstable, matches, board scores."""
    try:
        event = team_event(CompetitionData.load(competition, public=True))
    except InvalidInput as error:  # e.g. more teams than players: said on the page, fixed in the team settings
        context = {"competition": competition, "problem": render_note(error.note), "rows": [], "rounds": []}
        return render(request, "tournaments/olympiad.html", context)
    tournament, by_start = event.tournament, event.by_start
    members = {t.number: [by_start[p] for p in t.players] for t in tournament.teams}
    numbers = sorted(members)
    shared = Counter(line.rank for line in event.standings)
    rows = [
        {
            "standing": line,
            "rank": str(line.rank) if shared[line.rank] == 1 else f"{line.rank}-{line.rank + shared[line.rank] - 1}",
            "players": members[line.team],
            "cross": [tournament.crosstable[line.team].get(other) for other in numbers],
            "tiebreaks": [line.values.get(code) for code in event.codes],
        }
        for line in event.standings
    ]
    rounds = [
        {
            "number": n,
            "matches": [
                {
                    "match": m,
                    "first": m.board_points(m.first),
                    "second": m.board_points(m.second),
                    "boards": [
                        (b, by_start.get(b.white or 0), by_start.get(b.black or 0), _board_result(b)) for b in m.boards
                    ],
                }
                for m in tournament.rounds[n - 1]
            ],
            "bye": tournament.byes[n - 1],
        }
        for n in range(1, event.paired_rounds + 1)
    ]
    players = [(s, by_start[s.player]) for s in tournament.players]
    context = {
        "competition": competition,
        "rows": rows,
        "numbers": numbers,
        "rounds": rounds,
        "players": players,
        "codes": [(code, team_tiebreak_name(code)) for code in event.codes],
    }
    if request.GET.get("format") == "pdf":
        return render_pdf(request, "tournaments/olympiad.html", context, f"{competition.slug}-teams.pdf")
    return render(request, "tournaments/olympiad.html", context)


def _board_result(board) -> str:
    if board.result is None:
        return ""
    if board.forfeit:
        return "+ / -" if board.result == 1.0 else "- / +"
    if board.black_result is not None:  # both lost: a double forfeit, or both had withdrawn
        return "0-0"
    return {1.0: "1-0", 0.5: "½-½", 0.0: "0-1"}[board.result]


@login_required
@require_POST
def team_settings(request, club, competition):
    """Number of teams and of cycles of an olympiad team tournament, until round 1 is paired."""
    competition = directed_competition(request, club, competition)
    if not competition.engine.teams:
        raise Http404
    fixed = _("The teams are fixed once round 1 is paired.")
    form = TeamSettingsForm(request.POST)
    try:
        if not form.is_valid():
            raise ValidationError(_("Give whole numbers."))
        settings = {key: form.cleaned_data[key] for key in ("teams", "cycles")}
        players = competition.participants.count()
        if settings["teams"] > players:
            raise ValidationError(
                _("%(teams)s teams need at least %(teams)s players; the competition has %(players)s.")
                % {"teams": settings["teams"], "players": players}
            )
        services.save_format(competition, settings, request.user, fixed, based_on=form.cleaned_data["based_on"])
    except ValidationError as error:
        flash_errors(request, error)
    else:
        messages.success(request, _("Team settings saved."))
    return redirect("manage", club, competition.slug)
