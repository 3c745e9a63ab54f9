"""A team league on paper, in calendars and in a TRF: the boards of the match card the captains sign and
of a round's results (PDFs by WeasyPrint, `tournaments.pdf`), a team's matches (iCalendar), and the
league as the TRF engine's plain data (`pairing.engines.league_trf`). Read-only: nothing here writes."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.text import slugify

from pairing.engines.league import board_colours
from pairing.engines.league_trf import LeagueBoard, LeagueFile, LeagueMatch, LeaguePlayer, LeagueTeam

from .models import League, Match, Team
from .table import outcome


@dataclass
class CardBoard:
    """One board of a match card: its number, who has White, both players (None: not yet or left empty)
    and the result as White-Black."""

    number: int
    home_white: bool
    home_player: object
    away_player: object
    result: str
    home_name: str = ""  # the player's full name ("" for an empty board)
    away_name: str = ""


def card_boards(match: Match) -> list[CardBoard]:
    """Every board of the match by the league's rules, the line-ups and results entered so far."""
    rules = match.league.rules
    rows = {b.board: b for b in match.boards.select_related("home_player", "away_player")}
    colours = board_colours(rules.boards, rules.home_white)
    out = []
    for number, white in enumerate(colours, start=1):
        row = rows.get(number)
        home = row.home_player if row is not None else None
        away = row.away_player if row is not None else None
        names = (row.home_label, row.away_label) if row is not None else ("", "")
        out.append(CardBoard(number, white, home, away, row.result if row is not None else "", *names))
    return out


def round_matches(league: League, number: int) -> list[tuple[Match, object, list[CardBoard]]]:
    """The matches of round `number` with their outcomes and boards, home team first."""
    matches = league.matches.filter(round=number).select_related("league", "home", "away")
    return [(m, outcome(m), card_boards(m)) for m in matches.prefetch_related("boards", "lineups")]


def team_matches(team: Team) -> list[Match]:
    """The team's matches, home and away, in round order."""
    from django.db.models import Q

    return list(
        Match.objects.filter(Q(home=team) | Q(away=team))
        .select_related("league__club", "home", "away")
        .order_by("round")
    )


def club_slug(team: Team) -> str:
    """The team's club's short name; for a club not on this site, one made from the name kept."""
    return team.club.slug if team.club_id is not None else slugify(team.club_name)


def league_file(league: League) -> LeagueFile:
    """The league as the TRF engine's plain data (`pairing.engines.league_trf`): players numbered in the
    order of the teams' rosters, teams in schedule order."""
    teams = list(
        league.teams.select_related("club", "captain__club")
        .prefetch_related("players__member__club")
        .order_by("number", "pk")
    )
    numbers: dict[int, int] = {}
    players: list[LeaguePlayer] = []

    def number_of(member) -> int:
        if member.pk not in numbers:
            numbers[member.pk] = len(players) + 1
            players.append(LeaguePlayer(numbers[member.pk], member.full_name, member.club.slug, member.fide_rating,
                                        member.fide_id, member.federation, member.title, member.sex))  # fmt: skip
        return numbers[member.pk]

    named: dict[tuple[str, str], int] = {}

    def number_named(name: str, team: Team) -> int:
        """A player kept by name (no member on this site): numbered once per name and club."""
        key = (name, club_slug(team))
        if key not in named:
            named[key] = len(players) + 1
            players.append(LeaguePlayer(named[key], name, key[1], None, "", "", "", ""))
        return named[key]

    def player(member, name: str, team: Team) -> int | None:
        return number_of(member) if member is not None else (number_named(name, team) if name else None)

    out_teams = []
    for index, team in enumerate(teams, start=1):
        roster = sorted(team.players.all(), key=lambda p: (p.reserve, p.position))
        regulars = tuple(player(p.member, p.name, team) for p in roster if not p.reserve)
        reserves = tuple(player(p.member, p.name, team) for p in roster if p.reserve)
        captain = number_of(team.captain) if team.captain else None
        lot = team.number if league.rules.cup else None
        out_teams.append(LeagueTeam(index, team.name, club_slug(team), team.rank, regulars, reserves, captain, lot))
    place = {team.pk: index for index, team in enumerate(teams, start=1)}
    by_pk = {team.pk: team for team in teams}
    matches = league.matches.prefetch_related("lineups", "boards__home_player__club", "boards__away_player__club")
    out_matches = []
    for match in matches.order_by("round", "pk"):
        entered = {lineup.team_id for lineup in match.lineups.all()}
        boards = tuple(
            LeagueBoard(
                b.board,
                player(b.home_player, b.home_name, by_pk[match.home_id]),
                player(b.away_player, b.away_name, by_pk[match.away_id]),
                b.result,
            )  # fmt: skip
            for b in sorted(match.boards.all(), key=lambda b: b.board)
        )
        out_matches.append(LeagueMatch(match.round, place[match.home_id], place[match.away_id], match.date,
                                       match.home_id in entered, match.away_id in entered, boards,
                                       match.decider))  # fmt: skip
    return LeagueFile(league.name, league.slug, league.rules, tuple(league.tiebreaks), tuple(players),
                      tuple(out_teams), tuple(out_matches))  # fmt: skip
