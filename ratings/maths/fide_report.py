"""The FIDE rating report of one event: every player's change, period by period, as FIDE rates it.

Built on `fide` (tables, 400-point rule, K, rounding, initial rating). What this module adds:
- **rating periods** (B.02 8.3): FIDE rates the games of each calendar month on the ratings of that
  month's list. An event within one month is one period. A longer event (a club season from
  September to May) is rated month by month: each month's games on that month's list; where the
  club holds no list of a month, a player's rating is the previous month's rating plus its change
  (what that list would publish for a player who plays only here).
- **K** (B.02 8.3.3) from the player's record: 10 once a published rating reached 2400 (kept below
  it), 40 for a junior under 2300, 40 for a new player until events with at least 30 games are
  completed, else 20; the 700 cap per period. The order where several apply is `fide.k_factor`'s.
  Games rated in earlier periods of the event count as completed for the later ones.
- **the time control** (B.02 and its rapid and blitz chapter): rapid and blitz use the plain
  400-point cap (no 2650 exemption) and leave out games 600 or more points apart when one player
  is rated above 2600 (`fide.is_rated`).
- **unrated players** (B.02 8.2, 7.1.4): an initial rating from the games against rated opponents,
  with earlier results pooled (within 26 months, a zero score in the first event disregarded), once
  there are at least 5 such games; at most 2200. Published only at 1400 or more (7.2.1); the player
  is rated as a rated player from the next period on.
- **the 1400 floor** (B.02 7.2.1): a rating that falls below 1400 drops off the list; the player is
  unrated from the next period on.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from enum import StrEnum
from fractions import Fraction

from . import fide

RATING_FLOOR = 1400  # B.02 7.2.1
INITIAL_MINIMUM_GAMES = 5  # B.02 8.2: games against rated opponents
POOL_MONTHS = 26  # B.02 7.1.4: earlier results may be pooled over at most 26 months


class TimeControl(StrEnum):
    STANDARD = "standard"
    RAPID = "rapid"
    BLITZ = "blitz"

    @property
    def rapid_blitz(self) -> bool:
        return self is not TimeControl.STANDARD


def period_of(day: date) -> date:
    """The rating period (a calendar month, named by its first day) a game played on `day` is rated in."""
    return date(day.year, day.month, 1)


def months_before(day: date, months: int) -> date:
    """The same day `months` months earlier (the last day of that month when it is shorter)."""
    index = day.year * 12 + day.month - 1 - months
    year, month = divmod(index, 12)
    for last in (31, 30, 29, 28):
        try:
            return date(year, month + 1, min(day.day, last))
        except ValueError:
            continue
    raise AssertionError("unreachable")


def event_periods(days: Sequence[date]) -> list[date]:
    """Every rating period from the first day's to the last day's, months without games included."""
    if not days:
        return []
    period, last = period_of(min(days)), period_of(max(days))
    periods = []
    while period <= last:
        periods.append(period)
        period = date(period.year + period.month // 12, period.month % 12 + 1, 1)
    return periods


@dataclass(frozen=True)
class EarlierEvent:
    """An unrated player's earlier event: the ratings of the rated opponents met and the score against them."""

    day: date
    opponents: tuple[int, ...]
    score: Fraction


@dataclass(frozen=True)
class PlayerRecord:
    """What the club knows of a player before the event."""

    key: str
    listed: Mapping[date, int | None]  # period -> the rating on that period's list, for the lists the club holds
    birth_year: int | None = None
    completed_games: int = 30  # games of completed rated events (30: at least that many, or unknown)
    ever_2400: bool = False  # a published rating reached 2400 (B.02 8.3.3)
    earlier: tuple[EarlierEvent, ...] = ()  # while unrated: earlier results that may be pooled


@dataclass(frozen=True)
class ReportGame:
    """A played game: white's score (1, ½, 0) and the day it was played."""

    white: str
    black: str
    white_score: Fraction
    day: date

    def opponent_of(self, player: str) -> str:
        return self.black if player == self.white else self.white

    def score_of(self, player: str) -> Fraction:
        return self.white_score if player == self.white else 1 - self.white_score


@dataclass(frozen=True)
class PeriodLine:
    """A player's rating period: the rating at its start, its rated games and the change."""

    period: date
    rating: int | None  # None: unrated in this period
    listed: bool  # the rating is the club's list of this period (else carried from the previous period)
    games: int  # games against rated opponents (for an unrated player: those that count for the initial rating)
    score: Fraction
    expected: Fraction | None  # Σ PD (rated players)
    k: int | None
    change: int | None


@dataclass
class PlayerLine:
    """A player's line of the report."""

    key: str
    old_rating: int | None
    periods: list[PeriodLine] = field(default_factory=list)
    initial: fide.InitialRating | None = None  # an unrated player's initial rating, when one was computed
    initial_games: int = 0  # games the initial rating rests on (pooled ones included)
    new_rating: int | None = None  # None: unrated after the event (no rating, or below the floor)
    off_list: bool = False  # the rating fell below 1400 (B.02 7.2.1)

    @property
    def games(self) -> int:
        return sum(p.games for p in self.periods)

    @property
    def score(self) -> Fraction:
        return sum((p.score for p in self.periods), Fraction(0))

    @property
    def expected(self) -> Fraction | None:
        values = [p.expected for p in self.periods if p.expected is not None]
        return sum(values, Fraction(0)) if values else None

    @property
    def k(self) -> int | None:
        """K of the last rated period."""
        return next((p.k for p in reversed(self.periods) if p.k is not None), None)

    @property
    def change(self) -> int | None:
        if self.old_rating is None or self.new_rating is None:
            return None
        return self.new_rating - self.old_rating


def pooled_initial_rating(earlier: Sequence[EarlierEvent], current: EarlierEvent) -> tuple[fide.InitialRating, int]:
    """B.02 8.2 and 7.1.4: the initial rating from this event and the earlier results that may be pooled.

    Earlier events count when they lie within 26 months before `current.day`; the first event (the
    earliest kept) is disregarded when its score is zero. Returns the rating and its number of games.
    """
    since = months_before(current.day, POOL_MONTHS)
    events = sorted((e for e in earlier if e.day >= since and e.opponents), key=lambda e: e.day)
    events.append(current)
    if events[0].score == 0:
        events = events[1:]
    opponents = [r for e in events for r in e.opponents]
    score = sum((e.score for e in events), Fraction(0))
    return fide.initial_rating(opponents, score), len(opponents)


def junior_in(birth_year: int | None, day: date) -> bool:
    """K 40 for juniors: to the end of the year of the 18th birthday (B.02 8.3.3)."""
    return birth_year is not None and birth_year + 18 >= day.year


def fide_report(
    players: Sequence[PlayerRecord],
    games: Sequence[ReportGame],
    time_control: TimeControl = TimeControl.STANDARD,
    first_day: date | None = None,
) -> dict[str, PlayerLine]:
    """Rate an event period by period (see the module's docstring); one line per player.

    A player's rating in a period is the rating on that period's list when the club holds it
    (`PlayerRecord.listed`), else the previous period's rating plus its change. `first_day` is the
    event's first day (its period is the first even without games).
    """
    periods = event_periods([g.day for g in games] + ([first_day] if first_day else []))
    by_period: dict[date, list[ReportGame]] = {p: [] for p in periods}
    for game in games:
        by_period[period_of(game.day)].append(game)
    records = {p.key: p for p in players}
    lines = {p.key: PlayerLine(p.key, p.listed.get(periods[0]) if periods else None) for p in players}
    rating: dict[str, int | None] = {key: line.old_rating for key, line in lines.items()}
    completed = {p.key: p.completed_games for p in players}
    ever_2400 = {p.key: p.ever_2400 or (rating[p.key] or 0) >= 2400 for p in players}
    earlier: dict[str, tuple[EarlierEvent, ...]] = {p.key: p.earlier for p in players}
    unrated_games: dict[str, list[tuple[int, Fraction, date]]] = {p.key: [] for p in players}  # this event's
    for index, period in enumerate(periods):
        if index > 0:
            for key, record in records.items():
                if period in record.listed:
                    rating[key] = record.listed[period]
                    ever_2400[key] = ever_2400[key] or (rating[key] or 0) >= 2400
        start = dict(rating)  # everyone is rated on the ratings at the start of the period
        period_games = sorted(by_period[period], key=lambda g: g.day)
        for key, record in records.items():
            own = start[key]
            mine = [g for g in period_games if key in (g.white, g.black)]
            against_rated = [(start[g.opponent_of(key)], g.score_of(key), g.day) for g in mine]
            against_rated = [(r, s, d) for r, s, d in against_rated if r is not None]
            listed = period in record.listed
            if own is None:
                unrated_games[key] += against_rated
                lines[key].periods.append(_unrated_period(lines[key], earlier[key], unrated_games[key], period, listed))
                if lines[key].initial is not None and lines[key].initial.published:
                    rating[key] = lines[key].initial.value
                    completed[key] = lines[key].initial_games
                continue
            day = min((g.day for g in mine), default=period)
            fide_games = [fide.FideGame(r, s) for r, s, _ in against_rated]
            rated = [g for g in fide_games if fide.is_rated(g, own, time_control.rapid_blitz, day)]
            junior = junior_in(record.birth_year, day)
            k = fide.k_factor(own, completed[key], junior, ever_2400[key], len(rated)) if rated else None
            change = fide.rating_change(own, rated, k or 0, day, time_control.rapid_blitz)
            lines[key].periods.append(
                PeriodLine(period, own, listed, change.rated_games, change.score, change.expected, k, change.change)
            )
            completed[key] += change.rated_games
            new = own + change.change
            if new < RATING_FLOOR:
                lines[key].off_list = True
                rating[key] = None
                earlier[key], unrated_games[key] = (), []  # a new initial rating starts afresh
            else:
                lines[key].off_list = False
                rating[key] = new
    for key, line in lines.items():
        line.new_rating = rating[key]
    return lines


def _unrated_period(
    line: PlayerLine,
    earlier: tuple[EarlierEvent, ...],
    event_games: list[tuple[int, Fraction, date]],
    period: date,
    listed: bool,
) -> PeriodLine:
    """An unrated player's period: the event's games so far (one event) with the earlier ones pooled give the
    initial rating once 5 games against rated opponents are reached (B.02 8.2)."""
    this_period = [g for g in event_games if period_of(g[2]) == period]
    score = sum((s for _, s, _ in this_period), Fraction(0))
    if event_games:
        current = EarlierEvent(
            max(d for _, _, d in event_games),
            tuple(r for r, _, _ in event_games),
            sum((s for _, s, _ in event_games), Fraction(0)),
        )
        line.initial, line.initial_games = pooled_initial_rating(earlier, current)
    return PeriodLine(period, None, listed, len(this_period), score, None, None, None)
