"""The Danish Chess Union (DSU) rating system, seed 004 §4.5.

    R_n = R_o + K x (W - W_e + B)                                             (§4.5.2)

with W_e from Tabel 1 by the average or the difference method (§4.5.2.1), the bonus B (§4.5.2.2),
K by rating band (§4.5.2.3), then the corrections for crossing a band limit (§4.5.2.4), for the
group winner (§4.5.2.5) and the floor (§4.5.2.6). §4.5.4 says which games are rated and in which
order events are computed, §4.5.5.2 how players without a rating get a performance rating, and
§4.5.6 the yearly alignment with the FIDE (Elo) list.

The rules are dated: `DsuEdition` holds every number of one edition and `DSU_EDITIONS` lists them
by start date. The seed's handbook text is `SEED_EDITION`; a later edition (the DSU changed its
system in June 2024) is added as a further entry without touching this one.
"""

from __future__ import annotations

import bisect
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import date
from enum import Enum
from fractions import Fraction

from .tables import DSU_TABLE_1, DSU_TABLE_2, DifferenceTable, ExpectationTable, average, round_half_up

HALF = Fraction(1, 2)


@dataclass(frozen=True)
class DsuEdition:
    """The numbers of one edition of the DSU rating rules (seed 004 §4.5)."""

    name: str
    start: date
    expectation: ExpectationTable = DSU_TABLE_1
    differences: DifferenceTable = DSU_TABLE_2
    # (lower limit, K) from the top band down; below the last limit K is `k_bottom` (§4.5.2.3).
    k_bands: tuple[tuple[int, int], ...] = ((2400, 10), (2000, 20), (1600, 30))
    k_bottom: int = 45
    average_method_spread: int = 200  # §4.5.2.1: highest minus lowest at most this
    expected_step: Fraction = Fraction(1, 20)  # §4.5.2.1: W_e rounded to a multiple of 0.05
    floor: int = 1000  # §4.5.2.6
    bonus_table_games: int = 11  # §4.5.2.2 stops at "10 eller 11 partier"

    def k_factor(self, rating: int | Fraction) -> int:
        """K for a rating before the event (§4.5.2.3)."""
        for limit, k in self.k_bands:
            if rating >= limit:
                return k
        return self.k_bottom

    def bonus_extrapolated(self, games: int) -> bool:
        """True when the bonus threshold for `games` lies beyond the seed's table (§4.5.2.2)."""
        return games > self.bonus_table_games

    @property
    def limits(self) -> tuple[int, ...]:
        """The band limits ("koefficientgrænser"), ascending (§4.5.2.4)."""
        return tuple(sorted(limit for limit, _ in self.k_bands))

    def bonus_threshold(self, games: int) -> Fraction:
        """What W - W_e must exceed before a bonus is given (§4.5.2.2).

        Up to 5 games 1.5, 6-7 games 2, 8-9 games 2.5, 10-11 games 3. The seed stops at 11 games; the
        same step (another half point for every two games) is continued beyond: an extrapolation,
        which `bonus_extrapolated` flags for the reports.
        """
        if games <= 5:
            return Fraction(3, 2)
        return Fraction(3, 2) + HALF * math.ceil(Fraction(games - 5, 2))


SEED_EDITION = DsuEdition(name="DSU handbook §4.5 (seed 004)", start=date.min)

# Editions by start date. An edition applies from its start date until the next one starts.
DSU_EDITIONS: dict[date, DsuEdition] = {SEED_EDITION.start: SEED_EDITION}


def dsu_edition_for(day: date) -> DsuEdition:
    """The edition in force on `day`: the latest one that started on or before it."""
    starts = sorted(DSU_EDITIONS)
    index = bisect.bisect_right(starts, day) - 1
    if index < 0:
        raise ValueError(f"no DSU rating edition in force on {day}")
    return DSU_EDITIONS[starts[index]]


# ---------------------------------------------------------------------------------------------------
# §4.5.2: the formula and its parts


def round_expected(value: Fraction, edition: DsuEdition = SEED_EDITION) -> Fraction:
    """W_e rounded to the nearest multiple of 0.05: 3.33 -> 3.35, 3.82 -> 3.80 (§4.5.2.1)."""
    return round_half_up(value, edition.expected_step)


def expected_difference_method(own: int, opponents: Iterable[int], edition: DsuEdition = SEED_EDITION) -> Fraction:
    """Differensmetoden (§4.5.2.1): W_e = P(R_o - R_1) + ... + P(R_o - R_n), rounded to 0.05."""
    return round_expected(sum((edition.expectation.expected(own - r) for r in opponents), Fraction(0)), edition)


def expected_average_method(
    own: int,
    group_average: int,
    participants: int,
    games: int | None = None,
    cycles: int = 1,
    edition: DsuEdition = SEED_EDITION,
) -> Fraction:
    """Gennemsnitsmetoden (§4.5.2.1): W_e = M x P(R_o - R_a) - 1/2, rounded to 0.05.

    M is the number of participants and R_a the group's average rating (the player's own included).
    When some of the player's games are not rated (§4.5.2.1, last paragraph: "a new expected score by
    the same method"), the formula is read as (rated games + 1) x P - 1/2, which is M x P - 1/2 for a
    full round. A group playing `cycles` rounds (double round robin: 2) counts each cycle.
    """
    p = edition.expectation.expected(own - group_average)
    full = cycles * (participants - 1)
    games = full if games is None else games
    return round_expected(games * p + cycles * (p - HALF), edition)


def average_method_applies(all_play_all: bool, ratings: Sequence[int], edition: DsuEdition = SEED_EDITION) -> bool:
    """The average method is used in all-play-all groups whose ratings span at most 200 (§4.5.2.1)."""
    return all_play_all and bool(ratings) and max(ratings) - min(ratings) <= edition.average_method_spread


def bonus(score: Fraction, expected: Fraction, games: int, edition: DsuEdition = SEED_EDITION) -> Fraction:
    """B (§4.5.2.2): W - W_e minus the threshold for the number of games; only if positive."""
    return max(Fraction(0), Fraction(score) - expected - edition.bonus_threshold(games))


def correct_band_crossing(old: Fraction | int, new: Fraction | int, edition: DsuEdition = SEED_EDITION) -> Fraction:
    """Korrektion ved passage af en koefficientgrænse (§4.5.2.4).

    The part ΔR beyond a crossed limit R_gr is multiplied by K on the far side over K on the near side:
    upwards R_k = R_gr + ½ΔR at 2400 and + ⅔ΔR at 2000 and 1600; downwards R_k = R_gr - 2ΔR at 2400 and
    - 3/2ΔR at 2000 and 1600. A rating at a limit belongs to the band above it (K for R_o >= 2400 is 10).
    When a change crosses more than one limit, the rule is applied limit after limit, each time to
    what remains beyond the next limit (the seed names single crossings only).
    """
    old, rating = Fraction(old), Fraction(new)
    if rating > old:
        for limit in edition.limits:
            if old < limit < rating:
                ratio = Fraction(edition.k_factor(limit), edition.k_factor(limit - 1))
                rating = limit + ratio * (rating - limit)
    elif rating < old:
        for limit in reversed(edition.limits):
            if rating < limit <= old:
                ratio = Fraction(edition.k_factor(limit - 1), edition.k_factor(limit))
                rating = limit - ratio * (limit - rating)
    return rating


def apply_floor(rating: Fraction | int, edition: DsuEdition = SEED_EDITION) -> Fraction:
    """Bundgrænse (§4.5.2.6): a rating below 1000 after the calculation is raised to 1000."""
    return max(Fraction(rating), Fraction(edition.floor))


def register_gain(registered: int, gain: Fraction, edition: DsuEdition = SEED_EDITION) -> int:
    """New registered rating from an event's rating gain (§4.5.4.1, §4.5.2.4, §4.5.2.6).

    "Nyt ratingtal som summen af det registrerede tal og ratingtilvæksten ... idet der evt. korrigeres
    for passage af koefficientgrænse." The result is rounded to a whole number, halves up: the rating
    list holds whole numbers (the seed gives no rounding rule for R_n; this is the reading chosen).
    """
    rating = correct_band_crossing(registered, registered + gain, edition)
    return int(round_half_up(apply_floor(rating, edition)))


def rating_gain(
    rating: int,
    score: Fraction,
    expected: Fraction,
    games: int,
    group_winner: bool = False,
    edition: DsuEdition = SEED_EDITION,
) -> tuple[int, Fraction, Fraction]:
    """K, B and the gain K x (W - W_e + B) of §4.5.2, with the winner's correction (§4.5.2.5).

    A group winner (on a shared first place: each of them) who scores less than W_e gets gain 0.
    """
    k = edition.k_factor(rating)
    b = bonus(score, expected, games, edition)
    gain = k * (Fraction(score) - expected + b)
    if group_winner and score < expected:
        gain = Fraction(0)
    return k, b, gain


# ---------------------------------------------------------------------------------------------------
# §4.5.4.2: which games are rated


class EventKind(Enum):
    """The kinds of event §4.5.4.2 distinguishes."""

    INDIVIDUAL = "individual"
    DIVISION = "division"  # divisionsturneringen
    RATED_TEAM = "rated_team"  # ratede holdturneringer

    @property
    def team(self) -> bool:
        return self is not EventKind.INDIVIDUAL


@dataclass(frozen=True)
class Game:
    """One game of an event, as recorded.

    `white_score` is White's points (1, 1/2, 0). An unplayed game has `played=False`; `no_show` names
    the player who failed to appear without approved notice ("udeblivelse uden godkendt afbud"), None
    when the game was not played for another reason (approved notice, withdrawal, bye by arrangement).
    `reserve_after_half_hour` marks a team game where a reserve was put in after half an hour.
    """

    white: str
    black: str
    white_score: Fraction
    played: bool = True
    no_show: str | None = None
    reserve_after_half_hour: bool = False
    round: int = 0

    def score_of(self, player: str) -> Fraction:
        return Fraction(self.white_score) if player == self.white else 1 - Fraction(self.white_score)

    def opponent_of(self, player: str) -> str:
        return self.black if player == self.white else self.white


def whole_event_no_shows(games: Sequence[Game]) -> set[str]:
    """Players absent without approved notice from every game they had (§4.5.4.2, third paragraph)."""
    absent: dict[str, bool] = {}
    for game in games:
        for player in (game.white, game.black):
            absent[player] = absent.get(player, True) and not game.played and game.no_show == player
    return {player for player, always in absent.items() if always}


def is_rated_game(game: Game, kind: EventKind, absent_throughout: set[str] = frozenset()) -> bool:
    """Ratingberettigede partier (§4.5.4.2).

    All played games are rated, except team games (division, rated team events) where a reserve was
    put in after half an hour. Unplayed games are rated only when a player failed to appear without
    approved notice, never in team events, and not at all for a player absent from the whole event.
    Such a game is rated for both players with the recorded result (the seed rates "the game").
    """
    if game.played:
        return not (kind.team and game.reserve_after_half_hour)
    if kind.team or game.no_show is None:
        return False
    return not ({game.white, game.black} & absent_throughout)


def rated_games(games: Sequence[Game], kind: EventKind) -> list[Game]:
    """The games of an event that count for the DSU rating (§4.5.4.2)."""
    absent = whole_event_no_shows(games)
    return [g for g in games if is_rated_game(g, kind, absent)]


# ---------------------------------------------------------------------------------------------------
# §4.5.5.2: performance rating for players without a rating


def performance_rating(
    opponent_ratings: Sequence[int], score: Fraction, edition: DsuEdition = SEED_EDITION
) -> int | None:
    """Præstationsratingtal R_p = R_c + D_p (§4.5.5.2).

    R_c is the opponents' average (rounded, halves up), D_p from Tabel 2 for the percentage score
    rounded to two decimals. Tabel 2 has no value for 100 % ("*") nor for 0 %: then there is none.
    """
    if not opponent_ratings:
        return None
    dp = edition.differences.difference(Fraction(score) / len(opponent_ratings))
    if dp is None:
        return None
    return average(opponent_ratings) + dp


@dataclass(frozen=True)
class ProvisionalRatings:
    """The result of the repeated passes of §4.5.5.2."""

    ratings: dict[str, int]  # player -> performance rating, for those who got one
    passes: int
    stable: bool  # a pass changed no rating by more than the tolerance
    cycle: int = 0  # the length of the cycle the passes ended in (0: none)


def provisional_ratings(
    games: Sequence[Game],
    ratings: Mapping[str, int | None],
    edition: DsuEdition = SEED_EDITION,
    max_passes: int = 50,
    tolerance: int = 0,
) -> ProvisionalRatings:
    """Performance ratings for every player without a rating, repeated until stable (§4.5.5.2).

    "Hvis flere spillere i en turnering skal præstationsrates, må flere gennemregninger anvendes":
    each pass computes every unrated player's R_p from the games against opponents who have a rating,
    the opponents' own performance ratings of the previous pass included (the first pass knows only
    the rated players). The passes stop when a pass changes no rating by more than `tolerance`
    (stable). Rounding can make the passes cycle (one player 1830, 1829, 1830, ...): when a pass
    repeats an earlier one, each player gets the average of his values over the cycle, rounded
    halves up, and `cycle` gives its length. After `max_passes` without either, the last pass is
    returned with `stable` False.
    """
    unrated = sorted({p for g in games for p in (g.white, g.black) if ratings.get(p) is None})
    # (opponent, score) of each unrated player's games
    played: dict[str, list[tuple[str, Fraction]]] = {p: [] for p in unrated}
    for g in games:
        for player in (g.white, g.black):
            if player in played:
                played[player].append((g.opponent_of(player), g.score_of(player)))
    fixed = {p: r for p, r in ratings.items() if r is not None}
    current: dict[str, int] = {}
    history: list[dict[str, int]] = [current]
    for passes in range(1, max_passes + 1):
        known = fixed | current
        new: dict[str, int] = {}
        for player in unrated:
            counted = [(known[o], s) for o, s in played[player] if o in known]
            score = sum((s for _, s in counted), Fraction(0))
            rp = performance_rating([r for r, _ in counted], score, edition)
            if rp is not None:
                new[player] = rp
        if new.keys() == current.keys() and all(abs(new[p] - current[p]) <= tolerance for p in new):
            return ProvisionalRatings(new, passes, True)
        if new in history:
            loop = history[history.index(new) :]
            averaged = {p: average([h[p] for h in loop]) for p in new if all(p in h for h in loop)}
            return ProvisionalRatings(averaged, passes, False, len(loop))
        history.append(new)
        current = new
    return ProvisionalRatings(current, max_passes, False)


# ---------------------------------------------------------------------------------------------------
# An event


@dataclass(frozen=True)
class PlayerResult:
    """One player's DSU calculation for one event (§4.5.2)."""

    player: str
    old_rating: int  # R_o (the performance rating for a player without one)
    provisional: bool  # R_o is a performance rating (§4.5.5.2); no new rating is registered
    games: int  # rated games
    score: Fraction  # W
    expected: Fraction  # W_e
    method: str  # "average" or "difference" (§4.5.2.1)
    bonus: Fraction  # B
    k: int
    gain: Fraction  # K x (W - W_e + B), after the winner's correction
    winner_corrected: bool  # §4.5.2.5 applied
    new_rating: int | None  # after §4.5.2.4 and §4.5.2.6, rounded
    results: tuple[tuple[int, Fraction], ...] = ()  # (opponent's rating, score) of each rated game, by round
    bonus_extrapolated: bool = False  # more games than §4.5.2.2's table: B rests on an extrapolation

    @property
    def change(self) -> int | None:
        return None if self.new_rating is None else self.new_rating - self.old_rating


@dataclass(frozen=True)
class EventResult:
    """All players' calculations for one event."""

    players: dict[str, PlayerResult]
    group_average: int | None  # R_a when the average method was used
    provisional: ProvisionalRatings


def group_winners(games: Sequence[Game], extra_points: Mapping[str, Fraction] | None = None) -> set[str]:
    """The players sharing first place on points (§4.5.2.5), all games and `extra_points` (byes) counted."""
    points: dict[str, Fraction] = {}
    for game in games:
        for player in (game.white, game.black):
            points[player] = points.get(player, Fraction(0)) + game.score_of(player)
    for player, extra in (extra_points or {}).items():
        points[player] = points.get(player, Fraction(0)) + Fraction(extra)
    if not points:
        return set()
    top = max(points.values())
    return {p for p, pts in points.items() if pts == top}


@dataclass(frozen=True)
class DsuEvent:
    """An event to rate: its games and the players' ratings before it (None: no rating)."""

    games: tuple[Game, ...]
    ratings: Mapping[str, int | None]
    kind: EventKind = EventKind.INDIVIDUAL
    all_play_all: bool = False
    cycles: int = 1
    day: date = date.min
    winners: frozenset[str] | None = None  # default: from the games' points (§4.5.2.5)
    extra_points: Mapping[str, Fraction] = field(default_factory=dict)


def rate_event(event: DsuEvent, edition: DsuEdition | None = None) -> EventResult:
    """Rate one event by §4.5.2, §4.5.4.2 and §4.5.5.2.

    The group's average method is used when the event is all-play-all and the ratings (performance
    ratings included) span at most 200 points; R_a is the average of all participants with a rating,
    rounded. Games against a player who has no rating and gets no performance rating (0 % or 100 %
    against rated opponents, Tabel 2 having no value there) drop out like unrated games.
    """
    edition = edition or dsu_edition_for(event.day)
    counted = rated_games(event.games, event.kind)
    provisional = provisional_ratings(counted, event.ratings, edition)
    known: dict[str, int] = {p: r for p, r in event.ratings.items() if r is not None} | provisional.ratings
    counted = [g for g in counted if g.white in known and g.black in known]
    participants = sorted({p for g in event.games for p in (g.white, g.black)} | set(event.ratings))
    rated_participants = [known[p] for p in participants if p in known]
    everyone_rated = len(rated_participants) == len(participants)
    use_average = everyone_rated and average_method_applies(event.all_play_all, rated_participants, edition)
    group_average = average(rated_participants) if use_average else None
    winners = event.winners if event.winners is not None else group_winners(event.games, event.extra_points)

    by_player: dict[str, list[Game]] = {p: [] for p in participants}
    for g in sorted(counted, key=lambda g: g.round):
        by_player[g.white].append(g)
        by_player[g.black].append(g)
    results: dict[str, PlayerResult] = {}
    for player in participants:
        if player not in known:
            continue
        own = by_player[player]
        rating = known[player]
        score = sum((g.score_of(player) for g in own), Fraction(0))
        if group_average is None:
            opponents = (known[g.opponent_of(player)] for g in own)
            expected = expected_difference_method(rating, opponents, edition)
        elif own:
            m = len(participants)
            expected = expected_average_method(rating, group_average, m, len(own), event.cycles, edition)
        else:
            expected = Fraction(0)
        is_provisional = player in provisional.ratings
        k, b, gain = rating_gain(rating, score, expected, len(own), player in winners, edition)
        results[player] = PlayerResult(
            player=player,
            old_rating=rating,
            provisional=is_provisional,
            games=len(own),
            score=score,
            expected=expected,
            method="average" if group_average is not None else "difference",
            bonus=b,
            k=k,
            gain=gain,
            winner_corrected=player in winners and score < expected,
            new_rating=None if is_provisional else register_gain(rating, gain, edition),
            results=tuple((known[g.opponent_of(player)], g.score_of(player)) for g in own),
            bonus_extrapolated=edition.bonus_extrapolated(len(own)),
        )
    return EventResult(results, group_average, provisional)


def rate_in_order(
    events: Sequence[tuple[DsuEvent, Mapping[str, int] | None]],
    register: Mapping[str, int],
) -> tuple[dict[str, int], list[EventResult]]:
    """Rate events in chronological order against a rating register (§4.5.4.1).

    Each entry is an event and, optionally, the start ratings it was played with (sent before an
    earlier event's result was registered). Events are taken by date (stable for equal dates). An
    event's gain is computed with its start ratings - the register at that moment when none are given -
    and added to the rating registered when it is processed, corrected for a crossed band limit.
    Players without a rating in the register take the event's own value (None: performance rating).
    """
    current = dict(register)
    results: list[EventResult] = []
    for event, start in sorted(events, key=lambda item: item[0].day):
        ratings: dict[str, int | None] = dict(event.ratings)
        for player in ratings:
            if start is not None and player in start:
                ratings[player] = start[player]
            elif player in current:
                ratings[player] = current[player]
        dated = replace(event, ratings=ratings)
        edition = dsu_edition_for(event.day)
        result = rate_event(dated, edition)
        for player, line in result.players.items():
            if line.provisional:
                continue
            registered = current.get(player, line.old_rating)
            current[player] = register_gain(registered, line.gain, edition)
        results.append(result)
    return current, results


# ---------------------------------------------------------------------------------------------------
# §4.5.6: yearly alignment with the FIDE (Elo) list


@dataclass(frozen=True)
class AlignmentPlayer:
    """A Danish player as compared on 1 July (§4.5.6.1)."""

    dsu_rating: int  # Danish list of 1 June
    elo_rating: int  # FIDE list of 1 July
    elo_games: int  # Elo-rated games played


@dataclass(frozen=True)
class Alignment:
    """The outcome of the comparison (§4.5.6.1, §4.5.6.2)."""

    compared: int
    difference: Fraction  # average Danish rating minus average Elo rating
    adjustment: int  # signed N: what is added to the Danish ratings above 2250 (0: none)

    def adjust(self, rating: int) -> int:
        """A covered player's adjusted rating (§4.5.6.2): N above 2250, N-1 at 2241-2250, ...,
        N-15 at 2101-2110; not below 2100 afterwards. Ratings of 2100 and below are not adjusted."""
        if self.adjustment == 0 or rating <= 2100:
            return rating
        steps = 0 if rating > 2250 else math.ceil(Fraction(2251 - rating, 10))
        magnitude = max(abs(self.adjustment) - steps, 0)
        adjusted = rating + (magnitude if self.adjustment > 0 else -magnitude)
        return max(adjusted, 2100)


def covered_by_alignment(player: AlignmentPlayer) -> bool:
    """§4.5.6.1: more than 30 Elo-rated games and above 2100 on both lists."""
    return player.elo_games > 30 and player.dsu_rating > 2100 and player.elo_rating > 2100


def elo_alignment(players: Iterable[AlignmentPlayer]) -> Alignment:
    """Koordinering med den internationale ratingliste (§4.5.6).

    The difference is the average Danish rating minus the average Elo rating of the covered players.
    Below 25 (in size) nothing is adjusted; otherwise N is the nearest number ending in 5 or 0 (halves
    away from zero), and the Danish ratings move towards the Elo list: down when they are higher.
    """
    covered = [p for p in players if covered_by_alignment(p)]
    if not covered:
        return Alignment(0, Fraction(0), 0)
    difference = Fraction(sum(p.dsu_rating for p in covered) - sum(p.elo_rating for p in covered), len(covered))
    if abs(difference) < 25:
        return Alignment(len(covered), difference, 0)
    magnitude = int(round_half_up(abs(difference), 5))
    return Alignment(len(covered), difference, -magnitude if difference > 0 else magnitude)
