"""The TD's round page: results, club-match results, publish and finish."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from pairing import services

from ..access import directed_competition
from ..flash import flash_errors
from ..forms import ClubMatchForm
from ..gladiator import round_view
from ..models import Bye, Game, Round
from ..state import CompetitionData
from .common import _round_context, enter_posted_results, publish_posted, with_scores_before


@login_required
def manage_round(request, club, competition, number):
    competition = directed_competition(request, club, competition)
    if competition.engine.bracket:
        return redirect("cup", club, competition.slug)
    data = CompetitionData.load(competition)
    rnd = next((r for r in data.rounds if r.number == number and r.is_paired), None)
    if rnd is None:
        raise Http404
    context = _round_context(data, rnd) | {"participants": data.participants, "boards_seen": services.boards_seen(rnd)}
    context["next_number"] = _pairable_after(competition, rnd)
    if competition.gladiator:  # each board an encounter with its games (seed 004 §4.9.8)
        context["encounters"] = round_view(data, context["games"])
    return render(request, "tournaments/manage_round.html", context)


def _pairable_after(competition, rnd: Round) -> int | None:
    """The next round's number, when `rnd` is finished, is the last one paired and another is due: the
    page then offers to pair it."""
    if rnd.status != Round.Status.FINISHED:
        return None
    number = services.next_round_number(competition)
    planned = competition.planned_rounds()
    return number if number == rnd.number + 1 and (not planned or number <= planned) else None


@login_required
@require_POST
def enter_result(request, club, competition, number, board):
    """One board's result, saved as typed (htmx), or every board of the form at once (no JavaScript)."""
    competition = directed_competition(request, club, competition)
    if request.htmx and board:  # the one row, rendered from the one game: not the whole field
        return _enter_one_result(request, competition, number, board)
    rnd = get_object_or_404(Round, competition=competition, number=number)
    games = rnd.games.select_related("white__member", "black__member")
    errors = enter_posted_results(request, games.filter(board=board) if board else games)
    for message in errors:
        messages.error(request, message)
    if not errors:
        messages.success(request, _("Results saved."))
    return redirect("manage_round", club, competition.slug, number)


def _enter_one_result(request, competition, number: int, board: int):
    """One board's result typed on the round page (htmx): its row as it is now, with the players' scores
    before the round; one query reads the game, its round and the scores."""
    games = Game.objects.filter(round__competition=competition, round__number=number, board=board)
    found = with_scores_before(games.select_related("round", "white__member", "black__member"))
    if not found:
        get_object_or_404(Round, competition=competition, number=number)
        raise Http404
    game = found[0]
    game.round.competition = competition
    errors = enter_posted_results(request, [game])
    if competition.gladiator and not errors:
        return HttpResponse(headers={"HX-Refresh": "true"})  # the encounter's games and status change
    context = {"competition": competition, "round": game.round, "game": game, "errors": errors}
    if competition.gladiator:  # the players' scores count encounters, not games (seed 004 §4.9.8)
        context = _round_context(CompetitionData.load(competition), game.round) | {"errors": errors}
        context["game"] = next(g for g in context["games"] if g.board == board)
    return render(request, "tournaments/manage_round.html#result-row", context)


@login_required
@require_POST
def publish_round(request, club, competition, number):
    competition = directed_competition(request, club, competition)
    rnd = get_object_or_404(Round, competition=competition, number=number)
    publish_posted(request, rnd)
    if not competition.round_set.paired().filter(number=number).exists():  # undone meanwhile
        return redirect("manage", club, competition.slug)
    return redirect("manage_round", club, competition.slug, number)


@login_required
@require_POST
def finish_round(request, club, competition, number):
    competition = directed_competition(request, club, competition)
    rnd = get_object_or_404(Round, competition=competition, number=number)
    try:
        services.finish(rnd, request.user)
        messages.success(request, _("Round %(n)s is finished.") % {"n": number})
    except ValidationError as error:
        flash_errors(request, error)
    return redirect("manage_round", club, competition.slug, number)


@login_required
@require_POST
def club_match_result(request, club, competition, number, start_number):
    """The result of a club-match game played on club night (Keizer, seed 003 §1.3)."""
    competition = directed_competition(request, club, competition)
    bye = get_object_or_404(
        Bye, round__competition=competition, round__number=number, participant__start_number=start_number,
        kind=Bye.Kind.CLUB_MATCH,
    )  # fmt: skip
    try:
        form = ClubMatchForm(request.POST)
        if not form.is_valid():
            raise ValidationError([error for errors in form.errors.values() for error in errors])
        services.set_club_match_result(bye, form.cleaned_data["points"], request.user, form.cleaned_data["shown"])
    except ValidationError as error:
        flash_errors(request, error)
    return redirect("manage_round", club, competition.slug, number)
