"""The charts of a competition's pages: standings progression and a player's score line (tournaments.charts)."""

from __future__ import annotations

from django.utils.translation import gettext as _

from pairing.engines.state import TournamentState

from . import charts, standings
from .models import Participant
from .state import CompetitionData
from .templatetags.clubavond import points


def standings_chart(
    data: CompetitionData, limit: int = 10, current: list | None = None, whole: TournamentState | None = None
) -> dict | None:
    """The places of the leading players after each round; None before two rounds are out.
    `current`: the current standings' rows, when the page has them already; `whole`: `data.state()`, the same."""
    numbers, rows = standings.progression(data, limit, current, whole)
    if len(numbers) < 2 or not rows:
        return None
    series = [
        charts.Series(p.name, [(n, place) for n, place in zip(numbers, line, strict=True) if place is not None])
        for p, line in rows
    ]
    title = (
        _("Keizer place after each round (the first %(n)s)")
        if data.competition.engine.own_standings
        else _("Place after each round (the first %(n)s)")
    ) % {"n": len(rows)}
    chart = charts.line_chart(title, series, {n: str(n) for n in numbers}, invert_y=True)
    table = {
        "head": [str(n) for n in numbers],
        "rows": [(p.name, line.colour, places) for (p, places), line in zip(rows, chart.lines, strict=True)],
    }
    return {"chart": chart, "table": table}


def score_chart(participant: Participant, lines: list[dict]) -> dict | None:
    """A player's running score after each round (the player card's lines)."""
    if not lines:
        return None
    series = [charts.Series(participant.name, [(line["round"], line["running"]) for line in lines])]
    title = _("Score of %(name)s after each round") % {"name": participant.name}
    chart = charts.line_chart(title, series, {line["round"]: str(line["round"]) for line in lines}, y_floor=0)
    table = {
        "head": [str(line["round"]) for line in lines],
        "rows": [(_("Score"), chart.lines[0].colour, [points(line["running"]) for line in lines])],
    }
    return {"chart": chart, "table": table}
