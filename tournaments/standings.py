"""Standings, crosstable and player cards, computed from the engine state.

The tiebreak values come from the pure tiebreak module (`pairing.engines.tiebreaks`);
this module only arranges them for the pages and PDFs.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from pairing.engines import tiebreaks
from pairing.engines.state import Colour, Kind, TournamentState

from .models import Participant
from .state import CompetitionData


@dataclass
class Row:
    rank: str  # "3" or "3-4" for a shared place
    participant: Participant
    points: float
    tiebreaks: list[float | None] = field(default_factory=list)
    games: int = 0


@dataclass
class Cell:
    text: str  # "1", "½", "0", "+", "-", "" (not met)
    colour: str = ""  # "w" / "b"


def _symbol(points: float | None, forfeit: bool) -> str:
    if points is None:
        return "*"
    if forfeit:
        return "+" if points >= 1 else "-"
    return {1.0: "1", 0.5: "½", 0.0: "0"}.get(points, f"{points:g}")


def tiebreak_names(data: CompetitionData) -> list[str]:
    """The competition's tiebreak list (its regulation's default unless the TD chose one), points aside."""
    names = list(data.competition.tiebreaks or tiebreaks.default_tiebreaks(data.competition.system))
    return [name for name in names if name != "PTS"]


def standings(data: CompetitionData, state: TournamentState | None = None) -> tuple[list[str], list[Row]]:
    """The ranking by points and the competition's tiebreak list; shared places where all are equal."""
    state = state or data.state()
    names = tiebreak_names(data)
    by_start = {p.start_number: p for p in data.participants}
    lines = tiebreaks.standings(state, ["PTS", *names], rules=tiebreaks.default_rules(data.competition.system))
    shared = Counter(line.rank for line in lines)
    rows = [
        Row(
            rank=str(line.rank) if shared[line.rank] == 1 else f"{line.rank}-{line.rank + shared[line.rank] - 1}",
            participant=by_start[line.player],
            points=line.points,
            tiebreaks=[line.values.get(name) for name in names],
            games=sum(1 for r in state.player(line.player).history if r.played),
        )
        for line in lines
    ]
    return names, rows


def crosstable(data: CompetitionData, state: TournamentState | None = None) -> list[tuple[Row, list[Cell]]]:
    """Rows in standings order; for round robins one cell per opponent, otherwise one per round."""
    state = state or data.state()
    _names, rows = standings(data, state)
    table = []
    for row in rows:
        player = state.player(row.participant.start_number)
        cells = []
        for record in player.history:
            if record.paired:
                text = f"{record.opponent}{_symbol(record.score, record.kind is Kind.FORFEIT)}"
                cells.append(Cell(text, "w" if record.colour is Colour.WHITE else "b"))
            else:
                cells.append(
                    Cell({Kind.PAIRING_BYE: "bye", Kind.HALF_BYE: "½", Kind.FULL_BYE: "1"}.get(record.kind, "–"))
                )
        table.append((row, cells))
    return table
