"""The rows of the large public tables (standings, crosstable), each table's rows written at once.

A 3000-player open has 3000 standings rows and 27,000 crosstable cells; written with template tags per
cell, the template engine's look-ups and each row's translations cost more than the ranking. These tags
write the same HTML as the templates' loops did, with each word translated once per table:

    {% load tables %}
    <tbody>{% crosstable_rows table %}</tbody>
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from html import escape

from django import template
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from .clubavond import card, exact, points, result, row_tiebreak_cells

register = template.Library()


def _text(value) -> str:
    """`value` as `{{ value }}` writes it where numbers are not localized: escaped unless marked safe."""
    if isinstance(value, SafeString):
        return str(value)
    return escape(str(value))


def _attribute(name: str, value: str) -> str:
    return f' {name}="{_text(value)}"'


class _Remembered(dict):
    """A filter's text for each value met in one table, computed once (`exact`, `points`): a table of 3000
    rows shows a few hundred different values."""

    def __init__(self, show) -> None:
        super().__init__()
        self.show = show

    def __missing__(self, value) -> str:
        text = self[value] = self.show(value)
        return text

    def __call__(self, value) -> str:
        return self[value]


class _Written:
    """The rows of the tables written last in this process, by what each row shows: while results come in,
    the next version of a table of 3000 rows writes again only the rows whose values changed. A row's text
    is a function of its key and its table's (the language, the addresses, the columns shown), so a row
    met again is taken as written. Each table keeps the rows of its last writing only; TABLES tables kept."""

    TABLES = 16

    def __init__(self) -> None:
        self._tables: OrderedDict[tuple, dict[tuple, str]] = OrderedDict()
        self._lock = threading.Lock()

    def rows(self, table: tuple, items, key, write) -> str:
        """The text of `items`' rows, each `write(item)` unless a row of the same `key(item)` was written
        in the last writing of `table`."""
        with self._lock:
            before = self._tables.pop(table, {})
        now: dict[tuple, str] = {}
        out = []
        for item in items:
            row = key(item)
            text = before.get(row)
            if text is None:
                text = write(item)
            now[row] = text
            out.append(text)
        with self._lock:
            self._tables[table] = now
            while len(self._tables) > self.TABLES:
                self._tables.popitem(last=False)
        return "".join(out)

    def clear(self) -> None:
        with self._lock:
            self._tables.clear()


_written = _Written()


def forget() -> None:
    """Drop the rows written (the benchmarks time tables written afresh)."""
    _written.clear()


def _crosstable_cell(cell) -> str:
    title = _attribute("title", cell.title) if cell.title else ""
    return f'<td class="cell {_text(cell.colour)}"{title}>{_text(cell.text)}</td>'


@register.simple_tag
def crosstable_rows(table) -> str:
    """The crosstable's rows (`tournaments.standings.crosstable`): the number in the table (with the place
    in the standings as its title where the two differ), the name, a cell per round, the points."""
    place = _("place %(rank)s in the standings")
    shown_points = _Remembered(points)
    out = []
    for number, row, cells in table:
        title = "" if row.rank == f"{number:d}" else f' title="{place % {"rank": _text(row.rank)}}"'
        out.append(
            f"<tr><td{title}>{_text(number)}</td><td>{_text(row.participant.name)}</td>"
            f"{''.join(_crosstable_cell(cell) for cell in cells)}"
            f'<td class="num strong">{_text(shown_points(row.points))}</td></tr>'
        )
    return mark_safe("".join(out))  # noqa: S308 (every value in it is escaped)


def _tiebreak_cells(row, player_url: str, hidden_columns, explain_title: str, pdf: bool, show) -> str:
    """A standings row's shown tie-break cells, each value a link to its explanation (`tiebreak_cells`)."""
    tds = []
    for index, (value, explanation) in enumerate(row_tiebreak_cells(row, player_url, show)):
        if index in hidden_columns:
            continue
        if explanation and not pdf:
            link = _text(explanation)
            value = f'<a href="{link}" hx-get="{link}"{_attribute("title", explain_title)}>{_text(value)}</a>'
        else:
            value = _text(value)
        tds.append(f'<td class="num">{value}</td>')
    return "".join(tds)


@register.simple_tag(takes_context=True)
def standings_rows(context, rows, cards: str, hidden_columns, explain_title: str) -> str:
    """The standings' rows, each followed by a new line: rank, title and name (a link to the player's card,
    from `player_cards`; outside a PDF the place the explanations appear in), rating, points and the shown
    tie-break columns."""
    pdf = bool(context.get("pdf"))
    withdrawn = f' <span class="muted">({_text(_("withdrawn"))})</span>'
    shown_points, shown_value = _Remembered(points), _Remembered(exact)

    def write(row) -> str:
        participant = row.participant
        number = _text(participant.start_number)
        player_url = card(cards, participant.start_number)
        opening = "<tr>" if pdf else f'<tr hx-target="#explain-{number}" hx-swap="innerHTML">'
        target = "" if pdf else f'<div id="explain-{number}" aria-live="polite"></div>'
        name = f'{_text(participant.title)} <a href="{_text(player_url)}">{_text(participant.name)}</a>'
        return (
            f"{opening}<td>{_text(row.rank)}</td><td>{name}{withdrawn if participant.withdrawn else ''}{target}</td>"
            f'<td class="num">{_text(participant.rating or "")}</td>'
            f'<td class="num strong">{_text(shown_points(row.points))}</td>'
            f"{_tiebreak_cells(row, player_url, hidden_columns, explain_title, pdf, shown_value)}</tr>\n  "
        )

    if rows and rows[0].explained is None:  # with explanations: written afresh
        return mark_safe("".join(write(row) for row in rows))  # noqa: S308 (every value in it is escaped)

    def key(row) -> tuple:
        p = row.participant
        return (row.rank, p.start_number, p.title, p.name, p.withdrawn, p.rating, row.points,
                tuple(row.tiebreaks), tuple(row.explained))  # fmt: skip

    table = ("standings", get_language(), pdf, cards, tuple(sorted(hidden_columns)), explain_title)
    return mark_safe(_written.rows(table, rows, key, write))  # noqa: S308 (every value in it is escaped)


def _board_player(player, cards: str, score: str) -> str:
    """A player's cells of a board: title and name (a link to the card), rating, points before the round."""
    url = _text(card(cards, player.start_number))
    name = f'<td>{_text(player.title)} <a href="{url}">{_text(player.name)}</a></td>'
    return f'{name}<td class="num">{_text(player.rating or "")}</td><td class="num">{_text(score)}</td>'


@register.simple_tag(takes_context=True)
def board_rows(context, games, cards: str) -> str:
    """A round's boards on the public pairings page (`tournaments.views.common._round_context`): board (and a
    knockout game's stage), white with the points before the round, the result (an empty box to fill in on
    paper, else "–" while the game is on), black with the points before the round."""
    pdf = bool(context.get("pdf"))
    shown_points, shown_result = _Remembered(points), _Remembered(result)
    pending = '<span class="box"></span>' if pdf else "–"

    def write(g) -> str:
        stage = (
            f' <small class="muted">{_text(g.get_stage_display())}</small>'
            if g.match and g.stage != "classical"
            else ""
        )
        outcome = _text(shown_result(g.result)) if g.result else pending
        return (
            f"\n    <tr><td>{_text(g.board)}{stage}</td>"
            f"\n      {_board_player(g.white, cards, shown_points(g.white_score))}"
            f'\n      <td class="result">{outcome}</td>'
            f"\n      {_board_player(g.black, cards, shown_points(g.black_score))}</tr>\n  "
        )

    def key(g) -> tuple:
        w, b = g.white, g.black
        return (g.board, g.match, g.stage, g.result, w.start_number, w.title, w.name, w.rating, g.white_score,
                b.start_number, b.title, b.name, b.rating, g.black_score)  # fmt: skip

    table = ("boards", get_language(), pdf, cards)
    return mark_safe(_written.rows(table, games, key, write))  # noqa: S308 (every value in it is escaped)
