"""Rating figures in templates, the rating line of one player for the player card, and a member's rating
chart (on the competitions' player pages, which belong to a lower app)."""

from __future__ import annotations

from fractions import Fraction

from django import template
from django.template.loader import render_to_string

from .. import reports
from ..graphs import rating_chart as _rating_chart

register = template.Library()


@register.filter
def score(value) -> str:
    """A score W: 2½, ½, 3; other fractions with two decimals."""
    if value is None or value == "":
        return ""
    value = Fraction(value)
    whole, rest = divmod(value, 1)
    if rest == 0:
        return str(whole)
    if rest == Fraction(1, 2):
        return f"{whole}½" if whole else "½"
    return f"{float(value):.2f}"


@register.filter
def decimals(value, places: int = 2) -> str:
    """W_e, a bonus: two decimals (exact fractions shown rounded)."""
    if value is None or value == "":
        return ""
    return f"{float(value):.{int(places)}f}"


@register.filter
def signed(value) -> str:
    if value is None or value == "":
        return ""
    return f"{value:+d}" if value else "0"


@register.simple_tag(takes_context=True)
def rating_line(context, competition, participant):
    """The player's line of the competition's rating report (public rounds only), or None; the context's
    `public_data`: the competition's public rounds (`CompetitionData.load(..., public=True)`) when the page
    has them (a page without them lets the report read them)."""
    return reports.rating_line(competition, participant.start_number, context.get("public_data"))


@register.simple_tag
def rating_chart(member) -> str:
    """The member's rating over time, drawn with its numbers beside it (nothing without a rating history)."""
    chart = _rating_chart(member)
    if not chart:
        return ""
    return render_to_string("charts/line_chart.html", {"chart": chart["chart"], "table": chart["table"]})
