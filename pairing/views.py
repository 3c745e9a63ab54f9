"""The TD's pairing actions: pair the next round (a large field in the background), exchange players, swap
colours."""

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.shortcuts import get_object_or_404, redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from jobs.views import follow
from pairing import services
from tournaments.access import directed_competition
from tournaments.flash import flash_errors
from tournaments.forms import ExchangeForm, PairForm, SwapForm
from tournaments.models import Game, Participant, Round

from . import tasks


@login_required
@require_POST
def pair(request, club, competition):
    competition = directed_competition(request, club, competition)
    large = competition.participants.count() >= settings.PAIRING_JOB_MIN_PLAYERS
    if large and not competition.engine.bracket:  # a knockout is drawn at once, match by match
        return follow(tasks.start(competition, request.user))
    try:
        rnd = services.pair_next_round(competition, request.user, expected=PairForm(request.POST).expected())
    except services.StaleAction as error:  # paired meanwhile (a double click): the round as it is
        messages.info(request, " ".join(error.messages))
        return redirect("manage_round", club, competition.slug, competition.round_set.last_number())
    except ValidationError as error:
        flash_errors(request, error)
        return redirect("manage", club, competition.slug)
    messages.success(request, _("Round %(n)s is paired. Check the boards, then publish.") % {"n": rnd.number})
    return redirect("manage_round", club, competition.slug, rnd.number)


@login_required
@require_POST
def exchange(request, club, competition, number):
    competition = directed_competition(request, club, competition)
    rnd = get_object_or_404(Round, competition=competition, number=number)
    form = ExchangeForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Choose two players."))
        return redirect("manage_round", club, competition.slug, number)
    posted = form.cleaned_data
    try:
        a = get_object_or_404(Participant, competition=competition, start_number=posted["a"])
        b = get_object_or_404(Participant, competition=competition, start_number=posted["b"])
        services.exchange_players(rnd, a, b, request.user, override=posted["override"], based_on=posted["based_on"])
        messages.success(request, _("%(a)s and %(b)s exchanged places.") % {"a": a.name, "b": b.name})
    except ValidationError as error:
        flash_errors(request, error)
        if any(e.code == "rule" for e in error.error_list):
            messages.warning(request, _("Tick “override” to make this change anyway; it will be recorded."))
    return redirect("manage_round", club, competition.slug, number)


@login_required
@require_POST
def swap_colours(request, club, competition, number, board):
    competition = directed_competition(request, club, competition)
    rnd = get_object_or_404(Round, competition=competition, number=number)
    game = get_object_or_404(Game, round=rnd, board=board)
    form = SwapForm(request.POST)
    try:
        if not form.is_valid():
            raise ValidationError(_("The form did not say which boards it showed; reload the page."))
        posted = form.cleaned_data
        services.swap_colours(rnd, game, request.user, override=posted["override"], based_on=posted["based_on"])
    except ValidationError as error:
        flash_errors(request, error)
    return redirect("manage_round", club, competition.slug, number)
