"""What every competition page shares: the competition looked up (with the TD check), htmx partials, and
publishing a round as its page posts it."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.shortcuts import render
from django.utils.translation import gettext as _

from pairing import services

from ..flash import flash_errors
from ..forms import PublishForm, ResultsForm
from ..models import Round
from ..state import CompetitionData


def _page(request, template: str, context: dict, partial: str | None = None):
    if partial and request.htmx:
        return render(request, f"{template}#{partial}", context)
    return render(request, template, context)


def _round_context(data: CompetitionData, rnd: Round) -> dict:
    by_id = data.by_id
    scores = data.scores(upto_round=rnd.number - 1)
    games = [g for g in data.games if g.round_id == rnd.id]
    for g in games:
        g.white, g.black = by_id[g.white_id], by_id[g.black_id]
        g.white_score, g.black_score = scores[g.white_id], scores[g.black_id]
    byes = [b for b in data.byes if b.round_id == rnd.id]
    for b in byes:
        b.participant = by_id[b.participant_id]
    return {
        "competition": data.competition,
        "rounds": [r for r in data.rounds if r.is_paired],
        "round": rnd,
        "games": games,
        "byes": byes,
    }


def publish_posted(request, rnd: Round) -> None:
    """Publish `rnd` as the posted form asks (based on the boards the page showed); the outcome as a message."""
    form = PublishForm(request.POST)
    try:
        if not form.is_valid():
            raise ValidationError(_("The form did not say which boards it showed; reload the page."))
        services.publish(rnd, request.user, based_on=form.cleaned_data["based_on"])
        messages.success(request, _("Round %(n)s is published.") % {"n": rnd.number})
    except ValidationError as error:
        flash_errors(request, error)


def enter_posted_results(request, games) -> list[str]:
    """Enter the results the form posted for `games` (one board, htmx, or every board of the round), each
    based on the result the page showed there; returns the problems, one line per board."""
    by_board = {game.board: game for game in games}
    form = ResultsForm(request.POST, boards=list(by_board))
    form.is_valid()
    errors = [f"{_('Board')} {board}: {problem}" for board, problem in form.board_errors()]
    for board, typed, shown in form.entered():
        try:
            result = services.parse_result(typed)
            override = form.cleaned_data.get("override", False)
            services.set_result(by_board[board], result, request.user, override=override, based_on=shown)
        except ValidationError as error:
            errors += [f"{_('Board')} {board}: {m}" for m in error.messages]
    return errors
