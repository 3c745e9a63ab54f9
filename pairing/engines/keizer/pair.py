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
- Pairs the TD forbids (`TournamentState.forbidden`, family members) are
  never relaxed: when no pairing avoids them the round cannot be paired.
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
from ..notes import Note, joined, note_text
from ..state import Board, Bye, Colour, InvalidInput, Kind, NoValidPairing, Pairing, Player, TournamentState
from .scoring import ranking_after
from .settings import KeizerSettings, resolve

ABSENCE_KINDS = (Kind.ABSENT_NOTICE, Kind.ABSENT, Kind.CLUB_MATCH)

# The explanation: the order, the reserve (§1.9), the limits relaxed, each board and why.
_ROUND = note_text("keizer.round", "Round %(round)s: %(present)s present, paired in the order of %(basis)s.")
_START_RANKING = note_text("keizer.start_ranking", "the start ranking")
_RANKING_AFTER = note_text("keizer.ranking_after", "the ranking after round %(round)s")
_RELAXED = note_text("keizer.relaxed", "Relaxed to: %(limits)s.")
_NO_PAIRING = note_text("keizer.no_pairing", "No pairing keeps: %(limits)s.")
_BOARD_SKIPPED = note_text(
    "keizer.board_skipped",
    "Board %(board)s: %(a)s v %(b)s; %(colours)s. %(a)s, the highest-ranked not yet paired, meets %(b)s, the "
    "first unpaired player below him he may meet. Skipped: %(skipped)s.",
)
_BOARD_NEXT = note_text(
    "keizer.board_next",
    "Board %(board)s: %(a)s v %(b)s; %(colours)s. %(a)s, the highest-ranked not yet paired, meets %(b)s, the "
    "next unpaired player below him.",
)
_SKIPPED = note_text("keizer.skipped", "%(player)s: %(reason)s")
_COLOURS = note_text("keizer.colours", "%(white)s white, %(black)s black (%(why)s)")
# The limits in force (§2.1, seeds README item 4).
_LIMITS = note_text("keizer.limits", "no repeat within %(window)s round(s), meetings %(meetings)s, %(colours)s")
_LIMITS_PLACES = note_text(
    "keizer.limits_places",
    "no repeat within %(window)s round(s), meetings %(meetings)s, %(colours)s, places at most %(places)s apart",
)
_NO_LIMIT = note_text("keizer.no_limit", "no limit")
_AT_MOST = note_text("keizer.at_most", "at most %(n)s")
_NO_COLOUR_LIMITS = note_text("keizer.no_colour_limits", "no colour limits")
_COLOUR_LIMITS = note_text("keizer.colour_limits", "%(difference)s, %(run)s")
_NO_DIFFERENCE_LIMIT = note_text("keizer.no_difference_limit", "no colour difference limit")
_DIFFERENCE_AT_MOST = note_text("keizer.difference_at_most", "colour difference at most %(n)s")
_ANY_RUN = note_text("keizer.any_run", "any number of equal colours in a row")
_RUN_AT_MOST = note_text("keizer.run_at_most", "at most %(n)s equal colours in a row")
# Why two players may not meet.
_FORBIDDEN_BY_TD = note_text("keizer.forbidden_by_td", "the TD forbids this pairing")
_NO_PAIRING_FORBIDDEN = note_text(
    "keizer.no_pairing_forbidden", "No pairing avoids the pairs the TD forbids, even without other limits."
)
_MET_WITHIN = note_text("keizer.met_within", "met in round %(round)s, within %(window)s round(s)")
_MET_TIMES = note_text("keizer.met_times", "already met %(times)s times")
_PLACES_APART = note_text("keizer.places_apart", "more than %(places)s places apart")
_NO_COLOURS = note_text("keizer.no_colours", "no colours within the colour limits")
_OTHERS = note_text("keizer.others", "the others could not all be paired then")
# Why these colours (§1.8).
_NO_HISTORY = note_text("keizer.no_history", "no colour history: alternating by board")
_BOTH_MET = note_text("keizer.both_met", "both preferences met")
_PREFERENCE = note_text("keizer.preference", "the preference of %(player)s")
_DIFFERENCE_FIRST = note_text("keizer.difference_first", "the colour difference of %(player)s goes before alternation")
_EQUAL_CLAIMS = note_text("keizer.equal_claims", "equal claims, %(player)s is higher-ranked")
_LIMITS_DECIDE = note_text("keizer.limits_decide", "the colour limits decide")
# The reserve (§1.9).
_RESERVE = note_text("keizer.reserve", "Reserve (§1.9): %(present)s present, an odd number")
_TOP_ONLY = note_text(
    "keizer.top_only", "places 1-%(top)s are never the reserve, but nobody else is present"
)
_NEVER_TOP = note_text("keizer.never_top", "places 1-%(top)s are never the reserve")
_FEWEST = note_text("keizer.fewest", "fewest lost evenings (%(fewest)s): %(players)s")
_LOWEST = note_text("keizer.lowest", "the lowest-ranked of them: %(player)s.")
_BY_LOT = note_text("keizer.by_lot", "drawn by lot (seed %(seed)s): %(player)s.")


@dataclass(frozen=True, slots=True)
class Limits:
    """The pairing limits in force at one relaxation step (None: no limit)."""

    repeat_window: int
    max_meetings: int | None
    max_colour_difference: int | None
    max_same_colour_run: int | None
    max_place_difference: int | None = None

    def describe(self) -> Note:
        meetings = _NO_LIMIT() if self.max_meetings is None else _AT_MOST(n=self.max_meetings)
        diff, run = self.max_colour_difference, self.max_same_colour_run
        if diff is None and run is None:
            colours = _NO_COLOUR_LIMITS()
        else:
            colours = _COLOUR_LIMITS(
                difference=_NO_DIFFERENCE_LIMIT() if diff is None else _DIFFERENCE_AT_MOST(n=diff),
                run=_ANY_RUN() if run is None else _RUN_AT_MOST(n=run),
            )
        if self.max_place_difference is None:
            return _LIMITS(window=self.repeat_window, meetings=meetings, colours=colours)
        return _LIMITS_PLACES(
            window=self.repeat_window, meetings=meetings, colours=colours, places=self.max_place_difference
        )


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
    barred: set[int] = field(default_factory=set)  # opponents the TD forbids this round (never relaxed)
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


def make_card(player: Player, place: int, forfeits_meet: bool = False, barred: set[int] | None = None) -> Card:
    """Games played over the board are meetings; forfeits too with `forfeits_meet`
    (§2.1 "Tel regl. uitslagen als onderl. partij"). `barred`: the opponents the TD forbids."""
    card = Card(player.id, player.name, place, player.colours(), barred=set(barred or ()))
    for rnd, record in enumerate(player.history, 1):
        if (record.paired if forfeits_meet else record.played) and record.opponent:
            card.met.setdefault(record.opponent, []).append(rnd)
    return card


def colour_options(a: Card, b: Card, limits: Limits) -> list[Colour]:
    """The colours `a` may have against `b` (b has the other)."""
    return [c for c in (Colour.WHITE, Colour.BLACK) if a.allowed(c, limits) and b.allowed(c.opposite, limits)]


def forbidden(a: Card, b: Card, limits: Limits, round_to_pair: int) -> Note | None:
    """Why `a` and `b` may not meet under `limits`; None when they may."""
    if b.id in a.barred:
        return _FORBIDDEN_BY_TD()
    met = a.met.get(b.id, [])
    if met and limits.repeat_window and max(met) >= round_to_pair - limits.repeat_window:
        return _MET_WITHIN(round=max(met), window=limits.repeat_window)
    if limits.max_meetings is not None and len(met) >= limits.max_meetings:
        return _MET_TIMES(times=len(met))
    if limits.max_place_difference is not None and abs(a.place - b.place) > limits.max_place_difference:
        return _PLACES_APART(places=limits.max_place_difference)
    if not colour_options(a, b, limits):
        return _NO_COLOURS()
    return None


def _complete(ids: list[int], allowed: dict[int, set[int]]) -> bool:
    """Whether `ids` can all be paired using allowed pairs (a perfect matching exists)."""
    inside = set(ids)
    edges = [(a, b, 1) for a in ids for b in allowed[a] & inside if a < b]
    return len(max_weight_matching(ids, edges)) == len(ids)


def top_down(order: list[Card], limits: Limits, round_to_pair: int) -> list[tuple[Card, Card, list[Note]]] | None:
    """Pairs in ranking order under `limits`, each with the partners skipped and why; None if impossible."""
    reasons: dict[frozenset[int], Note | None] = {}
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
    pairs: list[tuple[Card, Card, list[Note]]] = []
    while remaining:
        top, rest = remaining[0], remaining[1:]
        skipped: list[Note] = []
        for partner in rest:
            reason = reasons[frozenset((top.id, partner.id))]
            if reason is None:
                left = [c for c in rest if c is not partner]
                if _complete([c.id for c in left], allowed):
                    pairs.append((top, partner, skipped))
                    remaining = left
                    break
                reason = _OTHERS()
            skipped.append(_SKIPPED(player=partner.label, reason=reason))
    return pairs


def allocate(a: Card, b: Card, board: int, limits: Limits, top_colour: Colour) -> tuple[Board, Note]:
    """Colours for `a` (higher-ranked) and `b` (§1.8), and why."""
    (strength_a, want_a), (strength_b, want_b) = a.preference(), b.preference()
    if want_a is None and want_b is None:
        wish = top_colour if board % 2 else top_colour.opposite
        why = _NO_HISTORY()
    elif want_b is None or (want_a is not None and want_a is not want_b):
        wish = want_a
        why = _BOTH_MET() if want_b is not None else _PREFERENCE(player=a.label)
    elif want_a is None:
        wish, why = want_b.opposite, _PREFERENCE(player=b.label)
    elif strength_b > strength_a:
        wish, why = want_b.opposite, _DIFFERENCE_FIRST(player=b.label)
    elif strength_a > strength_b:
        wish, why = want_a, _DIFFERENCE_FIRST(player=a.label)
    else:
        wish, why = want_a, _EQUAL_CLAIMS(player=a.label)
    options = colour_options(a, b, limits)
    if wish not in options and options:
        wish, why = options[0], _LIMITS_DECIDE()
    white, black = (a, b) if wish is Colour.WHITE else (b, a)
    return Board(white.id, black.id), _COLOURS(white=white.label, black=black.label, why=why)


def lost_evenings(player: Player) -> int:
    """§1.9: earlier reserve rounds, bar duty, team leader on a match night."""
    reserve = sum(1 for r in player.history if r.kind is Kind.PAIRING_BYE)
    return reserve + int(player.extra.get("lost_evenings", 0))


def choose_reserve(present: list[Card], state: TournamentState, s: KeizerSettings) -> tuple[Card, Note]:
    """§1.9: among those with the fewest lost evenings, by lot ("Bye keuze: Random") or the lowest-ranked;
    never one of the first `no_reserve_for_top` places while somebody else can be (§2.1 "Geen bye voor top")."""
    why = [_RESERVE(present=len(present))]
    candidates = [c for c in present if c.place > s.no_reserve_for_top]
    if not candidates:
        candidates = present
        why.append(_TOP_ONLY(top=s.no_reserve_for_top))
    elif len(candidates) < len(present):
        why.append(_NEVER_TOP(top=s.no_reserve_for_top))
    lost = {c.id: lost_evenings(state.player(c.id)) for c in candidates}
    fewest = min(lost.values())
    pool = [c for c in candidates if lost[c.id] == fewest]
    why.append(_FEWEST(fewest=fewest, players=[c.label for c in pool]))
    if s.reserve_choice == "lowest":
        chosen = max(pool, key=lambda c: c.place)
        why.append(_LOWEST(player=chosen.label))
    else:
        seed = state.seed if state.seed is not None else 0
        chosen = random.Random(seed).choice(pool)
        why.append(_BY_LOT(seed=seed, player=chosen.label))
    return chosen, joined(why)


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
    cards = (make_card(p, places[p.id], s.forfeits_count_as_meetings, state.barred(p.id)) for p in state.to_pair())
    present = sorted(cards, key=lambda c: c.place)
    basis = _RANKING_AFTER(round=state.rounds_played) if state.rounds_played else _START_RANKING()
    explanation = [_ROUND(round=state.round_to_pair, present=len(present), basis=basis)]
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
                explanation.append(_RELAXED(limits=limits.describe()))
            break
        explanation.append(_NO_PAIRING(limits=limits.describe()))
    if pairs is None:  # without limits any even number of players can be paired, unless the TD forbids pairs
        raise NoValidPairing(_NO_PAIRING_FORBIDDEN())
    boards: list[Board] = []
    for number, (a, b, skipped) in enumerate(pairs, 1):
        board, colours = allocate(a, b, number, in_force, state.top_colour_round1)
        boards.append(board)
        if skipped:
            line = _BOARD_SKIPPED(board=number, a=a.label, b=b.label, colours=colours, skipped=joined(skipped))
        else:
            line = _BOARD_NEXT(board=number, a=a.label, b=b.label, colours=colours)
        explanation.append(line)
    return Pairing(boards=boards, byes=byes, explanation=explanation)
