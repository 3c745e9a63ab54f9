"""Every write of a team cup (a league whose `format` is "cup"), one function per action: a round drawn,
a level match's decider entered. The matches themselves (line-ups, results, confirmations) are written
by `pairing.services.leagues`, as a league's.

As every league action: one transaction, the league's row locked first, its version raised once, one
audit entry; what the page showed (`based_on`) checked under the lock (`guard.check_basis`).
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from datetime import date

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from audit.log import record
from pairing.engines.state import InvalidInput
from pairing.engines.team_cup import cup_bracket, cup_draw, next_fixtures, slot_of
from teams.models import League, Match, Team
from teams.table import cup_decision, read_cup

from .guard import check_basis
from .leagues import LEAGUE_ACTIONS, _changed, directs, league_entries, match_entries, refuse_once_next_drawn


def team_rating(team: Team, boards: int) -> float:
    """A team's rating for seeding: the mean rating (national, else FIDE) of its first `boards` regulars,
    those without a rating left out; 0 for a team without any."""
    ratings = [p.member.rating for p in team.players.filter(reserve=False).select_related("member")][:boards]
    ratings = [r for r in ratings if r]
    return sum(ratings) / len(ratings) if ratings else 0.0


def draw_round(
    league: League,
    user,
    *,
    method: str = "lot",
    order: Sequence[Team] | None = None,
    day: date | None = None,
    based_on: int | None = None,
    seed: str | None = None,
) -> int:
    """Draw the cup's next round and write its matches (dated `day`); the number of matches written.

    Round 1: every team's lot number (`team_cup.cup_draw`), by lot (`method` "lot") or seeded by team
    rating ("rating", `team_rating`, best first; equal teams in the order they were added) or in the TD's
    `order` ("order"; by default the order the teams were added); the lot numbers fix the bracket (seed
    004 §4.9.7), the highest seeds have the byes. A later round: from the winners of the round before,
    once every match of it has a winner (`team_cup.next_fixtures`); the team with fewer home matches in
    the cup plays at home. The draw's lot `seed` (random unless given) is in the audit entry."""
    with transaction.atomic():
        league = _changed(league)
        check_basis(league_entries(league).filter(action__in=LEAGUE_ACTIONS), based_on)
        if not league.rules.cup:
            raise ValidationError(_("%(league)s is a round robin: it has a schedule, not a draw.") % {"league": league})
        teams = list(league.teams.order_by("pk"))
        if len(teams) < 2:
            raise ValidationError(_("A cup needs at least two teams."))
        seed = seed or secrets.token_hex(8)
        params: dict = {}
        if not league.matches.exists():
            rnd = 1
            if method == "rating":
                boards = league.rules.boards
                rated = {t.pk: team_rating(t, boards) for t in teams}
                teams.sort(key=lambda t: -rated[t.pk])
                params["ratings"] = {t.name: round(rated[t.pk]) for t in teams}
            elif method == "order" and order is not None:
                if sorted(t.pk for t in order) != sorted(t.pk for t in teams):
                    raise ValidationError(_("The order must name every team of the league once."))
                teams = list(order)
            try:
                lots = cup_draw([t.pk for t in teams], method, seed)
            except InvalidInput as error:
                raise ValidationError(str(error)) from None
            Team.objects.filter(league=league).update(number=None)
            for team in teams:
                Team.objects.filter(pk=team.pk).update(number=lots[team.pk])
            by_pk = {t.pk: t for t in teams}
            params.update(
                method=method,
                seed=seed,
                lots={by_pk[pk].name: lot for pk, lot in sorted(lots.items(), key=lambda x: x[1])},
            )
        else:
            cup = read_cup(league)
            if cup is None or cup.next_round is None:
                pending = ", ".join(str(m) for m in cup.pending) if cup is not None else ""
                if pending:
                    raise ValidationError(_("These matches have no winner yet: %(matches)s.") % {"matches": pending})
                raise ValidationError(_("Every round of the cup is drawn."))
            rnd = cup.next_round
            lots = {t.pk: t.number for t in teams if t.number is not None}
        winners = _winners(league, lots)
        home_matches: dict[int, int] = {}
        for home in league.matches.values_list("home_id", flat=True):
            home_matches[home] = home_matches.get(home, 0) + 1
        fixtures = next_fixtures(cup_bracket(lots, winners), rnd, home_matches)
        by_pk = {t.pk: t for t in league.teams.all()}
        matches = [Match(league=league, round=rnd, home=by_pk[f.home], away=by_pk[f.away], date=day) for f in fixtures]
        Match.objects.bulk_create(matches)
        params.update(round=rnd, matches=[f"{by_pk[f.home].name} – {by_pk[f.away].name}" for f in fixtures])
        record(user, "league-cup-draw", league, label=str(rnd), params=params)
    return len(matches)


def _winners(league: League, lots: dict[int, int]) -> dict[tuple[int, int], int]:
    """The winners of the matches decided so far, by (round, tie)."""
    out = {}
    for match in league.matches.select_related("league").prefetch_related("boards", "lineups"):
        decision = cup_decision(match)
        if decision.winner:
            out[(match.round, slot_of(lots[match.home_id], match.round))] = (
                match.home_id if decision.winner == "home" else match.away_id
            )
    return out


def set_decider(match: Match, user, side: str, *, based_on: int | None = None) -> None:
    """The organiser's TD enters who won a level cup match's decider (the lot he drew or the blitz decider
    played, as the league's `cup_decider` says): `side` "home" or "away" ("" takes it back). Only for a
    match that is over and level after the board count, and only until the next round is drawn."""
    if side not in ("", "home", "away"):
        raise ValidationError(_("The decider is won by the home or the away team."))
    with transaction.atomic():
        league = _changed(match.league)
        check_basis(match_entries(match), based_on)
        match = Match.objects.select_related("league", "home", "away").get(pk=match.pk)
        if not directs(league, user):
            raise ValidationError(_("Only the organiser's TD enters a decider."))
        if not league.rules.cup:
            raise ValidationError(_("Only a cup's matches have a decider."))
        refuse_once_next_drawn(match)
        before = match.decider
        match.decider = ""
        if side and not cup_decision(match).needs_decider:
            raise ValidationError(_("%(match)s is not over and level: it needs no decider.") % {"match": match})
        Match.objects.filter(pk=match.pk).update(decider=side)
        winner = getattr(match, side).name if side else ""
        params = {"match": str(match), "match_id": match.pk, "decider": league.rules.cup_decider, "team": winner}
        record(user, "league-cup-decider", league, label=str(match), before=before, after=side, params=params)
