"""A league read into the league engine's plain data: each match's outcome and the league table
(`pairing.engines.league`), in a fixed number of queries."""

from __future__ import annotations

from dataclasses import dataclass

from django.db import models

from clubs.models import Member
from pairing.engines.league import (
    Board,
    BoardCard,
    LeagueLine,
    MatchOutcome,
    PlayedMatch,
    PlayerScore,
    board_colours,
    league_standings,
    match_outcome,
    player_scores,
)
from pairing.engines.team_cup import Decision, Tie, cup_bracket, round_name, rounds_needed, slot_of
from pairing.engines.team_cup import cup_decision as decide

from .models import League, Match, Team


def outcome(match: Match, boards: int | None = None) -> MatchOutcome:
    """The match's board points and match points from its boards (a board without its row: both teams'
    places empty). Before a team has entered its line-up its boards count as filled and undecided."""
    rules = match.league.rules
    entered = {lineup.team_id for lineup in match.lineups.all()}
    home_in, away_in = match.home_id in entered, match.away_id in entered
    rows = {b.board: b for b in match.boards.all()}
    out = []
    for number in range(1, (boards or rules.boards) + 1):
        row = rows.get(number)
        home = row is not None and row.home_fielded if home_in else True
        away = row is not None and row.away_fielded if away_in else True
        out.append(Board(number, home, away, row.result if row is not None else ""))
    return match_outcome(out, rules)


@dataclass
class TableLine:
    """A line of the league table: the team and its line of the engine's standings."""

    team: Team
    line: LeagueLine


def league_table(league: League) -> list[TableLine]:
    """The league table by the league's rules and tie-breaks (`league_standings`)."""
    teams = {t.number: t for t in league.teams.exclude(number=None)}
    matches = league.matches.select_related("league").prefetch_related("boards", "lineups")
    played = [
        PlayedMatch(m.round, m.home.number, m.away.number, outcome(m)) for m in matches.select_related("home", "away")
    ]
    lines = league_standings(sorted(teams), played, league.rules, league.tiebreaks)
    return [TableLine(teams[line.team], line) for line in lines]


def board_cards(match: Match, result: MatchOutcome, names: dict[str, int] | None = None) -> list[BoardCard]:
    """The match's boards with their players (as member ids) and points, teams by their ids. A player kept
    by name (restored from a backup, no member on this site) is a negative number, one per name in
    `names` (filled as they come)."""
    names = {} if names is None else names

    def player(member_id: int | None, name: str) -> int | None:
        if member_id is not None or not name:
            return member_id
        return names.setdefault(name, -1 - len(names))

    rows = {b.board: b for b in match.boards.all()}
    return [
        BoardCard(number, match.home_id, match.away_id, player(row.home_player_id, row.home_name),
                  player(row.away_player_id, row.away_name), points, row.result.endswith("R"))
        for number, points in enumerate(result.boards, start=1)
        if (row := rows.get(number)) is not None
    ]  # fmt: skip


@dataclass
class ScoreLine:
    """A player's line of the league's individual scores: the member (None: a player kept by name), his
    full name, the team, the engine's score."""

    member: Member | None
    name: str
    team: Team
    score: PlayerScore


def score_table(league: League, played: list[tuple[Match, MatchOutcome]]) -> list[ScoreLine]:
    """Every player's score per team over the matches `played` (each with its outcome), best first."""
    names: dict[str, int] = {}
    scores = player_scores([card for match, result in played for card in board_cards(match, result, names)])
    members = Member.objects.in_bulk([s.player for s in scores if s.player > 0])
    named = {number: name for name, number in names.items()}
    teams = {t.pk: t for t in league.teams.all()}
    return [
        ScoreLine(members.get(s.player), members[s.player].full_name if s.player > 0 else named[s.player],
                  teams[s.team], s)
        for s in scores
    ]  # fmt: skip


@dataclass
class ComingMatch:
    """A match a member's team plays: the match, his team, the opponent, home or away, his board (None while
    his team's line-up is not known or he is not in it) and whether he captains the team."""

    match: Match
    team: Team
    opponent: Team
    home: bool
    board: int | None
    captain: bool


def coming_matches(member: Member, today) -> list[ComingMatch]:
    """The matches, from `today` on (or not yet dated), of the teams whose roster holds `member` or which he
    captains, soonest first."""
    teams = Team.objects.filter(models.Q(players__member=member) | models.Q(captain=member)).distinct()
    matches = Match.objects.filter(models.Q(home__in=teams) | models.Q(away__in=teams))
    matches = matches.filter(models.Q(date__gte=today) | models.Q(date=None)).select_related(
        "league__club", "home__captain", "away__captain"
    )
    ids = set(teams.values_list("pk", flat=True))
    out = []
    for match in matches.prefetch_related("boards", "lineups"):
        home = match.home_id in ids
        team, opponent = (match.home, match.away) if home else (match.away, match.home)
        side = "home_player_id" if home else "away_player_id"
        known = any(lineup.team_id == team.pk for lineup in match.lineups.all())
        board = next((b.board for b in match.boards.all() if getattr(b, side) == member.pk), None) if known else None
        out.append(ComingMatch(match, team, opponent, home, board, team.captain_id == member.pk))
    return sorted(out, key=lambda c: (c.match.date is None, c.match.date or today, c.match.round))


# ---------------------------------------------------------------- a cup (`pairing.engines.team_cup`)


def cup_decision(match: Match, result: MatchOutcome | None = None) -> Decision:
    """Who won the cup match and by which rule (board points, the board count, the TD's lot or blitz
    decider), by the league's `cup_tie` and `cup_decider`."""
    rules = match.league.rules
    return decide(result or outcome(match), rules.cup_tie, rules.cup_decider, match.decider)


@dataclass
class CupTie:
    """A tie of the bracket as the pages show it: the engine's tie, its teams (None: an empty place or
    not known yet), the match once drawn with its outcome and decision, and the winner."""

    tie: Tie
    upper: Team | None
    lower: Team | None
    match: Match | None = None
    result: MatchOutcome | None = None
    decision: Decision | None = None
    winner: Team | None = None


@dataclass
class CupRound:
    """A round of the cup: its number, its name ("final", ...; `places`: the teams it holds) and its ties."""

    number: int
    name: str
    places: int
    ties: list[CupTie]
    drawn: bool


@dataclass
class Cup:
    """The cup read from the database: its rounds, the next round to draw (None: none now) and why not."""

    rounds: list[CupRound]
    next_round: int | None
    champion: Team | None
    pending: list[Match]


def read_cup(league: League) -> Cup | None:
    """The bracket of a cup league from its teams' lot numbers and its matches' decisions; None before
    the draw. `next_round` is the round the TD draws next: round 1 before the draw, else the round after
    the last one drawn once every match of it has a winner."""
    teams = {t.pk: t for t in league.teams.all()}
    lots = {pk: t.number for pk, t in teams.items() if t.number is not None}
    matches = list(league.matches.select_related("league", "home", "away").prefetch_related("boards", "lineups"))
    if not lots or len(lots) < 2:
        return None
    rounds_total = rounds_needed(len(lots))
    decided: dict[tuple[int, int], tuple[Match, MatchOutcome, Decision]] = {}
    winners: dict[tuple[int, int], int] = {}
    for match in matches:
        result = outcome(match)
        decision = cup_decision(match, result)
        key = (match.round, slot_of(lots[match.home_id], match.round))
        decided[key] = (match, result, decision)
        if decision.winner:
            winners[key] = match.home_id if decision.winner == "home" else match.away_id
    bracket = cup_bracket(lots, winners)
    drawn = max((m.round for m in matches), default=0)
    rounds = []
    for number, ties in enumerate(bracket, start=1):
        name, places = round_name(number, rounds_total)
        shown = []
        for tie in ties:
            upper, lower = (teams.get(t) if t is not None else None for t in tie.teams)
            row = CupTie(tie, upper, lower, winner=teams.get(tie.winner) if tie.winner is not None else None)
            if (number, tie.slot) in decided:
                row.match, row.result, row.decision = decided[(number, tie.slot)]
            shown.append(row)
        rounds.append(CupRound(number, name, places, shown, number <= drawn))
    pending = [m for key, (m, _, decision) in sorted(decided.items()) if key[0] == drawn and not decision.winner]
    next_round = drawn + 1 if drawn < rounds_total and not pending else None
    champion = rounds[-1].ties[0].winner
    return Cup(rounds, next_round, champion, pending)


@dataclass
class PublicBoard:
    """A board of a match's public page: its number, whether the home team has White, both players (None:
    left empty, or the line-ups not both in yet) and the board's points as (home's, away's) (None: not
    decided), and whether it was decided by forfeit (a forfeit result, or a board left empty)."""

    number: int
    home_white: bool
    home_player: str | None
    away_player: str | None
    points: tuple[float, float] | None
    forfeit: bool


def public_boards(match: Match, result: MatchOutcome) -> tuple[bool, list[PublicBoard]]:
    """Whether the line-ups are shown (both teams' are in: a line-up stays unseen by the other team and the
    public until then) and every board of the match by the league's rules."""
    rules = match.league.rules
    shown = len({lineup.team_id for lineup in match.lineups.all()}) == 2
    rows = {b.board: b for b in match.boards.all()}
    out = []
    for number, white in enumerate(board_colours(rules.boards, rules.home_white), start=1):
        row = rows.get(number)
        home = (row.home_label or None) if shown and row is not None else None
        away = (row.away_label or None) if shown and row is not None else None
        points = result.boards[number - 1] if number <= len(result.boards) else None
        unplayed = shown and (row is None or not row.home_fielded or not row.away_fielded)
        forfeit = points is not None and (unplayed or (row is not None and row.result.endswith("R")))
        out.append(PublicBoard(number, white, home, away, points, forfeit))
    return shown, out


@dataclass
class TeamMatch:
    """A match on a team's page, from the team's side: the match, the opponent, home or away, the team's
    and the opponent's board points and the team's match points (None until every board is decided)."""

    match: Match
    opponent: Team
    home: bool
    result: MatchOutcome

    @property
    def own(self) -> float:
        return self.result.home_points if self.home else self.result.away_points

    @property
    def other(self) -> float:
        return self.result.away_points if self.home else self.result.home_points

    @property
    def match_points(self) -> float | None:
        return self.result.home_match_points if self.home else self.result.away_match_points


@dataclass
class RosterLine:
    """A player on a team's page: the member, his place on the roster (None: he played for the team from
    another team's roster), whether he is a listed reserve, and his score for the team (None: no board
    decided yet), with his points and boards per board."""

    member: Member | None  # None: a player kept by name (restored from a backup)
    position: int | None
    reserve: bool
    score: PlayerScore | None
    name: str = ""

    @property
    def per_board(self) -> list[tuple[int, float, int]]:
        """(board, points, boards decided) for each board he played, board 1 first."""
        if self.score is None:
            return []
        return [(board, points, count) for board, (points, count) in sorted(self.score.per_board.items())]


@dataclass
class BoardLine:
    """The team's points on one board over its matches: points and boards decided."""

    board: int
    points: float
    decided: int


def team_sheet(team: Team) -> tuple[list[RosterLine], list[TeamMatch], list[BoardLine]]:
    """A team's page: its roster in board order (regulars, then reserves, then the players of other
    rosters who played for it) with each player's score, its matches in round order from its side, and
    its points per board."""
    matches = Match.objects.filter(models.Q(home=team) | models.Q(away=team)).select_related("league", "home", "away")
    played = [(m, outcome(m)) for m in matches.prefetch_related("boards", "lineups").order_by("round", "pk")]
    names: dict[str, int] = {}  # players kept by name (`board_cards`)
    cards = [card for match, result in played for card in board_cards(match, result, names)]
    scores = {s.player: s for s in player_scores(cards) if s.team == team.pk}
    roster = list(team.players.select_related("member").order_by("reserve", "position"))
    lines = [
        RosterLine(p.member, p.position, p.reserve, scores.pop(p.member_id or names.get(p.name), None), p.name)
        for p in roster
    ]
    guests = Member.objects.in_bulk([pk for pk in scores if pk > 0])
    by_number = {number: name for name, number in names.items()}
    lines += [RosterLine(guests.get(pk), None, True, score, by_number.get(pk, "")) for pk, score in scores.items()]
    own = [
        TeamMatch(m, m.away if m.home_id == team.pk else m.home, m.home_id == team.pk, result) for m, result in played
    ]
    boards: dict[int, list[float]] = {}
    for line in own:
        for number, points in enumerate(line.result.boards, start=1):
            if points is not None:
                mine = points[0] if line.home else points[1]
                total = boards.setdefault(number, [0.0, 0])
                total[0] += mine
                total[1] += 1
    per_board = [BoardLine(n, total[0], int(total[1])) for n, total in sorted(boards.items())]
    return lines, own, per_board
