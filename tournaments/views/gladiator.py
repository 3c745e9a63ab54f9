"""The TD's action on a Gladiator round (seed 004 §4.9.8): add the next game an encounter needs."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.shortcuts import get_object_or_404, redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from pairing import services

from ..access import directed_competition
from ..flash import flash_errors
from ..forms import NextGamesForm
from ..models import Round


@login_required
@require_POST
def next_game(request, club, competition, number, match):
    """Add the replay (colours reversed, reduced time) or the next blitz game of encounter `match`."""
    competition = directed_competition(request, club, competition, gladiator=True)
    rnd = get_object_or_404(Round.objects.paired(), competition=competition, number=number)
    try:
        form = NextGamesForm(request.POST)
        if not form.is_valid():
            raise ValidationError(_("The form did not say which boards it showed; reload the page."))
        (game,) = services.add_next_games(rnd, request.user, match, based_on=form.cleaned_data["based_on"])
    except ValidationError as error:
        flash_errors(request, error)
    else:
        messages.success(request, _("Game added on board %(board)s.") % {"board": game.board})
    return redirect("manage_round", club, competition.slug, number)
