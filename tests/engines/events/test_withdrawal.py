"""Leaving a tournament: seed 004 §16, rating per §4.5.4.2."""

import pytest

from pairing.engines.roundrobin import schedule
from pairing.engines.state import Colour, Kind, Player, RoundRecord, TournamentState
from pairing.engines.withdrawal import leave


def rr_state(n: int, leaver: int, left_after: int, cycles: int = 1) -> TournamentState:
    """A finished single round robin in which the lower start number wins every game.

    After `left_after` the leaver's games are recorded as forfeits (he absent, the opponent 1-0).
    """
    players = [Player(i) for i in range(1, n + 1)]
    by_id = {p.id: p for p in players}
    rounds = schedule(n, cycles)
    for rnd, pairs in enumerate(rounds, start=1):
        for white, black in pairs:
            if not black:
                by_id[white].history.append(RoundRecord(Kind.PAIRING_BYE, score=0.0))
            elif leaver in (white, black) and rnd > left_after:
                other = white + black - leaver
                by_id[leaver].history.append(RoundRecord(Kind.ABSENT, score=0.0))
                by_id[other].history.append(RoundRecord(Kind.FORFEIT, leaver, None, 1.0))
            else:
                ws = 1.0 if white < black else 0.0
                by_id[white].history.append(RoundRecord(Kind.GAME, black, Colour.WHITE, ws))
                by_id[black].history.append(RoundRecord(Kind.GAME, white, Colour.BLACK, 1.0 - ws))
    return TournamentState(players, total_rounds=len(rounds), round_to_pair=len(rounds) + 1)


@pytest.mark.rule("004 16")
def test_under_half_played_his_results_are_struck():
    state = rr_state(6, leaver=1, left_after=2)  # played 6 and 2, then left: 2 of 5 games
    w = leave(state, 1, round_robin=True)
    assert (w.left_after, w.completed, w.scheduled, w.rule) == (2, 2, 5, "struck")
    assert not w.ranked
    # Without him: 2 beat 5, 6, 3, 4; 3 beat 4, 5, 6; 4 beat 6, 5; 5 beat 6. The forfeit win of 3 is gone.
    assert w.standing_points() == {2: 4.0, 3: 3.0, 4: 2.0, 5: 1.0, 6: 0.0}
    his = [r for r in w.results if r.involves(1)]
    assert [(r.round, r.played, r.counts, r.rated) for r in his] == [(1, True, False, True), (2, True, False, True)]
    assert len(w.rated_games()) == 12  # the 15 games of the schedule less the three he did not play


@pytest.mark.rule("004 16")
def test_half_or_more_played_the_remaining_games_count_as_losses():
    state = rr_state(6, leaver=1, left_after=3)  # beat 6, 2 and 3, then left: 3 of 5 games
    w = leave(state, 1, round_robin=True)
    assert (w.completed, w.scheduled, w.rule) == (3, 5, "remaining-lost")
    assert w.ranked
    assert w.standing_points() == {1: 3.0, 2: 4.0, 3: 3.0, 4: 3.0, 5: 2.0, 6: 0.0}
    added = [(r.round, r.white, r.black, r.white_score, r.black_score, r.rated) for r in w.results if r.added]
    assert added == [(4, 1, 4, 0.0, 1.0, False), (5, 5, 1, 1.0, 0.0, False)]


@pytest.mark.rule("004 16")
def test_unplayed_games_are_rated_only_without_approved_notice():
    state = rr_state(6, leaver=1, left_after=3)
    w = leave(state, 1, round_robin=True, notice=False)
    assert [(r.round, r.rated) for r in w.results if r.added] == [(4, True), (5, True)]
    assert len(w.rated_games()) == 15
    struck = leave(rr_state(6, leaver=1, left_after=2), 1, round_robin=True, notice=False)
    lost = [r for r in struck.results if r.added]
    assert [(r.round, r.counts, r.rated) for r in lost] == [(3, False, True), (4, False, True), (5, False, True)]


@pytest.mark.rule("004 16")
def test_exactly_half_is_fifty_percent_or_more():
    # Five players: four games each and a bye. Player 3 leaves after his second game.
    rounds = schedule(5)
    games_of_3 = [rnd for rnd, pairs in enumerate(rounds, 1) if any(3 in p and 0 not in p for p in pairs)]
    second, first = games_of_3[1], games_of_3[0]
    w = leave(rr_state(5, leaver=3, left_after=second), 3, round_robin=True)
    assert (w.completed, w.scheduled, w.rule) == (2, 4, "remaining-lost")
    w = leave(rr_state(5, leaver=3, left_after=first), 3, round_robin=True)
    assert (w.completed, w.scheduled, w.rule) == (1, 4, "struck")


@pytest.mark.rule("004 16")
def test_left_after_defaults_to_his_last_game_over_the_board():
    state = rr_state(6, leaver=4, left_after=3)
    w = leave(state, 4, round_robin=True)
    played = [rnd for rnd, pairs in enumerate(schedule(6), 1) if rnd <= 3 and any(4 in p for p in pairs)]
    assert w.left_after == max(played)


@pytest.mark.rule("004 16")
def test_in_other_systems_he_leaves_the_pairing_and_his_score_stays():
    players = [Player(i) for i in range(1, 5)]
    a, b, c, d = players
    a.history = [RoundRecord(Kind.GAME, 2, Colour.WHITE, 1.0), RoundRecord(Kind.GAME, 3, Colour.BLACK, 0.5)]
    b.history = [RoundRecord(Kind.GAME, 1, Colour.BLACK, 0.0), RoundRecord(Kind.GAME, 4, Colour.WHITE, 1.0)]
    c.history = [RoundRecord(Kind.GAME, 4, Colour.WHITE, 0.5), RoundRecord(Kind.GAME, 1, Colour.WHITE, 0.5)]
    d.history = [RoundRecord(Kind.GAME, 3, Colour.BLACK, 0.5), RoundRecord(Kind.GAME, 2, Colour.BLACK, 0.0)]
    state = TournamentState(players, total_rounds=5, round_to_pair=3)
    w = leave(state, 1, round_robin=False)
    assert w.rule == "leaves-pairing" and w.ranked
    assert w.standing_points() == {p.id: p.score() for p in players}
    assert all(r.counts and r.rated for r in w.results) and len(w.results) == 4


@pytest.mark.rule("004 16")
def test_a_double_round_robin_counts_the_games_of_both_cycles():
    # Four players, six rounds: player 2 leaves after round 3 with 3 of his 6 games played.
    w = leave(rr_state(4, leaver=2, left_after=3, cycles=2), 2, round_robin=True)
    assert (w.completed, w.scheduled, w.rule) == (3, 6, "remaining-lost")
    assert [r.round for r in w.results if r.added] == [4, 5, 6]
    assert all(r.score(2) == 0.0 for r in w.results if r.added)
    w = leave(rr_state(4, leaver=2, left_after=2, cycles=2), 2, round_robin=True)
    assert (w.completed, w.scheduled, w.rule) == (2, 6, "struck")
