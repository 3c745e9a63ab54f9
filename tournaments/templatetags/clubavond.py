"""Display filters: half points as ½, colours and kinds of round in words."""

from decimal import Decimal

from django import template
from django.urls import reverse
from django.utils.translation import gettext as _

from pairing.engines.state import Kind, RoundRecord

register = template.Library()


@register.filter
def points(value) -> str:
    """2.5 -> "2½", 0.5 -> "½", 3.0 -> "3"; other fractions (Keizer) with one decimal."""
    if value is None or value == "":
        return ""
    value = Decimal(str(value))
    whole, fraction = divmod(value, 1)
    if fraction == 0:
        return f"{int(whole)}"
    if fraction == Decimal("0.5"):
        return f"{int(whole)}½" if whole else "½"
    return f"{value:.1f}"


@register.simple_tag
def player_cards(competition) -> str:
    """The address of the competition's player cards up to the start number (tournaments/urls.py:
    `player/<int:number>/`), reversed once for a table of thousands of rows; `card` adds a number."""
    return reverse("player", args=[competition.club.slug, competition.slug, 0]).removesuffix("0/")


@register.filter
def card(cards: str, number: int) -> str:
    """The address of player `number`'s card, from `player_cards`."""
    return f"{cards}{int(number)}/"


UNDEFINED = "–"  # a value over no games (C.07 10.1, 14) or a tie-break not used: there is none


@register.filter
def tiebreak_cells(row, player_url: str) -> list[tuple[str, str | None]]:
    """A standings row's tie-break values as shown, each with the address of its explanation, which is
    the player's own address (tournaments/urls.py) followed by `tiebreak/<index>/`; None where nothing
    is explained (a row without explanations, a direct encounter that was not needed). A value that does
    not exist (ARO over no games, a rating tie-break dropped) shows as "–" and says why."""
    cells = []
    for index, value in enumerate(row.tiebreaks):
        has_own = index < len(row.explanations) and row.explanations[index] is not None
        explained = bool(row.explanations) and (value is not None or has_own)
        if value is None:
            text = UNDEFINED if explained else ""
        elif (value * 2) % 1:  # AOB and SSSC have two decimals
            text = f"{value:.2f}".rstrip("0")
        else:
            text = points(value)
        cells.append((text, f"{player_url}tiebreak/{index}/" if explained else None))
    return cells


@register.filter
def colour(code) -> str:
    return {"w": _("white"), "b": _("black")}.get(code or "", "")


@register.filter
def kind(value) -> str:
    names = {
        Kind.PAIRING_BYE: _("bye"),
        Kind.FULL_BYE: _("full-point bye"),
        Kind.HALF_BYE: _("half-point bye"),
        Kind.ABSENT_NOTICE: _("absent with notice"),
        Kind.ABSENT: _("absent without notice"),
        Kind.CLUB_MATCH: _("club match"),
        Kind.FORFEIT: _("forfeit"),
        Kind.GAME: _("game"),
    }
    return names.get(value, "")


@register.filter
def record(value: RoundRecord) -> str:
    """A round's outcome for the player: 1, ½, 0, in play (*), forfeits as +/-."""
    if value.score is None:
        return "*"
    text = points(value.score)
    if value.kind is Kind.FORFEIT:
        return "+" if value.score else "-"
    return text


@register.filter
def get(mapping, key):
    """A dictionary's value in a template: `absences|get:p.id`."""
    return mapping.get(key) if mapping else None
