"""The Keizer pairing, colours and reserve: seed 003 §1.7-§1.9 as seeds README item 4 fills them."""

import pytest

from pairing.engines import registry
from pairing.engines.keizer.pair import Card, Limits, allocate, colour_options, lost_evenings, relaxation_steps
from pairing.engines.keizer.settings import KeizerSettings
from pairing.engines.notes import english
from pairing.engines.state import Board, Bye, Colour, InvalidInput, Kind
from tests.engines.keizer.keizer_cases import B, Season, W, kijk_uit_round_1

LIMITS = Limits(4, 8, 2, 2)


def flat(**settings) -> Season:
    """Every place worth the same and absence with notice worth a draw: with only draws
    between equally rated players the ranking stays the start order."""
    return Season(list("ABCDEFGH"), aalsmeer_rounds=0, value_step=0, absent_notice_fraction=0.5, **settings)


def pairs(pairing) -> list[tuple[int, int]]:
    return [tuple(sorted((b.white, b.black))) for b in pairing.boards]


@pytest.mark.rule("003 1.7")
@pytest.mark.rule("003 1.8")
def test_round_1_pairs_top_down_and_alternates_colours_by_board():
    season = Season(list("ABCDEF"))
    pairing = registry.pair(season.state(), "keizer")
    assert pairing.boards == [Board(1, 2), Board(4, 3), Board(5, 6)]
    assert pairing.byes == []


@pytest.mark.rule("003 1.7")
@pytest.mark.rule("003 2.1")
@pytest.mark.rule("003 1.4")
def test_pairing_follows_the_ranking_and_the_list_is_sorted_by_it():
    # After §1.4's round 1: André, Colleen, Peter vN, Jaap, Sinclair, Peter H.
    season = kijk_uit_round_1()
    i = season.id
    pairing = registry.pair(season.state(), "keizer")
    assert pairs(pairing) == [
        tuple(sorted((i("André Kunst"), i("Colleen Otten")))),
        tuple(sorted((i("Peter van Nieuwenhuizen"), i("Jaap Kramer")))),
        tuple(sorted((i("Sinclair Koelemij"), i("Peter Hamersma")))),
    ]


@pytest.mark.rule("003 1.7")
@pytest.mark.rule("003 3.3")
def test_absent_players_are_not_paired_and_come_back_as_byes_of_their_kind():
    season = flat()
    state = season.state(absent={2: Kind.ABSENT_NOTICE, 5: Kind.CLUB_MATCH, 7: Kind.ABSENT, 8: Kind.ABSENT})
    pairing = registry.pair(state, "keizer")
    assert pairs(pairing) == [(1, 3), (4, 6)]
    assert pairing.byes == [
        Bye(2, Kind.ABSENT_NOTICE, 0.0),
        Bye(5, Kind.CLUB_MATCH, 0.0),
        Bye(7, Kind.ABSENT, 0.0),
        Bye(8, Kind.ABSENT, 0.0),
    ]


def test_withdrawn_players_are_not_paired():
    season = flat()
    season.players[0].withdrawn = True
    season.players[7].withdrawn = True
    assert pairs(registry.pair(season.state(), "keizer")) == [(2, 3), (4, 5), (6, 7)]


def test_requested_swiss_byes_are_refused():
    with pytest.raises(InvalidInput, match="full-bye"):
        registry.pair(flat().state(absent={1: Kind.FULL_BYE}), "keizer")


# Forbidden pairs and the order of relaxation


@pytest.mark.rule("003 1.7")
@pytest.mark.rule("003 2.1")
def test_no_repeat_within_the_window():
    season = flat()
    season.round(games=[(1, 2, 0.5), (3, 4, 0.5), (5, 6, 0.5), (7, 8, 0.5)])
    pairing = registry.pair(season.state(), "keizer")
    assert pairs(pairing) == [(1, 3), (2, 4), (5, 7), (6, 8)]
    assert "Skipped: 2. B: met in round 1, within 4 round(s)." in english(pairing.explanation)[1]


def test_the_window_is_a_setting():
    season = flat(repeat_window=0)
    season.round(games=[(1, 2, 0.5), (3, 4, 0.5), (5, 6, 0.5), (7, 8, 0.5)])
    assert pairs(registry.pair(season.state(), "keizer")) == [(1, 2), (3, 4), (5, 6), (7, 8)]


def test_a_partner_is_skipped_when_the_others_could_not_all_be_paired():
    season = flat()
    absent = {p: Kind.ABSENT_NOTICE for p in (1, 2, 7, 8)}
    season.round(games=[(3, 4, 0.5), (1, 5, 0.5), (2, 6, 0.5)], other={7: Kind.ABSENT_NOTICE, 8: Kind.ABSENT_NOTICE})
    season.round(games=[(5, 3, 0.5), (4, 6, 0.5)], other=absent)
    season.round(games=[(6, 3, 0.5), (4, 5, 0.5)], other=absent)
    pairing = registry.pair(season.state(absent={7: Kind.ABSENT_NOTICE, 8: Kind.ABSENT_NOTICE}), "keizer")
    # 1 v 2 would leave 3, who met 4, 5 and 6 in the last three rounds, without a partner.
    assert pairs(pairing) == [(1, 3), (2, 4), (5, 6)]
    assert "Skipped: 2. B: the others could not all be paired then." in english(pairing.explanation)[1]


@pytest.mark.rule("003 1.7")
@pytest.mark.rule("003 2.1")
def test_the_repeat_window_relaxes_step_by_step():
    season = flat()
    for games in ([(1, 2, 0.5), (3, 4, 0.5)], [(3, 1, 0.5), (2, 4, 0.5)], [(4, 1, 0.5), (2, 3, 0.5)]):
        season.round(games=games, other={p: Kind.ABSENT_NOTICE for p in range(5, 9)})
    absent = {p: Kind.ABSENT_NOTICE for p in range(5, 9)}
    pairing = registry.pair(season.state(absent=absent), "keizer")
    assert pairs(pairing) == [(1, 2), (3, 4)]  # they met in round 1, longest ago
    assert english(pairing.explanation)[1:4] == [
        "No pairing keeps: no repeat within 4 round(s), meetings at most 8, "
        "colour difference at most 2, at most 2 equal colours in a row.",
        "No pairing keeps: no repeat within 3 round(s), meetings at most 8, "
        "colour difference at most 2, at most 2 equal colours in a row.",
        "Relaxed to: no repeat within 2 round(s), meetings at most 8, "
        "colour difference at most 2, at most 2 equal colours in a row.",
    ]


@pytest.mark.rule("003 1.7")
@pytest.mark.rule("003 2.1")
def test_the_maximum_of_meetings_relaxes_after_the_whole_window():
    season = flat(max_meetings=2)
    others = {p: Kind.ABSENT_NOTICE for p in range(3, 9)}
    season.round(games=[(1, 2, 0.5)], other=others)
    season.round(games=[(2, 1, 0.5)], other=others)
    pairing = registry.pair(season.state(absent=others), "keizer")
    assert pairs(pairing) == [(1, 2)]
    lines = english(pairing.explanation)
    assert [line.split(":")[0] for line in lines[1:7]] == ["No pairing keeps"] * 5 + ["Relaxed to"]
    windows = zip(range(4, -1, -1), lines[1:6], strict=True)
    assert all(f"within {w} round(s)" in line for w, line in windows)
    assert "meetings at most 2" in english(pairing.explanation)[5]
    assert english(pairing.explanation)[6] == (
        "Relaxed to: no repeat within 0 round(s), meetings no limit, "
        "colour difference at most 2, at most 2 equal colours in a row."
    )


@pytest.mark.rule("003 1.7")
@pytest.mark.rule("003 2.1")
@pytest.mark.rule("003 1.8")
def test_the_colour_limits_relax_last():
    season = flat()
    others = {p: Kind.ABSENT_NOTICE for p in range(5, 9)}
    # 1 and 2 both had white twice: neither may have white again (difference 3, three in a row).
    season.round(games=[(1, 3, 0.5), (2, 4, 0.5)], other=others)
    season.round(games=[(1, 4, 0.5), (2, 3, 0.5)], other=others)
    pairing = registry.pair(season.state(absent=others | {3: Kind.ABSENT_NOTICE, 4: Kind.ABSENT_NOTICE}), "keizer")
    assert pairing.boards == [Board(2, 1)]  # equal claims to black: 1 is higher-ranked
    assert english(pairing.explanation)[-2] == (
        "Relaxed to: no repeat within 0 round(s), meetings no limit, "
        "colour difference at most 3, at most 3 equal colours in a row."
    )
    assert sum(line.startswith("No pairing keeps") for line in english(pairing.explanation)) == 6


@pytest.mark.rule("003 1.7")
@pytest.mark.rule("003 2.1")
def test_relaxation_steps_follow_the_settings():
    steps = relaxation_steps(KeizerSettings(repeat_window=2, max_meetings=3))
    assert steps == [
        Limits(2, 3, 2, 2),
        Limits(1, 3, 2, 2),
        Limits(0, 3, 2, 2),
        Limits(0, None, 2, 2),
        Limits(0, None, 3, 3),
        Limits(0, None, None, None),
    ]


# Colours (§1.8)


def card(place: int, colours: list[Colour]) -> Card:
    return Card(place, "", place, colours)


@pytest.mark.rule("003 1.8")
def test_colour_limits_difference_and_run():
    assert colour_options(card(1, [W, W]), card(2, []), LIMITS) == [B]  # difference would be 3
    assert colour_options(card(1, [B, W, W]), card(2, []), LIMITS) == [B]  # a third white in a row
    assert colour_options(card(1, [W, B, W]), card(2, []), LIMITS) == [W, B]
    assert colour_options(card(1, [W, W]), card(2, [B, B]), LIMITS) == [B]
    assert colour_options(card(1, [W, W]), card(2, [W, W]), LIMITS) == []


@pytest.mark.rule("003 1.8")
def test_colours_steer_the_balance_toward_zero():
    board, why = allocate(card(1, [W, B, W]), card(2, [B, W, B]), 1, LIMITS, W)
    assert board == Board(2, 1)
    assert why.text().endswith("(both preferences met)")


@pytest.mark.rule("003 1.8")
def test_a_colour_difference_goes_before_alternation():
    # 1 (difference 0, black last) would alternate to white; 2 (one black too many) needs white.
    board, why = allocate(card(1, [W, B]), card(2, [B]), 1, LIMITS, W)
    assert board == Board(2, 1)
    assert "the colour difference of 2. 2 goes before alternation" in why.text()


@pytest.mark.rule("003 1.8")
def test_then_alternate():
    assert allocate(card(1, [W, B]), card(2, [B, W]), 1, LIMITS, W)[0] == Board(1, 2)


@pytest.mark.rule("003 1.8")
def test_equal_claims_go_to_the_higher_ranked_player():
    assert allocate(card(1, [B]), card(2, [B]), 1, LIMITS, W)[0] == Board(1, 2)
    assert allocate(card(1, [W, B]), card(2, [B, W, W, B]), 1, LIMITS, W)[0] == Board(1, 2)


def test_a_player_without_history_takes_the_other_players_wish():
    assert allocate(card(1, []), card(2, [W]), 1, LIMITS, W)[0] == Board(1, 2)
    assert allocate(card(1, [W]), card(2, []), 1, LIMITS, W)[0] == Board(2, 1)


@pytest.mark.rule("003 1.8")
def test_no_history_alternates_by_board_from_the_round_1_colour():
    assert allocate(card(1, []), card(2, []), 1, LIMITS, B)[0] == Board(2, 1)
    assert allocate(card(3, []), card(4, []), 2, LIMITS, B)[0] == Board(3, 4)


@pytest.mark.rule("003 1.8")
def test_colour_limits_overrule_the_wish():
    # Both want white with equal claims, so 1 would have it; but 2 (two blacks in a row,
    # difference -2) may only have white.
    board, why = allocate(card(1, [B]), card(2, [B, B]), 1, LIMITS, W)
    assert board == Board(2, 1)
    assert why.text().endswith("(the colour limits decide)")


def test_the_higher_ranked_players_difference_goes_before_the_others_alternation():
    board, why = allocate(card(1, [W, B, B]), card(2, [W, B]), 1, LIMITS, W)
    assert board == Board(1, 2)
    assert why.text().endswith("(the colour difference of 1. 1 goes before alternation)")


# The reserve (§1.9)


@pytest.mark.rule("003 1.9")
def test_the_reserve_is_one_of_those_with_the_fewest_lost_evenings():
    season = flat()
    season.round(games=[(1, 2, 0.5), (3, 4, 0.5), (5, 6, 0.5)], other={7: Kind.PAIRING_BYE, 8: Kind.ABSENT_NOTICE})
    for p in season.players[:5]:
        p.extra["lost_evenings"] = 1  # bar duty, team leader
    absent = {8: Kind.ABSENT_NOTICE}
    assert [lost_evenings(p) for p in season.players] == [1, 1, 1, 1, 1, 0, 1, 0]
    for seed in range(10):
        pairing = registry.pair(season.state(absent=absent, seed=seed), "keizer")
        assert pairing.byes[-1] == Bye(6, Kind.PAIRING_BYE, 0.0)
        assert len(pairing.boards) == 3
    assert "fewest lost evenings (0): 6. F; drawn by lot (seed 9): 6. F." in english(pairing.explanation)[1]


@pytest.mark.rule("003 1.9")
def test_the_reserve_lot_comes_from_the_seed():
    season = flat()
    state = season.state(absent={8: Kind.ABSENT_NOTICE})
    drawn = {
        seed: registry.pair(season.state(absent={8: Kind.ABSENT_NOTICE}, seed=seed), "keizer").byes[-1].player
        for seed in range(30)
    }
    assert set(drawn.values()) == set(range(1, 8))  # all seven are candidates
    assert registry.pair(state, "keizer") == registry.pair(state, "keizer")
    assert drawn[state.seed] == registry.pair(state, "keizer").byes[-1].player


@pytest.mark.rule("003 1.8")
def test_a_forfeit_is_no_meeting_and_gives_no_colour():
    season = flat()
    others = {p: Kind.ABSENT_NOTICE for p in range(3, 9)}
    season.round(forfeits=[(1, 2)], other=others)  # recorded with 1 white, 2 black
    pairing = registry.pair(season.state(absent=others), "keizer")
    assert pairing.boards == [Board(1, 2)]  # no colour history: board 1's higher-ranked player has white
    assert not any(line.startswith("No pairing keeps") for line in english(pairing.explanation))


def test_an_absent_start_number_that_is_no_player_is_refused():
    with pytest.raises(InvalidInput, match="player 9 is absent but not a player"):
        registry.pair(flat().state(absent={9: Kind.ABSENT_NOTICE}), "keizer")
