"""Planning a season: club nights (several at once), moving a night with its rounds, rounds on nights.

Each change carries what the TD's page showed (`plan_seen`, `night_seen`, `rounds_seen`: the id of the
audit log's latest entry that changed it) and is checked under the row lock its writers share (the
club's, the competition's; `pairing.services.check_basis`): a change from a page older than another
TD's is refused, naming what changed, by whom and when, and nothing is saved."""

from __future__ import annotations

from datetime import date, time, timedelta

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext as _

from audit.log import record
from audit.models import AuditEntry
from clubs.models import Club, Season
from pairing import services
from tournaments.models import Competition

from .models import ClubNight, PlannedRound

MAX_NIGHTS_AT_ONCE = 200
# What the season's planning page shows, by the audit log's actions that change it.
PLAN_ACTIONS = ("season-added", "nights-added", "night-moved", "night-changed", "night-removed")


def _plan_log(club_id: int):
    return AuditEntry.objects.filter(club_id=club_id, action__in=PLAN_ACTIONS)


def plan_seen(club: Club) -> int:
    """What the planning page of the club's seasons and nights is based on."""
    return services.latest_id(_plan_log(club.pk))


def night_seen(night: ClubNight) -> int:
    """What a night's page is based on: the latest entry about the night."""
    return services.latest_id(_night_log(night))


def _night_log(night: ClubNight):
    return AuditEntry.objects.filter(object_type="clubnight", object_id=str(night.pk), action__in=PLAN_ACTIONS)


def _rounds_log(competition: Competition):
    return AuditEntry.objects.filter(
        Q(competition_id=competition.pk, action="rounds-planned")
        | Q(club_id=competition.club_id, action__in=PLAN_ACTIONS)
    )


def rounds_seen(competition: Competition) -> int:
    """What the page planning a competition's rounds is based on: its plan and the club's nights."""
    return services.latest_id(_rounds_log(competition))


def check_plan(club: Club, based_on: int | None) -> None:
    """Inside the change's transaction: the club's row lock, then the check of the planning page's basis."""
    Club.objects.select_for_update().get(pk=club.pk)
    services.check_basis(_plan_log(club.pk), based_on)


def check_night(night: ClubNight, based_on: int | None) -> None:
    """As `check_plan`, for a change made on one night's page."""
    Club.objects.select_for_update().get(pk=night.season.club_id)
    services.check_basis(_night_log(night), based_on)


def weekly_dates(first: date, last: date, weekday: int, skip: set[date] = frozenset()) -> list[date]:
    """Every `weekday` (0 Monday .. 6 Sunday) from `first` to `last` inclusive, without the dates in `skip`."""
    if last < first:
        raise ValidationError(_("The last date comes before the first."))
    day = first + timedelta(days=(weekday - first.weekday()) % 7)
    dates = []
    while day <= last:
        if day not in skip:
            dates.append(day)
        day += timedelta(days=7)
    if len(dates) > MAX_NIGHTS_AT_ONCE:
        raise ValidationError(_("At most %(n)s nights at once.") % {"n": MAX_NIGHTS_AT_ONCE})
    return dates


@transaction.atomic
def add_nights(
    season: Season,
    dates: list[date],
    start: time,
    kind: str = ClubNight.Kind.CLUB_NIGHT,
    note: str = "",
    user=None,
    based_on: int | None = None,
) -> list[ClubNight]:
    """New nights on `dates`; a date that already has a night of the season is left as it is. `based_on`:
    what the planning page showed (`plan_seen`)."""
    check_plan(season.club, based_on)
    taken = set(season.nights.filter(date__in=dates).values_list("date", flat=True))
    added = ClubNight.objects.bulk_create(
        ClubNight(season=season, date=day, start=start, kind=kind, note=note) for day in sorted(set(dates) - taken)
    )
    nights = [f"{night.date} {night.start:%H:%M} {{{night.kind}}}" for night in added]  # the kind as a code
    record(user, "nights-added", season, None, nights)
    return added


@transaction.atomic
def move_night(night: ClubNight, day: date, start: time, user) -> ClubNight:
    """The night to another date or time; its rounds go with it. A date the season already has is refused."""
    night = ClubNight.objects.select_for_update().get(pk=night.pk)
    if day != night.date and ClubNight.objects.filter(season=night.season, date=day).exists():
        raise ValidationError(_("The season already has a club night on %(date)s.") % {"date": day})
    if (day, start) == (night.date, night.start):
        return night
    before = f"{night.date} {night.start:%H:%M}"
    night.date, night.start = day, start
    night.sequence += 1
    night.save(update_fields=["date", "start", "sequence"])
    moved = [
        f"{planned.competition.name} {planned.number}" for planned in night.planned_rounds.select_related("competition")
    ]
    record(user, "night-moved", night, {"night": before}, {"night": f"{day} {start:%H:%M}"}, params={"rounds": moved})
    return night


@transaction.atomic
def plan_rounds(competition: Competition, plan: dict[int, ClubNight | None], user, based_on: int | None = None) -> None:
    """Round number -> night (None: not planned). Nights must be the club's and hold play. `based_on`: what
    the TD's page showed (`rounds_seen`), checked under the competition's lock."""
    competition = Competition.objects.select_for_update().get(pk=competition.pk)
    services.check_basis(_rounds_log(competition), based_on)
    old = {str(p.number): str(p.night.date) for p in competition.round_plan.select_related("night")}
    new = old | {str(n): str(night.date) if night else None for n, night in plan.items()}
    record(user, "rounds-planned", competition, old, new)
    for number, night in plan.items():
        if number < 1:
            raise ValidationError(_("Round numbers start at 1."))
        if night is None:
            PlannedRound.objects.filter(competition=competition, number=number).delete()
            continue
        if night.season.club_id != competition.club_id:
            raise ValidationError(_("That club night belongs to another club."))
        if not night.holds_rounds:
            raise ValidationError(_("%(date)s is a holiday: no rounds are played.") % {"date": night.date})
        PlannedRound.objects.update_or_create(competition=competition, number=number, defaults={"night": night})


def free_nights(competition: Competition, nights: list[ClubNight], count: int, first_round: int = 1) -> dict:
    """Rounds `first_round`.. on the next `count` nights that hold play (a suggestion the TD confirms)."""
    usable = [n for n in nights if n.holds_rounds]
    return {first_round + i: night for i, night in enumerate(usable[:count])}


def round_nights(competition: Competition) -> dict[int, ClubNight]:
    """Round number -> the night it is planned on."""
    return {p.number: p.night for p in competition.round_plan.select_related("night")}
