"""The nights of a club, a competition or a member, with the rounds planned on them (for pages and feeds)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import timedelta

from django.db.models import Q
from django.urls import reverse
from django.utils.translation import gettext as _

from clubs.models import Club, Member
from teams.models import Match
from tournaments.models import Bye, Competition, Game, Round

from . import feeds
from .models import ClubNight, PlannedRound


@dataclass
class PlannedItem:
    competition: Competition
    number: int
    round: Round | None = None
    pairing: str = ""  # the member's board or bye, once the round is published

    @property
    def label(self) -> str:
        return _("%(competition)s, round %(n)s") % {"competition": self.competition.name, "n": self.number}


@dataclass
class NightRow:
    night: ClubNight
    items: list[PlannedItem] = field(default_factory=list)

    @property
    def title(self) -> str:
        night = self.night
        text = night.get_kind_display()
        return f"{text}: {night.note}" if night.note else str(text)


def _rows(nights, planned) -> list[NightRow]:
    rows = {night.pk: NightRow(night) for night in nights}
    for p in planned:
        if p.night_id in rows:
            rows[p.night_id].items.append(PlannedItem(p.competition, p.number))
    return list(rows.values())


def club_nights(club: Club) -> list[NightRow]:
    nights = ClubNight.objects.filter(season__club=club).select_related("season__club")
    planned = PlannedRound.objects.filter(night__season__club=club).select_related("competition")
    return _rows(nights, planned)


def competition_nights(competition: Competition) -> list[NightRow]:
    planned = list(competition.round_plan.select_related("competition", "night__season__club"))
    nights = sorted({p.night for p in planned}, key=lambda n: (n.date, n.start))
    return _rows(nights, planned)


def member_nights(member: Member) -> list[NightRow]:
    """Nights holding rounds of competitions the member plays, with the member's pairings once published."""
    participations = {p.competition_id: p for p in member.participations.filter(withdrawn_after__isnull=True)}
    planned = list(
        PlannedRound.objects.filter(competition_id__in=participations).select_related(
            "competition", "night__season__club"
        )
    )
    nights = sorted({p.night for p in planned}, key=lambda n: (n.date, n.start))
    rows = _rows(nights, planned)
    rounds = {
        (r.competition_id, r.number): r
        for r in Round.objects.filter(competition_id__in=participations).exclude(status=Round.Status.DRAFT)
    }
    for row in rows:
        for item in row.items:
            item.round = rounds.get((item.competition.pk, item.number))
            if item.round:
                item.pairing = pairing_line(item.round, participations[item.competition.pk])
    return rows


def pairing_line(rnd: Round, participant) -> str:
    """The participant's board in a published round, or the bye or absence recorded for him."""
    game = (
        Game.objects.filter(round=rnd, white=participant).select_related("white__member", "black__member").first()
        or Game.objects.filter(round=rnd, black=participant).select_related("white__member", "black__member").first()
    )
    if game:
        return _("board %(board)s: %(white)s – %(black)s") % {
            "board": game.board,
            "white": game.white.name,
            "black": game.black.name,
        }
    bye = Bye.objects.filter(round=rnd, participant=participant).first()
    return str(bye.get_kind_display()) if bye else ""


def events(rows: list[NightRow], base_url: str, uid_suffix: str = "") -> list[feeds.NightEvent]:
    """One event per night: the night's kind and note, the rounds on it, the member's pairing if any."""
    result = []
    for row in rows:
        night = row.night
        lines = []
        for item in row.items:
            lines.append(item.label + (f" · {item.pairing}" if item.pairing else ""))
        summary = row.title
        if row.items and night.kind == ClubNight.Kind.CLUB_NIGHT:
            summary = f"{night.club.name}: " + ", ".join(item.label for item in row.items)
        else:
            summary = f"{night.club.name}: {summary}"
        result.append(
            feeds.NightEvent(
                uid=f"night-{night.pk}{uid_suffix}@clubavond",
                start=night.starts_at,
                end=night.ends_at,
                summary=summary,
                sequence=night.sequence,
                location=night.club.city,
                lines=lines + ([night.note] if night.note and row.items else []),
                url=base_url + reverse("club_calendar", args=[night.club.slug]),
            )
        )
    return result


def league_events(matches, base_url: str) -> list[feeds.NightEvent]:
    """One all-day event per team-league match with a date: the league, the round, home against away."""
    out = []
    for match in matches:
        if match.date is None:
            continue
        league = match.league
        summary = _("%(league)s, round %(n)s: %(home)s – %(away)s") % {
            "league": league.name, "n": match.round, "home": match.home.name, "away": match.away.name,
        }  # fmt: skip
        out.append(
            feeds.NightEvent(
                uid=f"league-match-{match.pk}@clubavond",
                start=match.date,
                end=match.date + timedelta(days=1),
                summary=summary,
                url=base_url + reverse("league", args=[league.club.slug, league.slug]),
            )
        )
    return out


def club_league_matches(club: Club) -> list[Match]:
    """The dated matches of the leagues the club organises or has a team in."""
    mine = Q(league__club=club) | Q(home__club=club) | Q(away__club=club)
    rows = Match.objects.filter(mine).exclude(date=None).select_related("league__club", "home", "away")
    return list(rows.order_by("date", "pk").distinct())
