"""Keizer points, the Aalsmeer bonus, re-valuation and the standings (seed 003 §1.2-§1.6).

- Values (§1.2, §2.1 "Spelerwaardering"): place p on the ranking is worth
  (top - step * ((p - 1) // every)) * multiplier, never less than 0.
- A round's points (§1.2, §1.3, §2.1 "Afwezigheidspar.", §3.5), with v the
  opponent's value and e one's own: a game earns result × v (win v, draw
  v/2, loss 0); a club-match game on club night result × e × the club-match
  fraction; the reserve's bye e × the bye fraction; absence with notice e ×
  1/3, without notice e × 0; a forfeit win (the opponent did not show up,
  §3.5) counts as a bye for the winner only ("Regl. uitslagen als bye
  beschouwen", "Only for the winner"), the no-show gets 0.
- Systeem Aalsmeer (§1.4): every player starts with k × his start value;
  after round r (r <= k) (k - r)/k of it is left.
- Re-valuation (§1.6, seeds README item 3): the ranking after round N values
  every result of rounds 1..N with the values of the ranking after round
  N - 1 ("classic", the default). "fixed-point" repeats that step with the
  newest values until the ranking no longer changes; when the rankings cycle
  (or the iteration limit is reached) it says so and keeps the classic
  ranking. "frozen" values each round once, with the values of its time.
- Order (seeds README item 4, §2.1 "Geselecteerde criteria: Score, TPR"):
  total, then TPR (a player without games yields), then the previous ranking.
- §1.5: only who took part in at least 1/3 of the rounds so far appears in
  the published ranking; every player keeps his place and value regardless.

The start ranking is the order of start numbers (`Player.id`): the caller
numbers the players by `start.start_ranking` (§1.10).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache

from ..state import Colour, InvalidInput, Kind, Player, RoundRecord, TournamentState
from .settings import KeizerSettings, resolve
from .start import keizer_tpr, strength_groups

Ranking = list[int]  # start numbers, first place first
_EPS = 1e-9


def value_at(place: int, s: KeizerSettings) -> float:
    """The value of place `place` (1-based), §2.1 "Waarderingsmethode: Positie van boven"."""
    return max((s.top_value - s.value_step * ((place - 1) // s.value_every)) * s.value_multiplier, 0.0)


def values_of(ranking: Ranking, s: KeizerSettings) -> dict[int, float]:
    return {pid: value_at(place, s) for place, pid in enumerate(ranking, 1)}


def start_order(state: TournamentState) -> Ranking:
    """The ranking before round 1: the start numbers in order (§1.4, §1.10)."""
    return sorted(p.id for p in state.players)


def _points_text(points: float) -> str:
    return f"{points:.1f}"


@lru_cache(maxsize=256)
def _fraction_text(fraction: float) -> str:
    near = Fraction(fraction).limit_denominator(12)
    if abs(float(near) - fraction) < 1e-3 and near.denominator > 1:
        return f"{near.numerator}/{near.denominator}"
    return f"{fraction:g}"


@dataclass(frozen=True, slots=True)
class RoundPoints:
    points: float
    text: str


def record_of(player: Player, rnd: int) -> RoundRecord | None:
    return player.history[rnd - 1] if len(player.history) >= rnd else None


def round_points(
    state: TournamentState,
    player: Player,
    rnd: int,
    values: dict[int, float],
    places: dict[int, int],
    s: KeizerSettings,
) -> RoundPoints:
    """One player's Keizer points for round `rnd` with the given values, and how they came about."""
    record = record_of(player, rnd)
    own = values[player.id]
    prefix = f"Round {rnd}: "
    if record is None:
        return RoundPoints(0.0, prefix + "no result recorded: 0.0")
    kind = record.kind
    if kind in (Kind.GAME, Kind.FORFEIT):
        if record.opponent not in values:
            raise InvalidInput(f"player {player.id}, round {rnd}: opponent {record.opponent} is not a player")
        opponent = state.player(record.opponent)
        opp_value = values[opponent.id]
        who = f"{opponent.name or opponent.id} (place {places[opponent.id]}, value {opp_value:g})"
    if kind is Kind.GAME:
        if record.score is None:
            return RoundPoints(0.0, prefix + f"game against {who} still in play: 0.0")
        points = record.score * opp_value
        if record.score >= 1:
            text = f"won against {who}: {_points_text(points)}"
        elif record.score > 0:
            text = f"drew with {who}: {_fraction_text(record.score)} × {opp_value:g} = {_points_text(points)}"
        else:
            text = f"lost to {who}: 0.0"
        return RoundPoints(points, prefix + text)
    if kind is Kind.FORFEIT:
        won = (record.score or 0) > 0
        if s.forfeit_as_bye and (won or not s.forfeit_bye_winner_only):
            points = s.bye_fraction * own
            outcome = "won" if won else "lost"
            return RoundPoints(
                points,
                prefix + f"{outcome} by forfeit against {who}, scored as a bye: "
                f"{_fraction_text(s.bye_fraction)} × own value {own:g} = {_points_text(points)}",
            )
        if won:
            points = (record.score or 0) * opp_value
            return RoundPoints(points, prefix + f"won by forfeit against {who}: {_points_text(points)}")
        return RoundPoints(0.0, prefix + f"lost by forfeit to {who} (did not show up): 0.0")
    own_fraction: dict[Kind, tuple[float, str]] = {
        Kind.PAIRING_BYE: (s.bye_fraction, "reserve (bye)"),
        Kind.ABSENT_NOTICE: (s.absent_notice_fraction, "absent with notice"),
        Kind.ABSENT: (s.absent_fraction, "absent without notice"),
    }
    if kind in own_fraction:
        fraction, label = own_fraction[kind]
        points = fraction * own
        return RoundPoints(
            points,
            prefix + f"{label}: {_fraction_text(fraction)} × own value {own:g} = {_points_text(points)}",
        )
    if kind is Kind.CLUB_MATCH:
        if record.score is None:
            return RoundPoints(0.0, prefix + "club-match game still in play: 0.0")
        fraction = record.score * s.club_match_fraction
        result = {1.0: "won", 0.5: "drew"}.get(record.score, "lost" if record.score == 0 else "scored")
        points = fraction * own
        return RoundPoints(
            points,
            prefix + f"club-match game on club night, {result}: {_fraction_text(fraction)} × own value "
            f"{own:g} = {_points_text(points)}",
        )
    raise InvalidInput(f"player {player.id}, round {rnd}: a {kind.value} is not part of the Keizer rules")


def aalsmeer_bonus(start_value: float, after_round: int, s: KeizerSettings) -> float:
    """§1.4: k × the start value, written off in k equal steps over rounds 1..k."""
    k = s.aalsmeer_rounds
    return start_value * max(k - after_round, 0)


def games_and_tpr(state: TournamentState, player: Player, rounds: int, s: KeizerSettings) -> tuple[int, float | None]:
    """Over-the-board games finished in rounds 1..`rounds`, and their TPR (§1.5 "Prt", "TPR")."""
    games = [r for r in player.history[:rounds] if r.kind is Kind.GAME and r.score is not None]
    rated = [(state.player(r.opponent).rating, r.score or 0.0) for r in games if r.opponent]
    rated = [(rating, score) for rating, score in rated if rating > 0]
    tpr = keizer_tpr([rating for rating, _ in rated], sum(score for _, score in rated), s.tpr_limit)
    return len(games), tpr


def took_part(record: RoundRecord | None) -> bool:
    """§1.5 "deelgenomen": present on club night (a game, a club-match game, the reserve, a forfeit win)."""
    if record is None:
        return False
    if record.kind is Kind.FORFEIT:
        return (record.score or 0) > 0
    return record.kind in (Kind.GAME, Kind.CLUB_MATCH, Kind.PAIRING_BYE)


@dataclass(slots=True)
class _Valuation:
    """Rounds 1..n valued once: per player the points of each round and the total."""

    rounds: dict[int, list[RoundPoints]]
    totals: dict[int, float]


def _value_rounds(
    state: TournamentState,
    n: int,
    s: KeizerSettings,
    start_values: dict[int, float],
    ranking_for_round: Callable[[int], Ranking],
) -> _Valuation:
    """Value rounds 1..n; round r with the values of `ranking_for_round(r)`."""
    rounds: dict[int, list[RoundPoints]] = {p.id: [] for p in state.players}
    for r in range(1, n + 1):
        ranking = ranking_for_round(r)
        values = values_of(ranking, s)
        places = {pid: place for place, pid in enumerate(ranking, 1)}
        for p in state.players:
            rounds[p.id].append(round_points(state, p, r, values, places, s))
    totals = {
        p.id: aalsmeer_bonus(start_values[p.id], n, s) + sum(rp.points for rp in rounds[p.id]) for p in state.players
    }
    return _Valuation(rounds, totals)


def _order(totals: dict[int, float], previous: Ranking, tprs: dict[int, float | None]) -> Ranking:
    """Total, then TPR (none yields), then the previous ranking (seeds README item 4)."""
    before = {pid: i for i, pid in enumerate(previous)}

    def key(pid: int) -> tuple[float, bool, float, int]:
        tpr = tprs[pid]
        return (-round(totals[pid], 6), tpr is None, -(tpr or 0.0), before[pid])

    return sorted(totals, key=key)


def _classic_basis(n: int) -> str:
    before = "the start ranking" if n == 1 else f"the ranking after round {n - 1}"
    return f"the values of {before}"


@dataclass(slots=True)
class _Step:
    ranking: Ranking
    valuation: _Valuation
    basis: str  # which values were used, for the explanation


def _fixed_point(
    state: TournamentState,
    n: int,
    s: KeizerSettings,
    start_values: dict[int, float],
    previous: Ranking,
    tprs: dict[int, float | None],
    notes: list[str],
) -> _Step:
    current = previous
    seen = [previous]
    first: _Step | None = None
    for iteration in range(1, s.max_iterations + 1):
        valuation = _value_rounds(state, n, s, start_values, lambda _r, ranking=current: ranking)
        new = _order(valuation.totals, previous, tprs)
        basis = f"the values of its own ranking (a fixed point after {iteration} step(s))"
        step = _Step(new, valuation, basis)
        if first is None:
            first = step
            first.basis = _classic_basis(n)
        if new == current:
            notes.append(f"After round {n}: the re-valuation reached a fixed point in {iteration} step(s).")
            return step
        if new in seen:
            length = len(seen) - seen.index(new)
            notes.append(
                f"After round {n}: no fixed point, the rankings repeat in a cycle of {length} step(s); "
                f"the classic re-valuation (one step) is used."
            )
            return first
        seen.append(new)
        current = new
    notes.append(f"After round {n}: no fixed point within {s.max_iterations} steps; the classic re-valuation is used.")
    assert first is not None
    return first


@dataclass(slots=True)
class StandingRow:
    """One line of the standings (§1.5), with how its points came about."""

    rank: int
    player: int
    name: str
    total: float
    value: float
    games: int
    tpr: float | None
    round_points: list[float]
    bonus: float
    rounds_taken_part: int
    qualifies: bool
    classical_points: float  # §1.5 "Pnt": 1 a win, ½ a draw, over games and forfeits
    colour_balance: int  # §1.5 "Kl": whites minus blacks over played games
    group: int  # §1.5 "Grp", §1.10: strength group by the start ranking, 1 the strongest
    explanation: list[str] = field(default_factory=list)


@dataclass(slots=True)
class Standings:
    after_round: int
    rows: list[StandingRow]
    notes: list[str] = field(default_factory=list)

    @property
    def ranking(self) -> Ranking:
        return [row.player for row in self.rows]

    @property
    def published(self) -> list[StandingRow]:
        """The published ranking and prizes (§1.5): qualifying players only."""
        return [row for row in self.rows if row.qualifies]

    def lines(self) -> list[str]:
        """The ranking with the columns of §1.5 (Pos, Wrde, Naam, Keizer, Prt, Pnt, Kl, Grp, TPR);
        "(-)" marks a player short of the participation rule (not in the published ranking)."""
        width = max([len(row.name) for row in self.rows] + [4])
        out = [
            f"Standings after round {self.after_round}",
            f"Pos Value {'Name':<{width}} Keizer Gms  Pts Col Grp  TPR",
        ]
        for row in self.rows:
            tpr = f"{row.tpr:4.0f}" if row.tpr is not None else "   -"
            out.append(
                f"{row.rank:>3} {row.value:>5g} {row.name:<{width}} {row.total:>6.1f} {row.games:>3} "
                f"{row.classical_points:>4g} {row.colour_balance:>3} {row.group:>3} {tpr}"
                + ("" if row.qualifies else "  (-)")
            )
        return out


def rankings(state: TournamentState, rounds: int, s: KeizerSettings) -> tuple[list[Ranking], _Step | None, list[str]]:
    """The rankings after rounds 0..`rounds` and the last round's valuation."""
    order = [start_order(state)]
    start_values = values_of(order[0], s)
    notes: list[str] = []
    step: _Step | None = None
    for n in range(1, rounds + 1):
        previous = order[n - 1]
        tprs = {p.id: games_and_tpr(state, p, n, s)[1] for p in state.players}
        if s.revaluation == "frozen":
            valuation = _value_rounds(state, n, s, start_values, lambda r: order[r - 1])
            step = _Step(_order(valuation.totals, previous, tprs), valuation, "")
        elif s.revaluation == "fixed-point":
            step = _fixed_point(state, n, s, start_values, previous, tprs, notes)
        else:
            valuation = _value_rounds(state, n, s, start_values, lambda _r, ranking=previous: ranking)
            step = _Step(_order(valuation.totals, previous, tprs), valuation, _classic_basis(n))
        order.append(step.ranking)
    return order, step, notes


def standings(state: TournamentState, rounds: int | None = None) -> Standings:
    """The standings after `rounds` (default: the rounds played before `state.round_to_pair`)."""
    s = resolve(state.settings)
    n = state.rounds_played if rounds is None else rounds
    if n < 0:
        raise InvalidInput("the standings need a round number of at least 0")
    order, step, notes = rankings(state, n, s)
    start = order[0]
    start_values = values_of(start, s)
    final = order[n]
    final_values = values_of(final, s)
    group_of = {pid: g for g, members in enumerate(strength_groups(start, s.strength_groups), 1) for pid in members}
    rows: list[StandingRow] = []
    for rank, pid in enumerate(final, 1):
        player = state.player(pid)
        games, tpr = games_and_tpr(state, player, n, s)
        bonus = aalsmeer_bonus(start_values[pid], n, s)
        taken = sum(1 for r in range(1, n + 1) if took_part(record_of(player, r)))
        points = step.valuation.rounds[pid] if step else []
        played = [r for r in player.history[:n] if r.played]
        explanation: list[str] = []
        if s.aalsmeer_rounds:
            explanation.append(
                f"Aalsmeer bonus (§1.4): {s.aalsmeer_rounds} × start value {start_values[pid]:g} "
                f"(start place {start.index(pid) + 1}); after round {n}, "
                f"{max(s.aalsmeer_rounds - n, 0)} of {s.aalsmeer_rounds} parts left: {_points_text(bonus)}"
            )
        if n and step is not None:
            if s.revaluation == "frozen":
                explanation.append("Each round valued with the values of the ranking before it (frozen).")
            else:
                explanation.append(f"Every round valued with {step.basis} (re-valuation, §1.6).")
        explanation.extend(rp.text for rp in points)
        total = step.valuation.totals[pid] if step else bonus
        explanation.append(f"Total: {_points_text(total)}; place {rank}, value {final_values[pid]:g}.")
        rows.append(
            StandingRow(
                rank=rank,
                player=pid,
                name=player.name,
                total=total,
                value=final_values[pid],
                games=games,
                tpr=tpr,
                round_points=[rp.points for rp in points],
                bonus=bonus,
                rounds_taken_part=taken,
                qualifies=taken + _EPS >= s.participation_fraction * n,
                classical_points=sum(r.score or 0.0 for r in player.history[:n] if r.paired),
                colour_balance=sum((r.colour is Colour.WHITE) - (r.colour is Colour.BLACK) for r in played),
                group=group_of[pid],
                explanation=explanation,
            )
        )
    return Standings(after_round=n, rows=rows, notes=notes)
