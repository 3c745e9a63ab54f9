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

from bisect import bisect_right
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache

from ..notes import Note, english, note_text
from ..state import Colour, InvalidInput, Kind, Player, RoundRecord, TournamentState
from .settings import KeizerSettings, resolve
from .start import keizer_tpr, strength_groups

Ranking = list[int]  # start numbers, first place first
_EPS = 1e-9

# How a round's points came about (§1.2, §1.3, §2.1, §3.5).
_ROUND = note_text("keizer.round_points", "Round %(round)s: %(what)s")
_NO_RESULT = note_text("keizer.no_result", "no result recorded: 0.0")
_WHO = note_text("keizer.who", "%(name)s (place %(place)s, value %(value)s)")
_GAME_IN_PLAY = note_text("keizer.game_in_play", "game against %(who)s still in play: 0.0")
_WON = note_text("keizer.won", "won against %(who)s: %(points)s")
_DREW = note_text("keizer.drew", "drew with %(who)s: %(fraction)s × %(value)s = %(points)s")
_LOST = note_text("keizer.lost", "lost to %(who)s: 0.0")
_FORFEIT_WON_BYE = note_text(
    "keizer.forfeit_won_bye",
    "won by forfeit against %(who)s, scored as a bye: %(fraction)s × own value %(own)s = %(points)s",
)
_FORFEIT_LOST_BYE = note_text(
    "keizer.forfeit_lost_bye",
    "lost by forfeit against %(who)s, scored as a bye: %(fraction)s × own value %(own)s = %(points)s",
)
_FORFEIT_WON = note_text("keizer.forfeit_won", "won by forfeit against %(who)s: %(points)s")
_FORFEIT_LOST = note_text("keizer.forfeit_lost", "lost by forfeit to %(who)s (did not show up): 0.0")
_CLUB_MATCH_IN_PLAY = note_text("keizer.club_match_in_play", "club-match game still in play: 0.0")
_CLUB_MATCH = {
    "won": note_text(
        "keizer.club_match_won",
        "club-match game on club night, won: %(fraction)s × own value %(own)s = %(points)s",
    ),
    "drew": note_text(
        "keizer.club_match_drew",
        "club-match game on club night, drew: %(fraction)s × own value %(own)s = %(points)s",
    ),
    "lost": note_text(
        "keizer.club_match_lost",
        "club-match game on club night, lost: %(fraction)s × own value %(own)s = %(points)s",
    ),
    "scored": note_text(
        "keizer.club_match_scored",
        "club-match game on club night, scored: %(fraction)s × own value %(own)s = %(points)s",
    ),
}
# A player's line of the standings (§1.4-§1.6, §2.1) and the re-valuation (§1.6).
_AALSMEER = note_text(
    "keizer.aalsmeer",
    "Aalsmeer bonus (§1.4): %(k)s × start value %(value)s (start place %(place)s); after round %(round)s, "
    "%(left)s of %(k)s parts left: %(bonus)s",
)
_FROZEN = note_text("keizer.frozen", "Each round valued with the values of the ranking before it (frozen).")
_VALUED = note_text("keizer.valued", "Every round valued with %(basis)s (re-valuation, §1.6).")
_START_VALUES = note_text("keizer.start_values", "the values of the start ranking")
_VALUES_AFTER = note_text("keizer.values_after", "the values of the ranking after round %(round)s")
_OWN_VALUES = note_text(
    "keizer.own_values", "the values of its own ranking (a fixed point after %(steps)s step(s))"
)
_OWN_VALUE = note_text(
    "keizer.own_value", 'Own value added once (§2.1 "Beginwaarde optellen bij totaalscore"): %(value)s'
)
_TOTAL = note_text("keizer.total", "Total: %(total)s; place %(place)s, value %(value)s.")
_FIXED_POINT = note_text(
    "keizer.fixed_point", "After round %(round)s: the re-valuation reached a fixed point in %(steps)s step(s)."
)
_CYCLE = note_text(
    "keizer.cycle",
    "After round %(round)s: no fixed point, the rankings repeat in a cycle of %(length)s step(s); the classic "
    "re-valuation (one step) is used.",
)
_NO_FIXED_POINT = note_text(
    "keizer.no_fixed_point",
    "After round %(round)s: no fixed point within %(steps)s steps; the classic re-valuation is used.",
)


def top_value(s: KeizerSettings, players: int) -> float:
    """The value of place 1: `top_value`, or with `value_ratio` r > 0 round((n - 1) × r / (r - 1)) for
    n players, so that a win against the first is worth r times one against the last (step 1)."""
    if s.value_ratio:
        return round((players - 1) * s.value_ratio / (s.value_ratio - 1))
    return s.top_value


def value_at(place: int, s: KeizerSettings, players: int = 0) -> float:
    """The value of place `place` (1-based) among `players`, §2.1 "Waarderingsmethode: Positie van boven"."""
    return max((top_value(s, players) - s.value_step * ((place - 1) // s.value_every)) * s.value_multiplier, 0.0)


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
    text: Note


@dataclass(frozen=True, slots=True)
class Term:
    """A round's Keizer points as `coef` × the value of player `source` (None: no points).

    Every kind of round scores a fraction of one value, the opponent's or one's own (§1.2, §1.3,
    §2.1 "Afwezigheidspar.", §3.5), so a round's points under any ranking are `coef` × that value.
    """

    coef: float
    source: int | None

    def points(self, values: dict[int, float]) -> float:
        return 0.0 if self.source is None else self.coef * values[self.source]


def record_of(player: Player, rnd: int) -> RoundRecord | None:
    return player.history[rnd - 1] if len(player.history) >= rnd else None


def _forfeit_as_bye(record: RoundRecord, s: KeizerSettings) -> bool:
    """§2.1 "Regl. uitslagen als bye beschouwen", "Only for the winner"."""
    return s.forfeit_as_bye and ((record.score or 0) > 0 or not s.forfeit_bye_winner_only)


def round_term(state: TournamentState, player: Player, rnd: int, s: KeizerSettings) -> Term:
    """What player `player`'s round `rnd` is worth, as a fraction of whose value (module docstring)."""
    record = record_of(player, rnd)
    if record is None:
        return Term(0.0, None)
    kind = record.kind
    if kind in (Kind.GAME, Kind.FORFEIT):
        try:
            state.player(record.opponent)
        except KeyError:
            raise InvalidInput(f"player {player.id}, round {rnd}: opponent {record.opponent} is not a player") from None
    if kind is Kind.GAME:
        return Term(0.0, None) if record.score is None else Term(record.score, record.opponent)
    if kind is Kind.FORFEIT:
        if _forfeit_as_bye(record, s):
            return Term(s.bye_fraction, player.id)
        won = (record.score or 0) > 0
        return Term(record.score or 0, record.opponent) if won else Term(0.0, None)
    if kind in _OWN_FRACTION:
        return Term(getattr(s, _OWN_FRACTION[kind][0]), player.id)
    if kind is Kind.CLUB_MATCH:
        return Term(0.0, None) if record.score is None else Term(record.score * s.club_match_fraction, player.id)
    raise InvalidInput(f"player {player.id}, round {rnd}: a {kind.value} is not part of the Keizer rules")


# Rounds without a game that score a fraction of one's own value: the setting and the wording.
_OWN_FRACTION: dict[Kind, tuple[str, Callable[..., Note]]] = {
    Kind.PAIRING_BYE: (
        "bye_fraction",
        note_text("keizer.reserve_points", "reserve (bye): %(fraction)s × own value %(own)s = %(points)s"),
    ),
    Kind.ABSENT_NOTICE: (
        "absent_notice_fraction",
        note_text("keizer.absent_notice", "absent with notice: %(fraction)s × own value %(own)s = %(points)s"),
    ),
    Kind.ABSENT: (
        "absent_fraction",
        note_text("keizer.absent", "absent without notice: %(fraction)s × own value %(own)s = %(points)s"),
    ),
}


def round_points(
    state: TournamentState,
    player: Player,
    rnd: int,
    values: dict[int, float],
    places: dict[int, int],
    s: KeizerSettings,
    term: Term | None = None,
) -> RoundPoints:
    """One player's Keizer points for round `rnd` with the given values, and how they came about
    (`term`: his `round_term`, when known)."""
    term = term or round_term(state, player, rnd, s)
    points = term.points(values)
    record = record_of(player, rnd)
    own = values[player.id]
    if record is None:
        return RoundPoints(points, _ROUND(round=rnd, what=_NO_RESULT()))
    kind = record.kind
    shown = _points_text(points)
    if kind in (Kind.GAME, Kind.FORFEIT):
        opponent = state.player(record.opponent)
        opp_value = values[opponent.id]
        who = _WHO(name=opponent.name or opponent.id, place=places[opponent.id], value=f"{opp_value:g}")
    if kind is Kind.GAME:
        if record.score is None:
            text = _GAME_IN_PLAY(who=who)
        elif record.score >= 1:
            text = _WON(who=who, points=shown)
        elif record.score > 0:
            text = _DREW(who=who, fraction=_fraction_text(record.score), value=f"{opp_value:g}", points=shown)
        else:
            text = _LOST(who=who)
    elif kind is Kind.FORFEIT:
        won = (record.score or 0) > 0
        if _forfeit_as_bye(record, s):
            as_bye = _FORFEIT_WON_BYE if won else _FORFEIT_LOST_BYE
            text = as_bye(who=who, fraction=_fraction_text(s.bye_fraction), own=f"{own:g}", points=shown)
        elif won:
            text = _FORFEIT_WON(who=who, points=shown)
        else:
            text = _FORFEIT_LOST(who=who)
    elif kind in _OWN_FRACTION:
        setting, label = _OWN_FRACTION[kind]
        text = label(fraction=_fraction_text(getattr(s, setting)), own=f"{own:g}", points=shown)
    elif record.score is None:
        text = _CLUB_MATCH_IN_PLAY()
    else:
        result = {1.0: "won", 0.5: "drew"}.get(record.score, "lost" if record.score == 0 else "scored")
        text = _CLUB_MATCH[result](fraction=_fraction_text(term.coef), own=f"{own:g}", points=shown)
    return RoundPoints(points, _ROUND(round=rnd, what=text))


def aalsmeer_bonus(start_value: float, after_round: int, s: KeizerSettings) -> float:
    """§1.4: k × the start value, written off in k equal steps over rounds 1..k."""
    k = s.aalsmeer_rounds
    return start_value * max(k - after_round, 0)


def rated_games(state: TournamentState, player: Player, rounds: int) -> list[tuple[int, int, float]]:
    """His games over the board finished in rounds 1..`rounds` against rated opponents: (round, rating, score)."""
    games: list[tuple[int, int, float]] = []
    for rnd, record in enumerate(player.history[:rounds], 1):
        if record.kind is Kind.GAME and record.score is not None and record.opponent:
            rating = state.player(record.opponent).rating
            if rating > 0:
                games.append((rnd, rating, record.score or 0.0))
    return games


def games_and_tpr(state: TournamentState, player: Player, rounds: int, s: KeizerSettings) -> tuple[int, float | None]:
    """Over-the-board games finished in rounds 1..`rounds`, and their TPR (§1.5 "Prt", "TPR")."""
    games = sum(1 for r in player.history[:rounds] if r.kind is Kind.GAME and r.score is not None)
    rated = rated_games(state, player, rounds)
    return games, keizer_tpr([rating for _, rating, _ in rated], sum(score for _, _, score in rated), s.tpr_limit)


def took_part(record: RoundRecord | None) -> bool:
    """§1.5 "deelgenomen": present on club night (a game, a club-match game, the reserve, a forfeit win)."""
    if record is None:
        return False
    if record.kind is Kind.FORFEIT:
        return (record.score or 0) > 0
    return record.kind in (Kind.GAME, Kind.CLUB_MATCH, Kind.PAIRING_BYE)


class _Season:
    """Rounds 1..n as the re-ranking needs them, each computed once.

    A round's points are a fixed fraction of one value (`Term`), so every re-valuation only
    multiplies the same terms by new values. A TPR only breaks a tie of totals, so it is computed
    when a tie needs it, once per player and number of games.
    """

    def __init__(self, state: TournamentState, n: int, s: KeizerSettings) -> None:
        self.state, self.n, self.s = state, n, s
        self.terms = {p.id: [round_term(state, p, r, s) for r in range(1, n + 1)] for p in state.players}
        # The same as (coefficient, whose value); a round without points as 0 × his own value.
        self._factors = {
            pid: [(t.coef, pid if t.source is None else t.source) for t in terms] for pid, terms in self.terms.items()
        }
        n_players = len(state.players)
        self.place_values = [value_at(place, s, n_players) for place in range(1, n_players + 1)]
        self.start = start_order(state)
        self.start_values = self.values(self.start)
        self.rated = {p.id: rated_games(state, p, n) for p in state.players}
        self._tprs: dict[tuple[int, int], float | None] = {}

    def values(self, ranking: Ranking) -> dict[int, float]:
        return dict(zip(ranking, self.place_values, strict=True))

    def totals(self, rounds: int, values: dict[int, float]) -> dict[int, float]:
        """Rounds 1..`rounds` valued with `values`, plus the Aalsmeer bonus left after them."""
        return {
            pid: self.with_own_value(
                aalsmeer_bonus(self.start_values[pid], rounds, self.s)
                + sum([coef * values[source] for coef, source in factors[:rounds]]),
                values[pid],
            )
            for pid, factors in self._factors.items()
        }

    def with_own_value(self, total: float, own: float) -> float:
        """§2.1 "Beginwaarde optellen bij totaalscore": the own value added once, when set."""
        return total + own if self.s.own_value_in_total else total

    def tpr(self, pid: int, rounds: int) -> float | None:
        """His TPR after rounds 1..`rounds`, as `games_and_tpr` gives it; computed once per game count."""
        games = self.rated[pid]
        count = bisect_right(games, rounds, key=lambda game: game[0])
        if (pid, count) not in self._tprs:
            ratings = [rating for _, rating, _ in games[:count]]
            score = sum(score for _, _, score in games[:count])
            self._tprs[pid, count] = keizer_tpr(ratings, score, self.s.tpr_limit)
        return self._tprs[pid, count]

    def order(self, totals: dict[int, float], previous: Ranking, rounds: int) -> Ranking:
        """Total, then TPR (none yields), then the previous ranking (seeds README item 4).

        Totals are compared to 6 decimals; a TPR is only looked at (and computed) for a shared total.
        """
        before = {pid: i for i, pid in enumerate(previous)}
        rounded = {pid: round(total, 6) for pid, total in totals.items()}
        shared = {total for total, count in Counter(rounded.values()).items() if count > 1}

        def key(pid: int) -> tuple[float, bool, float, int]:
            tpr = self.tpr(pid, rounds) if rounded[pid] in shared else 0.0
            return (-rounded[pid], tpr is None, -(tpr or 0.0), before[pid])

        return sorted(totals, key=key)


def _classic_basis(n: int) -> Note:
    return _START_VALUES() if n == 1 else _VALUES_AFTER(round=n - 1)


@dataclass(slots=True)
class _Step:
    """The ranking after one round, the totals it ranks by, and the ranking whose values valued round r."""

    ranking: Ranking
    totals: dict[int, float]
    valued_with: Callable[[int], Ranking]
    basis: Note | None  # which values were used, for the explanation


def _fixed_point(season: _Season, n: int, previous: Ranking, notes: list[Note]) -> _Step:
    s = season.s
    current = previous
    seen = [previous]
    first: _Step | None = None
    for iteration in range(1, s.max_iterations + 1):
        totals = season.totals(n, season.values(current))
        new = season.order(totals, previous, n)
        step = _Step(new, totals, lambda _r, ranking=current: ranking, _OWN_VALUES(steps=iteration))
        if first is None:
            first = step
            first.basis = _classic_basis(n)
        if new == current:
            notes.append(_FIXED_POINT(round=n, steps=iteration))
            return step
        if new in seen:
            length = len(seen) - seen.index(new)
            notes.append(_CYCLE(round=n, length=length))
            return first
        seen.append(new)
        current = new
    notes.append(_NO_FIXED_POINT(round=n, steps=s.max_iterations))
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
    explanation: list[Note] = field(default_factory=list)


@dataclass(slots=True)
class Standings:
    after_round: int
    rows: list[StandingRow]
    notes: list[Note] = field(default_factory=list)

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


def _rankings(season: _Season, rounds: int) -> tuple[list[Ranking], _Step | None, list[Note]]:
    """The rankings after rounds 0..`rounds`, the last round's step and the re-valuation notes."""
    order = [season.start]
    notes: list[Note] = []
    step: _Step | None = None
    frozen: dict[int, float] = dict.fromkeys(season.terms, 0.0)  # frozen: the rounds so far, each valued once
    for n in range(1, rounds + 1):
        previous = order[n - 1]
        if season.s.revaluation == "frozen":
            values = season.values(previous)
            for pid, terms in season.terms.items():
                frozen[pid] += terms[n - 1].points(values)
            bonus = {pid: aalsmeer_bonus(season.start_values[pid], n, season.s) for pid in frozen}
            totals = {pid: season.with_own_value(bonus[pid] + frozen[pid], values[pid]) for pid in frozen}
            step = _Step(season.order(totals, previous, n), totals, lambda r: order[r - 1], None)
        elif season.s.revaluation == "fixed-point":
            step = _fixed_point(season, n, previous, notes)
        else:
            totals = season.totals(n, season.values(previous))
            step = _Step(season.order(totals, previous, n), totals, lambda _r, p=previous: p, _classic_basis(n))
        order.append(step.ranking)
    return order, step, notes


def ranking_after(state: TournamentState, rounds: int) -> Ranking:
    """The full ranking after `rounds` (§1.6), without the standings' explanations: the pairing's order."""
    return _rankings(_Season(state, rounds, resolve(state.settings)), rounds)[0][rounds]


def _round_points_of_step(season: _Season, step: _Step) -> dict[int, list[RoundPoints]]:
    """Every player's points per round as the last step valued them, with their explanation."""
    state, s = season.state, season.s
    result: dict[int, list[RoundPoints]] = {p.id: [] for p in state.players}
    for r in range(1, season.n + 1):
        ranking = step.valued_with(r)
        values = season.values(ranking)
        places = {pid: place for place, pid in enumerate(ranking, 1)}
        for p in state.players:
            result[p.id].append(round_points(state, p, r, values, places, s, season.terms[p.id][r - 1]))
    return result


def standings(state: TournamentState, rounds: int | None = None) -> Standings:
    """The standings after `rounds` (default: the rounds played before `state.round_to_pair`)."""
    s = resolve(state.settings)
    n = state.rounds_played if rounds is None else rounds
    if n < 0:
        raise InvalidInput("the standings need a round number of at least 0")
    season = _Season(state, n, s)
    order, step, notes = _rankings(season, n)
    start, start_values = season.start, season.start_values
    final = order[n]
    final_values = season.values(final)
    points_of = _round_points_of_step(season, step) if step else {}
    group_of = {pid: g for g, members in enumerate(strength_groups(start, s.strength_groups), 1) for pid in members}
    rows: list[StandingRow] = []
    for rank, pid in enumerate(final, 1):
        player = state.player(pid)
        games, tpr = games_and_tpr(state, player, n, s)
        bonus = aalsmeer_bonus(start_values[pid], n, s)
        taken = sum(1 for r in range(1, n + 1) if took_part(record_of(player, r)))
        points = points_of.get(pid, [])
        played = [r for r in player.history[:n] if r.played]
        explanation: list[Note] = []
        if s.aalsmeer_rounds:
            explanation.append(
                _AALSMEER(
                    k=s.aalsmeer_rounds,
                    value=f"{start_values[pid]:g}",
                    place=start.index(pid) + 1,
                    round=n,
                    left=max(s.aalsmeer_rounds - n, 0),
                    bonus=_points_text(bonus),
                )
            )
        if n and step is not None:
            if s.revaluation == "frozen":
                explanation.append(_FROZEN())
            else:
                explanation.append(_VALUED(basis=step.basis))
        explanation.extend(rp.text for rp in points)
        if s.own_value_in_total and step is not None:
            own = season.values(step.valued_with(n))[pid]
            explanation.append(_OWN_VALUE(value=f"{own:g}"))
        total = step.totals[pid] if step else season.with_own_value(bonus, start_values[pid])
        explanation.append(_TOTAL(total=_points_text(total), place=rank, value=f"{final_values[pid]:g}"))
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


def standings_text(state: TournamentState, rounds: int | None = None) -> str:
    """The standings after `rounds` (default: all rounds played) as plain text: the table of §1.5
    (`Standings.lines`), then the re-valuation notes, if any.

    `state` may come from the JSON state (`jsonstate.read_json_state`) or a TRF (`trf.read_state`);
    the settings are `state.settings` (see `settings.apply_preset`).
    """
    table = standings(state, rounds)
    return "\n".join(table.lines() + english(table.notes)) + "\n"
