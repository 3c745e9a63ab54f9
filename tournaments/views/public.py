"""Public competition pages: pairings, standings, crosstable and player card (and their PDFs)."""

from __future__ import annotations

from django.http import Http404
from django.shortcuts import render

from .. import standings
from ..models import Round
from ..pdf import render_pdf
from ..state import CompetitionData
from .common import _competition, _page, _round_context
from .knockout import render_bracket, render_team_standings


def pairings(request, club, competition, number=None):
    competition = _competition(club, competition)
    if competition.system == "knockout":
        return render_bracket(request, competition)
    is_director = competition.club.is_director(request.user)
    data = CompetitionData.load(competition, public=not is_director)
    rounds = [r for r in data.rounds if r.is_paired]
    if not rounds and number is None:
        return render(request, "tournaments/pairings.html", {"competition": competition, "rounds": []})
    rnd = rounds[-1] if number is None else next((r for r in rounds if r.number == number), None)
    if rnd is None:
        raise Http404
    context = _round_context(data, rnd) | {"is_director": is_director}
    if request.GET.get("format") == "pdf":
        return render_pdf(request, "tournaments/pairings.html", context, f"{competition.slug}-round-{rnd.number}.pdf")
    return _page(request, "tournaments/pairings.html", context, "boards")


def standings_page(request, club, competition):
    competition = _competition(club, competition)
    if competition.system == "knockout":
        return render_bracket(request, competition)
    if competition.system == "olympiad":
        return render_team_standings(request, competition)
    data = CompetitionData.load(competition, public=True)
    if competition.system == "keizer":
        return keizer_standings_page(request, competition, data)
    names, rows = standings.standings(data)
    context = {"competition": competition, "tiebreak_names": names, "rows": rows, "rounds": data.rounds}
    if competition.system == "dubov-1997":  # seed 004 §4.9.6 section 9: the ARO list goes with the standings
        from pairing.engines.dubov import aro_list

        finished = [r.number for r in data.rounds if r.status == Round.Status.FINISHED]
        context["aro_rows"] = aro_list(data.state(upto_round=max(finished, default=0)))
    if request.GET.get("format") == "pdf":
        return render_pdf(request, "tournaments/standings.html", context, f"{competition.slug}-standings.pdf")
    return _page(request, "tournaments/standings.html", context, "table")


def keizer_standings_page(request, competition, data):
    """Seed 003 §1.5: Pos, Wrde, Naam, Keizer, Prt, Pnt, Kl, Grp, HRtg, BRtg, Rtgver, TPR."""
    table, rows = standings.keizer_standings(data)
    context = {"competition": competition, "table": table, "rows": rows, "rounds": data.rounds}
    if request.GET.get("format") == "pdf":
        return render_pdf(request, "tournaments/keizer_standings.html", context, f"{competition.slug}-standings.pdf")
    return _page(request, "tournaments/keizer_standings.html", context, "table")


def crosstable_page(request, club, competition):
    competition = _competition(club, competition)
    data = CompetitionData.load(competition, public=True)
    context = {
        "competition": competition,
        "table": standings.crosstable(data),
        "round_numbers": [r.number for r in data.rounds if r.is_paired],
    }
    if request.GET.get("format") == "pdf":
        return render_pdf(request, "tournaments/crosstable.html", context, f"{competition.slug}-crosstable.pdf")
    return _page(request, "tournaments/crosstable.html", context, "table")


def player_card(request, club, competition, number):
    competition = _competition(club, competition)
    data = CompetitionData.load(competition, public=True)
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
    if competition.system == "keizer":
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
        },
    )
