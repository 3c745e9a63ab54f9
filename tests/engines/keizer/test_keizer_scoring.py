"""Keizer points, Systeem Aalsmeer, re-valuation and standings: seed 003 §1.2-§1.6."""

import pytest

from pairing.engines import registry
from pairing.engines.keizer import standings
from pairing.engines.keizer.scoring import value_at
from pairing.engines.keizer.settings import KeizerSettings
from pairing.engines.notes import english
from pairing.engines.state import InvalidInput, Kind, RoundRecord
from tests.engines.keizer.keizer_cases import KIJK_UIT, Season, kijk_uit_round_1


def points(season: Season, name: str, rnd: int = 1, rounds: int | None = None) -> float:
    table = standings(season.state(), rounds)
    row = next(r for r in table.rows if r.name == name)
    return row.round_points[rnd - 1]


def totals(season: Season, rounds: int | None = None) -> list[tuple[str, float]]:
    return [(r.name, round(r.total, 3)) for r in standings(season.state(), rounds).rows]


# §1.2 / §2.1 "Spelerwaardering"


@pytest.mark.rule("003 1.1")
@pytest.mark.rule("003 1.2")
def test_values_run_from_the_top_value_down_by_the_step():
    s = KeizerSettings()
    assert [value_at(p, s) for p in range(1, 7)] == [60, 59, 58, 57, 56, 55]


def test_value_step_every_and_multiplier_and_no_negative_values():
    s = KeizerSettings(top_value=10, value_step=2, value_every=3, value_multiplier=5)
    assert [value_at(p, s) for p in range(1, 11)] == [50, 50, 50, 40, 40, 40, 30, 30, 30, 20]
    assert value_at(40, KeizerSettings(top_value=30)) == 0


# §1.2 examples: a win earns the opponent's value, a draw half of it, a loss nothing


@pytest.mark.rule("003 1.2")
def test_section_1_2_win_against_number_five():
    season = Season(KIJK_UIT, aalsmeer_rounds=0)
    andre, peter = season.id("André Kunst"), season.id("Peter Hamersma")
    season.round(games=[(andre, peter, 1.0)])
    assert points(season, "André Kunst") == 56
    assert points(season, "Peter Hamersma") == 0


@pytest.mark.rule("003 1.2")
def test_section_1_2_draw_gives_half_the_opponents_value():
    season = Season(KIJK_UIT, aalsmeer_rounds=0)
    season.round(games=[(season.id("André Kunst"), season.id("Peter Hamersma"), 0.5)])
    assert points(season, "André Kunst") == 28
    assert points(season, "Peter Hamersma") == 27.5


@pytest.mark.rule("003 1.2")
def test_section_1_2_loss_of_the_higher_ranked_player_gives_his_value_to_the_winner():
    season = Season(KIJK_UIT, aalsmeer_rounds=0)
    season.round(games=[(season.id("André Kunst"), season.id("Peter Hamersma"), 0.0)])
    assert points(season, "Peter Hamersma") == 55
    assert points(season, "André Kunst") == 0


@pytest.mark.rule("003 1.2")
def test_section_1_2_absence_with_notice_is_a_third_of_own_value_without_notice_nothing():
    season = Season(KIJK_UIT, aalsmeer_rounds=0)
    season.round(other={season.id("Sinclair Koelemij"): Kind.ABSENT_NOTICE, season.id("Jaap Kramer"): Kind.ABSENT})
    assert points(season, "Sinclair Koelemij") == pytest.approx(19)
    assert points(season, "Jaap Kramer") == 0


def test_absence_fractions_are_settings():
    season = Season(KIJK_UIT, aalsmeer_rounds=0, absent_notice_fraction=0.4, absent_fraction=0.1)
    season.round(other={season.id("Sinclair Koelemij"): Kind.ABSENT_NOTICE, season.id("Jaap Kramer"): Kind.ABSENT})
    assert points(season, "Sinclair Koelemij") == pytest.approx(0.4 * 57)
    assert points(season, "Jaap Kramer") == pytest.approx(0.1 * 58)


def test_a_round_without_a_record_scores_nothing():
    season = Season(KIJK_UIT, aalsmeer_rounds=0)
    season.round(games=[(1, 2, 1.0)])
    season.players[5].history.pop()
    table = standings(season.state(), 1)
    row = next(r for r in table.rows if r.player == 6)
    assert row.round_points == [0.0]
    assert "no result recorded" in english(row.explanation)[-2]


# §1.3 club-match games on club night score on one's own value


@pytest.mark.rule("003 1.3")
def test_section_1_3_club_match_win_is_own_value_draw_half():
    season = Season(KIJK_UIT, aalsmeer_rounds=0)
    season.round(club={season.id("Jaap Kramer"): 1.0, season.id("Sinclair Koelemij"): 0.5, 5: 0.0})
    assert points(season, "Jaap Kramer") == 58
    assert points(season, "Sinclair Koelemij") == 28.5
    assert points(season, "Peter Hamersma") == 0


# §2.1 "Bye", "Regl. uitslagen als bye beschouwen", "Only for the winner"; §3.5 no-show


@pytest.mark.rule("003 1.9")
def test_the_reserve_scores_the_bye_fraction_of_own_value():
    season = Season(KIJK_UIT, aalsmeer_rounds=0)
    season.round(other={season.id("Jaap Kramer"): Kind.PAIRING_BYE})
    assert points(season, "Jaap Kramer") == 29


@pytest.mark.rule("003 3.5")
def test_section_3_5_no_show_gives_the_opponent_a_bye_and_the_no_show_nothing():
    season = Season(KIJK_UIT, aalsmeer_rounds=0)
    season.round(forfeits=[(season.id("Peter Hamersma"), season.id("Colleen Otten"))])
    assert points(season, "Peter Hamersma") == 28  # 0.5 × own value 56, not Colleen's 60
    assert points(season, "Colleen Otten") == 0


def test_forfeit_scored_as_a_game_when_not_taken_as_bye():
    season = Season(KIJK_UIT, aalsmeer_rounds=0, forfeit_as_bye=False)
    season.round(forfeits=[(season.id("Peter Hamersma"), season.id("Colleen Otten"))])
    assert points(season, "Peter Hamersma") == 60
    assert points(season, "Colleen Otten") == 0


def test_forfeit_as_bye_for_both_when_not_only_for_the_winner():
    season = Season(KIJK_UIT, aalsmeer_rounds=0, forfeit_bye_winner_only=False)
    season.round(forfeits=[(season.id("Peter Hamersma"), season.id("Colleen Otten"))])
    assert points(season, "Peter Hamersma") == 28
    assert points(season, "Colleen Otten") == 30


def test_a_game_in_play_scores_nothing_yet():
    season = Season(KIJK_UIT, aalsmeer_rounds=0)
    season.round(games=[(1, 2, 1.0)])
    season.players[0].history[0] = RoundRecord(Kind.GAME, 2, None, None)
    assert points(season, "Colleen Otten") == 0


def test_requested_byes_of_swiss_kinds_are_not_keizer_rounds():
    season = Season(KIJK_UIT)
    season.round(other={1: Kind.HALF_BYE})
    with pytest.raises(InvalidInput, match="half-bye"):
        standings(season.state())


# §1.4 Systeem Aalsmeer: the worked example (with seeds README item 1: 251.3 and 247.0)


@pytest.mark.rule("003 1.4")
def test_section_1_4_before_round_1_everybody_has_five_times_his_value():
    season = Season(KIJK_UIT)
    assert totals(season, 0) == [(name, 5 * (60 - i)) for i, name in enumerate(KIJK_UIT)]


@pytest.mark.rule("003 1.4")
def test_section_1_4_ranking_after_round_1():
    season = kijk_uit_round_1()
    table = standings(season.state())
    assert [(r.name, round(r.total, 1)) for r in table.rows] == [
        ("André Kunst", 276.0),
        ("Colleen Otten", 269.5),
        ("Peter van Nieuwenhuizen", 266.0),
        ("Jaap Kramer", 251.3),
        ("Sinclair Koelemij", 247.0),
        ("Peter Hamersma", 224.0),
    ]
    assert [r.bonus for r in table.rows] == [220, 240, 236, 232, 228, 224]
    assert [r.round_points[0] for r in table.rows] == pytest.approx([56, 29.5, 30, 58 / 3, 19, 0])
    assert [r.value for r in table.rows] == [60, 59, 58, 57, 56, 55]


@pytest.mark.rule("003 1.4")
def test_section_1_4_bonus_is_written_off_in_equal_steps():
    season = Season(KIJK_UIT)
    for _ in range(6):
        season.round(other={p.id: Kind.ABSENT for p in season.players})
    colleen = [standings(season.state(), n).rows[0] for n in range(7)]
    assert [row.bonus for row in colleen] == [300, 240, 180, 120, 60, 0, 0]


def test_aalsmeer_rounds_is_a_setting_and_zero_switches_it_off():
    season = Season(KIJK_UIT, aalsmeer_rounds=3)
    for _ in range(4):
        season.round(other={p.id: Kind.ABSENT for p in season.players})
    assert [standings(season.state(), n).rows[0].bonus for n in range(5)] == [180, 120, 60, 0, 0]
    season.settings["aalsmeer_rounds"] = 0
    assert standings(season.state(), 0).rows[0].bonus == 0


# §1.6 re-valuation: the worked example and the three modes


def kijk_uit_round_2(**settings) -> Season:
    season = kijk_uit_round_1(**settings)
    i = season.id
    season.round(
        games=[
            (i("Colleen Otten"), i("André Kunst"), 1.0),
            (i("Peter van Nieuwenhuizen"), i("Jaap Kramer"), 0.5),
            (i("Peter Hamersma"), i("Sinclair Koelemij"), 1.0),
        ]
    )
    return season


@pytest.mark.rule("003 1.6")
def test_section_1_6_the_round_1_win_is_revalued_after_the_loser_dropped():
    season = kijk_uit_round_2()
    assert points(season, "André Kunst", rnd=1, rounds=1) == 56
    assert points(season, "André Kunst", rnd=1, rounds=2) == 55  # Peter Hamersma is 6th after round 1
    assert totals(season) == [
        ("Colleen Otten", 269.0),  # 180 + ½ × 58 + 60
        ("Peter van Nieuwenhuizen", 235.0),  # 177 + ½ × 59 + ½ × 57
        ("Peter Hamersma", 224.0),  # 168 + 0 + 56
        ("Jaap Kramer", 222.0),  # 174 + ⅓ × 57 + ½ × 58
        ("André Kunst", 220.0),  # 165 + 55 + 0
        ("Sinclair Koelemij", 189.667),  # 171 + ⅓ × 56 + 0
    ]


def test_frozen_values_each_round_once_with_the_values_of_its_time():
    season = kijk_uit_round_2(revaluation="frozen")
    assert points(season, "André Kunst", rnd=1) == 56
    assert totals(season) == [
        ("Colleen Otten", 269.5),  # 180 + ½ × 59 + 60
        ("Peter van Nieuwenhuizen", 235.5),  # 177 + ½ × 60 + ½ × 57
        ("Peter Hamersma", 224.0),
        ("Jaap Kramer", 222.333),  # 174 + ⅓ × 58 + ½ × 58
        ("André Kunst", 221.0),  # 165 + 56
        ("Sinclair Koelemij", 190.0),  # 171 + ⅓ × 57
    ]


def test_fixed_point_converges_when_the_ranking_reproduces_itself():
    season = kijk_uit_round_1(revaluation="fixed-point")
    table = standings(season.state())
    # Step 1 is the classic ranking; valued with its own values it comes out the same.
    assert english(table.notes) == ["After round 1: the re-valuation reached a fixed point in 2 step(s)."]
    assert [(r.name, round(r.total, 2)) for r in table.rows] == [
        ("André Kunst", 275.0),  # 220 + 55: Peter Hamersma is 6th
        ("Colleen Otten", 269.0),
        ("Peter van Nieuwenhuizen", 265.5),
        ("Jaap Kramer", 251.0),
        ("Sinclair Koelemij", 246.67),
        ("Peter Hamersma", 224.0),
    ]


@pytest.mark.rule("003 1.6")
def test_fixed_point_on_the_section_1_6_example_cycles_and_keeps_the_classic_ranking():
    # From the classic ranking C, PvN, PH, J, A, S the next step gives C, PvN, A, PH, J, S
    # (André and Peter H. tie on 223 and TPR; André was higher after round 1), which gives the classic one back.
    season = kijk_uit_round_2(revaluation="fixed-point")
    table = standings(season.state())
    assert english(table.notes)[-1] == (
        "After round 2: no fixed point, the rankings repeat in a cycle of 2 step(s); "
        "the classic re-valuation (one step) is used."
    )
    season.settings["revaluation"] = "classic"
    assert totals(season) == [(r.name, round(r.total, 3)) for r in table.rows]


def four_player_cycle(**settings) -> Season:
    season = Season(["A", "B", "C", "D"], aalsmeer_rounds=0, **settings)
    season.round(games=[(1, 3, 1.0), (2, 4, 1.0)])
    season.round(games=[(4, 1, 1.0), (3, 2, 1.0)])
    return season


def test_fixed_point_detects_a_cycle_of_four_rankings():
    # Everyone won once; each total is the value of the player he beat:
    # A B C D -> D C A B -> B A D C -> C D B A -> A B C D.
    table = standings(four_player_cycle(revaluation="fixed-point").state())
    assert english(table.notes) == [
        "After round 1: the re-valuation reached a fixed point in 1 step(s).",
        "After round 2: no fixed point, the rankings repeat in a cycle of 4 step(s); "
        "the classic re-valuation (one step) is used.",
    ]
    assert [r.name for r in table.rows] == ["D", "C", "A", "B"]
    assert [r.total for r in table.rows] == [60, 59, 58, 57]


def test_fixed_point_iteration_limit_is_reported():
    table = standings(four_player_cycle(revaluation="fixed-point", max_iterations=2).state())
    assert english(table.notes)[-1] == "After round 2: no fixed point within 2 steps; the classic re-valuation is used."
    assert [r.name for r in table.rows] == ["D", "C", "A", "B"]


# Seeds README item 4: equal totals by TPR, then the previous ranking


@pytest.mark.rule("003 2.1")
def test_equal_totals_are_ordered_by_tpr():
    season = Season(["A", "B", "C", "D"], ratings=[1600, 1700, 1800, 2200], aalsmeer_rounds=0, value_step=0)
    season.round(games=[(1, 2, 0.0), (3, 4, 0.0)])  # B and D win, 60 each
    table = standings(season.state())
    assert [r.name for r in table.rows] == ["D", "B", "C", "A"]
    assert [round(r.tpr) for r in table.rows] == [2550, 2350, 1450, 950]


@pytest.mark.rule("003 2.1")
def test_equal_totals_and_tpr_keep_the_previous_ranking():
    season = Season(["A", "B", "C", "D"], aalsmeer_rounds=0, value_step=0)
    season.round(games=[(1, 2, 0.0), (3, 4, 0.0)])
    assert [r.name for r in standings(season.state()).rows] == ["B", "D", "A", "C"]


@pytest.mark.rule("003 2.1")
def test_a_player_without_games_yields_on_equal_totals():
    season = Season(["A", "B", "C", "D"], aalsmeer_rounds=0)
    season.round(games=[(1, 4, 1.0)])  # B and C absent without notice: 0, no TPR
    table = standings(season.state())
    assert [r.name for r in table.rows] == ["A", "D", "B", "C"]
    assert [r.tpr is None for r in table.rows] == [False, False, True, True]


# §1.5: the columns, and the 1/3 rule that only decides the published ranking


@pytest.mark.rule("003 1.5")
def test_section_1_5_participation_of_a_third_of_the_rounds():
    season = Season(["A", "B", "C", "D"])
    for rnd in range(1, 7):
        season.round(
            games=[(1, 2, 1.0)] + ([(3, 4, 0.5)] if rnd == 6 else []),
            club={4: 1.0} if rnd in (1, 2) else {},
            other={3: Kind.ABSENT_NOTICE} if rnd < 6 else {},
        )
    table = standings(season.state())
    taken = {r.name: (r.rounds_taken_part, r.qualifies) for r in table.rows}
    assert taken == {"A": (6, True), "B": (6, True), "C": (1, False), "D": (3, True)}
    assert [r.name for r in table.published] == [r.name for r in table.rows if r.name != "C"]
    # C keeps his place and value in the full ranking.
    assert len(table.rows) == 4
    assert {r.name: r.games for r in table.rows} == {"A": 6, "B": 6, "C": 1, "D": 1}


@pytest.mark.rule("003 1.4")
@pytest.mark.rule("003 1.6")
def test_explanation_lets_a_member_check_his_points():
    table = standings(kijk_uit_round_2().state())
    andre = next(r for r in table.rows if r.name == "André Kunst")
    assert english(andre.explanation) == [
        "Aalsmeer bonus (§1.4): 5 × start value 55 (start place 6); after round 2, 3 of 5 parts left: 165.0",
        "Every round valued with the values of the ranking after round 1 (re-valuation, §1.6).",
        "Round 1: won against Peter Hamersma (place 6, value 55): 55.0",
        "Round 2: lost to Colleen Otten (place 2, value 59): 0.0",
        "Total: 220.0; place 5, value 56.",
    ]
    jaap = next(r for r in table.rows if r.name == "Jaap Kramer")
    lines = english(jaap.explanation)
    assert lines[2] == "Round 1: absent with notice: 1/3 × own value 57 = 19.0"
    assert lines[3] == "Round 2: drew with Peter van Nieuwenhuizen (place 3, value 58): 1/2 × 58 = 29.0"


# Settings


@pytest.mark.rule("003 2.1")
@pytest.mark.rule("003 2.2")
def test_every_setting_has_a_default_and_is_validated():
    system = registry.get("keizer")
    assert system.settings()["top_value"] == 60
    assert system.settings()["repeat_window"] == 4
    with pytest.raises(InvalidInput, match="revaluation"):
        system.settings({"revaluation": "sometimes"})
    with pytest.raises(InvalidInput, match="repeat_window"):
        system.settings({"repeat_window": -1})
    with pytest.raises(InvalidInput, match="forfeit_as_bye"):
        system.settings({"forfeit_as_bye": 1})
    with pytest.raises(InvalidInput, match="(?i)unknown setting"):
        system.settings({"colour": "red"})


@pytest.mark.rule("003 1.5")
def test_section_1_5_classical_points_colour_balance_and_groups():
    table = standings(kijk_uit_round_2().state())
    row = {r.name: r for r in table.rows}
    assert {name: r.classical_points for name, r in row.items()} == {
        "Colleen Otten": 1.5,
        "Peter van Nieuwenhuizen": 1.0,
        "Peter Hamersma": 1.0,
        "Jaap Kramer": 0.5,
        "André Kunst": 1.0,
        "Sinclair Koelemij": 0.0,
    }
    # André: white in round 1, black in round 2; Peter vN: black, then white; Jaap: one black.
    assert (row["André Kunst"].colour_balance, row["Colleen Otten"].colour_balance) == (0, 2)
    assert (row["Jaap Kramer"].colour_balance, row["Peter Hamersma"].colour_balance) == (-1, 0)
    assert {name: r.group for name, r in row.items()} == {
        "Colleen Otten": 1,
        "Peter van Nieuwenhuizen": 1,
        "Jaap Kramer": 2,
        "Sinclair Koelemij": 2,
        "Peter Hamersma": 3,
        "André Kunst": 3,
    }


@pytest.mark.rule("003 1.5")
def test_standings_print_the_section_1_5_columns():
    assert standings(kijk_uit_round_1().state()).lines() == [
        "Standings after round 1",
        "Pos Value Name                    Keizer Gms  Pts Col Grp  TPR",
        "  1    60 André Kunst              276.0   1    1   1   3 2550",
        "  2    59 Colleen Otten            269.5   1  0.5   1   1 1800",
        "  3    58 Peter van Nieuwenhuizen  266.0   1  0.5  -1   1 1800",
        "  4    57 Jaap Kramer              251.3   0    0   0   2    -  (-)",
        "  5    56 Sinclair Koelemij        247.0   0    0   0   2    -  (-)",
        "  6    55 Peter Hamersma           224.0   1    0  -1   3 1050",
    ]
