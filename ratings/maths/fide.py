"""FIDE rating: expected score, K, rating change, initial rating and performance ratings.

Source: FIDE Rating Regulations effective from 1 March 2024 with the amendment of 1 October 2025
(reference/ratings.md §1-§7, cited there as FR24, RB24, QC24, OCT25, TBS). The rules in force before
1 March 2024 are not implemented (the reference does not give them in full).
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from fractions import Fraction

from .tables import FIDE_TABLE_811, FIDE_TABLE_812, average, round_half_away, round_half_up


@dataclass(frozen=True)
class FideEdition:
    """The 400-point rule of one edition (reference/ratings.md §4.2)."""

    name: str
    start: date
    cap: int = 400  # |D| above this counts as this much
    cap_exempt_from: int | None = None  # standard play: players rated this or more use the real D


FIDE_EDITIONS: dict[date, FideEdition] = {
    date(2024, 3, 1): FideEdition("FR24 (1 March 2024)", date(2024, 3, 1)),
    date(2025, 10, 1): FideEdition("FR24 as amended 1 October 2025", date(2025, 10, 1), cap_exempt_from=2650),
}


def fide_edition_for(day: date) -> FideEdition:
    """The edition in force on `day` (the latest one started on or before it)."""
    starts = sorted(FIDE_EDITIONS)
    index = bisect.bisect_right(starts, day) - 1
    if index < 0:
        raise ValueError(f"FIDE rating rules before {starts[0]} are not implemented")
    return FIDE_EDITIONS[starts[index]]


def capped_difference(own: int, opponent: int, edition: FideEdition, rapid_blitz: bool = False) -> int:
    """D = own - opponent with the 400-point rule (FR24 §8.3.1, reference/ratings.md §4.2).

    |D| > 400 counts as 400, in every game (the once-per-event limit is gone since 1 March 2024). From
    1 October 2025 players rated 2650 or more use the real difference in standard play; the rapid and
    blitz chapter keeps the plain cap (RB24). The cap is applied for the player being rated.
    """
    d = own - opponent
    exempt = edition.cap_exempt_from is not None and not rapid_blitz and own >= edition.cap_exempt_from
    if exempt or abs(d) <= edition.cap:
        return d
    return edition.cap if d > 0 else -edition.cap


def expected_score(own: int, opponent: int, edition: FideEdition, rapid_blitz: bool = False) -> Fraction:
    """PD from table 8.1.2 for the capped difference (FR24 §8.1.2, §8.3)."""
    return FIDE_TABLE_812.expected(capped_difference(own, opponent, edition, rapid_blitz))


def k_factor(
    rating: int,
    completed_games: int,
    junior: bool = False,
    ever_2400: bool = False,
    games_in_period: int = 0,
) -> int:
    """K (FR24 §8.3.3, reference/ratings.md §5), from the rating at the start of the event.

    10 once the published rating has reached 2400 (`ever_2400`, kept below 2400 too); 40 for a junior
    (to the end of the year of the 18th birthday) while the rating is under 2300; 40 until events with
    at least 30 games are completed; else 20. If K x games in the period would exceed 700, K is the
    largest whole number with K x games <= 700. The text gives no precedence; the order above is the
    practical one the reference names.
    """
    if ever_2400 or rating >= 2400:
        k = 10
    elif (junior and rating < 2300) or completed_games < 30:
        k = 40
    else:
        k = 20
    if games_in_period and k * games_in_period > 700:
        k = 700 // games_in_period
    return k


@dataclass(frozen=True)
class FideGame:
    """A game for the rating change: the opponent's rating (None: unrated) and the score."""

    opponent: int | None
    score: Fraction
    played: bool = True


def game_change(own: int, game: FideGame, edition: FideEdition, rapid_blitz: bool = False) -> Fraction:
    """ΔR = score - PD of one game against a rated opponent (FR24 §8.3)."""
    if game.opponent is None:
        raise ValueError("games against unrated opponents are not rated")
    return Fraction(game.score) - expected_score(own, game.opponent, edition, rapid_blitz)


def is_rated(game: FideGame, own: int, rapid_blitz: bool = False, day: date | None = None) -> bool:
    """Whether a game counts for a rated player (FR24 §1, §5, RB24; reference/ratings.md §1).

    Unplayed games and games against unrated opponents do not; in rapid and blitz from 1 December
    2024 neither does a game between players 600 or more apart when one of them is rated above 2600.
    """
    if not game.played or game.opponent is None:
        return False
    far_apart = abs(own - game.opponent) >= 600 and max(own, game.opponent) > 2600
    return not (rapid_blitz and far_apart and (day is None or day >= date(2024, 12, 1)))


@dataclass(frozen=True)
class FideChange:
    """A rated player's change over an event or period (FR24 §8.3)."""

    rated_games: int
    score: Fraction
    expected: Fraction  # Σ PD
    k: int
    change: int  # K x Σ ΔR, rounded to the nearest whole number, halves away from zero


def rating_change(own: int, games: Sequence[FideGame], k: int, day: date, rapid_blitz: bool = False) -> FideChange:
    """K x Σ(score - PD) over the rated games, rounded halves away from zero (FR24 §8.3.4).

    `day` selects the edition in force (the 400-point rule) and the rapid/blitz 600-point rule.
    """
    edition = fide_edition_for(day)
    rated = [g for g in games if is_rated(g, own, rapid_blitz, day)]
    changes = [game_change(own, g, edition, rapid_blitz) for g in rated]
    score = sum((Fraction(g.score) for g in rated), Fraction(0))
    expected = score - sum(changes, Fraction(0))
    return FideChange(len(rated), score, expected, k, round_half_away(k * sum(changes, Fraction(0))))


# ---------------------------------------------------------------------------------------------------
# Initial rating (FR24 §7.1.4, §8.2)


@dataclass(frozen=True)
class InitialRating:
    """An unrated player's first rating (reference/ratings.md §6)."""

    value: int | None  # None: fewer than 5 games against rated opponents
    opponents_average: Fraction  # Ra with the two hypothetical 1800 opponents
    published: bool  # at least 1400


def initial_rating(opponent_ratings: Sequence[int], score: Fraction) -> InitialRating:
    """Ru = Ra + dp(p) with two hypothetical opponents rated 1800, both drawn (FR24 §8.2).

    Ra = (Σ R + 2 x 1800) / (n + 2), p = (score + 1) / (n + 2); at least 5 games against rated opponents;
    at most 2200; published only at 1400 or more. (A zero score in the first event is disregarded:
    the caller leaves such an event out.)
    """
    n = len(opponent_ratings)
    ra = Fraction(sum(opponent_ratings) + 2 * 1800, n + 2)
    if n < 5:
        return InitialRating(None, ra, False)
    p = (Fraction(score) + 1) / (n + 2)
    value = min(int(round_half_up(ra + (FIDE_TABLE_811.difference(p) or 0))), 2200)
    return InitialRating(value, ra, value >= 1400)


# ---------------------------------------------------------------------------------------------------
# Performance ratings (reference/ratings.md §7)


def tournament_performance(opponent_ratings: Sequence[int], score: Fraction) -> int | None:
    """TPR = Ra + dp(p) (C.07 10.2; also the Dutch "simple TPR" and norm calculations).

    Ra is the opponents' average rounded (halves up), p the score fraction rounded to two decimals, dp
    from table 8.1.1 (0 and 1 count as -800 and +800). None without games.
    """
    if not opponent_ratings:
        return None
    dp = FIDE_TABLE_811.difference(Fraction(score) / len(opponent_ratings))
    return average(opponent_ratings) + (dp or 0)


def perfect_performance(opponent_ratings: Sequence[int], score: Fraction) -> int | None:
    """PTP (C.07 10.3): the smallest whole R with Σ PD(R - R_i) >= score, PD from table 8.1.2.

    0 % gives the lowest opponent rating - 800 (the article's one exception). 100 % follows the
    definition: every PD must be 1.00, which table 8.1.2 gives from a difference of 736, so the
    highest opponent + 736. None without games.
    """
    if not opponent_ratings:
        return None
    score = Fraction(score)
    if score <= 0:
        return min(opponent_ratings) - 800
    if score > len(opponent_ratings):
        raise ValueError(f"score {score} above the {len(opponent_ratings)} games")

    def reaches(r: int) -> bool:
        return sum(FIDE_TABLE_812.expected(r - x) for x in opponent_ratings) >= score

    low, high = min(opponent_ratings) - 800, max(opponent_ratings) + 800  # reaches(high) holds
    while low < high:
        middle = (low + high) // 2
        if reaches(middle):
            high = middle
        else:
            low = middle + 1
    return low
