"""Every write of a team league, one function per action: the league made, a team added, a roster set,
the schedule made, a match's date, a team's line-up, a board's result.

Each follows the competitions' writer (`pairing.services`): one transaction; first the league's
row locked (SELECT ... FOR UPDATE), so two actions on one league run one after the other and the
second sees what the first did; the league's version raised once; one audit entry (`audit.log.record`)
with the action's code and its parameters, words left to the reader's language. Bad input raises a
`ValidationError` naming the problem, and nothing is written.

Every action taken from a page carries what the page showed (`based_on`: `league_seen` for the league's
page of teams, rosters and schedule, `match_seen` for a match's card), checked under the league's lock
(`guard.check_basis`): a page out of date (a double click, another TD, the other captain) writes nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _

from audit.log import record
from audit.models import AuditEntry
from clubs.models import Club, Member, Season
from pairing.engines import kinds
from pairing.engines.league import LeagueRules, Problem, Roster, check_lineup, league_schedule
from pairing.engines.state import InvalidInput
from pairing.engines.tiebreaks.teams import parse_team
from teams.caching import forget_league_stamps
from teams.models import BoardResult, League, Lineup, Match, Team, TeamPlayer
from tournaments.models import Result

from .guard import check_basis, latest_id

# The tie-breaks of a league that names none: the direct encounter (C.07 13.3), after match points
# and board points.
DEFAULT_TIEBREAKS = ["EDE"]
# What the league's page of teams, rosters and schedule shows, by the audit log's actions that change it;
# a match's actions carry the match's id (`match_id`) in their parameters.
LEAGUE_ACTIONS = ("league-create", "league-team-add", "league-roster", "league-schedule", "league-cup-draw")


def league_entries(league: League):
    return AuditEntry.objects.filter(object_type="league", object_id=str(league.pk))


def league_seen(league: League) -> int:
    """What the league's page of teams, rosters and schedule is based on (`guard.latest_id`)."""
    return latest_id(league_entries(league).filter(action__in=LEAGUE_ACTIONS))


def match_entries(match: Match):
    return league_entries(match.league).filter(params__match_id=match.pk)


def match_seen(match: Match) -> int:
    """What a match's card (line-ups, results, confirmations) is based on: the latest entry about the match."""
    return latest_id(match_entries(match))


def dispute_reason(match: Match) -> str:
    """What the captain who disputes the match's result says is wrong (his `league-dispute` entry); "" while
    the result is not disputed."""
    if not match.disputed:
        return ""
    entry = match_entries(match).filter(action="league-dispute").order_by("-pk").values_list("params", flat=True)
    return (entry.first() or {}).get("detail", "")


def _changed(league: League) -> League:
    """Lock the league's row, raise its version once (the action's one bump, forgetting this process's stamp
    of it); the locked row, read afresh."""
    locked = League.objects.select_for_update().get(pk=league.pk)
    League.objects.filter(pk=locked.pk).update(version=F("version") + 1, changed_at=timezone.now())
    forget_league_stamps([locked.pk])
    locked.refresh_from_db(fields=["version", "changed_at"])
    return locked


def _rules(settings: dict | None) -> LeagueRules:
    try:
        return kinds.league_rules(settings)
    except InvalidInput as error:
        raise ValidationError(_("The league's settings are not valid: %(reason)s") % {"reason": error}) from None


def _tiebreaks(codes: Sequence[str] | None) -> list[str]:
    out = []
    for code in codes if codes is not None else DEFAULT_TIEBREAKS:
        try:
            out.append(parse_team(code).code)
        except InvalidInput:
            raise ValidationError(_("%(code)s is no team tie-break.") % {"code": code}) from None
    return out


def create_league(
    club: Club,
    user,
    *,
    name: str,
    slug: str,
    settings: dict | None = None,
    tiebreaks: Sequence[str] | None = None,
    season: Season | None = None,
) -> League:
    """A new league organised by `club` (its TDs direct it), with its rules and tie-breaks."""
    rules = _rules(settings)
    codes = _tiebreaks(tiebreaks)
    if season is not None and season.club_id != club.pk:
        raise ValidationError(_("The season %(season)s is not one of %(club)s.") % {"season": season, "club": club})
    with transaction.atomic():
        if League.objects.select_for_update().filter(club=club, slug=slug).exists():
            raise ValidationError(_("%(club)s already has a league called %(slug)s.") % {"club": club, "slug": slug})
        league = League.objects.create(
            club=club, season=season, name=name, slug=slug, settings=rules.settings(), tiebreaks=codes
        )
        after = {"name": name, "slug": slug, "settings": league.settings, "tiebreaks": codes}
        record(user, "league-create", league, after=after)
    return league


def _refuse_once_scheduled(league: League) -> None:
    if league.matches.exists():
        raise ValidationError(_("The schedule of %(league)s is made: its teams are fixed.") % {"league": league})


def add_team(
    league: League,
    user,
    *,
    club: Club,
    name: str,
    rank: int = 1,
    captain: Member | None = None,
    based_on: int | None = None,
) -> Team:
    """A team of `club` in the league, the club's `rank`-th (1 its first team), with its captain."""
    if captain is not None and captain.club_id != club.pk:
        raise ValidationError(_("%(member)s is no member of %(club)s.") % {"member": captain, "club": club})
    if rank < 1:
        raise ValidationError(_("A club's teams are numbered from 1."))
    with transaction.atomic():
        league = _changed(league)
        check_basis(league_entries(league).filter(action__in=LEAGUE_ACTIONS), based_on)
        _refuse_once_scheduled(league)
        if league.teams.filter(name=name).exists():
            raise ValidationError(_("The league already has a team called %(name)s.") % {"name": name})
        if league.teams.filter(club=club, rank=rank).exists():
            raise ValidationError(_("%(club)s already has a team %(rank)s here.") % {"club": club, "rank": rank})
        team = Team.objects.create(league=league, club=club, name=name, rank=rank, captain=captain)
        params = {"team": name, "club_name": club.name, "rank": rank, "captain": str(captain or "")}
        record(user, "league-team-add", league, label=name, params=params)
    return team


def team_entries(team: Team):
    """The audit entries of the team's captain changes (its captain page shows the captain)."""
    return league_entries(team.league).filter(action="league-captain", params__team_id=team.pk)


def team_seen(team: Team) -> int:
    """What a team's captain page is based on: the latest change of its captain (0: none since it was added)."""
    return latest_id(team_entries(team))


def may_choose_captain(team: Team, user) -> bool:
    """The organiser's TDs and the TDs of the team's own club choose its captain."""
    return directs(team.league, user) or (team.club_id is not None and team.club.is_director(user))


def set_captain(team: Team, user, captain: Member | None, *, based_on: int | None = None) -> None:
    """The team's captain (None: none): a member of the team's club, chosen by the organiser's TD or a TD
    of the team's club. The new captain enters the line-ups, results and confirmations of the team's
    matches from then on, the old one no more."""
    if captain is not None and captain.club_id != team.club_id:
        raise ValidationError(_("%(member)s is no member of %(club)s.") % {"member": captain, "club": team.club})
    with transaction.atomic():
        league = _changed(team.league)
        check_basis(team_entries(team), based_on)
        team = Team.objects.select_related("club", "captain").get(pk=team.pk)
        team.league = league
        _refuse_clubless(team)
        if not may_choose_captain(team, user):
            raise ValidationError(_("Only the organiser's TD or a TD of %(club)s chooses the captain of %(team)s.")
                                  % {"club": team.club, "team": team})  # fmt: skip
        before = str(team.captain or "")
        Team.objects.filter(pk=team.pk).update(captain=captain)
        params = {"team": team.name, "team_id": team.pk}
        record(user, "league-captain", league, label=team.name, before={"captain": before},
               after={"captain": str(captain or "")}, params=params)  # fmt: skip


def _refuse_clubless(team: Team) -> None:
    """A team restored from a backup whose club is not on this site keeps its players as restored."""
    if team.club_id is None:
        raise ValidationError(
            _("The club of %(team)s (%(club)s) is not on this site: its roster and line-ups stay as restored.")
            % {"team": team.name, "club": team.club_name}
        )


def set_roster(
    team: Team, user, regulars: Sequence[Member], reserves: Sequence[Member] = (), *, based_on: int | None = None
) -> None:
    """The team's roster: its regulars in board order, then its listed reserves. Every player is a member
    of the team's club, on the roster once, and a regular of no other team of the league."""
    _refuse_clubless(team)
    everyone = [*regulars, *reserves]
    foreign = [m for m in everyone if m.club_id != team.club_id]
    if foreign:
        names = ", ".join(str(m) for m in foreign)
        raise ValidationError(_("Not members of %(club)s: %(names)s.") % {"club": team.club, "names": names})
    if len({m.pk for m in everyone}) != len(everyone):
        raise ValidationError(_("A player is on the roster twice."))
    with transaction.atomic():
        league = _changed(team.league)
        check_basis(league_entries(league).filter(action__in=LEAGUE_ACTIONS), based_on)
        taken = TeamPlayer.objects.filter(team__league=league, reserve=False, member__in=list(regulars))
        taken = taken.exclude(team=team).select_related("member", "team").first()
        if taken is not None:
            raise ValidationError(
                _("%(member)s is already a regular of %(team)s.") % {"member": taken.member, "team": taken.team}
            )
        before = [p.label for p in team.players.select_related("member")]
        team.players.all().delete()
        TeamPlayer.objects.bulk_create(
            [TeamPlayer(team=team, member=m, position=i) for i, m in enumerate(regulars, start=1)]
            + [TeamPlayer(team=team, member=m, position=i, reserve=True) for i, m in enumerate(reserves, start=1)]
        )
        after = [str(m) for m in regulars] + [f"({m})" for m in reserves]
        record(user, "league-roster", league, label=team.name, before=before, after=after, params={"team": team.name})


def make_schedule(
    league: League,
    user,
    order: Sequence[Team] | None = None,
    dates: Sequence[date | None] = (),
    *,
    based_on: int | None = None,
) -> int:
    """Number the teams in `order` (the TD's draw; by default the order they were entered) and write
    every match of the single or double round robin by the Berger tables (`league_schedule`), with the
    date of each round where `dates` gives one. The number of matches written."""
    with transaction.atomic():
        league = _changed(league)
        check_basis(league_entries(league).filter(action__in=LEAGUE_ACTIONS), based_on)
        teams = list(league.teams.order_by("pk"))
        if league.rules.cup:
            raise ValidationError(_("%(league)s is a cup: its rounds are drawn one by one.") % {"league": league})
        if league.matches.exists():
            raise ValidationError(_("The schedule of %(league)s is already made.") % {"league": league})
        if len(teams) < 2:
            raise ValidationError(_("A league needs at least two teams."))
        if order is not None:
            if sorted(t.pk for t in order) != sorted(t.pk for t in teams):
                raise ValidationError(_("The order must name every team of the league once."))
            teams = list(order)
        rounds = league_schedule(len(teams), league.rules.cycles)
        if len(dates) > len(rounds):
            raise ValidationError(_("%(n)s dates for %(rounds)s rounds.") % {"n": len(dates), "rounds": len(rounds)})
        for number, team in enumerate(teams, start=1):
            Team.objects.filter(pk=team.pk).update(number=number)
        matches = [
            Match(league=league, round=rnd.number, home=teams[f.home - 1], away=teams[f.away - 1], date=day)
            for rnd, day in zip(rounds, [*dates, *[None] * (len(rounds) - len(dates))], strict=True)
            for f in rnd.fixtures
        ]
        Match.objects.bulk_create(matches)
        params = {"teams": [t.name for t in teams]}
        record(user, "league-schedule", league, params=params)
    return len(matches)


def set_match_date(match: Match, user, day: date | None, *, based_on: int | None = None) -> None:
    """The date the match is played (moved by the organiser)."""
    with transaction.atomic():
        league = _changed(match.league)
        check_basis(match_entries(match), based_on)
        before = match.date
        Match.objects.filter(pk=match.pk).update(date=day)
        params = {"match": str(match), "match_id": match.pk}
        record(user, "league-match-date", league, label=str(match), before=before, after=day, params=params)
    match.date = day


def refuse_once_next_drawn(match: Match) -> None:
    """A cup match's line-ups and results are fixed once the round after it is drawn: its winner plays on."""
    league = match.league
    if league.rules.cup and league.matches.filter(round__gt=match.round).exists():
        raise ValidationError(
            _("The next round of the cup is drawn: the result of %(match)s is fixed.") % {"match": match}
        )


def problem_message(problem: Problem, names: dict[int, str]) -> str:
    """A line-up problem (`pairing.engines.league.check_lineup`) in the reader's language."""
    p = dict(problem.params)
    for key in ("player", "above"):
        if key in p:
            p[key] = names.get(p[key], str(p[key]))
    messages = {
        "boards": _("%(given)s players for a match of %(boards)s boards."),
        "twice": _("%(player)s is on board %(first)s and on board %(board)s."),
        "not_rostered": _("%(player)s (board %(board)s) is on none of the club's rosters."),
        "plays_down": _("%(player)s (board %(board)s) is a regular of team %(team)s and cannot play down."),
        "plays_up": _("%(player)s (board %(board)s) of team %(team)s may play at most %(limit)s team(s) higher."),
        "order": _("%(player)s (board %(board)s) comes before %(above)s (board %(above_board)s) in the roster order."),
        "reserves": _("%(count)s reserves; the league allows %(limit)s."),
    }
    return messages[problem.code] % p


def _club_rosters(league: League, club_id: int) -> list[Roster]:
    """The rosters of a club's teams in the league, as the line-up check reads them."""
    rosters: dict[int, tuple[int, list[int], list[int]]] = {}
    for team in league.teams.filter(club_id=club_id).prefetch_related("players"):
        players = sorted(team.players.all(), key=lambda p: (p.reserve, p.position))
        rosters[team.pk] = (
            team.rank,
            [p.member_id for p in players if not p.reserve and p.member_id is not None],
            [p.member_id for p in players if p.reserve and p.member_id is not None],
        )
    return [Roster(rank, tuple(regulars), tuple(reserves)) for rank, regulars, reserves in rosters.values()]


def set_lineup(
    match: Match, team: Team, user, players: Sequence[Member | None], *, based_on: int | None = None
) -> None:
    """A team's line-up for the match, board 1 first (None: the board left empty), checked against the
    club's rosters by the league's rules (`check_lineup`): the roster order kept, reserves only as far up
    as the league allows. Once a board has a result the line-up is fixed."""
    if team.pk not in (match.home_id, match.away_id):
        raise ValidationError(_("%(team)s does not play the match %(match)s.") % {"team": team, "match": match})
    _refuse_clubless(team)
    with transaction.atomic():
        league = _changed(match.league)
        check_basis(match_entries(match), based_on)
        if not directs(league, user) and captain_side(match, user) != _side(match, team):
            raise ValidationError(_("Only the organiser's TD or the captain of %(team)s enters its line-up.")
                                  % {"team": team})  # fmt: skip
        rules = league.rules
        refuse_once_next_drawn(match)
        if match.boards.exclude(result="").exists():
            raise ValidationError(_("Results are entered: the line-ups of %(match)s are fixed.") % {"match": match})
        ids = [m.pk if m is not None else None for m in players]
        problems = check_lineup(ids, team.rank, _club_rosters(league, team.club_id), rules)
        if problems:
            names = {m.pk: str(m) for m in players if m is not None}
            raise ValidationError([problem_message(p, names) for p in problems])
        side = "home_player" if team.pk == match.home_id else "away_player"
        rows = {b.board: b for b in match.boards.all()}
        label = side.replace("player", "label")
        before = [getattr(rows[n], label) if n in rows else "" for n in range(1, rules.boards + 1)]
        for number in range(1, rules.boards + 1):
            member = players[number - 1] if number <= len(players) else None
            row = rows.get(number) or BoardResult(match=match, board=number)
            setattr(row, side, member)
            setattr(row, side.replace("player", "name"), "")  # a player kept by name gives way too
            row.save()
        Lineup.objects.update_or_create(
            match=match, team=team, defaults={"entered_by": user, "entered_at": timezone.now()}
        )
        after = [str(m or "") for m in players] + [""] * (rules.boards - len(players))
        params = {"team": team.name, "match": str(match), "match_id": match.pk}
        record(user, "league-lineup", league, label=str(match), before=before, after=after, params=params)


def set_board_result(match: Match, user, board: int, result: str) -> None:
    """A board's result as White-Black ("" takes it back): `set_board_results` for one board."""
    set_board_results(match, user, {board: result})


def set_board_results(match: Match, user, results: dict[int, str], *, based_on: int | None = None) -> int:
    """The results of several boards of the match (White-Black, "" takes one back), as one action: one
    bump, one audit entry per board whose result changes. Both teams' line-ups must be in; a board a team
    left empty needs no result: it is lost by that team (`pairing.engines.league.board_score`). The
    number of boards changed."""
    for result in results.values():
        if result not in Result.values:
            raise ValidationError(_("%(result)s is no result.") % {"result": result})
    with transaction.atomic():
        league = _changed(match.league)
        check_basis(match_entries(match), based_on)
        match = Match.objects.select_related("home__captain", "away__captain").get(pk=match.pk)
        by_td = directs(league, user)
        if not by_td:
            _refuse_captain(match, user)
        if match.lineups.count() < 2:
            raise ValidationError(_("Both teams' line-ups are needed before results."))
        refuse_once_next_drawn(match)
        rows = {b.board: b for b in match.boards.all()}
        changed = 0
        for board, result in sorted(results.items()):
            row = rows.get(board)
            if row is None:
                raise ValidationError(_("The match has no board %(board)s.") % {"board": board})
            if row.result == result:
                continue
            if not (row.home_fielded and row.away_fielded):
                raise ValidationError(
                    _("Board %(board)s has a player missing: it is lost by forfeit without a result.")
                    % {"board": board}
                )
            BoardResult.objects.filter(pk=row.pk).update(result=result)
            params = {"board": board, "match": str(match), "match_id": match.pk}
            record(user, "league-result", league, label=str(match), before={"result": row.result},
                   after={"result": result}, params=params)  # fmt: skip
            changed += 1
        if changed and not by_td and (match.home_confirmed or match.away_confirmed):
            Match.objects.filter(pk=match.pk).update(home_confirmed=False, away_confirmed=False)
    return changed


def directs(league: League, user) -> bool:
    """Whether `user` is a TD of the league's organiser (None: the system, as the demo and fixtures act)."""
    return user is None or league.club.is_director(user)


def captain_side(match: Match, user) -> str:
    """The side ("home", "away") of the match whose team's captain is `user`'s member; "" for none."""
    if user is None or not user.is_authenticated:
        return ""
    for side, team in (("home", match.home), ("away", match.away)):
        if team.captain is not None and team.captain.user_id == user.pk:
            return side
    return ""


def _side(match: Match, team: Team) -> str:
    return "home" if team.pk == match.home_id else "away"


def _refuse_captain(match: Match, user) -> str:
    """A captain's side of the match, if he may still enter or confirm its results; ValidationError if not."""
    side = captain_side(match, user)
    if not side:
        raise ValidationError(_("Only the organiser's TD or a captain of %(match)s enters its results.")
                              % {"match": match})  # fmt: skip
    if match.locked:
        raise ValidationError(_("Both captains confirmed the result of %(match)s: only the organiser's TD changes it.")
                              % {"match": match})  # fmt: skip
    if match.disputed:
        raise ValidationError(_("The result of %(match)s is disputed: the organiser's TD settles it.")
                              % {"match": match})  # fmt: skip
    return side


def _complete(match: Match) -> bool:
    """Both line-ups in and every board with two players has its result."""
    boards = list(match.boards.all())
    played = [b for b in boards if b.home_fielded and b.away_fielded]
    return match.lineups.count() == 2 and all(b.result for b in played)


def confirm_result(match: Match, user, *, based_on: int | None = None) -> None:
    """A captain confirms the match's result as entered; once both have, it is locked."""
    with transaction.atomic():
        league = _changed(match.league)
        check_basis(match_entries(match), based_on)
        match = Match.objects.select_related("home__captain", "away__captain").get(pk=match.pk)
        side = _refuse_captain(match, user)
        if not _complete(match):
            raise ValidationError(_("The results of %(match)s are not complete yet.") % {"match": match})
        Match.objects.filter(pk=match.pk).update(**{f"{side}_confirmed": True})
        team = getattr(match, side)
        params = {"team": team.name, "match": str(match), "match_id": match.pk}
        record(user, "league-confirm", league, label=str(match), params=params)


def dispute_result(match: Match, user, reason: str, *, based_on: int | None = None) -> None:
    """A captain disputes the match's result instead of confirming it: the organiser's TD settles it."""
    if not reason.strip():
        raise ValidationError(_("Say what is wrong with the result."))
    with transaction.atomic():
        league = _changed(match.league)
        check_basis(match_entries(match), based_on)
        match = Match.objects.select_related("home__captain", "away__captain").get(pk=match.pk)
        side = _refuse_captain(match, user)
        Match.objects.filter(pk=match.pk).update(disputed=side, home_confirmed=False, away_confirmed=False)
        team = getattr(match, side)
        params = {"team": team.name, "match": str(match), "match_id": match.pk, "detail": reason.strip()[:500]}
        record(user, "league-dispute", league, label=str(match), params=params)


def settle_dispute(match: Match, user, results: dict[int, str], *, based_on: int | None = None) -> None:
    """The organiser's TD settles a disputed result: the boards' results as he sets them, the match locked."""
    with transaction.atomic():
        league = _changed(match.league)
        check_basis(match_entries(match), based_on)
        match = Match.objects.get(pk=match.pk)
        if not directs(league, user):
            raise ValidationError(_("Only the organiser's TD settles a disputed result."))
        if not match.disputed:
            raise ValidationError(_("The result of %(match)s is not disputed.") % {"match": match})
        refuse_once_next_drawn(match)
        rows = {b.board: b for b in match.boards.all()}
        unknown = sorted(set(results) - set(rows))
        if unknown or any(r not in Result.values for r in results.values()):
            raise ValidationError(_("These are not the results of the match's boards."))
        before = {str(n): rows[n].result for n in sorted(results)}
        for board, result in results.items():
            BoardResult.objects.filter(pk=rows[board].pk).update(result=result)
        Match.objects.filter(pk=match.pk).update(disputed="", home_confirmed=True, away_confirmed=True)
        params = {"match": str(match), "match_id": match.pk}
        after = {str(n): results[n] for n in sorted(results)}
        record(user, "league-settle", league, label=str(match), before=before, after=after, params=params)
