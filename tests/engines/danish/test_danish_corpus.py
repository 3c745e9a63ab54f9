"""Monrad, Dansk Schweizer and Dubov (1997) on the 82 tournaments of the oracle's Dutch corpus.

Every round k of every tournament is paired from rounds 1..k-1 as recorded (the histories come from
another program's Dutch pairings, so they are not what these systems would have made). Each pairing
must keep the system's absolute rules:

- all three: everybody present paired exactly once, nobody absent paired (seed 004 §4.9.1; §4.9.3
  rule 2; §4.9.6 section 4), no second meeting (§4.9.1; rule 1.2; 2.1), at most one bye;
- Monrad and Dansk Schweizer: nobody has the bye twice (README item 13; rule 2.1, X is a player);
- Dansk Schweizer: a strong colour preference is met (supplementary colour rules), i.e. after the
  round no colour difference beyond 2 and no colour three times running, counting the round against
  X as white (rule 2.2), except in the last round between two players with more than 50 %;
- Dubov: no bye after a win without playing (2.2), colour difference within 2 (2.3), never three
  times the same colour running (2.4), counting played games.

Where no pairing keeping these rules exists (proved by a perfect-matching test here), refusing
(`NoValidPairing`) or a documented relaxation is correct; raising where a valid pairing exists is a
failure. A ratchet: the count of rounds that pass may only rise (raise PASSING_AT_LEAST, never lower it).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pytest
import rustworkx

from pairing.engines import checks, registry, trf
from pairing.engines.state import (
    Board,
    Bye,
    Colour,
    Kind,
    NoValidPairing,
    Pairing,
    Player,
    RoundRecord,
    TournamentState,
)
from tests.shared_data import DUTCH_CORPUS

CORPUS = DUTCH_CORPUS
ROUNDS_IN_CORPUS = 636
SYSTEMS = ("monrad", "dansk", "dubov-1997")
PASSING_AT_LEAST = {"monrad": 636, "dansk": 636, "dubov-1997": 636}


def _dansk_colours(player: Player) -> list[Colour]:
    """Rule 2.2: the round against X counts as white; else the colours of played games."""
    return [
        Colour.WHITE if r.kind is Kind.PAIRING_BYE else r.colour
        for r in player.history
        if r.kind is Kind.PAIRING_BYE or (r.played and r.colour)
    ]


def _breach(colours: list[Colour]) -> bool:
    """A colour difference beyond 2, or the same colour three times running."""
    three = len(colours) >= 3 and colours[-1] == colours[-2] == colours[-3]
    return three or abs(colours.count(Colour.WHITE) - colours.count(Colour.BLACK)) > 2


@dataclass(frozen=True)
class Rules:
    """The absolute rules of one system, as functions of the state."""

    colours: Callable[[Player], list[Colour]] | None
    # A bye blocked by any win without playing (Dubov 2.2) or only by a previous bye (Monrad, Dansk).
    unplayed_win_blocks_bye: bool
    last_round_exception: bool


RULES = {
    "monrad": Rules(colours=None, unplayed_win_blocks_bye=False, last_round_exception=False),
    "dansk": Rules(colours=_dansk_colours, unplayed_win_blocks_bye=False, last_round_exception=True),
    "dubov-1997": Rules(colours=Player.colours, unplayed_win_blocks_bye=True, last_round_exception=False),
}


def _excepted(state: TournamentState, rules: Rules, a: Player, b: Player) -> bool:
    """Dansk Schweizer: in the last round two players with more than 50 % may break a strong preference."""
    half = state.rounds_played / 2
    return (
        rules.last_round_exception
        and state.round_to_pair >= state.total_rounds
        and a.score() > half
        and b.score() > half
    )


def _colour_ok(state: TournamentState, rules: Rules, white: Player, black: Player) -> bool:
    if rules.colours is None or _excepted(state, rules, white, black):
        return True
    return not _breach([*rules.colours(white), Colour.WHITE]) and not _breach([*rules.colours(black), Colour.BLACK])


def _bye_ok(rules: Rules, player: Player) -> bool:
    for record in player.history:
        if record.kind is Kind.PAIRING_BYE:
            return False
        if rules.unplayed_win_blocks_bye and not record.played and (record.score or 0.0) >= 1.0:
            return False
    if rules.colours is _dansk_colours:  # the round against X counts as white (2.2)
        return not _breach([*_dansk_colours(player), Colour.WHITE])
    return True


def violations(state: TournamentState, pairing: Pairing, rules: Rules) -> list[str]:
    """The broken rules: completeness, rematches and the bye by `checks.check_round`, then colours."""
    found = [
        str(v)
        for v in checks.check_round(
            state, pairing, edition="2026", colours=False, unplayed_wins=rules.unplayed_win_blocks_bye
        )
    ]
    for board in pairing.boards:
        if not _colour_ok(state, rules, state.player(board.white), state.player(board.black)):
            found.append(f"board {board.white}-{board.black}: colour rule broken")
    if rules.colours is _dansk_colours:  # the round against X counts as white (2.2)
        for bye in pairing.byes:
            if bye.kind is Kind.PAIRING_BYE and not _breach([*_dansk_colours(state.player(bye.player)), Colour.WHITE]):
                continue
            if bye.kind is Kind.PAIRING_BYE:
                found.append(f"bye {bye.player}: X counts as white, a colour rule broken")
    return found


def valid_pairing_exists(state: TournamentState, rules: Rules) -> bool:
    """A perfect matching of the players to pair (and a bye node for an odd field) on legal pairs."""
    present = state.to_pair()
    met = {p.id: set(p.opponents()) for p in present}
    graph = rustworkx.PyGraph()
    graph.add_nodes_from([p.id for p in present])
    for i, a in enumerate(present):
        for j in range(i + 1, len(present)):
            b = present[j]
            if b.id not in met[a.id] and (_colour_ok(state, rules, a, b) or _colour_ok(state, rules, b, a)):
                graph.add_edge(i, j, 1)
    nodes = len(present)
    if nodes % 2:
        bye = graph.add_node(0)
        for i, p in enumerate(present):
            if _bye_ok(rules, p):
                graph.add_edge(i, bye, 1)
        nodes += 1
    matching = rustworkx.max_weight_matching(graph, max_cardinality=True, weight_fn=lambda w: w)
    return 2 * len(matching) == nodes


@dataclass
class Tally:
    """Per system: rounds within the rules, rounds proved unpairable, failures, CPU seconds pairing."""

    within: int = 0
    unpairable: int = 0
    failures: list[str] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def passing(self) -> int:
        return self.within + self.unpairable


def states(path: Path) -> list[TournamentState]:
    """The state before every round of one tournament (the earlier ones cut from the last one)."""
    document = trf.parse(path.read_text(), path.name)
    last = trf.state_from_document(document, document.rounds_recorded)
    return [checks.state_before(last, k) for k in range(1, last.round_to_pair)] + [last]


def replay(system: str, state: TournamentState, tally: Tally, where: str) -> None:
    rules = RULES[system]
    start = time.process_time()
    try:
        pairing = registry.pair(state, system)
    except NoValidPairing as exc:
        tally.seconds += time.process_time() - start
        if valid_pairing_exists(state, rules):
            tally.failures.append(f"{where}: NoValidPairing although a valid pairing exists ({exc})")
        else:
            tally.unpairable += 1
        return
    tally.seconds += time.process_time() - start
    found = violations(state, pairing, rules)
    if not found:
        tally.within += 1
    elif not valid_pairing_exists(state, rules):
        tally.unpairable += 1  # a documented relaxation where nothing keeps the rules
    else:
        tally.failures.append(f"{where}: {'; '.join(found)}")


def run_corpus() -> dict[str, Tally]:
    tallies = {system: Tally() for system in SYSTEMS}
    for path in sorted(CORPUS.glob("*.trf")):
        for state in states(path):
            for system in SYSTEMS:
                replay(system, state, tallies[system], f"{path.stem} round {state.round_to_pair}")
    return tallies


@pytest.mark.corpus
def test_danish_systems_keep_their_absolute_rules_on_the_corpus() -> None:
    tallies = run_corpus()
    print()
    for system, tally in tallies.items():
        print(
            f"{system}: {tally.passing}/{ROUNDS_IN_CORPUS} rounds pass ({tally.within} within the rules, "
            f"{tally.unpairable} with no valid pairing at all), {len(tally.failures)} failures, "
            f"{tally.seconds:.1f} s CPU pairing"
        )
        for failure in tally.failures:
            print("   ", failure)
    for system, tally in tallies.items():
        assert tally.passing + len(tally.failures) == ROUNDS_IN_CORPUS
        assert tally.passing >= PASSING_AT_LEAST[system], system


def test_the_checks_catch_what_they_should() -> None:
    """The checker itself: a rematch, a colour breach and a second bye are found; a clean round passes."""
    players = [Player(id=i, name=f"P{i}") for i in range(1, 6)]
    by_id = {p.id: p for p in players}
    for boards in ([(1, 2), (3, 4)], [(1, 3), (2, 4)]):
        for white, black in boards:
            by_id[white].history.append(RoundRecord(Kind.GAME, black, Colour.WHITE, 1.0))
            by_id[black].history.append(RoundRecord(Kind.GAME, white, Colour.BLACK, 0.0))
    by_id[5].history += [RoundRecord(Kind.PAIRING_BYE, score=1.0), RoundRecord(Kind.ABSENT, score=0.0)]
    state = TournamentState(players=players, total_rounds=5, round_to_pair=3)
    clean = Pairing(boards=[Board(4, 1), Board(5, 2)], byes=[Bye(3, Kind.PAIRING_BYE)])
    second_bye = Pairing(boards=[Board(4, 1), Board(3, 2)], byes=[Bye(5, Kind.PAIRING_BYE)])
    rematch = Pairing(boards=[Board(2, 1), Board(5, 3)], byes=[Bye(4, Kind.PAIRING_BYE)])
    third_white = Pairing(boards=[Board(1, 4), Board(5, 2)], byes=[Bye(3, Kind.PAIRING_BYE)])
    for system in SYSTEMS:
        assert violations(state, clean, RULES[system]) == [], system
        assert [v.split(": ")[0] for v in violations(state, second_bye, RULES[system])] == ["board 5-0"], system
        assert any("rematch" in v for v in violations(state, rematch, RULES[system])), system
        assert valid_pairing_exists(state, RULES[system]), system
    assert violations(state, third_white, RULES["monrad"]) == []
    for system in ("dansk", "dubov-1997"):
        assert violations(state, third_white, RULES[system]) == ["board 1-4: colour rule broken"], system
    # With 1-4 and 2-3 forbidden as well, five players cannot be paired.
    by_id[1].history.append(RoundRecord(Kind.GAME, 4, Colour.BLACK, 0.0))
    by_id[4].history.append(RoundRecord(Kind.GAME, 1, Colour.WHITE, 1.0))
    by_id[2].history.append(RoundRecord(Kind.GAME, 3, Colour.WHITE, 0.5))
    by_id[3].history.append(RoundRecord(Kind.GAME, 2, Colour.BLACK, 0.5))
    by_id[5].history.append(RoundRecord(Kind.ABSENT, score=0.0))
    later = TournamentState(players=players, total_rounds=5, round_to_pair=4)
    assert not valid_pairing_exists(later, RULES["monrad"])
