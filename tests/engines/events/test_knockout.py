"""DSU knockout: seed 004 §4.9.7 and seeds README item 15."""

import pytest

from pairing.engines import registry
from pairing.engines.knockout import (
    Match,
    MatchFormat,
    Stage,
    bracket_size,
    build_bracket,
    draw_lots,
    play_match,
    seed_lot_groups,
)
from pairing.engines.state import Colour, InvalidInput, Kind, Player, RoundRecord, TournamentState


def field(n: int, seed: int = 1, **settings) -> TournamentState:
    # Player i is seed i: DSU rating falls with the start number.
    players = [Player(i, f"P{i}", rating=2300 - 10 * i, national_rating=2300 - 10 * i) for i in range(1, n + 1)]
    return TournamentState(players, total_rounds=0, round_to_pair=1, settings=settings, seed=seed)


def meeting_round(lot_a: int, lot_b: int) -> int:
    """The round in which the holders of two lot numbers can first meet."""
    return ((lot_a - 1) ^ (lot_b - 1)).bit_length()


@pytest.mark.rule("004 4.9.7")
def test_the_sixteen_player_scheme_of_item_15():
    assert seed_lot_groups(16) == [
        (range(1, 3), [1, 16]),
        (range(3, 5), [8, 9]),
        (range(5, 9), [4, 5, 12, 13]),
        (range(9, 17), [2, 3, 6, 7, 10, 11, 14, 15]),
    ]


@pytest.mark.rule("004 4.9.7")
@pytest.mark.parametrize("seed", range(12))
def test_sixteen_players_draw_their_lot_numbers_within_their_seed_group(seed):
    seeds = list(range(101, 117))
    size, lots = draw_lots(seeds, seed)
    assert size == 16
    assert {lots[101], lots[102]} == {1, 16}
    assert {lots[103], lots[104]} == {8, 9}
    assert {lots[s] for s in range(105, 109)} == {4, 5, 12, 13}
    assert sorted(lots.values()) == list(range(1, 17))


@pytest.mark.rule("004 4.9.7")
def test_the_lot_inside_a_seed_group_varies_with_the_seed():
    draws = {tuple(sorted(draw_lots(list(range(1, 17)), seed)[1].items())) for seed in range(20)}
    assert len(draws) > 10


@pytest.mark.rule("004 4.9.7")
@pytest.mark.parametrize("size", [2, 4, 8, 16, 32, 64, 128])
def test_seeds_meet_no_earlier_than_the_round_they_are_seeded_for(size):
    rounds = size.bit_length() - 1
    for seed in range(5):
        _, lots = draw_lots(list(range(1, size + 1)), seed)
        for s in range(1, size + 1):
            for t in range(s + 1, size + 1):
                # Seeds 1-2 are seeded for the final, 3-4 for the semi-final, 5-8 one round earlier ...
                seeded_for = rounds - max(0, (t - 1).bit_length() - 1)
                assert meeting_round(lots[s], lots[t]) >= seeded_for
        assert meeting_round(lots[1], lots[2]) == rounds


@pytest.mark.rule("004 4.9.7")
def test_round_one_pairs_lot_numbers_one_two_three_four_and_so_on():
    bracket = build_bracket(field(16))
    lot_of = bracket.lots
    assert [tuple(lot_of[p] for p in m.players) for m in bracket.rounds[0]] == [(2 * i - 1, 2 * i) for i in range(1, 9)]
    assert [len(r) for r in bracket.rounds] == [8, 4, 2, 1]
    assert [bracket.round_name(r) for r in (1, 2, 3, 4)] == ["round of 16", "quarter-final", "semi-final", "final"]


@pytest.mark.rule("004 4.9.7")
@pytest.mark.parametrize(("n", "size", "byes"), [(5, 8, 3), (12, 16, 4), (33, 64, 31)])
def test_fields_that_are_not_a_power_of_two_give_the_top_seeds_byes(n, size, byes):
    state = field(n)
    bracket = build_bracket(state)
    assert bracket.size == bracket_size(n) == size
    bye_matches = [m for m in bracket.rounds[0] if m.is_bye]
    assert sorted(m.winner for m in bye_matches) == list(range(1, byes + 1))
    assert all(m.reason.text() == "bye" for m in bye_matches)
    played = [m for m in bracket.rounds[0] if not m.is_bye]
    assert sorted(p for m in played for p in m.players) == list(range(byes + 1, n + 1))
    pairing = registry.get("knockout").pair(state)
    assert len(pairing.boards) == (n - byes) // 2
    assert sorted(b.player for b in pairing.byes) == list(range(1, byes + 1))
    assert all(b.kind is Kind.PAIRING_BYE for b in pairing.byes)


@pytest.mark.rule("004 4.9.7")
def test_field_of_five_round_one_is_seed_four_against_seed_five():
    (board,) = registry.get("knockout").pair(field(5)).boards
    assert {board.white, board.black} == {4, 5}


@pytest.mark.rule("004 4.9.7")
def test_seeding_by_dsu_rating_then_title_then_elo_then_lot():
    players = [
        Player(1, national_rating=2000, rating=2100),
        Player(2, national_rating=2000, rating=2200),
        Player(3, national_rating=2000, rating=2000, title="FM"),
        Player(4, national_rating=2100, rating=1900),
        Player(5, national_rating=1900, rating=2300, title="IM"),
        Player(6, national_rating=1800),
        Player(7, national_rating=1800),
        Player(8, national_rating=1800),
    ]
    orders = set()
    for seed in range(16):
        bracket = build_bracket(TournamentState(players, 0, 1, seed=seed))
        assert bracket.seeds[:5] == [4, 3, 2, 1, 5]
        orders.add(tuple(bracket.seeds[5:]))
    assert len(orders) > 1  # the lot decides among 6, 7, 8


def _match(fmt: MatchFormat, results, seed=3) -> Match:
    match = Match(1, 1, (1, 2), (1, 2))
    play_match(match, fmt, results, seed)
    return match


@pytest.mark.rule("004 4.9.7")
def test_a_match_decided_in_the_normal_games():
    match = _match(MatchFormat(), [1.0, 0.5])
    white_first = match.games[0].white
    assert match.winner == white_first
    assert match.decided_in is Stage.CLASSICAL
    assert match.reason.text() == "won the classical games 1½-½"
    assert [(g.white, g.black) for g in match.games] == [(white_first, 3 - white_first), (3 - white_first, white_first)]


@pytest.mark.rule("004 4.9.7")
def test_a_match_decided_in_the_rapid_games():
    match = _match(MatchFormat(), [0.5, 0.5, 0.0, 0.5])
    rapid = [g for g in match.games if g.stage is Stage.RAPID]
    assert len(rapid) == 2
    assert match.winner == rapid[0].black  # won the first rapid game with black, drew the second
    assert match.decided_in is Stage.RAPID


@pytest.mark.rule("004 4.9.7")
def test_a_match_decided_in_the_blitz_games():
    match = _match(MatchFormat(), [1.0, 1.0, 0.5, 0.5, 1.0, 1.0])  # each won once with white
    assert match.winner is None
    assert match.next_game is not None and match.next_game.stage is Stage.ARMAGEDDON
    match = _match(MatchFormat(), [1.0, 1.0, 0.5, 0.5, 0.5, 1.0])
    blitz = [g for g in match.games if g.stage is Stage.BLITZ]
    assert match.decided_in is Stage.BLITZ and match.winner == blitz[1].white


@pytest.mark.rule("004 4.9.7")
@pytest.mark.parametrize(("result", "winner_colour"), [(1.0, Colour.WHITE), (0.5, Colour.BLACK), (0.0, Colour.BLACK)])
def test_the_final_blitz_game_a_draw_wins_for_black(result, winner_colour):
    match = _match(MatchFormat(), [0.5] * 6 + [result])
    final = match.games[-1]
    assert final.stage is Stage.ARMAGEDDON and len(match.games) == 7
    assert match.winner == (final.white if winner_colour is Colour.WHITE else final.black)
    assert match.decided_in is Stage.ARMAGEDDON
    if result == 0.5:
        assert match.reason.text() == "drew the armageddon game with black"


@pytest.mark.rule("004 4.9.7")
def test_colours_are_drawn_per_stage_and_alternate_within_it():
    first_whites = set()
    for seed in range(30):
        match = _match(MatchFormat(), [0.5] * 6, seed)
        by_stage = {}
        for g in match.games:
            by_stage.setdefault(g.stage, []).append(g)
        for games in by_stage.values():
            assert games[0].white == games[1].black and games[0].black == games[1].white
        first_whites.add(tuple(by_stage[s][0].white for s in (Stage.CLASSICAL, Stage.RAPID, Stage.BLITZ)))
    assert len(first_whites) > 2  # the stages draw independently


@pytest.mark.rule("004 4.9.7")
def test_skipped_stages_go_straight_to_the_final_game():
    match = _match(MatchFormat(games=2, rapid_games=0, blitz_games=0), [0.5, 0.5, 0.5])
    assert [g.stage for g in match.games] == [Stage.CLASSICAL, Stage.CLASSICAL, Stage.ARMAGEDDON]
    assert match.winner == match.games[-1].black


@pytest.mark.rule("004 4.9.7")
def test_a_stage_stops_once_it_is_settled_and_later_results_are_rejected():
    match = _match(MatchFormat(games=4), [1.0, 0.0, 1.0])  # 3-0 for whoever had white first
    assert match.winner is not None and len(match.games) == 3
    with pytest.raises(InvalidInput):
        _match(MatchFormat(games=4), [1.0, 0.0, 1.0, 0.5])
    with pytest.raises(InvalidInput):
        _match(MatchFormat(), [0.7])


@pytest.mark.rule("004 4.9.7")
def test_later_rounds_follow_the_recorded_winners():
    state = field(8, seed=5)
    bracket = build_bracket(state)
    # The lower start number (the higher seed) wins every round-1 match.
    for m in bracket.rounds[0]:
        a, b = m.players
        for p, q in ((a, b), (b, a)):
            state.player(p).history.append(RoundRecord(Kind.GAME, q, Colour.WHITE, 1.0 if p < q else 0.0))
    state.round_to_pair = 2
    pairing = registry.get("knockout").pair(state)
    assert sorted((min(b.white, b.black), max(b.white, b.black)) for b in pairing.boards) == [(1, 4), (2, 3)]
    again = build_bracket(state)
    assert [m.reason.text() for m in again.rounds[0]] == ["result recorded"] * 4


@pytest.mark.rule("004 4.9.7")
def test_the_whole_bracket_from_game_results_finds_the_champion():
    state = field(4, seed=2)
    empty = build_bracket(state)
    games = {}
    for m in empty.rounds[0]:
        # The first-named player of each match wins game 1 and draws game 2.
        games[1, m.number] = [1.0 if m.next_game.white == min(m.players) else 0.0, 0.5]
    semi = build_bracket(state, games)
    assert [m.winner for m in semi.rounds[0]] == [min(m.players) for m in semi.rounds[0]]
    final = semi.rounds[1][0]
    assert set(final.players) == {1, 2} and final.next_game is not None
    games[2, 1] = [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5]
    done = build_bracket(state, games)
    assert done.champion == done.rounds[1][0].games[-1].black
    assert len(done.played_games()) == 2 + 2 + 7


@pytest.mark.rule("004 4.9.7")
def test_a_withdrawn_player_loses_by_walkover():
    state = field(4, seed=9)
    opponent_of_1 = next(m for m in build_bracket(state).rounds[0] if 1 in m.players).players
    other = opponent_of_1[0] if opponent_of_1[1] == 1 else opponent_of_1[1]
    state.player(other).withdrawn = True
    match = next(m for m in build_bracket(state).rounds[0] if 1 in m.players)
    assert match.winner == 1 and match.reason.text().startswith("walkover")


@pytest.mark.rule("004 4.9.7")
def test_settings_are_validated():
    with pytest.raises(InvalidInput):
        registry.get("knockout").pair(field(8, games=0))
    with pytest.raises(InvalidInput):
        registry.get("knockout").pair(field(8, overtime=True))
    with pytest.raises(InvalidInput):
        build_bracket(field(1))


@pytest.mark.rule("004 4.9.7")
def test_a_round_cannot_be_paired_before_the_round_before_it_is_decided():
    state = field(5, seed=4)
    state.round_to_pair = 2
    bracket = build_bracket(state)
    waiting = [m for m in bracket.rounds[1] if m.waiting]
    assert len(waiting) == 1 and not waiting[0].is_bye
    with pytest.raises(InvalidInput):
        registry.get("knockout").pair(state)
