"""Team tie-breaks (FIDE C.07 art. 11-14 for teams) over plain data: teams, matches and their boards.

Pure: no Django. Any team competition (the olympiad team tournament, a team league) describes its
event as a `TeamEvent` (matches with every board's game points, byes) and ranks it:

    from pairing.engines.tiebreaks.teams import TeamEvent, Match, team_standings
    event = TeamEvent(teams=(1, 2, 3), boards=4, matches=(Match(1, (1, 2), ((1, 0), (0.5, 0.5), ...)), ...))
    for line in team_standings(event, ["MPVGP", "EDE", "EMGSB"]):
        line.rank, line.points, line.values["EDE"]

The primary score is match points (`primary="MP"`) or game points ("GP", C.07 11.1); the other one is
the secondary score. Codes, modifiers and readings: docs/tiebreaks.md ("Team tie-breaks").

Unplayed rounds follow the round-robin reading the project's team events need (C.07 16 is written
for Swiss events): a match decided by forfeits counts as played, a bye is no meeting and contributes
nothing to the opponents' sums.
"""

from __future__ import annotations

import math
import re
from collections import defaultdict
from dataclasses import dataclass, field, replace
from fractions import Fraction
from itertools import groupby

from ratings.maths.tables import round_half_up

from ..notes import note_text
from ..state import InvalidInput
from .catalogue import Explanation, Item

# Acronym -> (name, score variants it takes, modifiers). Score variants: ":MP", ":GP" (a score),
# ":MM", ":MG", ":GM", ":GG" (ESB); modifiers "C" cut, "M" median, "K" SSSC factor, "P" forfeits as
# played (always so in the round-robin reading).
TEAM_CATALOGUE: dict[str, tuple[str, str, str]] = {
    "PTS": ("Primary score", "", ""),
    "MPTS": ("Match points", "", ""),
    "GPTS": ("Game points", "", ""),
    "MPVGP": ("Match points versus game points: the secondary score", "", ""),
    "DE": ("Direct encounter on the primary score", "", "P"),
    "EDE": ("Extended direct encounter", "", "P"),
    "EDEC": ("Extended direct encounter, then board count", "", "P"),
    "EDET": ("Extended direct encounter, then top-board results", "", "P"),
    "EDEB": ("Extended direct encounter, then bottom-board elimination", "", "P"),
    "EDEBT": ("Extended direct encounter, then board count and top-board results", "", "P"),
    "EDEBB": ("Extended direct encounter, then board count and bottom-board elimination", "", "P"),
    "BH": ("Buchholz", "S", "CMP"),
    "ESB": ("Extended Sonneborn-Berger", "E", "CP"),
    "EMMSB": ("Extended Sonneborn-Berger: opponents' match points x match points scored", "", "CP"),
    "EMGSB": ("Extended Sonneborn-Berger: opponents' match points x game points scored", "", "CP"),
    "EGMSB": ("Extended Sonneborn-Berger: opponents' game points x match points scored", "", "CP"),
    "EGGSB": ("Extended Sonneborn-Berger: opponents' game points x game points scored", "", "CP"),
    "SSSC": ("Score and schedule strength combination", "", "KP"),
    "BC": ("Board count", "", ""),
    "TBR": ("Top-board results", "", ""),
    "BBE": ("Bottom-board elimination", "", ""),
    "TPN": ("Team pairing number", "", "R"),
}
_ESB = {"EMMSB": "MM", "EMGSB": "MG", "EGMSB": "GM", "EGGSB": "GG"}
# The extended direct encounters (C.07 13.3): the stages after the primary and secondary score that
# separate two teams still tied (13.3.2): C board count, T top-board results, B bottom-board elimination.
EDE_STAGES = {"DE": "P", "EDE": "PS", "EDEC": "PSC", "EDET": "PST", "EDEB": "PSB", "EDEBT": "PSCT", "EDEBB": "PSCB"}
GROUP_CODES = frozenset(EDE_STAGES)
LOWER_IS_BETTER = frozenset({"BC", "TPN"})

_MATCH = note_text("teams.match", "match")()
_CUT = note_text("tiebreak.cut", "cut")()
_MINI = note_text("teams.mini", "tied with %(teams)s: %(stage)s")
_STAGES = {
    "P": note_text("teams.stage_primary", "the primary score among them"),
    "S": note_text("teams.stage_secondary", "the secondary score among them"),
    "C": note_text("teams.stage_board_count", "board count of their matches"),
    "T": note_text("teams.stage_top_board", "top-board results of their matches"),
    "B": note_text("teams.stage_bottom_board", "bottom-board elimination in their matches"),
}
_FACTOR = note_text("teams.factor", "secondary score %(secondary)s + Buchholz %(bh)s / %(factor)s")
_CODE = re.compile(r"^([A-Z]+)(?::(MP|GP|MM|MG|GM|GG))?((?:/[A-Z][+-]?\d*)*)$")


@dataclass(frozen=True, slots=True)
class Match:
    """One match of `round` between `teams` (first, second): each board's game points (first's,
    second's), board 1 first; None for a board still in play. A match of fewer boards than the event's
    (teams one player short on both sides) has no points on the boards it lacks."""

    round: int
    teams: tuple[int, int]
    boards: tuple[tuple[float, float] | None, ...]


@dataclass(frozen=True, slots=True)
class Bye:
    """A round without a match for `team`, with the points it brought (none in a round robin).

    A pairing-allocated bye (C.07 12) counts a standard win on every board in BC, TBR and BBE."""

    round: int
    team: int
    match_points: float = 0.0
    game_points: float = 0.0
    pairing_allocated: bool = False


@dataclass(frozen=True, slots=True)
class TeamEvent:
    """The teams (their pairing numbers), the matches and byes so far, the boards of a match, and
    the point systems: match points for a won and a drawn match, game points for a won and a drawn
    game (C.07 11.1). `rounds`: the rounds counted (default: the last round of any match or bye)."""

    teams: tuple[int, ...]
    boards: int
    matches: tuple[Match, ...] = ()
    byes: tuple[Bye, ...] = ()
    primary: str = "MP"
    match_win: float = 2.0
    match_draw: float = 1.0
    game_win: float = 1.0
    game_draw: float = 0.5
    rounds: int | None = None

    def __post_init__(self) -> None:
        if self.primary not in ("MP", "GP"):
            raise InvalidInput(f"the primary score is MP or GP, not {self.primary!r}")
        if self.boards < 1:
            raise InvalidInput("a team match has at least one board")
        known = set(self.teams)
        for match in self.matches:
            if not set(match.teams) <= known or match.teams[0] == match.teams[1]:
                raise InvalidInput(f"round {match.round}: match {match.teams} between unknown teams")
            if len(match.boards) > self.boards:
                raise InvalidInput(f"round {match.round}: match {match.teams} has {len(match.boards)} boards")

    @property
    def secondary(self) -> str:
        return "GP" if self.primary == "MP" else "MP"


@dataclass(frozen=True, slots=True)
class TeamRound:
    """One team's match from its side: the opponent, the points scored, the game points per board."""

    round: int
    opponent: int | None
    mp: float
    gp: float
    boards: tuple[float, ...]
    complete: bool

    def scored(self, score: str) -> float:
        return self.mp if score == "MP" else self.gp


@dataclass(frozen=True, slots=True)
class TeamSpec:
    """One parsed team code: `score` of `BH:GP`, the pair of an ESB (`MG`), cut, median, SSSC factor."""

    code: str
    acronym: str
    score: str = ""
    cut: int = 0
    median: int = 0
    factor: int = 0
    reverse: bool = False

    @property
    def name(self) -> str:
        return TEAM_CATALOGUE[self.acronym][0]


def parse_team(code: str) -> TeamSpec:
    """`EMGSB/C1`, `ESB:GM`, `BH:GP/C1`, `SSSC/K5`, `EDEBT`, `MPvGP`, ... -> `TeamSpec`."""
    text = code.strip().upper().replace(" ", "")
    found = _CODE.match(text)
    if not found or found.group(1) not in TEAM_CATALOGUE:
        raise InvalidInput(f"unknown team tie-break {code!r}")
    head, variant, mods = found.group(1), found.group(2) or "", found.group(3)
    _, variants, allowed = TEAM_CATALOGUE[head]
    scores = {"S": ("MP", "GP"), "E": ("MM", "MG", "GM", "GG")}.get(variants, ())
    if variant and variant not in scores:
        raise InvalidInput(f"team tie-break {code!r}: :{variant} is not allowed")
    if head in _ESB:
        head, variant = "ESB", _ESB[head]
    elif head == "ESB" and not variant:
        variant = "MM"
    spec = TeamSpec(text, head, variant)
    for mod in filter(None, mods.split("/")):
        letter, number = mod[0], mod[1:]
        if letter not in allowed or (letter in "CMK") != number.isdigit():
            raise InvalidInput(f"team tie-break {code!r}: modifier /{mod} is not allowed")
        if letter == "K" and int(number) == 0:
            raise InvalidInput(f"team tie-break {code!r}: the factor must be positive")
        if letter in "CMK":
            spec = replace(spec, **{{"C": "cut", "M": "median", "K": "factor"}[letter]: int(number)})
        elif letter == "R":
            spec = replace(spec, reverse=True)
    return spec


@dataclass(slots=True)
class TeamStanding:
    """One line of the team standings; `values` and `explanations` keyed by the codes as given."""

    team: int
    rank: int
    points: float
    match_points: float
    game_points: float
    values: dict[str, float | None] = field(default_factory=dict)
    explanations: dict[str, Explanation] = field(default_factory=dict)

    @property
    def board_points(self) -> float:
        """The game points under the name the olympiad gives them (seed 004 §4.9.9.5)."""
        return self.game_points


class TeamCalculator:
    """Every team's rounds, scores and per-team tie-breaks of one `TeamEvent`."""

    def __init__(self, event: TeamEvent) -> None:
        self.event = event
        self.rounds: dict[int, list[TeamRound]] = {t: [] for t in event.teams}
        self.board_points: dict[int, list[float]] = {t: [0.0] * event.boards for t in event.teams}
        for match in event.matches:
            self._add(match)
        for bye in event.byes:
            self.rounds[bye.team].append(TeamRound(bye.round, None, bye.match_points, bye.game_points, (), True))
            if bye.pairing_allocated:  # C.07 12: a standard win on every board
                self.board_points[bye.team] = [b + event.game_win for b in self.board_points[bye.team]]
        for rounds in self.rounds.values():
            rounds.sort(key=lambda r: r.round)
        self.total = {
            score: {t: sum(r.scored(score) for r in rounds) for t, rounds in self.rounds.items()}
            for score in ("MP", "GP")
        }
        last = max((r.round for rounds in self.rounds.values() for r in rounds), default=0)
        self.counted_rounds = event.rounds if event.rounds is not None else last

    def _add(self, match: Match) -> None:
        first, second = match.teams
        complete = all(board is not None for board in match.boards)
        padding = (0.0,) * (self.event.boards - len(match.boards))  # a match of fewer boards (a team short)
        mine = tuple(b[0] if b else 0.0 for b in match.boards) + padding
        theirs = tuple(b[1] if b else 0.0 for b in match.boards) + padding
        for team, opponent, own, other in ((first, second, mine, theirs), (second, first, theirs, mine)):
            gp, against = sum(own), sum(other)
            mp = 0.0
            if complete:
                mp = self.event.match_win if gp > against else self.event.match_draw if gp == against else 0.0
            self.rounds[team].append(TeamRound(match.round, opponent, mp, gp, own, complete))
            self.board_points[team] = [a + b for a, b in zip(self.board_points[team], own, strict=True)]

    def met(self, team: int) -> list[TeamRound]:
        """The finished matches of `team` (forfeited ones included: the round-robin reading)."""
        return [r for r in self.rounds[team] if r.opponent is not None and r.complete]

    def explain(self, spec: TeamSpec, team: int) -> Explanation:
        if spec.acronym in GROUP_CODES:
            raise InvalidInput(f"{spec.code} depends on the tied group: use the standings")
        exp = getattr(self, "_" + spec.acronym.lower())(spec, team)
        if not exp.key:
            sign = -1.0 if (spec.acronym in LOWER_IS_BETTER) != spec.reverse else 1.0
            exp.key = (1.0, sign * exp.value) if exp.value is not None else (0.0, 0.0)
        return exp

    # ---------------------------------------------------------------- scores (C.07 11.1, 13.1)

    def _pts(self, spec: TeamSpec, team: int) -> Explanation:
        return self._score(spec, team, self.event.primary)

    def _mpts(self, spec: TeamSpec, team: int) -> Explanation:
        return self._score(spec, team, "MP")

    def _gpts(self, spec: TeamSpec, team: int) -> Explanation:
        return self._score(spec, team, "GP")

    def _mpvgp(self, spec: TeamSpec, team: int) -> Explanation:
        """MPvGP (C.07 13.1): the secondary score, game points when match points are primary."""
        return self._score(spec, team, self.event.secondary)

    def _score(self, spec: TeamSpec, team: int, score: str) -> Explanation:
        items = [Item(r.round, r.opponent, _MATCH, r.scored(score), r.scored(score)) for r in self.rounds[team]]
        return Explanation(spec.code, self.total[score][team], items)

    def _tpn(self, spec: TeamSpec, team: int) -> Explanation:
        return Explanation(spec.code, float(team))

    # ---------------------------------------------------------------- opponents' scores (C.07 8.1, 13.2, 13.4)

    def _bh(self, spec: TeamSpec, team: int) -> Explanation:
        """BH on teams (C.07 8.1 with the primary score, or `:MP`, `:GP`): the opponents' scores."""
        score = spec.score or self.event.primary
        parts = [(r, self.total[score][r.opponent], self.total[score][r.opponent]) for r in self.met(team)]
        return self._sum(spec, parts, spec.cut + spec.median, spec.median)

    def _esb(self, spec: TeamSpec, team: int) -> Explanation:
        """Extended Sonneborn-Berger (C.07 13.2): for each opponent, its total match points (EM..) or
        game points (EG..) times the match points (..MSB) or game points (..GSB) scored against it.
        /C1 cuts the opponent with the lowest total, the lowest contribution among equals (14)."""
        theirs, ours = (("MP" if c == "M" else "GP") for c in spec.score)
        total = self.total[theirs]
        parts = [(r, total[r.opponent], total[r.opponent] * r.scored(ours)) for r in self.met(team)]
        return self._sum(spec, parts, spec.cut, 0)

    def _sum(self, spec: TeamSpec, parts: list, low: int, high: int) -> Explanation:
        """Sum the contributions (round, opponent's score, contribution) after cutting the `low` least
        and the `high` most significant (C.07 14): the lowest opponent's score, then contribution."""
        order = sorted(parts, key=lambda p: (p[1], p[2], p[0].round))
        low = min(low, len(order))
        high = min(high, len(order) - low)
        cut = {id(p[0]) for p in order[:low] + order[len(order) - high :]}
        items = [
            Item(r.round, r.opponent, _MATCH, r.scored("MP"), value, id(r) not in cut, _CUT if id(r) in cut else None)
            for r, _score, value in parts
        ]
        return Explanation(spec.code, sum(i.value for i in items if i.counted), items)

    def _sssc(self, spec: TeamSpec, team: int) -> Explanation:
        """SSSC (C.07 13.4): the secondary score plus the team's Buchholz on the primary score divided by
        a normalising factor: the highest primary score achievable in the tournament over the highest
        secondary score of one match, rounded towards zero (`/Kx`: x instead); two decimals."""
        event = self.event
        highest = Fraction(self._highest(event.primary, self.counted_rounds))
        factor = spec.factor or max(1, math.floor(highest / Fraction(self._highest(event.secondary, 1))))
        secondary = self.total[event.secondary][team]
        bh = self._bh(TeamSpec("BH", "BH"), team)
        value = round_half_up(Fraction(secondary) + Fraction(bh.value or 0.0) / factor, Fraction(1, 100))
        exp = Explanation(spec.code, float(value), bh.items)
        exp.notes.append(_FACTOR(secondary=f"{secondary:g}", bh=f"{bh.value:g}", factor=factor))
        return exp

    def _highest(self, score: str, matches: int) -> float:
        event = self.event
        return (event.match_win if score == "MP" else event.game_win * event.boards) * matches

    # ---------------------------------------------------------------- boards (C.07 12)

    def _bc(self, spec: TeamSpec, team: int) -> Explanation:
        """BC (C.07 12.1): each board's number times the game points scored on it, over the team's
        matches; the lower sum ranks higher."""
        items = [
            Item(board, None, _MATCH, points, board * points)
            for board, points in enumerate(self.board_points[team], 1)
        ]
        return Explanation(spec.code, sum(i.value for i in items), items)

    def _tbr(self, spec: TeamSpec, team: int) -> Explanation:
        """TBR (C.07 12.2): the game points on board 1; while equal, on board 2, and so on."""
        points = self.board_points[team]
        items = [Item(board, None, _MATCH, p, p) for board, p in enumerate(points, 1)]
        return Explanation(spec.code, points[0], items, key=tuple(points))

    def _bbe(self, spec: TeamSpec, team: int) -> Explanation:
        """BBE (C.07 12.3): the game points on all boards but the bottom one; while equal, without the
        two bottom boards, and so on."""
        points = self.board_points[team]
        steps = [sum(points[: len(points) - k]) for k in range(1, len(points))] or [0.0]
        items = [Item(board, None, _MATCH, p, p) for board, p in enumerate(points, 1)]
        return Explanation(spec.code, steps[0], items, key=tuple(steps))


def _mini(
    calc: TeamCalculator, group: list[int], weights: list[float] | None, score: str
) -> tuple[dict[int, float], dict[int, int]]:
    """Each team's points among `group` (several matches between two: their average), and how many of
    the others it has not met (C.07 6.1-6.3). `weights`: board weights instead of the score (13.3.2)."""
    members = set(group)
    got: dict[tuple[int, int], list[float]] = defaultdict(list)
    for team in group:
        for r in calc.met(team):
            if r.opponent in members:
                if weights is None:
                    got[(team, r.opponent)].append(r.scored(score))
                else:
                    got[(team, r.opponent)].append(sum(w * p for w, p in zip(weights, r.boards, strict=True)))
    mini = {t: sum(sum(v) / len(v) for (a, _), v in got.items() if a == t) for t in group}
    missing = {t: sum(1 for u in group if u != t and (t, u) not in got) for t in group}
    return mini, missing


def _split(calc: TeamCalculator, group: list[int], stage: str, step: int) -> list[list[int]]:
    """One stage of the extended direct encounter: blocks of `group`, best first (C.07 6, 13.3)."""
    event = calc.event
    if stage in "CTB":
        if len(group) != 2:  # 13.3.2: only two teams still tied in both scores
            return [group]
        n = event.boards
        weights = {"C": [-float(b) for b in range(1, n + 1)],  # the lower board count ranks higher
                   "T": [1.0 if b == step else 0.0 for b in range(1, n + 1)],
                   "B": [1.0 if b <= n - step else 0.0 for b in range(1, n + 1)]}[stage]  # fmt: skip
        mini, missing = _mini(calc, group, weights, "GP")
        if any(missing.values()):
            return [group]
        return [list(b) for _, b in groupby(sorted(group, key=lambda t: -mini[t]), key=lambda t: mini[t])]
    score = event.primary if stage == "P" else event.secondary
    win = event.match_win if score == "MP" else event.game_win * event.boards
    mini, missing = _mini(calc, group, None, score)
    if not any(missing.values()):
        return [list(b) for _, b in groupby(sorted(group, key=lambda t: -mini[t]), key=lambda t: mini[t])]
    out, rest = [], list(group)
    while len(rest) > 1:  # 6.3: first only if no result of the missing matches could catch it
        mini, missing = _mini(calc, rest, None, score)
        best = max(rest, key=lambda t: (mini[t], -t))
        if any(u != best and mini[u] + win * missing[u] >= mini[best] for u in rest):
            break
        out.append([best])
        rest.remove(best)
    return out + [rest]


def _stages(acronym: str, boards: int) -> list[tuple[str, int]]:
    """The stages of an EDE code: primary, secondary, then per 13.3.2 board count, each top board in
    turn, or each bottom board eliminated in turn."""
    out: list[tuple[str, int]] = []
    for stage in EDE_STAGES[acronym]:
        if stage == "T":
            out += [("T", b) for b in range(1, boards + 1)]
        elif stage == "B":
            out += [("B", k) for k in range(1, boards)]
        else:
            out.append((stage, 0))
    return out


def encounter_blocks(calc: TeamCalculator, group: list[int], acronym: str) -> tuple[list[list[int]], list[str]]:
    """`group` split by an extended direct encounter (C.07 13.3), best first; every new subset of tied
    teams starts again from the primary score (13.3.3). Also the stage that split the group."""
    for stage, step in _stages(acronym, calc.event.boards):
        blocks = _split(calc, group, stage, step)
        if len(blocks) > 1:
            out: list[list[int]] = []
            for block in blocks:
                out += encounter_blocks(calc, block, acronym)[0] if len(block) > 1 else [block]
            return out, [stage]
    return [group], []


def team_standings(event: TeamEvent, tiebreaks: list[str]) -> list[TeamStanding]:
    """Rank the teams by the primary score, then `tiebreaks` in order; equal teams share the place."""
    calc = TeamCalculator(event)
    given = [code.strip() for code in tiebreaks]
    specs = [parse_team(code) for code in given]
    if not specs or specs[0].acronym != "PTS":
        given.insert(0, "PTS")
        specs.insert(0, parse_team("PTS"))
    key = dict(zip(specs, given, strict=True))
    total = calc.total
    lines = {t: TeamStanding(t, 0, total[event.primary][t], total["MP"][t], total["GP"][t]) for t in event.teams}
    for line in lines.values():
        for spec in specs:
            exp = None if spec.acronym in GROUP_CODES else calc.explain(spec, line.team)
            line.values[key[spec]] = exp.value if exp else None
            if exp:
                line.explanations[key[spec]] = exp

    def order(group: list[int], k: int) -> list[list[int]]:
        if k == len(specs) or len(group) == 1:
            return [group]
        spec = specs[k]
        if spec.acronym in GROUP_CODES:
            mini, _ = _mini(calc, group, None, event.primary)
            blocks, stage = encounter_blocks(calc, group, spec.acronym)
            for t in group:
                others = sorted(set(group) - {t})
                note = _MINI(teams=others, stage=_STAGES[stage[0] if stage else "P"]())
                lines[t].values[key[spec]] = mini[t]
                lines[t].explanations[key[spec]] = Explanation(spec.code, mini[t], notes=[note])
        else:
            code = key[spec]
            blocks = [
                list(b)
                for _, b in groupby(
                    sorted(group, key=lambda t: lines[t].explanations[code].key, reverse=True),
                    key=lambda t: lines[t].explanations[code].key,
                )
            ]
        return [tie for block in blocks for tie in order(block, k + 1)]

    ranked: list[TeamStanding] = []
    position = 1
    for tie in order(sorted(lines), 0):
        for team in sorted(tie):
            lines[team].rank = position
            ranked.append(lines[team])
        position += len(tie)
    return ranked
