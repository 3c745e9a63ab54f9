"""The Gladiator model (seed 004 §4.9.8): every encounter has a winner.

"Hvis det ordinære parti ender remis, spilles der omkamp med omvendte farver
og reduceret betænkningstid. Ender dette parti også remis spilles der lynskak
indtil en vinder findes. Den spiller, der vinder, uanset hvornår i forløbet
det sker, får tildelt et point og modstanderen et nul."

An encounter is `ordinary_games` games at the normal time control (one by
default; the model "kan modificeres til at indeholde flere ordinære partier
pr. runde"), decided by their total; on a tie, `reduced_games` single replays
at reduced time (one by default), then blitz games until one is won. Every
game after the first has the colours of the game before it reversed.

The games are rated by their own results, not by the Gladiator point; which
kinds of game meet the rating rules' time limits (seed 004 §4.5.3) is the
organiser's call, so `rated_games` takes the kinds to include.

Ties on points (the optional "korrektionsmodel"): most ordinary games won,
then most games won at reduced time (not blitz), then the direct encounter.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from .state import Colour, InvalidInput, Kind, RoundRecord


class GameKind(StrEnum):
    ORDINARY = "ordinary"
    REDUCED = "reduced"  # the replay at reduced time
    BLITZ = "blitz"


@dataclass(frozen=True, slots=True)
class GladiatorGame:
    kind: GameKind
    white: int
    black: int
    result: float  # white's score: 1, ½, 0


@dataclass(slots=True)
class Encounter:
    """Two players' meeting in one round, with every game it took."""

    round: int
    players: tuple[int, int]  # white in the first game first
    games: list[GladiatorGame] = field(default_factory=list)
    winner: int | None = None  # None while undecided
    ordinary_games: int = 1  # the variation it is played under (§4.9.8: "flere ordinære partier")
    reduced_games: int = 1  # replays at reduced time before blitz

    @property
    def loser(self) -> int | None:
        if self.winner is None:
            return None
        a, b = self.players
        return b if self.winner == a else a

    def points(self, player: int) -> float:
        """The Gladiator point: 1 to the winner, 0 to the loser (§4.9.8)."""
        return 1.0 if self.winner == player else 0.0

    def wins(self, player: int, kind: GameKind) -> int:
        """Games of `kind` the player won in this encounter."""
        return sum(
            1
            for g in self.games
            if g.kind is kind and ((g.white == player and g.result == 1.0) or (g.black == player and g.result == 0.0))
        )


def play_encounter(
    rnd: int,
    white: int,
    black: int,
    results: Sequence[float],
    ordinary_games: int = 1,
    reduced_games: int = 1,
) -> Encounter:
    """The encounter from white's score in each game, in playing order.

    Undecided when the results stop before a winner is found; raises
    `InvalidInput` for a result after the winner was found.
    """
    if ordinary_games < 1 or reduced_games < 0:
        raise InvalidInput("an encounter needs at least one ordinary game and no negative number of replays")
    encounter = Encounter(rnd, (white, black), ordinary_games=ordinary_games, reduced_games=reduced_games)
    points = {white: 0.0, black: 0.0}
    colours = (white, black)
    for i, score in enumerate(results):
        if encounter.winner is not None:
            raise InvalidInput(f"round {rnd}: game {i + 1} of {white}-{black} follows the decisive game")
        if score not in (0.0, 0.5, 1.0):
            raise InvalidInput(f"round {rnd}: result {score} is not 1, ½ or 0")
        if i < ordinary_games:
            kind = GameKind.ORDINARY
        elif i < ordinary_games + reduced_games:
            kind = GameKind.REDUCED
        else:
            kind = GameKind.BLITZ
        w, b = colours
        encounter.games.append(GladiatorGame(kind, w, b, score))
        points[w] += score
        points[b] += 1.0 - score
        colours = (b, w)  # the next game with colours reversed
        if kind is GameKind.ORDINARY:
            # The ordinary games are played in full; their total decides.
            if i == ordinary_games - 1 and points[white] != points[black]:
                encounter.winner = white if points[white] > points[black] else black
        elif score != 0.5:
            encounter.winner = w if score == 1.0 else b
    return encounter


def round_records(encounter: Encounter) -> dict[int, RoundRecord]:
    """Each player's record of the round for the pairing engines: the Gladiator
    point as the score, the colour of the first game (§4.9.8)."""
    if encounter.winner is None:
        raise InvalidInput(f"round {encounter.round}: {encounter.players[0]}-{encounter.players[1]} is undecided")
    white, black = encounter.players
    return {
        white: RoundRecord(Kind.GAME, black, Colour.WHITE, encounter.points(white)),
        black: RoundRecord(Kind.GAME, white, Colour.BLACK, encounter.points(black)),
    }


def rated_games(
    encounters: Iterable[Encounter], kinds: Iterable[GameKind] = (GameKind.ORDINARY,)
) -> list[tuple[int, GladiatorGame]]:
    """(round, game) for every game of the given kinds, to be rated by its own result (§4.9.8)."""
    wanted = set(kinds)
    return [(e.round, g) for e in encounters for g in e.games if g.kind in wanted]


@dataclass(slots=True)
class GladiatorStanding:
    player: int
    points: float = 0.0
    ordinary_wins: int = 0
    reduced_wins: int = 0
    direct: float = 0.0  # points against the players still tied with him
    rank: int = 0  # shared when every criterion is equal


def standings(
    players: Iterable[int], encounters: Sequence[Encounter], other_points: dict[int, float] | None = None
) -> list[GladiatorStanding]:
    """Final order by points, ordinary wins, reduced-time wins, direct encounter (§4.9.8).

    `other_points`: points from rounds without an encounter (a bye, a game won by forfeit).
    """
    table = {p: GladiatorStanding(p, points=(other_points or {}).get(p, 0.0)) for p in players}
    for e in encounters:
        for p in e.players:
            row = table.setdefault(p, GladiatorStanding(p))
            row.points += e.points(p)
            row.ordinary_wins += e.wins(p, GameKind.ORDINARY)
            row.reduced_wins += e.wins(p, GameKind.REDUCED)

    def key(row: GladiatorStanding) -> tuple[float, int, int]:
        return (-row.points, -row.ordinary_wins, -row.reduced_wins)

    rows = sorted(table.values(), key=lambda r: (key(r), r.player))
    for row in rows:
        tied = {r.player for r in rows if key(r) == key(row)}
        row.direct = sum(e.points(row.player) for e in encounters if set(e.players) <= tied)
    rows.sort(key=lambda r: (key(r), -r.direct, r.player))
    for i, row in enumerate(rows):
        previous = rows[i - 1] if i else None
        same = previous is not None and (key(previous), previous.direct) == (key(row), row.direct)
        row.rank = previous.rank if same and previous else i + 1
    return rows
