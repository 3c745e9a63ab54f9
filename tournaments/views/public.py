"""Public competition pages: pairings, standings, crosstable, player card, the live board (and their PDFs).

Each is cached per competition version, with ETags (tournaments.caching)."""

from __future__ import annotations

from django.http import Http404
from django.shortcuts import render
from django.urls import reverse

from pairing.engines.dubov import aro_list
from pairing.engines.state import Colour

from .. import graphs, prizes, standings
from ..access import club_competition
from ..caching import public_page
from ..live import public_data
from ..models import Competition, Round
from ..pdf import line_format, qr_code, render_pdf
from ..state import CompetitionData
from .common import _page, _round_context
from .knockout import render_bracket, render_team_standings
from .printed import deferred_pdf


@public_page
def pairings(request, club, competition, number=None):
    competition = club_competition(club, competition)
    if competition.engine.bracket:
        return render_bracket(request, competition)
    is_director = competition.club.is_director(request.user)
    data = CompetitionData.load(competition) if is_director else public_data(competition)
    rounds = [r for r in data.rounds if r.is_paired]
    if not rounds and number is None:  # the page waits for round 1 (and polls for it)
        context = {"competition": competition, "rounds": [], "live": competition.status != Competition.Status.FINISHED}
        return _page(request, "tournaments/pairings.html", context, "boards")
    rnd = rounds[-1] if number is None else next((r for r in rounds if r.number == number), None)
    if rnd is None:
        return _round_to_come(request, competition, rounds, number)
    # The round in play (or the last one, until the competition ends) reloads itself while results come in.
    live = competition.status != Competition.Status.FINISHED and rnd.number == rounds[-1].number
    context = _round_context(data, rnd) | {"is_director": is_director, "live": live}
    if request.GET.get("format") == "pdf":
        filename = f"{competition.slug}-round-{rnd.number}.pdf"
        audience = "director" if is_director else "public"
        if deferred := deferred_pdf(request, competition, "pairings", filename, rnd.number, audience):
            return deferred
        public_url = request.build_absolute_uri(reverse("pairings", args=[club, competition.slug, rnd.number]))
        context["qr_code"], context["public_url"] = qr_code(public_url), public_url
        context["round_date"] = round_date(competition, rnd)
        return _render_list(request, competition, "pairings.html", context, filename)
    return _page(request, "tournaments/pairings.html", context, "boards")


def _render_list(request, competition: Competition, template: str, context: dict, filename: str):
    """The PDF of a large list: from its print template as lines of text for a large field
    (`tournaments.pdf.line_format`), else from the page's own template."""
    if line_format(competition):
        return render_pdf(request, f"tournaments/print/{template}", context, filename, lines=True)
    return render_pdf(request, f"tournaments/{template}", context, filename)


def _round_to_come(request, competition: Competition, rounds: list[Round], number: int):
    """A round not yet published (the QR code of a printed draft leads here): the page says so and shows the
    pairings once the TD publishes them; a round the competition will never have is not found."""
    planned = competition.rounds and number <= competition.rounds
    exists = competition.round_set.filter(number=number).exists()
    if competition.status == Competition.Status.FINISHED or not (planned or exists) or request.GET.get("format"):
        raise Http404
    context = {"competition": competition, "rounds": rounds, "waiting_for": number, "live": False}
    return _page(request, "tournaments/pairings.html", context, "boards")


def round_date(competition: Competition, rnd: Round):
    """The day a round is played, for the printed pairing list: its club night in the season's plan (the
    season app's `round_plan`), else the day it was paired."""
    plan = getattr(competition, "round_plan", None)
    night = plan.filter(number=rnd.number).values_list("night__date", flat=True).first() if plan is not None else None
    moment = rnd.published_at or rnd.paired_at
    return night or (moment.date() if moment else None)


LIVE_PANELS = {"round": 20, "standings": 12}  # seconds each panel of the live board stays up


@public_page(params=("panel",))
def live_board(request, club, competition):
    """The playing hall's screen: the round in play with its results, then the standings, in turn (no login).

    The page polls its panel every few seconds (a 304 while nothing changed, `tournaments.caching`)
    and switches panels by itself (htmx triggers; no script of its own)."""
    competition = club_competition(club, competition)
    data = public_data(competition)
    rounds = [r for r in data.rounds if r.is_paired]
    has_standings = not (competition.engine.bracket or competition.engine.teams) and bool(rounds)
    panel = request.GET.get("panel", "round")
    if panel not in LIVE_PANELS or (panel == "standings" and not has_standings) or not rounds:
        panel = "round" if rounds else "standings"
    context = {"competition": competition, "panel": panel, "rounds": rounds, "has_rounds": bool(rounds)}
    if has_standings:
        context["next_panel"] = "standings" if panel == "round" else "round"
        context["switch_after"] = LIVE_PANELS[panel]
    if panel == "round":
        context |= _round_context(data, rounds[-1])
    elif competition.engine.own_standings:
        _table, rows = standings.keizer_standings(data)
        context["standings"] = [(row.line.rank, row.participant, row.line.total) for row in rows]
        context["keizer"] = True
    elif rounds:
        _names, rows = standings.standings(data, explain=False)
        context["standings"] = [(row.rank, row.participant, row.points) for row in rows]
    if request.htmx:
        return render(request, "tournaments/live.html#board", context)
    return render(request, "tournaments/live.html", context)


@public_page
def standings_page(request, club, competition):
    competition = club_competition(club, competition)
    if competition.engine.bracket:
        return render_bracket(request, competition)
    if competition.engine.teams:
        return render_team_standings(request, competition)
    if deferred := deferred_pdf(request, competition, "standings", f"{competition.slug}-standings.pdf"):
        return deferred
    data = public_data(competition)
    if competition.engine.own_standings:
        return keizer_standings_page(request, competition, data)
    whole = data.state()
    names, rows = standings.standings(data, whole=whole, explain=False)
    context = {
        "competition": competition,
        "tiebreak_names": names,
        "columns": [(code, prizes.column_title(code)) for code in names],
        "hidden_columns": standings.unused_columns(names, rows),
        "rows": rows,
        "rounds": data.rounds,
    }
    context["key"] = [
        (code, title)
        for index, (code, title) in enumerate(context["columns"])
        if index not in context["hidden_columns"] and title != code
    ]
    context["unrated_note"] = standings.unrated_note(data)
    context["progression"] = graphs.standings_chart(data, current=rows, whole=whole)
    if competition.engine.aro_list:  # seed 004 §4.9.6 section 9: the ARO list goes with the standings
        finished = [r.number for r in data.rounds if r.status == Round.Status.FINISHED]
        context["aro_rows"] = aro_list(data.state(upto_round=max(finished, default=0)))
    if request.GET.get("format") == "pdf":
        return _render_list(request, competition, "standings.html", context, f"{competition.slug}-standings.pdf")
    return _page(request, "tournaments/standings.html", context, "table")


def keizer_standings_page(request, competition, data):
    """Seed 003 §1.5: Pos, Wrde, Naam, Keizer, Prt, Pnt, Kl, Grp, HRtg, BRtg, Rtgver, TPR."""
    table, rows = standings.keizer_standings(data)
    context = {"competition": competition, "table": table, "rows": rows, "rounds": data.rounds}
    context["progression"] = graphs.standings_chart(data)
    if request.GET.get("format") == "pdf":
        return render_pdf(request, "tournaments/keizer_standings.html", context, f"{competition.slug}-standings.pdf")
    return _page(request, "tournaments/keizer_standings.html", context, "table")


@public_page
def crosstable_page(request, club, competition):
    competition = club_competition(club, competition)
    if deferred := deferred_pdf(request, competition, "crosstable", f"{competition.slug}-crosstable.pdf"):
        return deferred
    data = public_data(competition)
    context = {
        "competition": competition,
        "table": standings.crosstable(data),
        "round_numbers": [r.number for r in data.rounds if r.is_paired],
        "key": {"white": standings.colour_letter(Colour.WHITE), "black": standings.colour_letter(Colour.BLACK)},
    }
    if request.GET.get("format") == "pdf":
        return _render_list(request, competition, "crosstable.html", context, f"{competition.slug}-crosstable.pdf")
    return _page(request, "tournaments/crosstable.html", context, "table")


@public_page
def player_card(request, club, competition, number):
    competition = club_competition(club, competition)
    # The card shows one player's rounds: his own games are enough, except for the Keizer standings.
    only = None if competition.engine.own_standings else number
    data = CompetitionData.load(competition, public=True, only=only)
    participant = next((p for p in data.participants if p.start_number == number), None)
    if participant is None:
        raise Http404
    state = data.state()
    player = state.player(number)
    by_start = {p.start_number: p for p in data.participants}
    lines, running = [], 0.0
    for rnd, record in zip(data.rounds, player.history, strict=False):
        running += record.score or 0.0
        lines.append(
            {
                "round": rnd.number,
                "opponent": by_start.get(record.opponent) if record.opponent else None,
                "record": record,
                "running": running,
            }
        )
    keizer_line = None
    if competition.engine.own_standings:
        _table, rows = standings.keizer_standings(data)
        keizer_line = next(row.line for row in rows if row.participant == participant)
    return render(
        request,
        "tournaments/player.html",
        {
            "competition": competition,
            "participant": participant,
            "lines": lines,
            "keizer": keizer_line,
            "show_private": competition.club.is_director(request.user),
            "score_chart": graphs.score_chart(participant, lines),
            "public_data": data,  # the rating line's games: the page's public rounds (this player's, `only`)
        },
    )
