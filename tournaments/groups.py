"""The rating groups an event splits into, one competition per group (seed 004 §65), written by
`pairing.services.split_into_groups`.

The division is the pure `pairing.engines.groups.rating_groups`: strength order
(DSU rating, title, Elo, lot), groups of the chosen size, the lowest taking the
rest, and outside a round robin only one group with an odd number of players.
"""

from __future__ import annotations

from django.core.exceptions import ValidationError

from pairing.engines.groups import rating_groups
from pairing.engines.state import InvalidInput

from .models import Competition, Participant
from .notes import render_note
from .state import CompetitionData


def divide(competition: Competition, size: int) -> list[list[Participant]]:
    """The groups the event would have with groups of `size`, strongest group first."""
    data = CompetitionData.load(competition)
    by_start = {p.start_number: p for p in data.participants if not p.withdrawn}
    players = [p for p in data.state().players if p.id in by_start]
    try:
        groups = rating_groups(players, size, round_robin=competition.engine.scheduled, seed=competition.seed)
    except InvalidInput as error:
        raise ValidationError(render_note(error.note)) from error
    return [[by_start[p.id] for p in group] for group in groups]
