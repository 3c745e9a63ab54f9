"""What every competition page shares: the competition looked up (with the TD check), htmx partials, and
publishing a round as its page posts it."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.db.models import Case, DecimalField, OuterRef, Subquery, Sum, Value, When
from django.db.models.functions import Coalesce
from django.shortcuts import render
from django.utils.translation import gettext as _

from pairing import services

from ..flash import flash_errors
from ..forms import PublishForm, ResultsForm
from ..models import RESULT_POINTS, Bye, Game, Round
from ..state import CompetitionData, copied


def _page(request, template: str, context: dict, partial: str | None = None):
    if partial and request.htmx:
        return render(request, f"{template}#{partial}", context)
    return render(request, template, context)


def _round_context(data: CompetitionData, rnd: Round) -> dict:
    by_id = data.by_id
    scores = data.scores(upto_round=rnd.number - 1)
    games = [g for g in data.games if g.round_id == rnd.id]
    if data.kept is not None:  # data kept between versions, which other requests read: this page's own copies
        games = [copied(g) for g in games]
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


def with_scores_before(games) -> list:
    """`games` (a queryset) with each player's points before the game's round (`white_score`, `black_score`),
    as `_round_context` gives them (the engine state's score), counted by the database."""
    earlier = {"round__competition": OuterRef("round__competition"), "round__number__lt": OuterRef("round__number")}

    def points(player: str, colour: str, column: int):
        rows = Game.objects.filter(**earlier, **{colour: OuterRef(player)}).values(colour)
        number = DecimalField(max_digits=4, decimal_places=1)
        value = Case(*(When(result=r, then=Value(p[column], number)) for r, p in RESULT_POINTS.items()),
                     default=Value(0, number), output_field=number)  # fmt: skip
        return Subquery(rows.annotate(s=Sum(value, output_field=number)).values("s"), output_field=number)

    def byes(player: str):
        rows = Bye.objects.filter(**earlier, participant=OuterRef(player)).values("participant")
        return Subquery(rows.annotate(s=Sum("points")).values("s"), output_field=DecimalField())

    zero = Value(0, output_field=DecimalField())
    annotated = games.annotate(
        _white_score=Coalesce(points("white", "white", 0), zero) + Coalesce(points("white", "black", 1), zero)
        + Coalesce(byes("white"), zero),
        _black_score=Coalesce(points("black", "white", 0), zero) + Coalesce(points("black", "black", 1), zero)
        + Coalesce(byes("black"), zero),
    )  # fmt: skip
    games = list(annotated)
    for game in games:
        game.white_score, game.black_score = float(game._white_score), float(game._black_score)
    return games


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
