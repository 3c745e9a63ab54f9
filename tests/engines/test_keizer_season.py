"""Properties of the Keizer pairing over simulated seasons (seed 003 §1.7-§1.9, seeds README item 4)."""

import random

import pytest

from pairing.engines import registry
from pairing.engines.jsonstate import read_json_state, write_json_state
from pairing.engines.keizer import standings
from pairing.engines.keizer.pair import lost_evenings, relaxation_steps
from pairing.engines.keizer.settings import KeizerSettings
from pairing.engines.state import Colour, Kind, Player, RoundRecord, TournamentState
from tests.engines.keizer_cases import kijk_uit_round_1


def play_season(seed: int, n_players: int = 15, n_rounds: int = 20):
    """Pair every round with the engine; results drawn at random. Yields (state, pairing) per round."""
    rng = random.Random(seed)
    players = [Player(i, f"P{i}", rating=2100 - 25 * i) for i in range(1, n_players + 1)]
    state = TournamentState(players=players, total_rounds=n_rounds, round_to_pair=1)
    for rnd in range(1, n_rounds + 1):
        state.round_to_pair = rnd
        state.seed = seed * 100 + rnd
        state.requested_byes = {p.id: Kind.ABSENT_NOTICE for p in players if rng.random() < 0.15}
        pairing = registry.pair(state, "keizer")
        yield state, pairing
        records = {}
        for board in pairing.boards:
            score = rng.choice([1.0, 0.5, 0.0])
            records[board.white] = RoundRecord(Kind.GAME, board.black, Colour.WHITE, score)
            records[board.black] = RoundRecord(Kind.GAME, board.white, Colour.BLACK, 1 - score)
        for bye in pairing.byes:
            records[bye.player] = RoundRecord(bye.kind)
        for p in players:
            p.history.append(records[p.id])


@pytest.mark.parametrize("seed", range(4))
def test_every_round_keeps_the_rules_or_says_what_it_relaxed(seed):
    for state, pairing in play_season(seed):
        rnd = state.round_to_pair
        present = {p.id for p in state.to_pair()}
        paired = [pid for board in pairing.boards for pid in (board.white, board.black)]
        reserve = [bye.player for bye in pairing.byes if bye.kind is Kind.PAIRING_BYE]
        assert sorted(paired + reserve) == sorted(present)
        assert len(reserve) == len(present) % 2
        if reserve:
            fewest = min(lost_evenings(state.player(pid)) for pid in present)
            assert lost_evenings(state.player(reserve[0])) == fewest
        # The list follows the ranking after the previous round.
        place = {pid: i for i, pid in enumerate(standings(state, rnd - 1).ranking)}
        tops = [min(place[b.white], place[b.black]) for b in pairing.boards]
        assert tops == sorted(tops)
        if any(line.startswith("Relaxed") for line in pairing.explanation):
            continue
        for board in pairing.boards:
            white, black = state.player(board.white), state.player(board.black)
            recent = [r.opponent for r in white.history[max(0, rnd - 5) :] if r.played]
            assert black.id not in recent
            for player, colour in ((white, Colour.WHITE), (black, Colour.BLACK)):
                colours = player.colours() + [colour]
                assert abs(colours.count(Colour.WHITE) - colours.count(Colour.BLACK)) <= 2
                assert colours[-3:] != [colour] * 3


@pytest.mark.parametrize("seed", range(4))
def test_a_small_field_relaxes_the_limits_in_order(seed):
    steps = [limits.describe() for limits in relaxation_steps(KeizerSettings())]
    relaxed = 0
    for _state, pairing in play_season(seed, n_players=5, n_rounds=12):
        failed = [line for line in pairing.explanation if line.startswith("No pairing keeps: ")]
        assert [line.removeprefix("No pairing keeps: ").rstrip(".") for line in failed] == steps[: len(failed)]
        if failed:
            relaxed += 1
            assert f"Relaxed to: {steps[len(failed)]}." in pairing.explanation
    assert relaxed > 0


def test_a_season_read_back_from_the_json_state_gives_the_same_standings_and_pairing():
    season = kijk_uit_round_1(revaluation="frozen")
    season.players[0].extra["lost_evenings"] = 2
    state = season.state(absent={4: Kind.ABSENT_NOTICE}, seed=7)
    again = read_json_state(write_json_state(state))
    assert standings(again).lines() == standings(state).lines()
    assert registry.pair(again, "keizer") == registry.pair(state, "keizer")
