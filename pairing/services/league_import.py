"""A league read from a TRF (`pairing.engines.league_trf`) written into a new league, as one action: one
transaction, one audit entry. It belongs with the league's other writes (`pairing.services.leagues`).

Clubs are found by their short names, players among their club's members by full name; a club or a
player not found, a taken short name, or rules the engine refuses raise a `ValidationError` naming the
problem, and nothing is written.
"""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from audit.log import record
from clubs.models import Club, Member
from pairing.engines.league_trf import LeagueFile
from pairing.engines.state import InvalidInput
from pairing.engines.team_cup import cup_bracket, slot_of
from teams.models import BoardResult, League, Lineup, Match, Team, TeamPlayer


def _members(data: LeagueFile, clubs: dict[str, Club]) -> dict[int, Member]:
    """Each player's member: the one of that full name (and FIDE id, if namesakes) in the player's club."""
    found: dict[int, Member] = {}
    for player in data.players:
        club = clubs[player.club]
        match = [m for m in club.members.all() if m.full_name == player.name]
        if len(match) > 1 and player.fide_id:
            match = [m for m in match if m.fide_id == player.fide_id]
        if len(match) > 1:
            raise ValidationError(
                _("%(club)s has several members called %(name)s.") % {"name": player.name, "club": club.name}
            )
        if not match:
            raise ValidationError(_("%(name)s is no member of %(club)s.") % {"name": player.name, "club": club.name})
        found[player.number] = match[0]
    return found


def _clubs(data: LeagueFile) -> dict[str, Club]:
    slugs = {p.club for p in data.players} | {t.club for t in data.teams}
    clubs = {c.slug: c for c in Club.objects.filter(slug__in=slugs).prefetch_related("members")}
    missing = sorted(slugs - set(clubs))
    if missing:
        raise ValidationError(_("No club has the short name %(slugs)s.") % {"slugs": ", ".join(missing)})
    return clubs


def _write_teams(league: League, data: LeagueFile, clubs, members) -> dict[int, Team]:
    scheduled = bool(data.matches)
    teams = {}
    for t in data.teams:
        teams[t.number] = Team.objects.create(
            league=league,
            club=clubs[t.club],
            name=t.name,
            rank=t.rank,
            number=(t.lot if data.rules.cup else t.number) if scheduled else None,
            captain=members.get(t.captain),
        )
        TeamPlayer.objects.bulk_create(
            [TeamPlayer(team=teams[t.number], member=members[n], position=i) for i, n in enumerate(t.regulars, 1)]
            + [TeamPlayer(team=teams[t.number], member=members[n], position=i, reserve=True)
               for i, n in enumerate(t.reserves, 1)]
        )  # fmt: skip
    return teams


def _write_matches(league: League, user, data: LeagueFile, teams, members) -> None:
    for m in data.matches:
        match = Match.objects.create(league=league, round=m.round, home=teams[m.home], away=teams[m.away], date=m.date,
                                     decider=m.decider)  # fmt: skip
        for team, entered in ((teams[m.home], m.home_lineup), (teams[m.away], m.away_lineup)):
            if entered:
                Lineup.objects.create(match=match, team=team, entered_by=user)
        BoardResult.objects.bulk_create(
            [BoardResult(match=match, board=b.number, home_player=members.get(b.home), away_player=members.get(b.away),
                         result=b.result) for b in m.boards]
        )  # fmt: skip


def _check_cup(data: LeagueFile) -> None:
    """A cup's file with matches gives every team a lot number of one bracket, and every match pairs the
    teams of one tie of it (`team_cup`)."""
    if not data.rules.cup or not data.matches:
        return
    lots = {t.number: t.lot for t in data.teams}
    try:
        if None in lots.values():
            raise InvalidInput("a team of the cup has no lot number")
        cup_bracket(lots, {})  # type: ignore[arg-type]
        for m in data.matches:
            if slot_of(lots[m.home], m.round) != slot_of(lots[m.away], m.round):  # type: ignore[arg-type]
                raise InvalidInput(f"round {m.round}: teams {m.home} and {m.away} are not in one tie")
    except InvalidInput as error:
        raise ValidationError(_("The cup in the file is not a bracket: %(reason)s") % {"reason": error}) from None


def import_league(club: Club, user, data: LeagueFile, *, name: str = "", slug: str = "") -> League:
    """A new league organised by `club` with everything `data` holds (teams, rosters, captains, the
    schedule, line-ups, results; a cup's lot numbers and deciders), named `name`/`slug` or as in the file.
    All or nothing."""
    name, slug = name or data.name, slug or data.slug
    _check_cup(data)
    with transaction.atomic():
        if League.objects.select_for_update().filter(club=club, slug=slug).exists():
            raise ValidationError(_("%(club)s already has a league called %(slug)s.") % {"club": club, "slug": slug})
        clubs = _clubs(data)
        members = _members(data, clubs)
        league = League.objects.create(
            club=club, name=name, slug=slug, settings=data.rules.settings(), tiebreaks=list(data.tiebreaks)
        )
        teams = _write_teams(league, data, clubs, members)
        _write_matches(league, user, data, teams, members)
        params = {"teams": len(data.teams), "matches": len(data.matches), "players": len(data.players)}
        record(user, "league-import", league, label=name, params=params)
    return league
