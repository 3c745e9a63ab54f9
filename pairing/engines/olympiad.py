"""The olympiad team tournament (seed 004 §4.9.9.5; team forming per seeds README item 14).

Teams: the players, strongest first, are dealt in blocks of as many players
as there are teams. The example (24 players, 4 teams) deals the blocks in the
orders 1234, 4321, 3412, 2143, then again: team 1 gets 1, 8, 11, 14, 17, 24
and every team's rank sum is 75. In general the cycle is: teams in order,
reversed, rotated by half the number of teams, that rotation reversed. Each
block and its reverse give every team the same sum, so an even number of
full blocks balances exactly. An odd number of full blocks (three or more)
ends with the orders "in order", "rotated by half", then a block dealt so
that the best player goes to the team with the highest rank sum so far:
equal sums for an odd number of teams, sums one apart for an even number
(the least possible). A last, incomplete block is dealt the same way, best
player to the team with the highest rank sum.

Four teams, the section's own case, follow its words to the letter: "og så
videre indtil alle spillere er placeret": the cycle 1234, 4321, 3412, 2143
repeats for every block, an incomplete last block taking the first teams of
its order (seeds README item 14 asks for equal rank sums only for other team
counts). 12 players: 1234, 4321, 3412; 9 players: the ninth to team 3.

Play: all teams against all (the Berger schedule of `roundrobin.schedule`
over the team numbers). Boards follow the team order, board 1 the team's
best player. The first-named team has white on the odd boards. A board a
team cannot fill is lost by forfeit; a board both players lose (a double
forfeit, both withdrawn) scores 0 for both teams. A match won gives 2 match points, a
draw 1 (settings); teams rank by match points, then board points (or the
other way round), equal teams share the place.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from .groups import strength_order
from .roundrobin import schedule
from .state import InvalidInput, Player
from .tiebreaks.teams import Bye, Match, TeamEvent


def _cycle_order(block: int, n_teams: int) -> list[int]:
    """Teams (1-based) receiving the block's players, best first, for the 4-block cycle."""
    in_order = list(range(1, n_teams + 1))
    half = n_teams // 2
    rotated = in_order[-half:] + in_order[:-half]
    return [in_order, in_order[::-1], rotated, rotated[::-1]][block % 4]


def _balancing_order(sums: Mapping[int, int], count: int) -> list[int]:
    """The `count` teams to receive the next players, highest rank sum first."""
    return sorted(sums, key=lambda t: (-sums[t], t))[:count]


def deal_orders(n_players: int, n_teams: int) -> list[list[int]]:
    """For each block of the deal, the teams receiving its players in rank order."""
    if n_teams < 2:
        raise InvalidInput("an olympiad needs at least 2 teams")
    if n_players < n_teams:
        raise InvalidInput(f"{n_players} players cannot form {n_teams} teams")
    full, rest = divmod(n_players, n_teams)
    if n_teams == 4:
        blocks = full + (1 if rest else 0)
        return [_cycle_order(b, 4)[: n_players - b * 4] for b in range(blocks)]
    # An odd number of full blocks (three or more) ends with a balancing triple.
    cycled = full if full % 2 == 0 or full == 1 else full - 3
    orders: list[list[int]] = []
    sums = dict.fromkeys(range(1, n_teams + 1), 0)

    def add(order: list[int]) -> None:
        for position, team in enumerate(order, start=len(orders) * n_teams + 1):
            sums[team] += position
        orders.append(order)

    for block in range(cycled):
        add(_cycle_order(block, n_teams))
    if cycled < full:
        add(_cycle_order(0, n_teams))
        add(_cycle_order(2, n_teams))
        add(_balancing_order(sums, n_teams))
    if rest:
        add(_balancing_order(sums, rest))
    return orders


@dataclass(slots=True)
class Team:
    number: int
    players: list[int]  # board order, board 1 first
    rank_sum: int = 0


def form_teams(ranked: Sequence[int], n_teams: int) -> list[Team]:
    """Teams from player ids in rank order (strongest first), seed 004 §4.9.9.5."""
    teams = [Team(t, []) for t in range(1, n_teams + 1)]
    rank = 0
    for order in deal_orders(len(ranked), n_teams):
        for team in order:
            teams[team - 1].players.append(ranked[rank])
            teams[team - 1].rank_sum += rank + 1
            rank += 1
    return teams


def teams_from_players(players: Sequence[Player], n_teams: int, seed: int | str | None = None) -> list[Team]:
    """Teams from players ranked by strength (DSU rating, title, Elo, lot)."""
    return form_teams([p.id for p in strength_order(players, seed)], n_teams)


@dataclass(frozen=True, slots=True)
class BoardGame:
    """One board of a team match; None for a board the team could not fill."""

    board: int
    white: int | None
    black: int | None
    result: float | None = None  # white's score; set for a forfeit board
    black_result: float | None = None  # black's score when it is not 1 - white's (a double forfeit, 0-0)

    @property
    def forfeit(self) -> bool:
        return self.white is None or self.black is None

    @property
    def black_score(self) -> float | None:
        """Black's points: 1 - White's, except where both lose (a double forfeit, both withdrawn)."""
        if self.result is None:
            return None
        return self.black_result if self.black_result is not None else 1.0 - self.result


@dataclass(slots=True)
class TeamMatch:
    round: int
    first: int  # the first-named team: white on the odd boards
    second: int
    boards: list[BoardGame] = field(default_factory=list)

    def board_points(self, team: int) -> float:
        total = 0.0
        for g in self.boards:
            if g.result is None:
                continue
            white_team = self.first if g.board % 2 else self.second
            total += g.result if team == white_team else g.black_score or 0.0
        return total

    @property
    def complete(self) -> bool:
        return all(g.result is not None for g in self.boards)


@dataclass(slots=True)
class TeamStanding:
    team: int
    match_points: float = 0.0
    board_points: float = 0.0
    matches: int = 0
    rank: int = 0


@dataclass(slots=True)
class PlayerScore:
    player: int
    team: int
    board: int
    points: float = 0.0
    games: int = 0  # played over the board


@dataclass(slots=True)
class TeamTournament:
    teams: list[Team]
    rounds: list[list[TeamMatch]]
    byes: list[int | None]  # the team without a match in each round
    standings: list[TeamStanding]
    crosstable: dict[int, dict[int, list[float | None]]]  # team -> opponent -> board points per meeting
    players: list[PlayerScore]


BoardResult = float | tuple[float, float]
"""A board's result: White's score (Black has the rest), or both scores, (0, 0) for a double forfeit."""

_BOARD_SCORES = {(1.0, 0.0), (0.5, 0.5), (0.0, 1.0), (0.0, 0.0)}


def _board_scores(rnd: int, white: int, black: int, value: BoardResult) -> tuple[float, float]:
    scores = (float(value[0]), float(value[1])) if isinstance(value, tuple) else (float(value), 1.0 - float(value))
    if scores not in _BOARD_SCORES:
        raise InvalidInput(f"round {rnd}: result {value} of {white}-{black} is not 1-0, ½-½, 0-1 or 0-0")
    return scores


def _match(rnd: int, first: Team, second: Team, results: Mapping[tuple[int, int, int], BoardResult]) -> TeamMatch:
    match = TeamMatch(rnd, first.number, second.number)
    for board in range(1, max(len(first.players), len(second.players)) + 1):
        a = first.players[board - 1] if board <= len(first.players) else None
        b = second.players[board - 1] if board <= len(second.players) else None
        white, black = (a, b) if board % 2 else (b, a)
        black_result: float | None = None
        if white is None or black is None:
            result: float | None = 0.0 if white is None else 1.0
        else:
            value = results.get((rnd, white, black))
            result = None
            if value is not None:
                result, black_score = _board_scores(rnd, white, black, value)
                black_result = black_score if result + black_score != 1.0 else None
        match.boards.append(BoardGame(board, white, black, result, black_result))
    return match


def team_tournament(
    teams: Sequence[Team],
    results: Mapping[tuple[int, int, int], BoardResult],
    cycles: int = 1,
    match_points: tuple[float, float] = (2.0, 1.0),
    rank_by_board_points: bool = False,
) -> TeamTournament:
    """All teams against all, from `results[(round, white, black)]`: White's score, or (White's, Black's).

    A double forfeit (0-0, both absent or both withdrawn) is `(0.0, 0.0)`: neither player nor team
    scores the board (seed 004 §11: arriving over 15 minutes late loses the game), and the match is
    decided by the other boards."""
    by_number = {t.number: t for t in teams}
    if sorted(by_number) != list(range(1, len(teams) + 1)):
        raise InvalidInput("teams must be numbered 1..n")
    rounds: list[list[TeamMatch]] = []
    byes: list[int | None] = []
    for rnd, pairs in enumerate(schedule(len(teams), cycles), start=1):
        rounds.append([_match(rnd, by_number[a], by_number[b], results) for a, b in pairs if b])
        byes.append(next((a for a, b in pairs if not b), None))
    table = {t.number: TeamStanding(t.number) for t in teams}
    cross: dict[int, dict[int, list[float | None]]] = {t: {} for t in by_number}
    win, draw = match_points
    for match in (m for rnd in rounds for m in rnd):
        for team, other in ((match.first, match.second), (match.second, match.first)):
            own, theirs = match.board_points(team), match.board_points(other)
            row = table[team]
            row.board_points += own
            cross[team].setdefault(other, []).append(own if match.complete else None)
            if match.complete:
                row.matches += 1
                row.match_points += win if own > theirs else draw if own == theirs else 0.0
    standings = _rank(list(table.values()), rank_by_board_points)
    return TeamTournament(list(teams), rounds, byes, standings, cross, _player_scores(teams, rounds))


def _rank(rows: list[TeamStanding], board_first: bool) -> list[TeamStanding]:
    def key(r: TeamStanding) -> tuple[float, float]:
        return (-r.board_points, -r.match_points) if board_first else (-r.match_points, -r.board_points)

    rows.sort(key=lambda r: (key(r), r.team))
    for i, row in enumerate(rows):
        row.rank = rows[i - 1].rank if i and key(rows[i - 1]) == key(row) else i + 1
    return rows


def _player_scores(teams: Sequence[Team], rounds: list[list[TeamMatch]]) -> list[PlayerScore]:
    scores = {p: PlayerScore(p, t.number, board) for t in teams for board, p in enumerate(t.players, start=1)}
    for match in (m for rnd in rounds for m in rnd):
        for g in match.boards:
            if g.result is None:
                continue
            for player, points in ((g.white, g.result), (g.black, g.black_score or 0.0)):
                if player is not None:
                    scores[player].points += points
                    scores[player].games += 0 if g.forfeit or g.black_result is not None else 1
    return sorted(scores.values(), key=lambda s: (-s.points, s.team, s.board))


def tiebreak_event(
    tournament: TeamTournament, match_points: tuple[float, float] = (2.0, 1.0), primary: str = "MP"
) -> TeamEvent:
    """The tournament as the team tie-breaks take it (`tiebreaks.teams`, C.07 art. 11-13): every match
    with each board's game points from the first-named team's side (a board still in play None), the
    byes of the odd field worth nothing (a round robin's bye is no match)."""
    boards = max((len(t.players) for t in tournament.teams), default=1)
    matches = []
    for match in (m for rnd in tournament.rounds for m in rnd):
        scores: list[tuple[float, float] | None] = []
        for g in match.boards:
            if g.result is None:
                scores.append(None)
                continue
            white, black = g.result, g.black_score or 0.0
            scores.append((white, black) if g.board % 2 else (black, white))
        matches.append(Match(match.round, (match.first, match.second), tuple(scores)))
    byes = tuple(Bye(rnd, team) for rnd, team in enumerate(tournament.byes, start=1) if team)
    win, draw = match_points
    return TeamEvent(
        tuple(t.number for t in tournament.teams), boards, tuple(matches), byes, primary, match_win=win, match_draw=draw
    )
