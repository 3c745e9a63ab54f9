"""A Gladiator encounter's games read from the database (seed 004 §4.9.8): the games of every
board grouped as one encounter, and the round records the engine gives it.

Below the competition state (`tournaments.state`), which counts an encounter as one pairing.
"""

from __future__ import annotations

from collections.abc import Iterable

from pairing.engines import gladiator as engine
from pairing.engines.state import Colour, Kind, RoundRecord

from .models import Game, Result

# White's score in a knockout game; a forfeit is a game won or lost (a double forfeit decides nothing).
WHITE_SCORE: dict[str, float] = {
    Result.WHITE_WINS: 1.0,
    Result.WHITE_FORFEIT_WIN: 1.0,
    Result.DRAW: 0.5,
    Result.BLACK_WINS: 0.0,
    Result.BLACK_FORFEIT_WIN: 0.0,
}


def groups(games: Iterable[Game]) -> dict[tuple[int, int], list[Game]]:
    """The games of every encounter, keyed by (round, match), in playing (board) order."""
    groups: dict[tuple[int, int], list[Game]] = {}
    for game in sorted(games, key=lambda g: (g.round.number, g.board)):
        if game.match is not None:
            groups.setdefault((game.round.number, game.match), []).append(game)
    return groups


def scores(rows: list[Game]) -> list[float]:
    """White's score in each game, up to the first game without a result."""
    scores = []
    for game in rows:
        if game.result not in WHITE_SCORE:
            break
        scores.append(WHITE_SCORE[game.result])
    return scores


def encounters(
    games: Iterable[Game], start_of: dict[int, int], ordinary_games: int = 1, reduced_games: int = 1
) -> dict[tuple[int, int], engine.Encounter]:
    """Every encounter of the games, by (round, match); one whose first game is a forfeit is left out
    (it is that game alone). `start_of` maps participant ids to start numbers; `ordinary_games` and
    `reduced_games` are the competition's variation of the model (§4.9.8).

    Raises `InvalidInput` for a game after the decisive one.
    """
    found = {}
    for (number, match), rows in groups(games).items():
        first = rows[0]
        if first.is_forfeit:
            continue
        white, black = start_of[first.white_id], start_of[first.black_id]
        found[number, match] = engine.play_encounter(
            number, white, black, scores(rows), ordinary_games=ordinary_games, reduced_games=reduced_games
        )
    return found


def round_records(encounter: engine.Encounter) -> dict[int, RoundRecord]:
    """Each player's record of the round by start number: the Gladiator point (§4.9.8), or no
    score yet while the encounter is undecided."""
    if encounter.winner is not None:
        return engine.round_records(encounter)
    white, black = encounter.players
    return {
        white: RoundRecord(Kind.GAME, black, Colour.WHITE, None),
        black: RoundRecord(Kind.GAME, white, Colour.BLACK, None),
    }
