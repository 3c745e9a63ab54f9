"""A team cup: a knockout of team matches (the KNSB's cup competition, the regions' cups), over plain data.

Pure: no Django. The bracket is the knockout's (seed 004 §4.9.7, `knockout`):

- `cup_draw`: every team's lot number, drawn once before round 1 and fixing the whole bracket. Drawn by
  lot, or seeded: the teams in seed order (by team rating, or in the TD's order) draw the lot numbers of
  their seed group (`knockout.draw_lots`), so the first two seeds meet no earlier than the final, seeds 3-4
  no earlier than the semi-finals, and so on. A field that is not a power of two is filled up with empty
  places opposite the highest seeds (drawn by lot: opposite the teams drawn first): they have a bye in
  round 1.
- `cup_bracket`: every round's ties from the lot numbers and the winners so far: round 1 pairs lot numbers
  1-2, 3-4, ...; round r pairs the winners of neighbouring blocks of 2^(r-1) lot numbers.
- `next_fixtures`: the matches of the next round, drawn round by round once the round before is decided;
  the team with fewer home matches in the cup so far plays at home, on equal numbers the one higher in
  the bracket (the lower lot number).
- `cup_decision`: a cup match needs a winner. More board points win (C.07 11.1); on equal board points the
  KNSB cup's board count (`tie_rule` "boards"): the result on the lowest board is struck out, then the one
  above it, until one team is ahead on the boards that remain, so the highest boards decide; still level
  (every remaining comparison equal), or with `tie_rule` "decider", a lot drawn by the TD or a blitz
  decider played and entered by the TD (`decider` "lot" or "blitz").
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from .knockout import bracket_size, draw_lots
from .league import Fixture, MatchOutcome
from .state import InvalidInput

DRAWS: tuple[str, ...] = ("lot", "rating", "order")
"""How round 1 is drawn: every lot number by lot, or seeded by team rating or by the TD's order."""
TIE_RULES: tuple[str, ...] = ("boards", "decider")
DECIDERS: tuple[str, ...] = ("lot", "blitz")


def cup_draw(teams: Sequence[int], method: str, seed: int | str | None) -> dict[int, int]:
    """Every team's lot number (team -> lot number, 1..N with N the smallest power of two holding the field).

    `teams` in seed order for a seeded draw (`method` "rating" or "order": the caller orders them); the
    lot numbers follow the knockout's seed groups (seed 004 §4.9.7, `knockout.draw_lots`), lots drawn
    within each group from `seed`. `method` "lot": the order itself is drawn by lot first, so every place
    of the bracket, the byes included, is drawn by lot."""
    if method not in DRAWS:
        raise InvalidInput(f"a cup is drawn by {', '.join(DRAWS)}, not {method!r}")
    if len(set(teams)) != len(teams):
        raise InvalidInput("a team is listed twice")
    order = list(teams)
    if method == "lot":
        random.Random(f"{seed}/cup/order").shuffle(order)
    return draw_lots(order, seed)[1]


def rounds_needed(n_teams: int) -> int:
    """The cup's number of rounds: log2 of its bracket (2 teams: 1, 3-4: 2, 5-8: 3, ...)."""
    return bracket_size(n_teams).bit_length() - 1


def round_name(rnd: int, rounds: int) -> tuple[str, int]:
    """The name of round `rnd` of `rounds`: ("final", 2), ("semi-final", 4), ("quarter-final", 8), else
    ("round of", N) with N the places of the round."""
    places = 2 ** (rounds - rnd + 1)
    names = {2: "final", 4: "semi-final", 8: "quarter-final"}
    return names.get(places, "round of"), places


# ---------------------------------------------------------------- a match's winner


@dataclass(frozen=True, slots=True)
class Decision:
    """Who won a cup match and by what: `how` "points" (more board points), "boards" (the board count:
    `struck` lowest boards struck out, `home_points`-`away_points` on the boards left), "forfeit" (a team
    fielded nobody), "lot" or "blitz" (the TD's decider); `winner` "home", "away", or "" while undecided;
    `needs_decider`: the match is over and level, the TD's lot or blitz decider is wanted."""

    winner: str
    how: str = ""
    home_points: float = 0.0
    away_points: float = 0.0
    struck: int = 0
    needs_decider: bool = False


def board_count(boards: Sequence[tuple[float, float] | None]) -> tuple[str, int, float, float]:
    """The KNSB cup's board count for a level match: strike the result on the lowest board, then the next
    lowest, until one team is ahead on the boards left (board 1 is never struck: it is the last
    comparison). Returns (winner "home"/"away", boards struck, home's and away's points on the boards left),
    or ("", boards struck, points, points) when even board 1 is level."""
    if any(b is None for b in boards):
        raise InvalidInput("the board count needs every board decided")
    scores = [b for b in boards if b is not None]
    for kept in range(len(scores) - 1, 0, -1):
        home = sum(s[0] for s in scores[:kept])
        away = sum(s[1] for s in scores[:kept])
        if home != away:
            return ("home" if home > away else "away", len(scores) - kept, home, away)
    first = scores[0] if scores else (0.0, 0.0)
    return ("", max(len(scores) - 1, 0), first[0], first[1])


def cup_decision(outcome: MatchOutcome, tie_rule: str = "boards", decider: str = "lot", chosen: str = "") -> Decision:
    """The winner of a cup match from its outcome (`league.match_outcome`): more board points win; a team
    that fielded nobody loses (both: the decider); level, the board count when `tie_rule` is "boards"
    (`board_count`), then the `decider` ("lot" or "blitz") the TD entered as `chosen` ("home"/"away").
    Undecided while a board is in play, or while a needed decider is not entered."""
    if tie_rule not in TIE_RULES or decider not in DECIDERS or chosen not in ("", "home", "away"):
        raise InvalidInput(f"unknown cup tie rule {tie_rule!r}, decider {decider!r} or side {chosen!r}")
    if not outcome.complete:
        return Decision("")
    home, away = outcome.home_points, outcome.away_points
    if outcome.forfeited in ("home", "away"):
        return Decision("away" if outcome.forfeited == "home" else "home", "forfeit", home, away)
    if home != away:
        return Decision("home" if home > away else "away", "points", home, away)
    if tie_rule == "boards" and outcome.forfeited != "both":
        winner, struck, h, a = board_count(outcome.boards)
        if winner:
            return Decision(winner, "boards", h, a, struck)
    if chosen:
        return Decision(chosen, decider, home, away)
    return Decision("", "", home, away, needs_decider=True)


# ---------------------------------------------------------------- the bracket


@dataclass(frozen=True, slots=True)
class Tie:
    """One place of the bracket: round, number from the top (`slot`), the two teams in lot order (None: an
    empty place, or not known yet while `waiting`), whether it is a bye (one team, no match) and the
    winner once known."""

    round: int
    slot: int
    teams: tuple[int | None, int | None]
    waiting: bool = False
    winner: int | None = None

    @property
    def bye(self) -> bool:
        return not self.waiting and (self.teams[0] is None) != (self.teams[1] is None)


def slot_of(lot: int, rnd: int) -> int:
    """The tie of round `rnd` that the team with lot number `lot` plays in (1 the top of the bracket)."""
    return (lot - 1) // 2**rnd + 1


def cup_bracket(lots: Mapping[int, int], winners: Mapping[tuple[int, int], int]) -> list[list[Tie]]:
    """Every round of the cup from the teams' lot numbers (team -> lot number) and the winners of the
    matches decided so far ((round, slot) -> team). Round 1 pairs lot numbers 1-2, 3-4, ...; a team facing
    an empty place has a bye; round r pairs the winners of ties 2s-1 and 2s of round r-1 (seed 004 §4.9.7:
    the lot numbers fix the whole bracket)."""
    if len(lots) < 2:
        raise InvalidInput("a cup needs at least 2 teams")
    size = bracket_size(len(lots))
    by_lot: dict[int, int] = {}
    for team, lot in lots.items():
        if not 1 <= lot <= size or lot in by_lot:
            raise InvalidInput(f"lot number {lot} is outside 1..{size} or drawn twice")
        by_lot[lot] = team
    entrants: list[int | None] = [by_lot.get(lot) for lot in range(1, size + 1)]
    known = [True] * size
    rounds: list[list[Tie]] = []
    rnd = 1
    while len(entrants) > 1:
        ties: list[Tie] = []
        for i in range(len(entrants) // 2):
            pair = (entrants[2 * i], entrants[2 * i + 1])
            waiting = not (known[2 * i] and known[2 * i + 1])
            winner = None
            if not waiting:
                if pair[0] is None or pair[1] is None:
                    winner = pair[0] if pair[1] is None else pair[1]
                else:
                    winner = winners.get((rnd, i + 1))
                    if winner is not None and winner not in pair:
                        raise InvalidInput(f"round {rnd} tie {i + 1}: team {winner} does not play it")
            ties.append(Tie(rnd, i + 1, pair, waiting, winner))
        rounds.append(ties)
        entrants = [t.winner for t in ties]
        known = [t.winner is not None for t in ties]
        rnd += 1
    return rounds


def next_fixtures(bracket: Sequence[Sequence[Tie]], rnd: int, home_matches: Mapping[int, int]) -> list[Fixture]:
    """The matches of round `rnd` (every tie of it with two teams), once the round before is decided; the
    home team has played fewer home matches in the cup so far (`home_matches`), on equal numbers it is the
    team higher in the bracket. `InvalidInput` while a tie of the round is still waiting."""
    if not 1 <= rnd <= len(bracket):
        raise InvalidInput(f"the cup has rounds 1 to {len(bracket)}, not {rnd}")
    fixtures = []
    for tie in bracket[rnd - 1]:
        if tie.waiting:
            raise InvalidInput(f"round {rnd} tie {tie.slot}: the round before is not decided")
        upper, lower = tie.teams
        if upper is None or lower is None:
            continue
        if home_matches.get(lower, 0) < home_matches.get(upper, 0):
            upper, lower = lower, upper
        fixtures.append(Fixture(rnd, upper, lower))
    return fixtures
