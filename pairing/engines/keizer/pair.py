"""The Keizer pairing (seed 003 §1.7-§1.9, cut off in the source; seeds README item 4 fills them).

- The present players are paired top-down in ranking order: the highest
  unpaired player meets the next one he may meet (1 v 2, 3 v 4, ...), the
  first partner that still leaves the others a complete pairing.
- Forbidden pairs (§2.1): a meeting within the last `repeat_window` rounds
  ("Ronden tussen gelijke paring"), `max_meetings` games already played
  ("Max gelijke paringen"), no colour within the colour limits
  ("Max toegestaan kleurverschil", "Opeenv. ronden met gelijke kleur").
  Only games played over the board count as meetings and for colours
  ("Tel regl. uitslagen als onderl. partij: Neen", "Kleurberekening op regl.
  uitslagen: Neen", "Ignore absent rounds for colorassignment: Ja").
- When no pairing keeps these limits, they are relaxed step by step, and the
  explanation says so: the repeat window (4, 3, 2, 1, 0), then the maximum
  number of meetings, then the colour limits (widened by one, then dropped).
- Colours (§1.8; "Saldo naar nul", "Alternerend", "Prefereer kleurvoorkeur
  van sterkste"): a player whose whites and blacks differ wants the colour
  that brings the difference toward zero; one with a zero difference wants
  the colour he did not have last. A difference outweighs alternation; on
  equal claims the higher-ranked player has his way. Two players without
  colour history alternate by board, board 1's higher-ranked player taking
  `state.top_colour_round1`.
- The reserve (§1.9): with an odd number present, one of those with the
  fewest lost evenings, by lot from `state.seed`. Lost evenings are earlier
  reserve rounds (`Kind.PAIRING_BYE` in the history) plus
  `Player.extra["lost_evenings"]` (bar duty, team leader on a match night).
- The boards are listed in ranking order ("Sorteer paring a.d.h.v. ranglijst").
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from ..matching import max_weight_matching
from ..state import Board, Bye, Colour, InvalidInput, Kind, Pairing, Player, TournamentState
from .scoring import ranking_after
from .settings import KeizerSettings, resolve

ABSENCE_KINDS = (Kind.ABSENT_NOTICE, Kind.ABSENT, Kind.CLUB_MATCH)


@dataclass(frozen=True, slots=True)
class Limits:
    """The pairing limits in force at one relaxation step (None: no limit)."""

    repeat_window: int
    max_meetings: int | None
    max_colour_difference: int | None
    max_same_colour_run: int | None

    def describe(self) -> str:
        meetings = "no limit" if self.max_meetings is None else f"at most {self.max_meetings}"
        if self.max_colour_difference is None:
            colours = "no colour limits"
        else:
            colours = (
                f"colour difference at most {self.max_colour_difference}, "
                f"at most {self.max_same_colour_run} equal colours in a row"
            )
        return f"no repeat within {self.repeat_window} round(s), meetings {meetings}, {colours}"


def relaxation_steps(s: KeizerSettings) -> list[Limits]:
    """The limits in the order seeds README item 4 relaxes them."""
    diff, run = s.max_colour_difference, s.max_same_colour_run
    steps = [Limits(w, s.max_meetings, diff, run) for w in range(s.repeat_window, -1, -1)]
    steps.append(Limits(0, None, diff, run))
    steps.append(Limits(0, None, diff + 1, run + 1))
    steps.append(Limits(0, None, None, None))
    return steps


@dataclass(slots=True)
class Card:
    """What the pairing needs to know of one present player."""

    id: int
    name: str
    place: int
    colours: list[Colour]
    met: dict[int, list[int]] = field(default_factory=dict)  # opponent -> rounds of their games
    balance: int = field(init=False)  # whites minus blacks
    run: int = field(init=False)  # how many of his last games in a row had his last colour

    def __post_init__(self) -> None:
        self.balance = sum(1 if c is Colour.WHITE else -1 for c in self.colours)
        self.run = 0
        for colour in reversed(self.colours):
            if colour is not self.colours[-1]:
                break
            self.run += 1

    def allowed(self, colour: Colour, limits: Limits) -> bool:
        if limits.max_colour_difference is not None:
            step = 1 if colour is Colour.WHITE else -1
            if abs(self.balance + step) > limits.max_colour_difference:
                return False
        if limits.max_same_colour_run is not None and self.colours and self.colours[-1] is colour:
            return self.run < limits.max_same_colour_run
        return True

    def preference(self) -> tuple[int, Colour | None]:
        """(strength, colour): 2 toward a zero difference, 1 alternation, 0 none."""
        if self.balance > 0:
            return 2, Colour.BLACK
        if self.balance < 0:
            return 2, Colour.WHITE
        if self.colours:
            return 1, self.colours[-1].opposite
        return 0, None

    @property
    def label(self) -> str:
        return f"{self.place}. {self.name or self.id}"


def make_card(player: Player, place: int) -> Card:
    card = Card(player.id, player.name, place, player.colours())
    for rnd, record in enumerate(player.history, 1):
        if record.played and record.opponent:
            card.met.setdefault(record.opponent, []).append(rnd)
    return card


def colour_options(a: Card, b: Card, limits: Limits) -> list[Colour]:
    """The colours `a` may have against `b` (b has the other)."""
    return [c for c in (Colour.WHITE, Colour.BLACK) if a.allowed(c, limits) and b.allowed(c.opposite, limits)]


def forbidden(a: Card, b: Card, limits: Limits, round_to_pair: int) -> str | None:
    """Why `a` and `b` may not meet under `limits`; None when they may."""
    met = a.met.get(b.id, [])
    if met and limits.repeat_window and max(met) >= round_to_pair - limits.repeat_window:
        return f"met in round {max(met)}, within {limits.repeat_window} round(s)"
    if limits.max_meetings is not None and len(met) >= limits.max_meetings:
        return f"already met {len(met)} times"
    if not colour_options(a, b, limits):
        return "no colours within the colour limits"
    return None


def _complete(ids: list[int], allowed: set[frozenset[int]]) -> bool:
    """Whether `ids` can all be paired using allowed pairs (a perfect matching exists)."""
    edges = [(a, b, 1) for i, a in enumerate(ids) for b in ids[i + 1 :] if frozenset((a, b)) in allowed]
    return len(max_weight_matching(ids, edges)) == len(ids)


def top_down(order: list[Card], limits: Limits, round_to_pair: int) -> list[tuple[Card, Card, list[str]]] | None:
    """Pairs in ranking order under `limits`, each with the partners skipped and why; None if impossible."""
    reasons: dict[frozenset[int], str | None] = {}
    for i, a in enumerate(order):
        for b in order[i + 1 :]:
            reasons[frozenset((a.id, b.id))] = forbidden(a, b, limits, round_to_pair)
    allowed = {pair for pair, reason in reasons.items() if reason is None}
    remaining = list(order)
    if not _complete([c.id for c in remaining], allowed):
        return None
    pairs: list[tuple[Card, Card, list[str]]] = []
    while remaining:
        top, rest = remaining[0], remaining[1:]
        skipped: list[str] = []
        for partner in rest:
            reason = reasons[frozenset((top.id, partner.id))]
            if reason is None:
                left = [c for c in rest if c is not partner]
                if _complete([c.id for c in left], allowed):
                    pairs.append((top, partner, skipped))
                    remaining = left
                    break
                reason = "the others could not all be paired then"
            skipped.append(f"{partner.label}: {reason}")
    return pairs


def allocate(a: Card, b: Card, board: int, limits: Limits, top_colour: Colour) -> tuple[Board, str]:
    """Colours for `a` (higher-ranked) and `b` (§1.8), and why."""
    (strength_a, want_a), (strength_b, want_b) = a.preference(), b.preference()
    if want_a is None and want_b is None:
        wish = top_colour if board % 2 else top_colour.opposite
        why = "no colour history: alternating by board"
    elif want_b is None or (want_a is not None and want_a is not want_b):
        wish = want_a
        why = "both preferences met" if want_b is not None else f"the preference of {a.label}"
    elif want_a is None:
        wish, why = want_b.opposite, f"the preference of {b.label}"
    elif strength_b > strength_a:
        wish, why = want_b.opposite, f"the colour difference of {b.label} goes before alternation"
    elif strength_a > strength_b:
        wish, why = want_a, f"the colour difference of {a.label} goes before alternation"
    else:
        wish, why = want_a, f"equal claims, {a.label} is higher-ranked"
    options = colour_options(a, b, limits)
    if wish not in options and options:
        wish, why = options[0], "the colour limits decide"
    white, black = (a, b) if wish is Colour.WHITE else (b, a)
    return Board(white.id, black.id), f"{white.label} white, {black.label} black ({why})"


def lost_evenings(player: Player) -> int:
    """§1.9: earlier reserve rounds, bar duty, team leader on a match night."""
    reserve = sum(1 for r in player.history if r.kind is Kind.PAIRING_BYE)
    return reserve + int(player.extra.get("lost_evenings", 0))


def choose_reserve(present: list[Card], state: TournamentState) -> tuple[Card, str]:
    """§1.9: by lot among those with the fewest lost evenings."""
    lost = {c.id: lost_evenings(state.player(c.id)) for c in present}
    fewest = min(lost.values())
    pool = [c for c in present if lost[c.id] == fewest]
    seed = state.seed if state.seed is not None else 0
    chosen = random.Random(seed).choice(pool)
    names = ", ".join(c.label for c in pool)
    return chosen, (
        f"Reserve (§1.9): {len(present)} present, an odd number; fewest lost evenings ({fewest}): {names}; "
        f"drawn by lot (seed {seed}): {chosen.label}."
    )


def pair_round(state: TournamentState) -> Pairing:
    """Pair `state.round_to_pair` (module docstring; the package docstring gives the input convention)."""
    s = resolve(state.settings)
    known = {p.id for p in state.players}
    for pid, kind in state.requested_byes.items():
        if pid not in known:
            raise InvalidInput(f"player {pid} is absent but not a player")
        if kind not in ABSENCE_KINDS:
            raise InvalidInput(f"player {pid}: a {kind.value} is not part of the Keizer rules")
    ranking = ranking_after(state, state.rounds_played)
    places = {pid: place for place, pid in enumerate(ranking, 1)}
    present = sorted((make_card(p, places[p.id]) for p in state.to_pair()), key=lambda c: c.place)
    basis = f"the ranking after round {state.rounds_played}" if state.rounds_played else "the start ranking"
    explanation = [f"Round {state.round_to_pair}: {len(present)} present, paired in the order of {basis}."]
    absent = sorted(state.requested_byes.items(), key=lambda item: places[item[0]])
    byes = [Bye(pid, kind, score=0.0) for pid, kind in absent]
    if len(present) % 2:
        reserve, why = choose_reserve(present, state)
        byes.append(Bye(reserve.id, Kind.PAIRING_BYE, score=0.0))
        explanation.append(why)
        present = [c for c in present if c is not reserve]
    steps = relaxation_steps(s)
    pairs = None
    in_force = steps[-1]
    for number, limits in enumerate(steps):
        pairs = top_down(present, limits, state.round_to_pair)
        if pairs is not None:
            in_force = limits
            if number:
                explanation.append(f"Relaxed to: {limits.describe()}.")
            break
        explanation.append(f"No pairing keeps: {limits.describe()}.")
    assert pairs is not None  # without limits any even number of players can be paired
    boards: list[Board] = []
    for number, (a, b, skipped) in enumerate(pairs, 1):
        board, colours = allocate(a, b, number, in_force, state.top_colour_round1)
        boards.append(board)
        line = f"Board {number}: {a.label} v {b.label}; {colours}."
        if skipped:
            line += " Skipped: " + "; ".join(skipped) + "."
        explanation.append(line)
    return Pairing(boards=boards, byes=byes, explanation=explanation)
