"""The cheap paths of the ranking give what the full computation gives, on random tournaments.

- `places` (the rank of a few players, ranking only their points groups) against the full `standings`;
- `explanation` (one player's value of one tie-break) against the explanation in the full standings;
- direct encounter (C.07 6), now indexed by pair, against the former group-by-group scan kept here as
  the oracle (`_oracle_encounter_points`, `_oracle_encounter_blocks`).

The tournaments are seeded (`tiebreak_builders.random_tournament`): random pairings (repeat games
included), results, forfeits (won, lost, double), every kind of bye, players who withdraw, and many draws
so that large groups tie on everything before direct encounter.
"""

from __future__ import annotations

import random
from collections import defaultdict
from itertools import groupby

import pytest

from pairing.engines.state import Kind
from pairing.engines.tiebreaks import Calculator, encounter_points, explanation, parse, places, standings
from pairing.engines.tiebreaks.ranking import _encounter_blocks
from pairing.engines.tiebreaks.rules import points
from tests.engines.tiebreaks.tiebreak_builders import random_tournament

LISTS = [
    ["PTS", "BH/C1", "BH", "SB", "DE"],  # FIDE Swiss (C.07)
    ["PTS", "DE1", "WP", "WSB", "LOT"],  # seed 001 F12
    ["PTS", "DE1", "GRT", "LOT"],  # seed 000 F10
    ["PTS", "SB", "DE", "WIN"],  # round robin (seed 004 §24)
    ["PTS", "KORR"],  # seed 004 §4.9.10.2
    ["PTS", "DE/P", "BH", "AOB", "ARO", "TPR"],
]
RULES = ["fide-2026", "fide-2023", "fide-pre2023", "knsb", "fide-roundrobin"]


def _oracle_encounter_points(calc: Calculator, group: list[int], forfeits_played: bool):
    f = calc.field()
    members = set(group)
    results: dict[tuple[int, int], list[float]] = defaultdict(list)
    for p in group:
        for rec in f.records[p]:
            if rec.opponent in members and f.met(rec, forfeits_played):
                results[(p, rec.opponent)].append(points(rec))
    mini = {p: sum(sum(v) / len(v) for (a, _), v in results.items() if a == p) for p in group}
    complete = all((a, b) in results for a in group for b in group if a != b)
    return mini, complete


def _oracle_met(calc: Calculator, a: int, b: int, forfeits_played: bool) -> bool:
    f = calc.field()
    return any(rec.opponent == b and f.met(rec, forfeits_played) for rec in f.records[a])


def _oracle_encounter_blocks(calc: Calculator, group: list[int], forfeits_played: bool) -> list[list[int]]:
    mini, complete = _oracle_encounter_points(calc, group, forfeits_played)
    if complete:
        blocks = [list(b) for _, b in groupby(sorted(group, key=lambda p: -mini[p]), key=lambda p: mini[p])]
        if len(blocks) == 1:
            return blocks
        out: list[list[int]] = []
        for block in blocks:
            out += _oracle_encounter_blocks(calc, block, forfeits_played) if len(block) > 1 else [block]
        return out
    out, rest = [], list(group)
    win = calc.state.win_points
    while len(rest) > 1:
        mini, complete = _oracle_encounter_points(calc, rest, forfeits_played)
        if complete:
            return out + _oracle_encounter_blocks(calc, rest, forfeits_played)
        missing = {p: sum(1 for q in rest if q != p and not _oracle_met(calc, p, q, forfeits_played)) for p in rest}
        best = max(rest, key=lambda p: mini[p])
        if any(q != best and mini[q] + win * missing[q] >= mini[best] for q in rest):
            break
        out.append([best])
        rest.remove(best)
    return out + [rest] if rest else out


@pytest.mark.rule("C.07 6")
@pytest.mark.parametrize("seed", range(60))
def test_direct_encounter_by_pair_equals_the_group_scan(seed):
    state = random_tournament(seed)
    rng = random.Random(-seed)
    ids = [p.id for p in state.players]
    for rules in ("fide-2026", "fide-roundrobin"):
        calc = Calculator(state, rules=rules)
        for _ in range(10):
            group = rng.sample(ids, rng.randint(1, len(ids)))
            for forfeits_played in (False, True):
                mini, _games, complete = encounter_points(calc, group, forfeits_played)
                assert (mini, complete) == _oracle_encounter_points(calc, group, forfeits_played)
                blocks = _encounter_blocks(calc, group, forfeits_played)
                assert blocks == _oracle_encounter_blocks(calc, group, forfeits_played)
                assert sorted(p for block in blocks for p in block) == sorted(group)


@pytest.mark.rule("C.07 6")
@pytest.mark.rule("C.07 16.4")
@pytest.mark.parametrize("seed", range(40))
def test_places_of_some_players_equal_their_ranks_in_the_full_standings(seed):
    """The standings chart's places after each round (`places`) are the ranks of the full standings."""
    state = random_tournament(seed)
    rng = random.Random(seed)
    codes, rules = LISTS[seed % len(LISTS)], RULES[seed // len(LISTS) % len(RULES)]
    ids = [p.id for p in state.players]
    for rounds in range(1, state.total_rounds + 1):
        full = {line.player: line.rank for line in standings(state, codes, rounds=rounds, rules=rules)}
        assert places(state, codes, ids, rounds=rounds, rules=rules) == full
        some = rng.sample(ids, rng.randint(1, min(10, len(ids))))
        assert places(state, codes, some, rounds=rounds, rules=rules) == {p: full[p] for p in some}


@pytest.mark.rule("C.07 6")
@pytest.mark.rule("C.07 16.4")
@pytest.mark.parametrize("seed", range(30))
def test_one_explanation_equals_the_one_in_the_full_standings(seed):
    """The explanation page's value, items and notes are those of the standings' line, direct encounter
    (ranked in full) included, and nothing is explained for a player who is not there."""
    state = random_tournament(seed)
    codes, rules = LISTS[seed % len(LISTS)], RULES[seed // len(LISTS) % len(RULES)]
    lines = standings(state, codes, rules=rules)
    for line in lines:
        for code in codes:
            assert explanation(state, codes, code, line.player, rules=rules) == line.explanations.get(code)
    assert explanation(state, codes, codes[-1], len(lines) + 1, rules=rules) is None


@pytest.mark.parametrize("seed", range(10))
def test_the_points_key_without_explanation_is_the_explanations_key(seed):
    state = random_tournament(seed)
    for rounds in range(1, state.total_rounds + 1):
        calc = Calculator(state, rounds, RULES[seed % len(RULES)])
        spec = parse("PTS")
        for p in state.players:
            assert calc.points_key(spec, p.id) == calc.explain(spec, p.id).key


SUM_CODES = ["BH", "BH/C1", "BH/C2", "BH/M1", "BH/P", "BH/C1/P", "FB", "FB/C1", "SB", "SB/C1", "SB/M1", "SB/P",
             "WP", "WP/C1", "WP/M1", "WSB", "WSB/C1", "WSB/M1"]  # fmt: skip


@pytest.mark.rule("C.07 14")
@pytest.mark.parametrize("seed", range(15))
def test_the_sums_key_without_explanation_is_the_explanations_key(seed):
    """`Calculator.key` of BH, FB, SB, WP and WSB with their modifiers (no explanation written) is the key of
    the explanation, under every preset of rules and after every round; for other codes it is the
    explanation's key as well."""
    state = random_tournament(seed)
    for rounds in range(1, state.total_rounds + 1):
        for rules in RULES:
            fast, full = Calculator(state, rounds, rules), Calculator(state, rounds, rules)
            for code in [*SUM_CODES, "AOB", "ARO", "KORR"]:
                spec = parse(code)
                for p in state.players:
                    assert fast.key(spec, p.id) == full.explain(spec, p.id).key, (code, p.id, rules)


def test_the_tournaments_have_large_ties_and_every_kind_of_unplayed_round():
    """The generator makes what the comparisons need: groups equal on points and the cut Buchholz, every
    bye kind, forfeits and withdrawals."""
    kinds: set[Kind] = set()
    largest = 0
    for seed in range(40):
        state = random_tournament(seed)
        kinds |= {r.kind for p in state.players for r in p.history}
        lines = standings(state, ["PTS", "BH/C1", "BH", "SB"])
        ranks = [line.rank for line in lines]
        largest = max(largest, max(ranks.count(r) for r in set(ranks)))
    assert {Kind.GAME, Kind.FORFEIT, Kind.PAIRING_BYE, Kind.FULL_BYE, Kind.HALF_BYE, Kind.ABSENT_NOTICE} <= kinds
    assert Kind.ABSENT in kinds and largest >= 4
