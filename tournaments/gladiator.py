"""The Gladiator model in the database (seed 004 §4.9.8): every pairing is an encounter with a winner.

The pure module `pairing.engines.gladiator` owns the rules (which game comes next, its colours,
who won, the tie-breaks). A round of a Gladiator competition is paired by its own system (round
robin, Swiss); every board is an encounter, stored like a knockout match
(`tournaments.knockout`): its games are `Game` rows of the round with the same `match` number
and a `stage` (classical: the ordinary game, rapid: the replay at reduced time, blitz). An
encounter whose first game is a forfeit is that game alone. The games are read into encounters
by `tournaments.encounters`, ranked by `tournaments.standings`; this module says what an encounter needs
next, and `pairing.services.gladiator` adds the games and takes the results.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext as _

from pairing.engines import gladiator as engine

from .encounters import encounters, groups
from .models import Game, Stage
from .state import CompetitionData

STAGES = {
    engine.GameKind.ORDINARY: Stage.CLASSICAL,
    engine.GameKind.REDUCED: Stage.RAPID,
    engine.GameKind.BLITZ: Stage.BLITZ,
}


def next_game(encounter: engine.Encounter) -> engine.GladiatorGame | None:
    """The game an undecided encounter needs next: the engine's kind and colours for the game that
    would follow the results so far (its result here is a placeholder)."""
    if encounter.winner is not None:
        return None
    results = [game.result for game in encounter.games]
    variation = {"ordinary_games": encounter.ordinary_games, "reduced_games": encounter.reduced_games}
    return engine.play_encounter(encounter.round, *encounter.players, [*results, 0.5], **variation).games[-1]


@dataclass
class EncounterView:
    """A board of a Gladiator round as the TD's page shows it: its games and where it stands."""

    match: int | None  # None: a game stored without a match number, shown as it is
    games: list[Game]
    encounter: engine.Encounter | None  # None: the first game was a forfeit, or no match number
    status: str = ""
    action: str = ""  # the label of the button that adds the next game, when one is needed

    @property
    def decided(self) -> bool:
        return self.encounter is None or self.encounter.winner is not None


def round_view(data: CompetitionData, games: list[Game]) -> list[EncounterView]:
    """The encounters of one round's games (with `white` and `black` set), by match number."""
    start_of = {p.id: p.start_number for p in data.participants}
    by_start = {p.start_number: p for p in data.participants}
    found = encounters(games, start_of, **data.competition.gladiator_format)
    views = [EncounterView(None, [game], None) for game in games if game.match is None]
    for (number, match), rows in groups(games).items():
        encounter = found.get((number, match))
        view = EncounterView(match, rows, encounter)
        if encounter is not None:
            _describe(view, encounter, by_start)
        views.append(view)
    return sorted(views, key=lambda view: view.games[0].board)


def _describe(view: EncounterView, encounter: engine.Encounter, by_start: dict) -> None:
    if encounter.winner is not None:
        name = by_start[encounter.winner].name
        kind = encounter.games[-1].kind
        texts = {
            engine.GameKind.ORDINARY: _("%(name)s wins the encounter in the ordinary game"),
            engine.GameKind.REDUCED: _("%(name)s wins the encounter in the replay"),
            engine.GameKind.BLITZ: _("%(name)s wins the encounter in blitz"),
        }
        view.status = texts[kind] % {"name": name}
        return
    if any(not game.result for game in view.games):
        view.status = _("in play")
        return
    nxt = next_game(encounter)
    assert nxt is not None
    white = by_start[nxt.white].name
    if nxt.kind is engine.GameKind.ORDINARY:
        view.status = _("the next ordinary game, %(white)s has white") % {"white": white}
        view.action = _("add the next ordinary game")
    elif nxt.kind is engine.GameKind.REDUCED:
        view.status = _("drawn: a replay with colours reversed and reduced time, %(white)s has white") % {
            "white": white
        }
        view.action = _("add the replay")
    else:
        view.status = _("still level: a blitz game, %(white)s has white") % {"white": white}
        view.action = _("add the next blitz game")
