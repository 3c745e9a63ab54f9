"""The olympiad team tournament in the database (seed 004 §4.9.9.5).

The games are ordinary `Game` rows paired by the `olympiad` system; the teams
follow from the players and the competition's seed, so the team table is
computed, never stored: `pairing.engines.olympiad.team_tournament` from the
games' results, ranked by the team tie-breaks (`pairing.engines.tiebreaks.teams`).
A board left unpaired because a player withdrew is lost by forfeit by that
player's team; when both players of a board have withdrawn, neither team
scores it.
"""

from __future__ import annotations

from dataclasses import dataclass

from pairing.engines.olympiad import BoardResult, TeamTournament, team_tournament, tiebreak_event
from pairing.engines.olympiad_system import scoring, teams
from pairing.engines.state import InvalidInput
from pairing.engines.tiebreaks import default_team_tiebreaks
from pairing.engines.tiebreaks.teams import TeamStanding, parse_team, team_standings

from .models import Participant, Result
from .state import CompetitionData

BOARD_SCORES: dict[str, BoardResult] = {
    Result.WHITE_WINS: 1.0,
    Result.WHITE_FORFEIT_WIN: 1.0,
    Result.DRAW: 0.5,
    Result.BLACK_WINS: 0.0,
    Result.BLACK_FORFEIT_WIN: 0.0,
    Result.DOUBLE_FORFEIT: (0.0, 0.0),  # both lose: no point for either team
}


@dataclass
class TeamEvent:
    tournament: TeamTournament
    by_start: dict[int, Participant]
    paired_rounds: int
    # The team standings by the primary score and the competition's team tie-breaks (C.07 art. 11-13).
    codes: list[str]
    standings: list[TeamStanding]


def team_tiebreak_codes(competition) -> list[str]:
    """The competition's team tie-break list (its regulation's when none is set), the primary score aside.
    A code that is no team tie-break (a list kept from before) is passed over."""
    codes = []
    for code in competition.tiebreaks or []:
        try:
            spec = parse_team(code)
        except InvalidInput:
            continue
        if spec.acronym != "PTS":
            codes.append(spec.code)
    return codes or default_team_tiebreaks(competition.system)


def team_event(data: CompetitionData) -> TeamEvent:
    state = data.state()
    settings = data.competition.engine.settings(data.competition.settings)
    by_start = {p.start_number: p for p in data.participants}
    start_of = {p.id: p.start_number for p in data.participants}
    results = {
        (g.round.number, start_of[g.white_id], start_of[g.black_id]): BOARD_SCORES[g.result]
        for g in data.games
        if g.result in BOARD_SCORES
    }
    all_teams = teams(state)
    event = team_tournament(all_teams, results, cycles=settings["cycles"], **scoring(settings))
    paired = max((r.number for r in data.rounds if r.is_paired), default=0)
    # Boards not paired because a player had withdrawn: lost by his team.
    gone = {p.start_number: p.withdrawn_after for p in data.participants if p.withdrawn_after is not None}
    for rnd in event.rounds[:paired]:
        for match in rnd:
            for board in match.boards:
                if board.result is not None or board.white is None or board.black is None:
                    continue
                white_gone = gone.get(board.white, match.round) < match.round
                black_gone = gone.get(board.black, match.round) < match.round
                if white_gone and black_gone:
                    results[(match.round, board.white, board.black)] = (0.0, 0.0)
                elif white_gone or black_gone:
                    results[(match.round, board.white, board.black)] = 0.0 if white_gone else 1.0
    event = team_tournament(all_teams, results, cycles=settings["cycles"], **scoring(settings))
    primary = "GP" if settings["rank_by_board_points"] else "MP"
    codes = team_tiebreak_codes(data.competition)
    ranked = team_standings(tiebreak_event(event, scoring(settings)["match_points"], primary), codes)
    return TeamEvent(event, by_start, paired, codes, ranked)
