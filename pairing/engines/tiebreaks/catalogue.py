"""The tie-break catalogue: codes, their values for one player, and how each value came about.

FIDE C.07 (2023 edition as amended for 2026; docs/tiebreaks.md) by its acronyms, with the modifiers
`/C1`, `/C2` (cut), `/M1`, `/M2` (median), `/L±n` (Koya limit), `/P` (forfeits count as played) and
`/F` (AOB over Fore Buchholz); the 2023 spelling `BH-C1` is read as `BH/C1`. Beside them the seeds'
tie-breaks: WP and WSB (seed 001 A1a, A1b, A1d: Buchholz and Sonneborn-Berger with every unplayed
round a draw against oneself), KORR and MKORR (seed 004 §4.9.10.2-3: almindelig korrektion and
middelkorrektion), DE1 (direct encounter only for first place, seed 000 F10, seed 001 F12), GRT (the
average rating of the opponents, seed 000 F10) and LOT (a lot drawn from the recorded seed).
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field, replace
from fractions import Fraction

from ratings.maths import fide
from ratings.maths.tables import average, round_half_up

from ..notes import Note, note_text
from ..state import Colour, InvalidInput, Kind, RoundRecord, TournamentState
from .rules import (
    FORFEIT_COUNTED,
    GAME,
    REQUESTED_BYES,
    Rules,
    Unrated,
    drawn_as_opponent,
    get_rules,
    is_vur,
    points,
    unplayed_label,
)

# Acronym -> (name, modifiers it takes). Cut/median: "C", "M"; "L" Koya limit; "P" forfeits as
# played; "F" Fore Buchholz; "R" the reverse order (C.07 2026, TPN and RTNG).
CATALOGUE: dict[str, tuple[str, str]] = {
    "PTS": ("Points", ""),
    "DE": ("Direct encounter", "P"),
    "DE1": ("Direct encounter, only for first place", "P"),
    "WIN": ("Number of wins (with or without playing)", ""),
    "WON": ("Number of games won", ""),
    "BPG": ("Games played with black", ""),
    "BWG": ("Games won with black", ""),
    "PS": ("Progressive score", "C"),
    "REP": ("Rounds elected to play", ""),
    "STD": ("Standard points", ""),
    "BH": ("Buchholz", "CMP"),
    "AOB": ("Average of opponents' Buchholz", "PF"),
    "FB": ("Fore Buchholz", "CMP"),
    "SB": ("Sonneborn-Berger", "CMP"),
    "KS": ("Koya system", "L"),
    "ARO": ("Average rating of opponents", "CM"),
    "TPR": ("Tournament performance rating", ""),
    "PTP": ("Perfect tournament performance", ""),
    "APRO": ("Average performance rating of opponents", ""),
    "APPO": ("Average perfect performance of opponents", ""),
    "RTNG": ("Own rating", "R"),
    "TPN": ("Pairing number", "R"),
    "WP": ("Weerstandspunten", "CM"),
    "WSB": ("Sonneborn-Berger, unplayed rounds a draw against oneself", "CM"),
    "KORR": ("Almindelig korrektion", ""),
    "MKORR": ("Middelkorrektion", ""),
    "GRT": ("Average rating of opponents (exact)", ""),
    "LOT": ("Lot", ""),
}
# Lower is better for these; every other value ranks higher first.
LOWER_IS_BETTER = frozenset({"TPN", "LOT"})
ENCOUNTER = frozenset({"DE", "DE1"})
# C.07 art. 10: the tie-breaks on ratings, which need every participant rated (or the rating the
# regulations give the unrated, `Unrated`); RTNG (2026) is one of them.
RATING_BASED = frozenset({"ARO", "TPR", "PTP", "APRO", "APPO", "RTNG"})
# Values over games (or over the opponents' values): undefined without any (C.07 10.1, 14).
OVER_GAMES = frozenset({"ARO", "TPR", "PTP", "APRO", "APPO", "AOB", "GRT"})
# Old names (C.07 2023: GE, "games one elected to play", is REP since 2024).
ALIASES = {"GE": "REP"}
# Tie-breaks computed under seed 001's rules whatever the competition's rules are.
FORCED_RULES = {"WP": "knsb", "WSB": "knsb"}

# The sums over the rounds' contributions, whose keys `Calculator.key` computes without the explanation:
# acronym -> (rules forced on it, Fore Buchholz, Sonneborn-Berger).
_SUMS: dict[str, tuple[str | None, bool, bool]] = {
    "BH": (None, False, False),
    "FB": (None, True, False),
    "WP": (FORCED_RULES["WP"], False, False),
    "SB": (None, False, True),
    "WSB": (FORCED_RULES["WSB"], False, True),
}

_MODIFIER = re.compile(r"^(C|M|L)([+-]?\d+)$|^(P|F|R)$")

# How a value came about: notes on the whole value, and on one round's line.
_UNPLAYED_ROUNDS = note_text("tiebreak.unplayed_rounds", "unplayed rounds counted by the rules %(rules)s")
_CUT_ROUNDS = note_text("tiebreak.cut_rounds", "cut: %(rounds)s")
_ROUND_CUT = note_text("tiebreak.round_cut", "round %(round)s (%(value)s)")
_LAST_ROUND_DRAWN = note_text("tiebreak.last_round_drawn", "round %(round)s: every paired game counted as a draw")
_AT_LEAST = note_text("tiebreak.at_least", "opponents with at least %(limit)s points")
_WHILE_EQUAL = note_text("tiebreak.while_equal", "while equal: %(chain)s")
_THEN = note_text("tiebreak.then", "%(first)s, then %(rest)s")
_FROM_GAMES = note_text("tiebreak.from_games", "%(score)s from %(games)s games")
_NO_SEED = note_text("tiebreak.no_seed", "no seed recorded: lot numbers follow the start numbers")
_CUT = note_text("tiebreak.cut", "cut")()
_CUT_AND = note_text("tiebreak.cut_and", "cut; %(note)s")
_NOT_COUNTED = note_text("tiebreak.not_counted", "unplayed round not counted")()
_UNRATED = note_text("tiebreak.unrated", "unrated opponent")()
_UNRATED_AT = note_text("tiebreak.unrated_at", "unrated opponent counted at %(rating)s")
_UNDEFINED = note_text("tiebreak.undefined", "no value: no games to count (C.07 10.1, 14)")()
_DROPPED = note_text(
    "tiebreak.dropped",
    "not used: unrated players take part and the regulations give them no rating (C.07 art. 10)",
)()
_COUNTED_AS = note_text("tiebreak.counted_as", "opponent's %(points)s points counted as %(counted)s")
_SELF_DRAW = note_text("tiebreak.self_draw", "a draw against oneself: own score %(ws)s with unplayed rounds as draws")
_VIRTUAL = note_text(
    "tiebreak.virtual",
    "virtual opponent: %(before)s before the round + %(during)s in it + %(later)s for %(n)s later draws",
)
_DUMMY = note_text("tiebreak.dummy", "dummy opponent with own score %(own)s")
_CAPPED_HALF = note_text("tiebreak.capped_half", "dummy opponent: own score %(own)s capped at half the rounds %(cap)s")
_CAPPED_OPPONENT = note_text(
    "tiebreak.capped_opponent",
    "dummy opponent: own score %(own)s capped at the score of scheduled opponent %(opponent)s, %(cap)s",
)
_OPPONENT_SCORE = note_text("tiebreak.opponent_score", "opponent's score %(score)s")


@dataclass(frozen=True, slots=True)
class Spec:
    """One parsed tie-break code."""

    code: str
    acronym: str
    cut: int = 0
    median: int = 0
    limit: int = 0
    forfeits_played: bool = False
    fore: bool = False
    percent: int = 50  # KS: the limit as a percentage of the maximum score (`/L60`)
    reverse: bool = False  # `/R`: the other order (TPN, RTNG)

    @property
    def name(self) -> str:
        return CATALOGUE[self.acronym][0]


def parse(code: str) -> Spec:
    """`BH/C1`, `bh-c1`, `KS/L-1`, `KS/L60`, `AOB/F`, `SB/P/C1`, `TPN/R`, ... -> `Spec`; `InvalidInput`
    if unknown. `GE`, the 2023 name, reads as `REP`."""
    text = code.strip().upper().replace(" ", "")
    if "/" not in text and "-" in text:
        text = text.replace("-", "/", 1)  # the 2023 spelling BH-C1
    head, *mods = text.split("/")
    head = head.split(":")[0]  # team variants (BH:GP) are not used for individuals
    if head in ALIASES:
        head = ALIASES[head]
        text = "/".join([head, *mods])
    if head not in CATALOGUE:
        raise InvalidInput(f"unknown tie-break {code!r}")
    allowed = CATALOGUE[head][1]
    spec = Spec(code=text, acronym=head)
    for mod in mods:
        m = _MODIFIER.match(mod)
        letter = m and (m.group(1) or m.group(3))
        if not m or letter not in allowed:
            raise InvalidInput(f"tie-break {code!r}: modifier /{mod} is not allowed")
        if letter == "C":
            spec = replace(spec, cut=int(m.group(2)))
        elif letter == "M":
            spec = replace(spec, median=int(m.group(2)))
        elif letter == "L" and m.group(2)[0] in "+-":
            spec = replace(spec, limit=int(m.group(2)))
        elif letter == "L":  # C.07 9.2: `/L60`, the limit as a percentage of the maximum
            if not 0 <= int(m.group(2)) <= 100:
                raise InvalidInput(f"tie-break {code!r}: the Koya limit is a percentage from 0 to 100")
            spec = replace(spec, percent=int(m.group(2)))
        elif letter == "P":
            spec = replace(spec, forfeits_played=True)
        elif letter == "R":
            spec = replace(spec, reverse=True)
        else:
            spec = replace(spec, fore=True)
        if spec.cut < 0 or spec.median < 0:
            raise InvalidInput(f"tie-break {code!r}: a cut must be positive")
    return spec


@dataclass(frozen=True, slots=True)
class Item:
    """One line of an explanation: a round, an opponent, what counted and whether it was cut."""

    round: int | None
    opponent: int | None
    what: Note
    result: float | None
    value: float
    counted: bool = True
    note: Note | None = None


@dataclass(slots=True)
class Explanation:
    """How one player's value of one tie-break came about."""

    code: str
    value: float | None
    items: list[Item] = field(default_factory=list)
    notes: list[Note] = field(default_factory=list)
    # The sort key, higher first; a chain (KORR, MKORR) has several numbers.
    key: tuple[float, ...] = ()


@dataclass(slots=True, eq=False)
class _Part:
    """A round's contribution to BH/SB: the (dummy) opponent's score and the own result factor. Made for
    thousands of players at a time: a plain class (set once, never changed; one part equals itself only,
    as each is a different round)."""

    round: int
    opponent: int | None
    what: Note
    result: float
    value: float
    factor: float
    vur: bool
    note: Note | None = None
    contributes: bool = True

    @property
    def sb(self) -> float:
        return self.value * self.factor


def _half(x: float) -> str:
    return f"{x:g}"


class _Made(dict):
    """A dictionary whose missing values are made by `make(key)` when first read, then kept."""

    def __init__(self, make) -> None:
        super().__init__()
        self.make = make

    def __missing__(self, key):
        value = self[key] = self.make(key)
        return value


class Field:
    """The results of rounds 1..R under one set of rules: records, points, scores as opponents."""

    def __init__(self, state: TournamentState, rounds: int, rules: Rules, fore: bool = False) -> None:
        self.state = state
        self.rounds = rounds
        self.rules = rules
        self.win = state.win_points
        self.draw = state.draw_points
        self.fore = fore
        # Each player's records of rounds 1..R, made when first asked for: ranking the points groups of a
        # few players (`ranking.places`, the standings chart's earlier rounds) reads the records of those
        # players and their opponents only. `points` are everyone's.
        self.records: dict[int, list[RoundRecord]] = _Made(self._records)
        if fore:  # FB's last round drawn changes the points: made from the records
            self.points = {p.id: sum([r.score or 0.0 for r in self.records[p.id]]) for p in state.players}
        else:  # as from the records (a round missing at the end counts nothing), without making them
            # points(r) is r.score or 0.0, written out: a field is made for every ranked round.
            self.points = {p.id: sum([r.score or 0.0 for r in p.history[:rounds]]) for p in state.players}
        if rules.opponents == "actual":
            self.adjusted = dict(self.points)
        else:
            self.adjusted = _Made(self._adjusted)
        self._parts: dict[tuple[int, bool], list[_Part]] = {}

    def _records(self, pid: int) -> list[RoundRecord]:
        """The player's records of rounds 1..R: a round missing at the end absent; FB's last round drawn."""
        records = list(self.state.player(pid).history[: self.rounds])
        if len(records) < self.rounds:
            records += [RoundRecord(Kind.ABSENT, score=0.0)] * (self.rounds - len(records))
        if self.fore and self.rounds and records[-1].paired and records[-1].opponent:
            # FB (C.07 8.3): every paired game of the last round counts as a draw.
            last = records[-1]
            records[-1] = RoundRecord(Kind.GAME, last.opponent, last.colour, self.draw)
        return records

    def _adjusted(self, pid: int) -> float:
        """The player's score as an opponent (`Rules.opponents`); under "adjusted" only a requested bye can
        count as a draw (C.07 16.3)."""
        recs = self.records[pid]
        if self.rules.opponents == "actual":
            return self.points[pid]
        if self.rules.opponents == "adjusted" and not any(r.kind in REQUESTED_BYES for r in recs):
            return self.points[pid]
        return self._as_opponent(recs)

    def set_record(self, pid: int, rnd: int, record: RoundRecord) -> None:
        """Put in `record` as the player's round `rnd` (1-based, within the field's rounds; FB's last round
        drawn as at the start), with his points and score as an opponent made again. The contributions
        (`parts`) of the player and of everyone whose record names him as opponent are forgotten here;
        the caller forgets the values computed from them (`Calculator.set_records`)."""
        if self.fore and rnd == self.rounds and record.paired and record.opponent:
            record = RoundRecord(Kind.GAME, record.opponent, record.colour, self.draw)
        recs = self.records[pid]
        recs[rnd - 1] = record
        self.points[pid] = sum([r.score or 0.0 for r in recs])
        self.adjusted[pid] = self._adjusted(pid)
        for other in {pid} | {r.opponent for r in recs if r.opponent is not None}:
            self._parts.pop((other, False), None)
            self._parts.pop((other, True), None)

    def _as_opponent(self, records: list[RoundRecord]) -> float:
        if self.rules.opponents == "actual":
            return sum(points(r) for r in records)
        adjusted = self.rules.opponents == "adjusted"
        drawn = drawn_as_opponent(records) if adjusted else [not r.played for r in records]
        return sum(self.draw if d else points(r) for r, d in zip(records, drawn, strict=True))

    def met(self, record: RoundRecord, forfeits_played: bool) -> bool:
        """A meeting: an over-the-board game, or with /P a forfeit against the scheduled opponent."""
        if record.kind is Kind.GAME:
            return record.opponent is not None
        forfeits_played = forfeits_played or self.rules.forfeits_played
        return forfeits_played and record.kind is Kind.FORFEIT and record.opponent is not None

    def parts(self, pid: int, forfeits_played: bool = False) -> list[_Part]:
        """Every round's contribution to BH and SB (C.07 8.1, 9.1, 16; seed 001 A1d), made once per player
        and shared by every tie-break of this field (BH, its cuts, SB): read it, never change it."""
        key = (pid, forfeits_played)
        if key not in self._parts:
            self._parts[key] = self._make_parts(pid, forfeits_played)
        return self._parts[key]

    def _make_parts(self, pid: int, forfeits_played: bool) -> list[_Part]:
        out = []
        own = self.points[pid]
        before = 0.0
        for rnd, rec in enumerate(self.records[pid], start=1):
            result = points(rec)
            if self.met(rec, forfeits_played):
                opp = rec.opponent
                assert opp is not None
                value = self.adjusted[opp]
                note = None
                if value != self.points[opp]:
                    note = _COUNTED_AS(points=_half(self.points[opp]), counted=_half(value))
                what = GAME if rec.kind is Kind.GAME else FORFEIT_COUNTED
                out.append(_Part(rnd, opp, what, result, value, result, False, note))
            else:
                out.append(self._unplayed(pid, rnd, rec, own, before))
            before += result
        return out

    def _unplayed(self, pid: int, rnd: int, rec: RoundRecord, own: float, before: float) -> _Part:
        result = points(rec)
        what = unplayed_label(rec)
        vur = is_vur(rec)
        mode = self.rules.own
        if mode == "ignore":
            return _Part(rnd, None, what, result, 0.0, 0.0, vur, _NOT_COUNTED, False)
        if mode == "self-draw":
            ws = self.adjusted[pid]
            return _Part(rnd, None, what, result, ws, self.draw, vur, _SELF_DRAW(ws=_half(ws)))
        if mode == "virtual":
            # The virtual opponent's result is the opposite of the player's: a win's points for a
            # loss, a draw's for a draw, nothing for a win.
            during = 0.0 if result >= self.win else self.draw if result == self.draw else self.win
            later = self.rounds - rnd
            value = before + during + self.draw * later
            note = _VIRTUAL(before=_half(before), during=_half(during), later=_half(self.draw * later), n=later)
            return _Part(rnd, None, what, result, value, result, vur, note)
        value, note = own, _DUMMY(own=_half(own))
        if mode == "dummy-capped":
            if rec.kind is Kind.FORFEIT and rec.opponent is not None:
                cap = self.adjusted[rec.opponent]
                capped = _CAPPED_OPPONENT(own=_half(own), opponent=rec.opponent, cap=_half(cap))
            else:
                cap = self.draw * self.rounds  # 16.4.2: a draw's points times the rounds
                capped = _CAPPED_HALF(own=_half(own), cap=_half(cap))
            if cap < own:
                value, note = cap, capped
        return _Part(rnd, None, what, result, value, result, vur, note)


def _trim(parts: list[_Part], low: int, high: int, vur_first: bool, sb: bool) -> tuple[list[_Part], list[_Part]]:
    """Cut the `low` least and `high` most significant contributions (C.07 14.1-14.2, 16.5).

    Least significant: the lowest opponent's score, then the lower contribution. With `vur_first`
    (C.07 16.5) the voluntary unplayed round with the lowest contribution is cut instead, unless that
    contribution is lower than the least significant one's (for SB a lost or half-point bye can be).
    """

    def worth(p: _Part) -> float:
        return p.sb if sb else p.value

    kept = [p for p in parts if p.contributes]
    cut: list[_Part] = []
    for _ in range(min(low, len(kept))):
        least = min(kept, key=lambda p: (p.value, worth(p), p.round))
        vurs = [p for p in kept if p.vur]
        if vur_first and vurs:
            vur = min(vurs, key=lambda p: (worth(p), p.value, p.round))
            if worth(vur) >= worth(least):
                least = vur
        kept.remove(least)
        cut.append(least)
    for _ in range(min(high, len(kept))):
        most = max(kept, key=lambda p: (p.value, worth(p), -p.round))
        kept.remove(most)
        cut.append(most)
    return kept, cut


class Calculator:
    """Values of any tie-break for any player of one state, computed once and cached."""

    def __init__(
        self,
        state: TournamentState,
        rounds: int | None = None,
        rules: str | Rules | None = None,
        unrated: Unrated | None = None,
    ):
        self.state = state
        self.unrated = unrated or Unrated()
        self.any_unrated = any(p.rating <= 0 for p in state.players)
        self.rounds = max((len(p.history) for p in state.players), default=0) if rounds is None else rounds
        self.rules = get_rules(rules)
        self._fields: dict[tuple[Rules, bool], Field] = {}
        self._plain: Field | None = None  # field(): the competition's rules, no round drawn
        self._cache: dict[tuple[str, int], Explanation] = {}
        self._sums: dict[tuple[str, int], float] = {}
        self._lots: dict[int, int] | None = None

    def field(self, rules: Rules | None = None, fore: bool = False) -> Field:
        plain = rules is None and not fore
        if plain and self._plain is not None:  # the common case, without hashing the rules
            return self._plain
        key = (rules or self.rules, fore)
        if key not in self._fields:
            self._fields[key] = Field(self.state, self.rounds, key[0], fore)
        if plain:
            self._plain = self._fields[key]
        return self._fields[key]

    def set_records(self, records: dict[int, dict[int, RoundRecord]], depth: int = 2) -> set[int]:
        """Put in new records (player -> round, 1-based -> record) in every field made so far, and forget the
        values that can depend on them: those of the players `depth` meetings away from a changed player
        (0: his own values, 1: also his opponents', whose BH, SB, KS, APRO... count his score or
        performance; 2: also theirs, for AOB). The opponents in a record must stay as they were: the
        records name the players whose contributions are forgotten. Returns the players forgotten."""
        plain = self.field()  # made from the state before the change, as every other field
        fields = list(self._fields.values())
        for pid, rounds in records.items():
            for rnd, record in rounds.items():
                for f in fields:
                    f.set_record(pid, rnd, record)
        reached = set(records)
        frontier = set(records)
        for _ in range(depth):
            frontier = {r.opponent for p in frontier for r in plain.records[p] if r.opponent is not None} - reached
            reached |= frontier
        self._cache = {k: v for k, v in self._cache.items() if k[1] not in reached}
        self._sums = {k: v for k, v in self._sums.items() if k[1] not in reached}
        return reached

    def explain(self, spec: Spec | str, pid: int) -> Explanation:
        spec = parse(spec) if isinstance(spec, str) else spec
        if spec.acronym in ENCOUNTER:
            raise InvalidInput(f"{spec.code} depends on the tied group: use the standings")
        key = (spec.code, pid)
        if key not in self._cache:
            method = getattr(self, "_" + spec.acronym.lower())
            if spec.acronym in RATING_BASED and self._dropped(spec.acronym):
                exp = Explanation(spec.code, None, notes=[_DROPPED])
            else:
                exp = method(spec, pid)
            if exp.value is None and spec.acronym in OVER_GAMES and not exp.notes:
                exp.notes.append(_UNDEFINED)
            if not exp.key:
                # Higher first, or lower (TPN, LOT) first; `/R` turns the order round. An undefined
                # value (None: no games to count) is last either way (C.07 10.1, 14).
                sign = -1.0 if (spec.acronym in LOWER_IS_BETTER) != spec.reverse else 1.0
                exp.key = (1.0, sign * exp.value) if exp.value is not None else (0.0, 0.0)
            self._cache[key] = exp
        return self._cache[key]

    def key(self, spec: Spec, pid: int) -> tuple[float, ...]:
        """`explain(spec, pid).key`, without writing the explanation where the value can be had without it:
        the sums over the rounds' contributions (BH, FB, SB, WP, WSB and their modifiers, C.07 8.1, 8.3,
        9.1, 14; seed 001 A1a, A1b) are computed as their explanations compute them, the items and notes
        left out. Ranking a points group needs only these keys."""
        found = self._cache.get((spec.code, pid))
        if found is not None:
            return found.key
        if spec.acronym not in _SUMS:
            return self.explain(spec, pid).key
        sign = -1.0 if (spec.acronym in LOWER_IS_BETTER) != spec.reverse else 1.0
        return (1.0, sign * self._sum(spec, pid))

    def plain_value(self, spec: Spec, pid: int) -> float | None:
        """`explain(spec, pid).value`, without writing the explanation where the value can be had without
        it: the points, and the sums of `key`."""
        found = self._cache.get((spec.code, pid))
        if found is not None:
            return found.value
        if spec.acronym == "PTS":
            return self.field().points[pid]
        if spec.acronym in _SUMS:
            return self._sum(spec, pid)
        return self.explain(spec, pid).value

    def _sum(self, spec: Spec, pid: int) -> float:
        """The value of a sum of `_SUMS`, as its explanation (`_bh`, `_sb`) computes it."""
        remembered = self._sums.get((spec.code, pid))
        if remembered is None:
            forced, fore, sb = _SUMS[spec.acronym]
            _f, _parts, kept, _cut = self._kept(spec, pid, get_rules(forced) if forced else None, fore, sb)
            remembered = self._sums[(spec.code, pid)] = sum(p.sb for p in kept) if sb else sum(p.value for p in kept)
        return remembered

    def points_key(self, spec: Spec, pid: int) -> tuple[float, ...]:
        """`explain(spec, pid).key` of the points (PTS), from the points alone: no explanation is written."""
        if spec.acronym != "PTS":
            raise InvalidInput(f"{spec.code} is not the points")
        sign = -1.0 if (spec.acronym in LOWER_IS_BETTER) != spec.reverse else 1.0
        return (1.0, sign * self.field().points[pid])

    def value(self, spec: Spec | str, pid: int) -> float | None:
        return self.explain(spec, pid).value

    def _dropped(self, acronym: str) -> bool:
        """C.07 art. 10: with unrated participants the rating tie-breaks are dropped, unless the
        regulations say how the unrated count. Leaving their games out is such a rule for the
        opponents' averages; RTNG needs a rating for every participant."""
        if not self.any_unrated or self.unrated.how == "rating":
            return False
        return self.unrated.how == "drop" or acronym == "RTNG"

    def game_score(self, record: RoundRecord) -> Fraction:
        """A round's score on the 1/½/0 scale whatever the point system (C.07 7.7 STD; the scale of
        TPR, PTP and the FIDE tables): more than a draw's points is 1, a draw's points ½, less 0."""
        got, draw = points(record), self.state.draw_points
        return Fraction(1) if got > draw else Fraction(1, 2) if got == draw else Fraction(0)

    # ------------------------------------------------------------------ scores

    def _pts(self, spec: Spec, pid: int) -> Explanation:
        recs = self.field().records[pid]
        items = [Item(r, rec.opponent, _what(rec), points(rec), points(rec)) for r, rec in enumerate(recs, 1)]
        return Explanation(spec.code, self.field().points[pid], items)

    def _counting(self, spec: Spec, pid: int, test: object) -> Explanation:
        recs = self.field().records[pid]
        items = [
            Item(r, rec.opponent, _what(rec), points(rec), 1.0)
            for r, rec in enumerate(recs, 1)
            if test(rec)  # type: ignore[operator]
        ]
        return Explanation(spec.code, float(len(items)), items)

    def _is_win(self, rec: RoundRecord) -> bool:
        """A win's points under the tournament's point system (TRF XXS W=): 1 of 1/½/0, 3 of 3/1/0."""
        return points(rec) >= self.state.win_points

    def _win(self, spec: Spec, pid: int) -> Explanation:
        """WIN (C.07 7.1): rounds with a win's points, played or not (forfeit wins, PAB, FPB)."""
        kinds = (Kind.GAME, Kind.FORFEIT, Kind.PAIRING_BYE, Kind.FULL_BYE)
        return self._counting(spec, pid, lambda r: r.kind in kinds and self._is_win(r))

    def _won(self, spec: Spec, pid: int) -> Explanation:
        """WON (C.07 7.2): games won over the board."""
        return self._counting(spec, pid, lambda r: r.played and self._is_win(r))

    def _bpg(self, spec: Spec, pid: int) -> Explanation:
        """BPG (C.07 7.3): games played over the board with black."""
        return self._counting(spec, pid, lambda r: r.played and r.colour is Colour.BLACK)

    def _bwg(self, spec: Spec, pid: int) -> Explanation:
        """BWG (C.07 7.4): games won over the board with black."""
        return self._counting(spec, pid, lambda r: r.played and r.colour is Colour.BLACK and self._is_win(r))

    def _rep(self, spec: Spec, pid: int) -> Explanation:
        """REP (C.07 7.6, "games one elected to play"): rounds that are not voluntary unplayed rounds."""
        return self._counting(spec, pid, lambda r: not is_vur(r))

    def _std(self, spec: Spec, pid: int) -> Explanation:
        """STD (C.07 2026, 7.7): the score on the 1/½/0 scale, round by round: more than a draw's points
        is 1, a draw's points ½, less 0 (under 1/½/0 it equals the points)."""
        recs = self.field().records[pid]
        items = [
            Item(r, rec.opponent, _what(rec), points(rec), float(self.game_score(rec))) for r, rec in enumerate(recs, 1)
        ]
        return Explanation(spec.code, sum(i.value for i in items), items)

    def _ps(self, spec: Spec, pid: int) -> Explanation:
        """PS (C.07 7.5): the sum of the running scores; Cut-n drops the first n of them."""
        running, items = 0.0, []
        for r, rec in enumerate(self.field().records[pid], 1):
            running += points(rec)
            items.append(Item(r, rec.opponent, _what(rec), points(rec), running, r > spec.cut))
        return Explanation(spec.code, sum(i.value for i in items if i.counted), items)

    # ------------------------------------------------------------------ opponents' scores

    def _kept(
        self, spec: Spec, pid: int, rules: Rules | None, fore: bool, sb: bool
    ) -> tuple[Field, list[_Part], list[_Part], list[_Part]]:
        """The field of a BH or SB (its rules; FB's last round drawn), the player's round contributions,
        and those kept and cut by the modifiers of C.07 art. 14 (`_trim`)."""
        f = self.field(rules, fore or spec.fore)
        parts = f.parts(pid, spec.forfeits_played)
        kept, cut = _trim(parts, spec.cut + spec.median, spec.median, f.rules.vur_cut_first, sb=sb)
        return f, parts, kept, cut

    def _bh(self, spec: Spec, pid: int, rules: Rules | None = None, fore: bool = False) -> Explanation:
        """BH (C.07 8.1): the sum of the opponents' (adjusted) scores, with the modifiers of art. 14."""
        f, parts, kept, cut = self._kept(spec, pid, rules, fore, sb=False)
        exp = Explanation(spec.code, sum(p.value for p in kept), _items(parts, kept, sb=False))
        exp.notes.append(_UNPLAYED_ROUNDS(rules=f.rules.name or f.rules.own))
        if cut:
            exp.notes.append(_CUT_ROUNDS(rounds=[_ROUND_CUT(round=p.round, value=_half(p.value)) for p in cut]))
        return exp

    def _fb(self, spec: Spec, pid: int) -> Explanation:
        """FB (C.07 8.3): Buchholz with every paired game of the last round counted as a draw."""
        exp = self._bh(spec, pid, fore=True)
        exp.notes.append(_LAST_ROUND_DRAWN(round=self.rounds))
        return exp

    def _sb(self, spec: Spec, pid: int, rules: Rules | None = None) -> Explanation:
        """SB (C.07 9.1; seed 004 §4.9.10.1): opponents' scores times the own result (1, ½, 0)."""
        f, parts, kept, cut = self._kept(spec, pid, rules, False, sb=True)
        exp = Explanation(spec.code, sum(p.sb for p in kept), _items(parts, kept, sb=True))
        exp.notes.append(_UNPLAYED_ROUNDS(rules=f.rules.name or f.rules.own))
        if cut:
            exp.notes.append(_CUT_ROUNDS(rounds=[_ROUND_CUT(round=p.round, value=_half(p.sb)) for p in cut]))
        return exp

    def _wp(self, spec: Spec, pid: int) -> Explanation:
        """WP (seed 001 A1a, A1d, F3): Buchholz, every unplayed round a draw against oneself."""
        return self._bh(spec, pid, rules=get_rules(FORCED_RULES["WP"]))

    def _wsb(self, spec: Spec, pid: int) -> Explanation:
        """SB of seed 001 (A1b, A1d, F3): on the WS scores, unplayed rounds a draw against oneself."""
        return self._sb(spec, pid, rules=get_rules(FORCED_RULES["WSB"]))

    def _aob(self, spec: Spec, pid: int) -> Explanation:
        """AOB (C.07 8.2): the mean Buchholz of the opponents met over the board, to two decimals
        (AOB/F: their Fore Buchholz). `/P` is no C.07 modifier of AOB: read as the opponents' BH/P, the
        opponents still those met over the board. No value without an opponent met (C.07 14)."""
        f = self.field()
        base = parse(("FB" if spec.fore else "BH") + ("/P" if spec.forfeits_played else ""))
        items = []
        for r, rec in enumerate(f.records[pid], 1):
            if rec.played and rec.opponent is not None:
                bh = self.explain(base, rec.opponent).value or 0.0
                items.append(Item(r, rec.opponent, _what(rec), points(rec), bh))
        if not items:
            return Explanation(spec.code, None, items)
        mean = Fraction(sum(Fraction(i.value) for i in items), len(items))
        return Explanation(spec.code, float(round_half_up(mean, Fraction(1, 100))), items)

    def _ks(self, spec: Spec, pid: int) -> Explanation:
        """KS (C.07 9.2): points against the opponents with at least half the maximum score (`/L60`:
        another percentage of it; `/L+n`, `/L-n` move the limit by n half points, 0.5 each in any
        point system). As the TEC reference calculator: every paired round counts, forfeits included,
        and the opponents' scores are their points."""
        f = self.field()
        limit = self.state.win_points * self._koya_rounds() * spec.percent / 100 + 0.5 * spec.limit
        items = []
        for r, rec in enumerate(f.records[pid], 1):
            if rec.paired and rec.opponent is not None:
                score = f.points[rec.opponent]
                note = _OPPONENT_SCORE(score=_half(score))
                items.append(Item(r, rec.opponent, _what(rec), points(rec), points(rec), score >= limit, note))
        exp = Explanation(spec.code, sum(i.value for i in items if i.counted), items)
        exp.notes.append(_AT_LEAST(limit=_half(limit)))
        return exp

    def _koya_rounds(self) -> int:
        """The rounds in which the maximum score can be made: all, less the rounds without an opponent
        and without points that every player has (the odd round robin's bye)."""

        def idle(records: list[RoundRecord]) -> int:
            return sum(1 for r in records if r.kind is Kind.PAIRING_BYE and points(r) == 0)

        records = self.field().records
        return self.rounds - min((idle(records[p.id]) for p in self.state.players), default=0)

    def _korr(self, spec: Spec, pid: int) -> Explanation:
        """Almindelig korrektion (seed 004 §4.9.10.2): BH without the two lowest opponents; if still
        equal, with the second lowest restored; then with the lowest too (BH/C2, BH/C1, BH)."""
        return self._chain(spec, pid, ["BH/C2", "BH/C1", "BH"])

    def _mkorr(self, spec: Spec, pid: int) -> Explanation:
        """Middelkorrektion (seed 004 §4.9.10.3), by the tournament's number of rounds:
        up to 8 rounds BH/M1, then BH; 9-12 rounds BH/M2, then BH/M1; 13 or more BH/M3, BH/M2, BH/M1."""
        total = self.state.total_rounds or self.rounds
        if total <= 8:
            chain = ["BH/M1", "BH"]
        elif total <= 12:
            chain = ["BH/M2", "BH/M1"]
        else:
            chain = ["BH/M3", "BH/M2", "BH/M1"]
        return self._chain(spec, pid, chain)

    def _chain(self, spec: Spec, pid: int, codes: list[str]) -> Explanation:
        steps = [self.explain(c, pid) for c in codes]
        exp = Explanation(spec.code, steps[0].value, steps[0].items, list(steps[0].notes))
        shown = [f"{c} = {_half(s.value or 0)}" for c, s in zip(codes, steps, strict=True)]
        chain: Note | str = shown[-1]
        for earlier in reversed(shown[:-1]):
            chain = _THEN(first=earlier, rest=chain)
        exp.notes.append(_WHILE_EQUAL(chain=chain))
        exp.key = tuple(s.value or 0.0 for s in steps)
        return exp

    # ------------------------------------------------------------------ ratings

    def _rated_games(self, pid: int) -> tuple[list[Item], list[Item]]:
        """Games over the board: (counted, against unrated opponents left out); each game's result on
        the 1/½/0 scale whatever the point system (the scale of the FIDE tables).

        An unrated opponent counts at the regulations' rating when `unrated.how` is "rating"
        (C.07 art. 10), and is left out otherwise."""
        f = self.field()
        rated, unrated = [], []
        given = self.unrated.rating if self.unrated.how == "rating" else 0
        for r, rec in enumerate(f.records[pid], 1):
            if rec.played and rec.opponent is not None:
                rating = self.state.player(rec.opponent).rating
                result = float(self.game_score(rec))
                if rating <= 0 and given:
                    rated.append(Item(r, rec.opponent, GAME, result, float(given), note=_UNRATED_AT(rating=given)))
                    continue
                item = Item(r, rec.opponent, GAME, result, float(rating))
                (rated if rating > 0 else unrated).append(item)
        return rated, [replace(i, counted=False, note=_UNRATED) for i in unrated]

    def _aro(self, spec: Spec, pid: int) -> Explanation:
        """ARO (C.07 10.1): the mean rating of the opponents met over the board, rounded; /C1 drops the
        lowest-rated, /M1 the lowest- and the highest-rated (C.07 14). No value without a rating left to
        count. Unrated opponents as `Calculator.unrated` says (C.07 art. 10)."""
        rated, unrated = self._rated_games(pid)
        order = sorted(rated, key=lambda i: (i.value, i.round))
        low = min(spec.cut + spec.median, len(order))
        high = min(spec.median, len(order) - low)
        dropped = order[:low] + order[len(order) - high :]
        items = [replace(i, counted=False, note=_CUT) if i in dropped else i for i in rated] + unrated
        counted = [int(i.value) for i in items if i.counted]
        value = float(average(counted)) if counted else None
        return Explanation(spec.code, value, sorted(items, key=lambda i: i.round or 0))

    def _grt(self, spec: Spec, pid: int) -> Explanation:
        """Average rating of the opponents (seed 000 F10), exact, over the games played."""
        rated, unrated = self._rated_games(pid)
        value = sum(i.value for i in rated) / len(rated) if rated else None
        return Explanation(spec.code, value, sorted(rated + unrated, key=lambda i: i.round or 0))

    def _tpr(self, spec: Spec, pid: int) -> Explanation:
        """TPR (C.07 10.2): ARO + dp(p), p the game score (1/½/0) in those games divided by their number."""
        rated, unrated = self._rated_games(pid)
        score = sum(Fraction(i.result or 0.0) for i in rated)
        value = fide.tournament_performance([int(i.value) for i in rated], score)
        exp = Explanation(spec.code, _number(value), sorted(rated + unrated, key=lambda i: i.round or 0))
        if rated:
            exp.notes.append(_FROM_GAMES(score=_half(float(score)), games=len(rated)))
        return exp

    def _ptp(self, spec: Spec, pid: int) -> Explanation:
        """PTP (C.07 10.3): the lowest rating whose expected score (table 8.1.2) reaches the game score."""
        rated, unrated = self._rated_games(pid)
        score = sum(Fraction(i.result or 0.0) for i in rated)
        value = fide.perfect_performance([int(i.value) for i in rated], score)
        return Explanation(spec.code, _number(value), sorted(rated + unrated, key=lambda i: i.round or 0))

    def _opponents_mean(self, spec: Spec, pid: int, of: str) -> Explanation:
        """The rounded mean of the opponents' `of` over the games played over the board; an opponent
        without a value is not counted, and without any the mean has none (C.07 10.4-10.5)."""
        f = self.field()
        items = []
        for r, rec in enumerate(f.records[pid], 1):
            if rec.played and rec.opponent is not None:
                theirs = self.value(of, rec.opponent)
                item = Item(r, rec.opponent, GAME, float(self.game_score(rec)), theirs or 0.0)
                items.append(item if theirs is not None else replace(item, counted=False, note=_UNDEFINED))
        counted = [Fraction(i.value) for i in items if i.counted]
        return Explanation(spec.code, float(average(counted)) if counted else None, items)

    def _apro(self, spec: Spec, pid: int) -> Explanation:
        """APRO (C.07 10.4): the mean TPR of the opponents met over the board, rounded."""
        return self._opponents_mean(spec, pid, "TPR")

    def _appo(self, spec: Spec, pid: int) -> Explanation:
        """APPO (C.07 10.5): the mean PTP of the opponents met over the board, rounded."""
        return self._opponents_mean(spec, pid, "PTP")

    def _rtng(self, spec: Spec, pid: int) -> Explanation:
        """RTNG (C.07 2026): the own rating; an unrated player at the rating the regulations give
        (C.07 art. 10; without one RTNG is dropped while unrated players take part)."""
        rating = self.state.player(pid).rating
        if rating <= 0 and self.unrated.how == "rating":
            return Explanation(spec.code, float(self.unrated.rating), notes=[_UNRATED_AT(rating=self.unrated.rating)])
        return Explanation(spec.code, float(rating))

    def _tpn(self, spec: Spec, pid: int) -> Explanation:
        return Explanation(spec.code, float(pid))

    def _lot(self, spec: Spec, pid: int) -> Explanation:
        """A lot number drawn from the recorded seed (lower first); start order without a seed."""
        if self._lots is None:
            ids = sorted(p.id for p in self.state.players)
            if self.state.seed is not None:
                random.Random(f"{self.state.seed}/tiebreak-lot").shuffle(ids)
            self._lots = {p: i for i, p in enumerate(ids, 1)}
        exp = Explanation(spec.code, float(self._lots[pid]))
        if self.state.seed is None:
            exp.notes.append(_NO_SEED())
        return exp


def _number(value: int | None) -> float | None:
    return None if value is None else float(value)


def _what(rec: RoundRecord) -> Note:
    return GAME if rec.played else unplayed_label(rec)


def _items(parts: list[_Part], kept: list[_Part], sb: bool) -> list[Item]:
    kept_ids = {id(p) for p in kept}
    items = []
    for p in parts:
        counted = id(p) in kept_ids
        note = p.note if counted or not p.contributes else (_CUT_AND(note=p.note) if p.note else _CUT)
        items.append(Item(p.round, p.opponent, p.what, p.result, p.sb if sb else p.value, counted, note))
    return items
