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
    max_place_difference: int | None = None

    def describe(self) -> str:
        meetings = "no limit" if self.max_meetings is None else f"at most {self.max_meetings}"
        diff, run = self.max_colour_difference, self.max_same_colour_run
        if diff is None and run is None:
            colours = "no colour limits"
        else:
            colours = (
                ("no colour difference limit" if diff is None else f"colour difference at most {diff}")
                + ", "
                + ("any number of equal colours in a row" if run is None else f"at most {run} equal colours in a row")
            )
        places = "" if self.max_place_difference is None else f", places at most {self.max_place_difference} apart"
        return f"no repeat within {self.repeat_window} round(s), meetings {meetings}, {colours}{places}"


def relaxation_steps(s: KeizerSettings) -> list[Limits]:
    """The limits in the order seeds README item 4 relaxes them; a place-difference limit goes first.

    A limit of 0 on the meetings, the colours or the places is no limit."""
    meetings, diff, run = s.max_meetings or None, s.max_colour_difference or None, s.max_same_colour_run or None
    steps = [Limits(w, meetings, diff, run) for w in range(s.repeat_window, -1, -1)]
    steps.append(Limits(0, None, diff, run))
    if diff is not None or run is not None:
        steps.append(Limits(0, None, diff and diff + 1, run and run + 1))
        steps.append(Limits(0, None, None, None))
    if s.max_place_difference:
        steps.insert(0, Limits(s.repeat_window, meetings, diff, run, s.max_place_difference))
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


def make_card(player: Player, place: int, forfeits_meet: bool = False) -> Card:
    """Games played over the board are meetings; forfeits too with `forfeits_meet`
    (§2.1 "Tel regl. uitslagen als onderl. partij")."""
    card = Card(player.id, player.name, place, player.colours())
    for rnd, record in enumerate(player.history, 1):
        if (record.paired if forfeits_meet else record.played) and record.opponent:
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
    if limits.max_place_difference is not None and abs(a.place - b.place) > limits.max_place_difference:
        return f"more than {limits.max_place_difference} places apart"
    if not colour_options(a, b, limits):
        return "no colours within the colour limits"
    return None


def _complete(ids: list[int], allowed: dict[int, set[int]]) -> bool:
    """Whether `ids` can all be paired using allowed pairs (a perfect matching exists)."""
    inside = set(ids)
    edges = [(a, b, 1) for a in ids for b in allowed[a] & inside if a < b]
    return len(max_weight_matching(ids, edges)) == len(ids)


def top_down(order: list[Card], limits: Limits, round_to_pair: int) -> list[tuple[Card, Card, list[str]]] | None:
    """Pairs in ranking order under `limits`, each with the partners skipped and why; None if impossible."""
    reasons: dict[frozenset[int], str | None] = {}
    allowed: dict[int, set[int]] = {c.id: set() for c in order}
    for i, a in enumerate(order):
        for b in order[i + 1 :]:
            reason = reasons[frozenset((a.id, b.id))] = forbidden(a, b, limits, round_to_pair)
            if reason is None:
                allowed[a.id].add(b.id)
                allowed[b.id].add(a.id)
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


def choose_reserve(present: list[Card], state: TournamentState, s: KeizerSettings) -> tuple[Card, str]:
    """§1.9: among those with the fewest lost evenings, by lot ("Bye keuze: Random") or the lowest-ranked;
    never one of the first `no_reserve_for_top` places while somebody else can be (§2.1 "Geen bye voor top")."""
    why = [f"Reserve (§1.9): {len(present)} present, an odd number"]
    candidates = [c for c in present if c.place > s.no_reserve_for_top]
    if not candidates:
        candidates = present
        why.append(f"places 1-{s.no_reserve_for_top} are never the reserve, but nobody else is present")
    elif len(candidates) < len(present):
        why.append(f"places 1-{s.no_reserve_for_top} are never the reserve")
    lost = {c.id: lost_evenings(state.player(c.id)) for c in candidates}
    fewest = min(lost.values())
    pool = [c for c in candidates if lost[c.id] == fewest]
    why.append(f"fewest lost evenings ({fewest}): {', '.join(c.label for c in pool)}")
    if s.reserve_choice == "lowest":
        chosen = max(pool, key=lambda c: c.place)
        why.append(f"the lowest-ranked of them: {chosen.label}.")
    else:
        seed = state.seed if state.seed is not None else 0
        chosen = random.Random(seed).choice(pool)
        why.append(f"drawn by lot (seed {seed}): {chosen.label}.")
    return chosen, "; ".join(why)


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
    cards = (make_card(p, places[p.id], s.forfeits_count_as_meetings) for p in state.to_pair())
    present = sorted(cards, key=lambda c: c.place)
    basis = f"the ranking after round {state.rounds_played}" if state.rounds_played else "the start ranking"
    explanation = [f"Round {state.round_to_pair}: {len(present)} present, paired in the order of {basis}."]
    absent = sorted(state.requested_byes.items(), key=lambda item: places[item[0]])
    byes = [Bye(pid, kind, score=0.0) for pid, kind in absent]
    if len(present) % 2:
        reserve, why = choose_reserve(present, state, s)
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
        line = f"Board {number}: {a.label} v {b.label}; {colours}. {a.label}, the highest-ranked not yet paired, "
        if skipped:
            line += f"meets {b.label}, the first unpaired player below him he may meet. "
            line += "Skipped: " + "; ".join(skipped) + "."
        else:
            line += f"meets {b.label}, the next unpaired player below him."
        explanation.append(line)
    return Pairing(boards=boards, byes=byes, explanation=explanation)
