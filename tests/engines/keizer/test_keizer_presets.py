"""Keizer presets and the §2.1 settings beyond the club's own (seed 003 §2.1; docs/keizer.md "Presets")."""

import pytest

from pairing.engines import keizer, registry
from pairing.engines.keizer.pair import Limits, relaxation_steps
from pairing.engines.keizer.scoring import value_at
from pairing.engines.keizer.settings import KeizerSettings
from pairing.engines.notes import english
from pairing.engines.state import Board, Bye, InvalidInput, Kind
from tests.engines.keizer.keizer_cases import Season


def table(season: Season, rounds: int | None = None) -> dict[int, float]:
    return {row.player: round(row.total, 3) for row in keizer.standings(season.state(), rounds).rows}


# The presets as data


@pytest.mark.rule("003 2.1")
def test_the_club_preset_is_the_defaults():
    assert keizer.PRESETS["club"] == keizer.DEFAULTS
    assert keizer.apply_preset("club") == keizer.DEFAULTS


@pytest.mark.rule("003 2.1")
def test_every_preset_is_complete_valid_and_labelled():
    system = registry.get("keizer")
    assert set(keizer.PRESETS) == {"club", "keizerforclubs", "classic-knsb"} == set(keizer.PRESET_LABELS)
    for name, settings in keizer.PRESETS.items():
        assert set(settings) == set(keizer.DEFAULTS), name
        assert system.settings(settings) == settings


@pytest.mark.rule("003 2.1")
def test_keizerforclubs_defaults():
    s = keizer.apply_preset("keizerforclubs")
    assert (s["value_ratio"], s["own_value_in_total"], s["bye_fraction"]) == (3, True, 0.5)
    assert (s["absent_notice_fraction"], s["club_match_fraction"], s["repeat_window"]) == (0.35, 0.7, 4)
    assert (s["aalsmeer_rounds"], s["reserve_choice"], s["max_colour_difference"]) == (0, "lowest", 0)


@pytest.mark.rule("003 2.1")
def test_a_preset_with_overrides():
    settings = keizer.apply_preset("classic-knsb", {"repeat_window": 2})
    assert settings["repeat_window"] == 2
    assert settings["bye_fraction"] == pytest.approx(2 / 3)
    assert keizer.PRESETS["classic-knsb"]["repeat_window"] == 4  # the preset itself is unchanged


@pytest.mark.rule("003 2.1")
def test_an_unknown_preset_or_a_bad_override_is_refused():
    with pytest.raises(InvalidInput, match="unknown Keizer preset 'swiss'"):
        keizer.apply_preset("swiss")
    with pytest.raises(InvalidInput, match="reserve_choice"):
        keizer.apply_preset("club", {"reserve_choice": "oldest"})
    with pytest.raises(InvalidInput, match="value_ratio"):
        keizer.apply_preset("club", {"value_ratio": 1})
    with pytest.raises(InvalidInput, match="Unknown setting.*toughness"):
        keizer.apply_preset("club", {"toughness": 0.05})


@pytest.mark.rule("003 2.1")
def test_a_preset_drives_the_standings():
    season = Season(list("ABCD"), **keizer.apply_preset("keizerforclubs"))
    season.round(games=[(1, 2, 0.0)], other={3: Kind.ABSENT_NOTICE, 4: Kind.ABSENT})
    # Four players, ratio 3: the top value is round((4 - 1) × 3 / 2) = round(4.5) = 4 (half to even), so
    # the values are 4, 3, 2, 1. B beat A: 4 + own 3 = 7; A lost: 0 + own 4 = 4; C excused:
    # 35 % of 2 + 2 = 2.7; D unexcused: 5 % of 1 + 1 = 1.05.
    assert table(season) == {2: 7.0, 1: 4.0, 3: 2.7, 4: 1.05}


# Values from the field size (KeizerForClubs "Ratio win against first to last")


@pytest.mark.rule("003 2.1")
def test_the_value_ratio_sets_the_top_value_from_the_field_size():
    s = KeizerSettings(value_ratio=3)
    assert [value_at(place, s, 21) for place in (1, 2, 20, 21)] == [30, 29, 11, 10]  # 30 / 10 = 3
    assert value_at(1, s, 41) == 60
    assert value_at(1, KeizerSettings(), 21) == 60  # without a ratio: top_value


# §2.1 "Beginwaarde optellen bij totaalscore"


@pytest.mark.rule("003 2.1")
def test_own_value_added_once_to_the_total():
    # Sixteen players, values 80 down to 65, the own value counted once: number 1 beats number 10, who
    # is left with his own value; numbers 8 and 9 draw.
    season = Season([f"P{i}" for i in range(1, 17)], top_value=80, aalsmeer_rounds=0, own_value_in_total=True)
    season.round(games=[(1, 10, 1.0), (8, 9, 0.5)])
    totals = table(season)
    assert (totals[1], totals[10], totals[8], totals[9]) == (151, 71, 109, 108.5)
    assert totals[2] == 79  # absent without notice: nothing but his own value
    row = next(r for r in keizer.standings(season.state()).rows if r.player == 1)
    assert english(row.explanation)[-2] == 'Own value added once (§2.1 "Beginwaarde optellen bij totaalscore"): 80'


@pytest.mark.rule("003 2.1")
def test_without_the_setting_the_own_value_is_not_added():
    season = Season([f"P{i}" for i in range(1, 17)], top_value=80, aalsmeer_rounds=0)
    season.round(games=[(1, 10, 1.0), (8, 9, 0.5)])
    totals = table(season)
    assert (totals[1], totals[10], totals[8], totals[9]) == (71, 0, 36, 36.5)


# Pairing settings of §2.1


def flat(**settings) -> Season:
    """Equal values and draws only: the ranking stays the start order."""
    return Season(list("ABCDEFGH"), aalsmeer_rounds=0, value_step=0, absent_notice_fraction=0.5, **settings)


@pytest.mark.rule("003 2.1")
def test_zero_means_no_limit_for_meetings_and_colours():
    steps = relaxation_steps(KeizerSettings(repeat_window=1, max_meetings=0, max_colour_difference=0))
    assert steps == [Limits(1, None, None, 2), Limits(0, None, None, 2), Limits(0, None, None, 2)] + [
        Limits(0, None, None, 3),
        Limits(0, None, None, None),
    ]
    assert steps[0].describe().text() == (
        "no repeat within 1 round(s), meetings no limit, no colour difference limit, at most 2 equal colours in a row"
    )
    none = relaxation_steps(KeizerSettings(max_colour_difference=0, max_same_colour_run=0))
    assert none[-1] == Limits(0, None, None, None)
    assert none[-1].describe().text().endswith("no colour limits")


@pytest.mark.rule("003 2.1")
def test_without_colour_limits_a_player_may_have_white_three_times_in_a_row():
    season = flat(max_colour_difference=0, max_same_colour_run=0, repeat_window=0)
    others = {p: Kind.ABSENT_NOTICE for p in range(3, 9)}
    for _ in range(2):
        season.round(games=[(1, 2, 0.5)], other=others)  # 1 white twice
    pairing = registry.pair(season.state(absent=others), "keizer")
    assert pairing.boards == [Board(2, 1)]  # the balance still steers toward zero
    assert not any(line.startswith("No pairing keeps") for line in english(pairing.explanation))


@pytest.mark.rule("003 2.1")
def test_a_place_difference_limit_is_relaxed_first():
    season = flat(max_place_difference=1)
    season.round(games=[(1, 2, 0.5), (3, 4, 0.5), (5, 6, 0.5), (7, 8, 0.5)])
    pairing = registry.pair(season.state(), "keizer")
    # 1 may not meet 2 again (window), 3 is two places away: the limit cannot be kept.
    assert english(pairing.explanation)[1] == (
        "No pairing keeps: no repeat within 4 round(s), meetings at most 8, colour difference at most 2, "
        "at most 2 equal colours in a row, places at most 1 apart."
    )
    assert english(pairing.explanation)[2].startswith("Relaxed to: no repeat within 4 round(s)")
    assert "places at most" not in english(pairing.explanation)[2]


@pytest.mark.rule("003 2.1")
def test_a_place_difference_limit_that_can_be_kept():
    season = flat(max_place_difference=2)
    pairing = registry.pair(season.state(absent={2: Kind.ABSENT_NOTICE, 3: Kind.ABSENT_NOTICE}), "keizer")
    # 1's next unpaired player (4) is three places away: 1 cannot be paired under the limit at all.
    assert "Relaxed to" in english(pairing.explanation)[2]
    season = flat(max_place_difference=3)
    pairing = registry.pair(season.state(absent={2: Kind.ABSENT_NOTICE, 3: Kind.ABSENT_NOTICE}), "keizer")
    assert [tuple(sorted((b.white, b.black))) for b in pairing.boards] == [(1, 4), (5, 6), (7, 8)]
    assert not any(line.startswith("No pairing keeps") for line in english(pairing.explanation))


@pytest.mark.rule("003 2.1")
def test_forfeits_may_count_as_meetings():
    others = {p: Kind.ABSENT_NOTICE for p in range(3, 9)}
    for setting in (False, True):
        season = flat(forfeits_count_as_meetings=setting)
        season.round(forfeits=[(1, 2)], other=others)
        pairing = registry.pair(season.state(absent=others), "keizer")
        assert pairing.boards == [Board(1, 2)]  # the only two present
        relaxed = [line for line in english(pairing.explanation) if line.startswith("Relaxed to")]
        fifth = relaxation_steps(KeizerSettings())[4].describe().text()
        assert relaxed == ([f"Relaxed to: {fifth}."] if setting else [])


@pytest.mark.rule("003 2.1")
def test_the_reserve_can_be_the_lowest_ranked_of_those_with_the_fewest_lost_evenings():
    season = flat(reserve_choice="lowest")
    season.players[6].extra["lost_evenings"] = 1  # G
    pairing = registry.pair(season.state(absent={8: Kind.ABSENT_NOTICE}, seed=5), "keizer")
    assert pairing.byes[-1] == Bye(6, Kind.PAIRING_BYE, 0.0)  # G has lost an evening: F is next lowest
    assert english(pairing.explanation)[1].endswith("the lowest-ranked of them: 6. F.")


@pytest.mark.rule("003 2.1")
def test_no_reserve_for_the_top_places():
    season = flat(no_reserve_for_top=6)
    for seed in range(12):
        pairing = registry.pair(season.state(absent={8: Kind.ABSENT_NOTICE}, seed=seed), "keizer")
        assert pairing.byes[-1] == Bye(7, Kind.PAIRING_BYE, 0.0)  # only G is below place 6
    assert "places 1-6 are never the reserve" in english(pairing.explanation)[1]


@pytest.mark.rule("003 2.1")
def test_no_reserve_for_the_top_unless_only_the_top_is_present():
    season = flat(no_reserve_for_top=6)
    absent = {pid: Kind.ABSENT_NOTICE for pid in (4, 5, 6, 7, 8)}
    pairing = registry.pair(season.state(absent=absent), "keizer")
    assert len([bye for bye in pairing.byes if bye.kind is Kind.PAIRING_BYE]) == 1  # three present: 1, 2, 3
    assert "places 1-6 are never the reserve, but nobody else is present" in english(pairing.explanation)[1]
