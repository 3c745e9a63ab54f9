"""The olympiad team tournament as a pairing system, id `olympiad` (seed 004 §4.9.9.5).

The players are dealt into `teams` teams by `olympiad.teams_from_players`
(strength order, the section's dealing cycle); the teams play all against all
on the Berger schedule (`cycles` = 2 for a double round). Each round's boards
are the team matches' boards in schedule order: board 1 of a team is its
strongest player, and the first-named team has white on the odd boards. A
board a team cannot fill (a player withdrawn, a team one player short) is not
paired: it is lost by forfeit, as `olympiad.team_tournament` scores it. The
team with the schedule's bye has no boards that round.
"""

from __future__ import annotations

from typing import Any

from .notes import note_text
from .olympiad import Team, teams_from_players
from .registry import PairingSystem
from .roundrobin import schedule
from .setting_checks import at_most, booleans, numbers
from .state import Board, InvalidInput, Pairing, TournamentState


def teams(state: TournamentState) -> list[Team]:
    """The teams of the tournament: every player of the state, withdrawn or not, keeps his board."""
    n_teams = SYSTEM.settings(state.settings)["teams"]
    if len(state.players) < n_teams:
        raise InvalidInput(f"{len(state.players)} players cannot form {n_teams} teams")
    return teams_from_players(state.players, n_teams, state.seed)


_TOURNAMENT = note_text(
    "olympiad.tournament", "Olympiad team tournament of %(teams)s teams (seed 004 §4.9.9.5), round %(round)s."
)
_BYE = note_text("olympiad.bye", "Team %(team)s has the bye.")
_MATCH = note_text(
    "olympiad.match", "Match %(match)s: team %(first)s - team %(second)s; team %(first)s has white on the odd boards."
)
_EMPTY_BOARD = note_text("olympiad.empty_board", "Match %(match)s board %(board)s: not filled, lost by forfeit.")


def _pair(state: TournamentState) -> Pairing:
    settings = SYSTEM.settings(state.settings)
    all_teams = {t.number: t for t in teams(state)}
    rounds = schedule(len(all_teams), settings["cycles"])
    rnd = state.round_to_pair
    if not 1 <= rnd <= len(rounds):
        raise InvalidInput(f"round {rnd} is outside the team tournament's {len(rounds)} rounds")
    withdrawn = {p.id for p in state.players if p.withdrawn}
    boards: list[Board] = []
    explanation = [_TOURNAMENT(teams=len(all_teams), round=rnd)]
    for number, (a, b) in enumerate(rounds[rnd - 1], start=1):
        if not a or not b:
            explanation.append(_BYE(team=a or b))
            continue
        first, second = all_teams[a], all_teams[b]
        explanation.append(_MATCH(match=number, first=a, second=b))
        for board in range(1, max(len(first.players), len(second.players)) + 1):
            x = first.players[board - 1] if board <= len(first.players) else None
            y = second.players[board - 1] if board <= len(second.players) else None
            white, black = (x, y) if board % 2 else (y, x)
            if white is None or black is None or white in withdrawn or black in withdrawn:
                explanation.append(_EMPTY_BOARD(match=number, board=board))
                continue
            boards.append(Board(white, black))
    return Pairing(boards=boards, explanation=explanation)


def _validate(settings: dict[str, Any]) -> None:
    n = settings.get("teams")
    if not isinstance(n, int) or isinstance(n, bool) or n < 2:
        raise InvalidInput("teams must be a whole number of at least 2")
    if settings.get("cycles") not in (1, 2):
        raise InvalidInput("cycles must be 1 or 2")
    numbers(settings, ("match_win", "match_draw"), 0)
    at_most(settings, "match_draw", settings["match_win"])
    booleans(settings, ("rank_by_board_points",))


def scoring(settings: dict[str, Any]) -> dict[str, Any]:
    """The team standings' settings as `olympiad.team_tournament` takes them: match points for a
    won and a drawn match, and whether board points rank first (§4.9.9.5 leaves both to the event)."""
    return {
        "match_points": (float(settings["match_win"]), float(settings["match_draw"])),
        "rank_by_board_points": settings["rank_by_board_points"],
    }


SYSTEM = PairingSystem(
    id="olympiad",
    name="Olympiad team tournament",
    pair=_pair,
    defaults={"teams": 4, "cycles": 1, "match_win": 2.0, "match_draw": 1.0, "rank_by_board_points": False},
    validate=_validate,
    teams=True,
    gladiator=False,
)
