"""Standings: points, then an ordered tie-break list; shared places where everything is equal.

Direct encounter (C.07 art. 6) depends on who is tied, so it is decided here, inside each group of
players still equal on every earlier criterion; DE1 applies it only to the group tied for first
place (seed 000 F10, seed 001 F12: "als het om de eerste plaats gaat: het onderling resultaat").
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from itertools import groupby

from ..notes import Note, note_text
from ..state import InvalidInput, TournamentState
from .catalogue import ENCOUNTER, RATING_BASED, Calculator, Explanation, Item, Spec, parse
from .rules import GAME, Rules, Unrated, points

# Direct encounter (C.07 art. 6): who is tied, and whether every two of them have met.
_ALL_MET = note_text("tiebreak.all_met", "tied with %(players)s; all have met")
_NOT_ALL_MET = note_text("tiebreak.not_all_met", "tied with %(players)s; not all have met")


@dataclass(slots=True)
class Standing:
    """One line of the standings. `values` and `explanations` are keyed by the codes as given."""

    player: int
    name: str
    rank: int
    points: float
    values: dict[str, float | None] = field(default_factory=dict)
    explanations: dict[str, Explanation] = field(default_factory=dict)


def encounter_points(
    calc: Calculator, group: list[int], forfeits_played: bool = False
) -> tuple[dict[int, float], dict[int, list[Item]], bool]:
    """Points each player of `group` scored against the others of it (C.07 6).

    Several games between the same two count as their average. Returns the points, the games
    behind them, and whether every two players of the group have met. The work grows with the
    group's games, not with the square of the group.
    """
    f = calc.field()
    members = set(group)
    results: dict[int, dict[int, list[float]]] = {p: {} for p in group}
    games: dict[int, list[Item]] = {p: [] for p in group}
    for p in group:
        for rnd, rec in enumerate(f.records[p], 1):
            if rec.opponent in members and f.met(rec, forfeits_played):
                results[p].setdefault(rec.opponent, []).append(points(rec))
                games[p].append(Item(rnd, rec.opponent, GAME, points(rec), points(rec)))
    mini = {p: sum(sum(v) / len(v) for v in results[p].values()) for p in group}
    complete = all(len(results[p]) == len(members) - 1 for p in group)
    return mini, games, complete


def _opponents_met(calc: Calculator, group: list[int], forfeits_played: bool) -> dict[int, set[int]]:
    """Each player of `group` -> the others of it he has met (C.07 6: a game, or with /P a forfeit)."""
    f = calc.field()
    members = set(group)
    return {
        p: {rec.opponent for rec in f.records[p] if rec.opponent in members and f.met(rec, forfeits_played)}
        for p in group
    }


def _encounter_blocks(calc: Calculator, group: list[int], forfeits_played: bool) -> list[list[int]]:
    """The group split by direct encounter, best first (C.07 6.1-6.3)."""
    mini, _, complete = encounter_points(calc, group, forfeits_played)
    if complete:
        blocks = [list(b) for _, b in groupby(sorted(group, key=lambda p: -mini[p]), key=lambda p: mini[p])]
        if len(blocks) == 1:
            return blocks
        out: list[list[int]] = []
        for block in blocks:  # re-apply to every subset still tied
            out += _encounter_blocks(calc, block, forfeits_played) if len(block) > 1 else [block]
        return out
    # Not all have met: a player goes first only if no result of the missing games could catch him
    # (C.07 6.3: a missing game counts as a win's points for the other).
    out, rest = [], list(group)
    win = calc.state.win_points
    met = _opponents_met(calc, group, forfeits_played)
    while len(rest) > 1:
        mini, _, complete = encounter_points(calc, rest, forfeits_played)
        if complete:  # the players left have all met: rank them as such
            return out + _encounter_blocks(calc, rest, forfeits_played)
        left = set(rest)
        missing = {p: len(rest) - 1 - len(met[p] & left) for p in rest}
        best = max(rest, key=lambda p: mini[p])
        if any(q != best and mini[q] + win * missing[q] >= mini[best] for q in rest):
            break
        out.append([best])
        rest.remove(best)
    return out + [rest] if rest else out


def _specs(tiebreaks: list[str]) -> tuple[list[Spec], dict[Spec, str]]:
    """The parsed list with PTS in front, and each spec's code as given."""
    given = [code.strip() for code in tiebreaks]
    specs: list[Spec] = [parse(code) for code in given]
    if not specs or specs[0].acronym != "PTS":
        given.insert(0, "PTS")
        specs.insert(0, parse("PTS"))
    return specs, {spec: code for code, spec in zip(given, specs, strict=True)}


EncounterSeen = Callable[[Spec, list[int], dict[int, float], dict[int, list[Item]], bool], None]


def _order(
    calc: Calculator,
    specs: list[Spec],
    group: list[int],
    k: int,
    offset: int,
    seen: EncounterSeen | None = None,
) -> list[list[int]]:
    """`group` (equal on specs[:k], the first of it at place `offset` + 1) split into its ties, best first.

    A tie-break of the catalogue sorts by its value; direct encounter splits by the games within the
    group (C.07 6), DE1 only in the group tied for first place (seed 000 F10, seed 001 F12); `seen` is
    told each group's encounter points."""
    if k == len(specs) or len(group) == 1:
        return [group]
    spec = specs[k]
    if spec.acronym in ENCOUNTER:
        if spec.acronym == "DE1" and offset != 0:
            return _order(calc, specs, group, k + 1, offset, seen)
        if seen is not None:
            seen(spec, group, *encounter_points(calc, group, spec.forfeits_played))
        blocks = _encounter_blocks(calc, group, spec.forfeits_played)
    else:

        def sort_key(p: int) -> tuple[float, ...]:
            return calc.key(spec, p)

        blocks = [list(b) for _, b in groupby(sorted(group, key=sort_key, reverse=True), key=sort_key)]
    out = []
    for block in blocks:
        out += _order(calc, specs, block, k + 1, offset, seen)
        offset += len(block)
    return out


def standings(
    state: TournamentState,
    tiebreaks: list[str],
    rounds: int | None = None,
    rules: str | Rules | None = None,
    unrated: Unrated | None = None,
    explain: bool = True,
) -> list[Standing]:
    """Rank the players after `rounds` rounds (all recorded when None) by points and `tiebreaks`.

    `rules` chooses how unplayed rounds count (a preset name of `rules.PRESETS` or a `Rules`); by
    default `state.settings["tiebreak_rules"]`, else the current FIDE rules. `PTS` is added in front
    when the list does not start with it. Players equal on everything share a rank. `unrated` says how
    the rating-based tie-breaks treat unrated opponents (C.07 art. 10; default: dropped). Without
    `explain` the lines have the same ranks and values but no explanations (a table of thousands of
    players, whose explanations are asked for one at a time, `explanation`).
    """
    calc = Calculator(state, rounds, rules or state.settings.get("tiebreak_rules"), unrated)
    specs, key = _specs(tiebreaks)
    lines = {
        p.id: Standing(p.id, p.name, 0, calc.field().points[p.id]) for p in sorted(state.players, key=lambda p: p.id)
    }
    for line in lines.values():
        for spec in specs:
            if spec.acronym in ENCOUNTER:
                line.values[key[spec]] = None
            elif explain:
                exp = calc.explain(spec, line.player)
                line.values[key[spec]] = exp.value
                line.explanations[key[spec]] = exp
            else:
                line.values[key[spec]] = calc.plain_value(spec, line.player)

    return rank(calc, specs, key, lines, explain)


def encounter_writer(key: dict[Spec, str], lines: dict[int, Standing], explain: bool) -> EncounterSeen:
    """What `_order` is told of each group it splits by direct encounter, written into the group's lines:
    each player's points against the others of it, with its explanation (C.07 6)."""

    def seen(spec: Spec, group: list[int], mini: dict[int, float], games: dict[int, list[Item]], complete: bool):
        tied = _ALL_MET if complete else _NOT_ALL_MET
        ordered = sorted(group)
        for p in group:
            lines[p].values[key[spec]] = mini[p]
            if explain:
                lines[p].explanations[key[spec]] = Explanation(
                    spec.code, mini[p], games[p], [tied(players=[q for q in ordered if q != p])]
                )

    return seen


def rank(
    calc: Calculator, specs: list[Spec], key: dict[Spec, str], lines: dict[int, Standing], explain: bool
) -> list[Standing]:
    """Order `lines` (keyed by player, ascending; each with its values of the catalogue's tie-breaks and
    None for direct encounter) by `specs`, write each line's rank (shared where everything is equal) and
    the direct-encounter values of the tied groups (C.07 6), and return them best first."""
    seen = encounter_writer(key, lines, explain)
    ranked: list[Standing] = []
    position = 1
    for tie in _order(calc, specs, sorted(lines), 0, 0, seen):
        for pid in sorted(tie):
            lines[pid].rank = position
            ranked.append(lines[pid])
        position += len(tie)
    return ranked


def places(
    state: TournamentState,
    tiebreaks: list[str],
    players: Iterable[int],
    rounds: int | None = None,
    rules: str | Rules | None = None,
    unrated: Unrated | None = None,
    *,
    whole_groups: bool = False,
) -> dict[int, int]:
    """The rank `standings` gives each of `players` (the same arguments), without ranking the whole field.

    Points come first, so a player's rank is one more than the number of players with more points plus
    his place within his own points group: only the groups of the players asked for are ranked by the
    tie-breaks, and no explanation is written for direct encounter. A shared rank is its best place.
    `whole_groups`: the ranks of every player of those points groups, which ranking them gave."""
    calc = Calculator(state, rounds, rules or state.settings.get("tiebreak_rules"), unrated)
    specs, _key = _specs(tiebreaks)
    pts = specs[0]
    wanted = list(players)

    def points_key(p: int) -> tuple[float, ...]:
        return calc.points_key(pts, p)

    everyone = sorted(p.id for p in state.players)
    groups: dict[tuple[float, ...], list[int]] = defaultdict(list)
    for pid in everyone:
        groups[points_key(pid)].append(pid)
    above, offset = 0, {}
    for points_value in sorted(groups, reverse=True):
        offset[points_value] = above
        above += len(groups[points_value])
    out: dict[int, int] = {}
    for points_value in sorted({points_key(p) for p in wanted}, reverse=True):
        position = offset[points_value] + 1
        for tie in _order(calc, specs, groups[points_value], 1, offset[points_value]):
            for pid in tie:
                out[pid] = position
            position += len(tie)
    return out if whole_groups else {p: out[p] for p in wanted}


def explanation(
    state: TournamentState,
    tiebreaks: list[str],
    code: str,
    player: int,
    rounds: int | None = None,
    rules: str | Rules | None = None,
    unrated: Unrated | None = None,
) -> Explanation | None:
    """How `player`'s value of `code` in `standings(state, tiebreaks, ...)` came about, or None where that
    line has none (direct encounter outside a tied group).

    A tie-break of the catalogue is one player's own value: only it is computed. Direct encounter
    depends on who is tied with him (C.07 6), so for it the standings are ranked in full. None too for a
    player who is not in the state."""
    if all(p.id != player for p in state.players):
        return None
    spec = parse(code.strip())
    if spec.acronym in ENCOUNTER:
        line = next(line for line in standings(state, tiebreaks, rounds, rules, unrated) if line.player == player)
        return line.explanations.get(code.strip())
    calc = Calculator(state, rounds, rules or state.settings.get("tiebreak_rules"), unrated)
    return calc.explain(spec, player)


_UNRATED_RULE = {
    "drop": note_text(
        "tiebreak.unrated_drop",
        "Unrated opponents (C.07 art. 10): the rating-based tie-breaks are not used while unrated players take part.",
    ),
    "leave-out": note_text(
        "tiebreak.unrated_leave_out",
        "Unrated opponents (C.07 art. 10): games against unrated opponents do not count in the rating-based "
        "tie-breaks.",
    ),
    "rating": note_text(
        "tiebreak.unrated_rating",
        "Unrated opponents (C.07 art. 10): an unrated opponent counts at rating %(rating)s.",
    ),
}


def unrated_rule_note(tiebreaks: list[str], unrated: Unrated | None = None) -> Note | None:
    """What the standings say about unrated opponents, when the list has a rating-based tie-break."""

    def rating_based(code: str) -> bool:
        try:
            return parse(code).acronym in RATING_BASED
        except InvalidInput:  # a column of the system's own (the Gladiator ranking), no catalogue code
            return False

    if not any(rating_based(code) for code in tiebreaks):
        return None
    unrated = unrated or Unrated()
    return _UNRATED_RULE[unrated.how](rating=unrated.rating)
