"""Rating figures in templates, and the rating line of one player for the player card."""

from __future__ import annotations

from fractions import Fraction

from django import template

from .. import graphs, reports

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


@register.simple_tag
def rating_line(competition, participant):
    """The player's line of the competition's rating report (public rounds only), or None."""
    return reports.rating_line(competition, participant.start_number)


@register.simple_tag
def member_rating_chart(member):
    """The member's rating over time (`ratings.graphs`), for the competition's player card; None without any."""
    return graphs.rating_chart(member)
