"""Display filters: half and quarter points as ½ and ¾, colours and kinds of round in words."""

from decimal import Decimal
from fractions import Fraction

from django import template
from django.urls import reverse
from django.utils import formats
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from pairing.engines.state import Kind, RoundRecord

register = template.Library()


# The fractions a score or a tie-break takes: halves (a draw), quarters (a draw against a player on a
# half point, in Sonneborn-Berger), eighths, and thirds (an average over three).
VULGAR = {
    Fraction(1, 8): "⅛", Fraction(1, 4): "¼", Fraction(3, 8): "⅜", Fraction(1, 2): "½", Fraction(5, 8): "⅝",
    Fraction(3, 4): "¾", Fraction(7, 8): "⅞", Fraction(1, 3): "⅓", Fraction(2, 3): "⅔",
}  # fmt: skip


def exact(value, decimals: int = 2) -> str:
    """A value as a chess player writes it, exactly: 1.75 -> "1¾", 0.5 -> "½", 3.0 -> "3", -0.25 -> "-¼";
    a value that is no such fraction with at most `decimals` decimals in the reader's format
    (12.33 -> "12,33" in Dutch)."""
    if value is None or value == "":
        return ""
    number = Fraction(value).limit_denominator(24)
    if abs(float(number) - float(value)) > 1e-9 or number.denominator not in (1, 2, 3, 4, 8):
        rounded = Decimal(str(value)).quantize(Decimal(1).scaleb(-decimals)).normalize()
        return formats.number_format(rounded, decimal_pos=max(0, -rounded.as_tuple().exponent), use_l10n=True)
    sign = "-" if number < 0 else ""
    whole, part = divmod(abs(number), 1)
    if not part:
        return f"{sign}{whole}"
    return f"{sign}{whole or ''}{VULGAR[part]}"


@register.filter
def points(value) -> str:
    """2.5 -> "2½", 0.5 -> "½", 3.0 -> "3", 1.75 -> "1¾"; other fractions (Keizer) with one decimal."""
    if value is None or value == "":
        return ""
    if Fraction(str(value)).denominator in (1, 2, 4):
        return exact(value)
    return f"{Decimal(str(value)):.1f}"


@register.filter(name="exact")
def exact_filter(value) -> str:
    """A tie-break value or its part, exactly (`exact`)."""
    return exact(value)


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
    return row_tiebreak_cells(row, player_url, exact)


def row_tiebreak_cells(row, player_url: str, show) -> list[tuple[str, str | None]]:
    """`tiebreak_cells`, each value written by `show` (`exact`, or a copy of it that remembers the values
    of a whole table)."""
    cells = []
    for index, value in enumerate(row.tiebreaks):
        if row.explained is not None:  # ranked without writing the explanations
            explained = row.explained[index]
        else:
            has_own = index < len(row.explanations) and row.explanations[index] is not None
            explained = bool(row.explanations) and (value is not None or has_own)
        # exact: SB 1¾, not 1.8; AOB and SSSC with two decimals
        text = (UNDEFINED if explained else "") if value is None else show(value)
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


@register.filter
def result(value) -> str:
    """A game's result as the reader's language writes it: a forfeit "+/-" in English and Danish, "1-0R"
    (reglementair) in Dutch; a played result as it is."""
    forfeits = {
        "1-0R": pgettext("a forfeit's result, short: white won", "+/-"),
        "0-1R": pgettext("a forfeit's result, short: black won", "-/+"),
        "0-0R": pgettext("a forfeit's result, short: both lost", "-/-"),
    }
    return forfeits.get(value or "", value or "")


@register.filter(expects_localtime=True)
def day(value, extra: str = ""):
    """A club night's day as the reader's language writes it short: "Sat 5 Dec", "za 5 dec", "lør 5. dec";
    `extra` "year" or "time" adds the year or the time of day."""
    if not value:
        return ""
    if extra == "year":
        return formats.date_format(value, pgettext("short day with year (date format)", "D j M Y"))
    if extra == "time":
        return formats.date_format(value, pgettext("short day with time (date format)", "D j M H:i"))
    return formats.date_format(value, pgettext("short day (date format)", "D j M"))
