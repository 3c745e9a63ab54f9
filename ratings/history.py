"""What the club's records say about its members' FIDE ratings before an event, for the rating report.

- **Published lists**: the FIDE lists the club imported and applied (`RatingListImport`, with the
  rating, the games of the list's period and the published K of every matched member) and the
  rating history written from them (`RatingChange` with a list as source).
- **Completed games** (B.02 8.3.3, a new player keeps K 40 until events with at least 30 games are
  completed): a published K of 20 or 10 shows the player has them. Otherwise the games are counted:
  the games columns of the lists the club holds (each list gives the games of its own period), plus
  the games the player played since the latest of those lists in the club's own competitions of the
  same time control, against opponents with a FIDE rating. A player of whom the club holds no list
  with a K or games column counts as having completed 30 games (as before this was read).
- **Reached 2400** (B.02 8.3.3): a published rating (a list's, or a change the history has from a
  list) of 2400 or more on or before the day.
- **Earlier results of an unrated player** (B.02 7.1.4, 8.2): the played games against rated
  opponents in the club's earlier competitions of the same time control, within the 26 months
  before the event, while the player had no FIDE rating.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from datetime import date
from fractions import Fraction

from django.utils import timezone

from clubs.models import Member
from tournaments.models import Game

from .maths.fide_report import POOL_MONTHS, EarlierEvent, months_before
from .models import RatingChange, RatingListImport, RatingSystem, ratings_on

PLAYED = {"1-0": Fraction(1), "½-½": Fraction(1, 2), "0-1": Fraction(0)}
ESTABLISHED = 30  # B.02 8.3.3: games of completed events that end the new player's K 40


@dataclass(frozen=True)
class ListRecord:
    """A member's line in a FIDE list the club applied."""

    list_date: date
    rating: int | None
    games: int | None
    k: int | None


def fide_list_records(members: list[Member], day: date) -> dict[int, list[ListRecord]]:
    """Each member's lines in the applied FIDE lists dated on or before `day`, oldest first."""
    ids = {m.id for m in members}
    clubs = {m.club_id for m in members}
    imports = RatingListImport.objects.filter(
        club__in=clubs, source=RatingSystem.FIDE, status=RatingListImport.Status.APPLIED, list_date__lte=day
    ).order_by("list_date", "id")
    records: dict[int, list[ListRecord]] = defaultdict(list)
    for list_import in imports:
        accepted = set(list_import.proposals.get("accepted", []))
        chosen = {m["member"]: m for m in list_import.proposals.get("by_id", [])}
        for match in list_import.proposals.get("by_name", []):
            if match["line"] in accepted:
                chosen.setdefault(match["member"], match)
        for member_id, match in chosen.items():
            if member_id in ids:
                records[member_id].append(
                    ListRecord(list_import.list_date, match.get("rating"), match.get("games"), match.get("k"))
                )
    return records


def list_dates(members: list[Member], start: date, end: date) -> list[date]:
    """The dates of the FIDE lists the members' club applied between `start` and `end` (both included)."""
    return sorted(
        set(
            RatingListImport.objects.filter(
                club__in={m.club_id for m in members},
                source=RatingSystem.FIDE,
                status=RatingListImport.Status.APPLIED,
                list_date__range=(start, end),
            ).values_list("list_date", flat=True)
        )
    )


def reached_2400(members: list[Member], records: dict[int, list[ListRecord]], day: date) -> set[int]:
    """The members whose published FIDE rating was 2400 or more on or before `day`."""
    found = {m for m, lines in records.items() if any((r.rating or 0) >= 2400 for r in lines)}
    changes = RatingChange.objects.filter(
        member__in=[m.id for m in members], system=RatingSystem.FIDE, source__isnull=False, date__lte=day, new__gte=2400
    )
    return found | set(changes.values_list("member_id", flat=True))


def completed_games(
    member: Member, records: list[ListRecord], day: date, time_control: str, competition_id: int
) -> int:
    """The games of completed rated events before `day` (B.02 8.3.3), as far as the club knows them."""
    if not records or all(r.k is None and r.games is None for r in records):
        return ESTABLISHED
    latest = records[-1]
    if latest.k is not None and latest.k <= 20:
        return max(ESTABLISHED, sum(r.games or 0 for r in records))
    listed = sum(r.games or 0 for r in records)
    return listed + _club_games_between(member, latest.list_date, day, time_control, competition_id)


def _played_games(member: Member, time_control: str, competition_id: int, start: date, end: date):
    """The member's played games in the club's other competitions of `time_control`, `start` <= day < `end`."""
    games = (
        Game.objects.filter(result__in=PLAYED, round__competition__time_control=time_control)
        .exclude(round__competition_id=competition_id)
        .filter(round__paired_at__isnull=False)
        .select_related("white__member", "black__member", "round__competition")
    )
    found = []
    for game in games.filter(white__member=member) | games.filter(black__member=member):
        played = timezone.localdate(game.round.paired_at)
        if start <= played < end:
            found.append((game, played))
    return found


def _club_games_between(member: Member, start: date, end: date, time_control: str, competition_id: int) -> int:
    """Played games in the club's other competitions from `start` to before `end`, against a FIDE-rated opponent."""
    count = 0
    for game, _played in _played_games(member, time_control, competition_id, start, end):
        opponent = game.black.member if game.white.member_id == member.id else game.white.member
        count += opponent.fide_rating is not None
    return count


def earlier_events(member: Member, day: date, time_control: str, competition_id: int) -> tuple[EarlierEvent, ...]:
    """An unrated member's earlier results that may be pooled (B.02 7.1.4): per competition, the ratings of
    the rated opponents and the score against them, in the 26 months before `day`, while unrated."""
    since = months_before(day, POOL_MONTHS)
    by_competition: dict[int, list] = defaultdict(list)
    for game, played in _played_games(member, time_control, competition_id, since, day):
        by_competition[game.round.competition_id].append((game, played))
    events = []
    for games in by_competition.values():
        first = min(played for _, played in games)
        opponents = [g.black.member if g.white.member_id == member.id else g.white.member for g, _ in games]
        on_day = ratings_on([member, *opponents], RatingSystem.FIDE, first)
        if on_day[member.id] is not None:
            continue  # rated then: those games were rated as a rated player's
        ratings, score = [], Fraction(0)
        for (game, _), opponent in zip(games, opponents, strict=True):
            if on_day[opponent.id] is not None:
                ratings.append(on_day[opponent.id])
                own = PLAYED[game.result] if game.white.member_id == member.id else 1 - PLAYED[game.result]
                score += own
        if ratings:
            events.append(EarlierEvent(max(p for _, p in games), tuple(ratings), score))
    return tuple(sorted(events, key=lambda e: e.day))
