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
    league_standings,
    match_outcome,
    player_scores,
)

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
