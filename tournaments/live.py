"""A competition's public data kept in the process between versions, the results entered since put in.

While a round is played, each result raises the competition's version, and every public page of a large
field would read it all again: 3000 participants and 13,500 games for one changed result. A result changes
nothing but one game's result (`pairing.services.records.set_result`): it marks the game with the version
it made (`Game.result_version`), and leaves the competition's `shape_version` as it was, which every other
change raises (`tournaments.versioning.bump`). So when a page asks for a newer version of the same shape,
the data kept for the version before is brought up to date from the games marked since (one query of a few
rows): each changed game is replaced by a copy with its result, and its two players' records in the whole
state, when a page made it (`CompetitionData.kept["state"]`), by the records `CompetitionData.state` makes
of it. Anything else (a new shape, a Gladiator competition, whose encounters span games, a record that is
not that game's) reads the competition afresh. What the data made and stays valid is carried over: the
fingerprints of the rounds before the first changed one (`standings.round_fingerprints`).

Kept in the process's memory: the competitions asked for last, as many as hold `LIVE_DATA_PLAYERS` players
together (at least the last one; some 11 KB a player, with the standings kept beside it). A version's data is
never changed in place (a request still using it sees one version): each new version is a new
`CompetitionData`, sharing the unchanged games and players with the one before.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass, replace

from django.conf import settings

from .models import Competition, Game
from .state import CompetitionData, copied, game_records

_KEPT: OrderedDict[int, Kept] = OrderedDict()  # by the competition's primary key
_LOCK = threading.Lock()


@dataclass(frozen=True)
class Kept:
    version: int
    shape: int
    created: object  # with the primary key, the competition itself (a key is used again after a rollback)
    data: CompetitionData


def public_data(competition: Competition) -> CompetitionData:
    """`CompetitionData.load(competition, public=True)`, from the data kept for an earlier version of the same
    shape when there is one (its whole state, `data.state()`, kept once a page made it). `competition`: read
    just now."""
    key = competition.pk
    with _LOCK:
        kept = _KEPT.get(key)
    data = None
    same = kept is not None and (kept.shape, kept.created) == (competition.shape_version, competition.created)
    if same and not competition.gladiator:
        data = kept.data if kept.version >= competition.version else _with_results(kept, competition)
    if data is None:
        data = replace(CompetitionData.load(competition, public=True), kept={})
    elif data.competition is not competition:
        data = replace(data, competition=competition)
    with _LOCK:
        _KEPT[key] = Kept(competition.version, competition.shape_version, competition.created, data)
        _KEPT.move_to_end(key)
        players = sum(len(k.data.participants) for k in _KEPT.values())
        while len(_KEPT) > 1 and players > settings.LIVE_DATA_PLAYERS:
            _key, oldest = _KEPT.popitem(last=False)
            players -= len(oldest.data.participants)
    return data


def _with_results(kept: Kept, competition: Competition) -> CompetitionData | None:
    """The kept data with the results entered since its version, or None when they cannot be put in."""
    data = kept.data
    rounds = [r.pk for r in data.rounds]
    changed = dict(
        Game.objects.filter(round_id__in=rounds, result_version__gt=kept.version).values_list("pk", "result")
    )
    if not changed:
        return data
    state = data.kept.get("state")  # made by the pages that needed it: put the results in it too
    start_of = {p.id: p.start_number for p in data.participants}
    players = {p.id: p for p in state.players} if state is not None else None
    games = list(data.games)
    first_changed = None
    for index, game in enumerate(games):
        if game.pk not in changed:
            continue
        result = changed.pop(game.pk)
        number = game.round.number
        old = dict(game_records(game, start_of))
        game = games[index] = copied(game)
        game.result = result
        first_changed = number if first_changed is None else min(first_changed, number)
        if players is None:
            continue
        for pid, record in game_records(game, start_of):
            player = players[start_of[pid]]
            if player.history[number - 1] != old[pid]:  # a bye of the same round, say: not the game's record
                return None
            history = list(player.history)
            history[number - 1] = record
            players[player.id] = replace(player, history=history)
    if changed:  # a game not in the data read: read it all
        return None
    if state is None:
        return replace(data, competition=competition, games=games, kept={})
    fingerprints = {n: text for n, text in data.kept.get("fingerprints", {}).items() if n < first_changed}
    state = replace(state, players=[players[p.id] for p in state.players])
    return replace(data, competition=competition, games=games, kept={"state": state, "fingerprints": fingerprints})


def forget() -> None:
    """Drop every competition kept (the tests and the benchmarks begin from nothing)."""
    with _LOCK:
        _KEPT.clear()
