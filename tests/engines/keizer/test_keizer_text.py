"""Keizer standings without the web application: `keizer.standings_text` from a JSON state or a TRF."""

from pairing.engines import keizer, trf
from pairing.engines.jsonstate import read_json_state, write_json_state
from pairing.engines.notes import english
from pairing.engines.state import Kind
from tests.engines.keizer.keizer_cases import kijk_uit_round_1

# Seed 003 §1.4, the ranking after round 1 (with seeds README item 1: Jaap 251.3, Sinclair 247.0). Jaap
# and Sinclair took part in none of the one round so far: not in the published ranking (§1.5).
ROUND_1 = """\
Standings after round 1
Pos Value Name                    Keizer Gms  Pts Col Grp  TPR
  1    60 André Kunst              276.0   1    1   1   3 2550
  2    59 Colleen Otten            269.5   1  0.5   1   1 1800
  3    58 Peter van Nieuwenhuizen  266.0   1  0.5  -1   1 1800
  4    57 Jaap Kramer              251.3   0    0   0   2    -  (-)
  5    56 Sinclair Koelemij        247.0   0    0   0   2    -  (-)
  6    55 Peter Hamersma           224.0   1    0  -1   3 1050
"""


def test_the_text_is_the_section_1_5_table():
    state = kijk_uit_round_1().state()
    assert keizer.standings_text(state) == ROUND_1
    assert (
        keizer.standings_text(state, 0).splitlines()[2]
        == "  1    60 Colleen Otten            300.0   0    0   0   1    -"
    )


def test_from_the_json_state():
    state = kijk_uit_round_1().state()
    assert keizer.standings_text(read_json_state(write_json_state(state))) == ROUND_1


def test_from_a_trf():
    state = kijk_uit_round_1().state()
    text = trf.write(trf.document_from_state(state))
    assert "0000 - Z" in text  # absent with notice travels as a zero-point bye
    assert keizer.standings_text(trf.read_state(text, total_rounds=30)) == ROUND_1


def test_the_settings_of_the_state_apply_and_the_notes_follow_the_table():
    season = kijk_uit_round_1()
    season.round(games=[(5, 1, 1.0), (2, 6, 0.5)], other={3: Kind.ABSENT_NOTICE})
    state = season.state()
    state.settings = keizer.apply_preset("club", {"revaluation": "fixed-point"})
    lines = keizer.standings_text(state).splitlines()
    notes = english(keizer.standings(state).notes)
    assert notes and lines[-len(notes) :] == notes
    assert lines[0] == "Standings after round 2"
