"""The large lists of a printed PDF (standings, crosstable, pairing list) as lines of text, one per row.

WeasyPrint lays out a table cell by cell: about ten milliseconds a row, so a 3000-player standings list
took most of a minute. Printed from settings.PDF_LINES_MIN_PLAYERS players on, each row is one block
holding one line of a fixed-width font (css/print-lines.css), its columns padded with spaces to a common
width: the layout then costs a line of text per row, several times less. The columns' header is a line
of its own, repeated at the top of every page (a running element in the page's margin); a name too long
for its column ends in "…". The font size is chosen so that the widest line fits the page.

    {% load print_lines %}
    {% standings_lines rows columns hidden_columns %}
"""

from __future__ import annotations

from dataclasses import dataclass
from html import escape

from django import template
from django.utils.formats import number_format
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from .clubavond import exact, points, result, row_tiebreak_cells

register = template.Library()

PAGE_WIDTH_PT = 538  # A4's 210 mm less the margins of 2 x 10 mm (css/print-lines.css), in points
ADVANCE = 0.602  # the width of a character of DejaVu Sans Mono (and most fixed-width fonts), in em
LARGEST_PT, SMALLEST_PT = 8.0, 4.5
NAME_MAX = 30  # the widest name column, in characters
BOX = "box"  # a column whose empty value is a box to write in (a result on the paper pairing list)


@dataclass(frozen=True)
class Column:
    title: str
    right: bool = False  # numbers: aligned right
    widest: int = 0  # text: cut to this many characters (0: as wide as its widest value)


def _fit(text: str, width: int, right: bool) -> str:
    if len(text) > width:
        text = text[: width - 1] + "…"
    return text.rjust(width) if right else text.ljust(width)


def font_size(characters: int) -> float:
    """The font size, in points, at which a line of `characters` fits the page: at most 8 pt, at least 4.5 pt."""
    size = PAGE_WIDTH_PT / (max(characters, 1) * ADVANCE)
    return max(SMALLEST_PT, min(LARGEST_PT, int(size * 10) / 10))


def lines(columns: list[Column], rows: list[list[str]], label: str = "") -> SafeString:
    """The header line (a running element, repeated on every page) and one line per row, every value
    padded to its column's width, columns two spaces apart; a value `BOX` is drawn as an empty box."""
    widths = []
    for index, column in enumerate(columns):
        widest = max((len(row[index]) for row in rows), default=0)
        width = max(len(column.title), widest)
        if column.widest:
            width = min(width, max(column.widest, len(column.title)))
        widths.append(width)
    gap = "  "

    def line(values: list[str]) -> str:
        parts = []
        for value, column, width in zip(values, columns, widths, strict=True):
            if value == BOX:
                parts.append(f'<span class="box">{" " * width}</span>')
            else:
                parts.append(escape(_fit(value, width, column.right)))
        return gap.join(parts).rstrip()

    size = font_size(sum(widths) + len(gap) * (len(widths) - 1))
    style = f' style="font-size: {size}pt"'
    head = line([column.title for column in columns])
    # No white space between the rows: in a `white-space: pre` block it would print as empty lines.
    body = "".join(f"<div>{line(row)}</div>" for row in rows)
    aria = f' aria-label="{escape(label)}"' if label else ""
    return mark_safe(  # noqa: S308 (every value in it is escaped)
        f'<div class="columns"{style}>{head}</div>\n<div class="lines"{style}{aria}>{body}</div>'
    )


class _Remembered(dict):
    """A filter's text for each value met in one list, computed once."""

    def __init__(self, show) -> None:
        super().__init__()
        self.show = show

    def __missing__(self, value) -> str:
        text = self[value] = self.show(value)
        return text


def _name(participant, withdrawn: str = "") -> str:
    title = f"{participant.title} " if participant.title else ""
    return f"{title}{participant.name}{withdrawn if participant.withdrawn else ''}"


@register.simple_tag
def standings_lines(rows, columns, hidden_columns) -> SafeString:
    """The standings (`tournaments.standings.standings`): rank, title and name, rating, points and the shown
    tie-break columns (their codes as titles; the key below the list says what they are)."""
    withdrawn = f" ({_('withdrawn')})"
    shown_points, shown_value = _Remembered(points), _Remembered(exact)
    header = [
        Column("#", right=True),
        Column(_("Name"), widest=NAME_MAX),
        Column(_("Rating"), right=True),
        Column(_("Points"), right=True),
    ]
    header += [Column(code, right=True) for index, (code, _title) in enumerate(columns) if index not in hidden_columns]
    out = []
    for row in rows:
        participant = row.participant
        cells = [value for index, (value, _link) in enumerate(row_tiebreak_cells(row, "", shown_value.__getitem__))
                 if index not in hidden_columns]  # fmt: skip
        out.append(
            [str(row.rank), _name(participant, withdrawn), str(participant.rating or ""), shown_points[row.points]]
            + cells
        )
    return lines(header, out, _("Standings"))


@register.simple_tag
def crosstable_lines(table, round_numbers) -> SafeString:
    """The crosstable (`tournaments.standings.crosstable`): the number in the table, the name, a cell per round
    ("12w1"), the points."""
    shown_points = _Remembered(points)
    header = [Column("#", right=True), Column(_("Name"), widest=NAME_MAX - 6)]
    header += [Column(str(n)) for n in round_numbers] + [Column(_("Points"), right=True)]
    rounds = len(round_numbers)
    out = []
    for number, row, cells in table:
        texts = [str(cell.text) for cell in cells][:rounds]
        texts += [""] * (rounds - len(texts))
        out.append([str(number), row.participant.name, *texts, shown_points[row.points]])
    return lines(header, out, _("Crosstable"))


@register.simple_tag(takes_context=True)
def board_lines(context, games, byes) -> SafeString:
    """A round's boards (`tournaments.views.common._round_context`): board, white, rating, points before the
    round, the result (an empty box to fill in while the game is on), black, rating, points; then the byes."""
    shown_points, shown_result = _Remembered(points), _Remembered(result)
    header = [
        Column(_("Board"), right=True),
        Column(_("White"), widest=NAME_MAX - 4),
        Column(_("Rating"), right=True),
        Column(_("Pts"), right=True),
        Column(_("Result")),
        Column(_("Black"), widest=NAME_MAX - 4),
        Column(_("Rating"), right=True),
        Column(_("Pts"), right=True),
    ]
    out = []
    for g in games:
        board = str(g.board)
        if g.match and g.stage != "classical":
            board = f"{board} {g.get_stage_display()}"
        out.append(
            [
                board, _name(g.white), str(g.white.rating or ""), shown_points[g.white_score],
                shown_result[g.result] if g.result else BOX,
                _name(g.black), str(g.black.rating or ""), shown_points[g.black_score],
            ]
        )  # fmt: skip
    for b in byes:
        out.append(["", b.participant.name, "", "", points(b.points), str(b.get_kind_display()), "", ""])
    return lines(header, out, _("Round"))


@register.simple_tag
def aro_lines(aro_rows) -> SafeString:
    """The ARO list (Dubov system, section 9): number, name, points, rating, average rating of the opponents."""
    header = [
        Column(_("No."), right=True),
        Column(_("Name"), widest=NAME_MAX),
        Column(_("Points"), right=True),
        Column("R", right=True),
        Column("ARO", right=True),
    ]
    out = [
        [str(number), str(name), points(value), str(rating), number_format(aro, decimal_pos=1) if aro else "–"]
        for number, name, value, rating, aro in aro_rows
    ]
    return lines(header, out, _("ARO list"))
