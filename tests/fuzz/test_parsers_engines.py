"""Property tests of the engines' text parsers (pure: no Django): any input either parses or raises the
parser's own error (`TrfError`, `JsonStateError`, `InvalidInput`), never anything else."""

from __future__ import annotations

import contextlib
import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pairing.engines import jsonstate, tiebreaks, trf
from pairing.engines.state import InvalidInput

FUZZ = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# Text with what breaks parsers: superscript and other non-ASCII digits, NUL, tabs, CR, signs, "nan".
TRICKY = st.sampled_from(["²", "١", "１", "\x00", "\t", "\r", "-", "+", "nan", "inf", "1e5", "9" * 12, ",", ";", " "])
FIELD = st.one_of(st.text(max_size=12), st.integers(-99999, 99999).map(str), TRICKY)


def _field(draw, width: int) -> str:
    return draw(FIELD)[:width].rjust(width)


@st.composite
def player_lines(draw) -> str:
    """A 001 line in TRF columns, each field anything (mostly plausible)."""
    number = draw(st.one_of(st.integers(0, 20).map(str), FIELD))[:4].rjust(4)
    rounds = "".join(
        "  " + draw(st.one_of(st.integers(0, 20).map(str), FIELD))[:4].rjust(4)
        + " " + draw(st.sampled_from("wb- xW")) + " " + draw(st.sampled_from("10=+-DLWHFUZ X"))
        for _ in range(draw(st.integers(0, 4)))
    )  # fmt: skip
    return (
        f"001 {number} {draw(st.sampled_from('mfw '))}{_field(draw, 3)} {_field(draw, 33)} {_field(draw, 4)} "
        f"{_field(draw, 3)} {_field(draw, 11)} {_field(draw, 10)} {_field(draw, 4)} {_field(draw, 4)}{rounds}"
    )


@st.composite
def other_lines(draw) -> str:
    code = draw(st.sampled_from(["012", "XXR", "142", "XXC", "XXS", "XXZ", "240", "162", "BBW", "BBD", "202", "212"]))
    return f"{code} {' '.join(draw(st.lists(FIELD, max_size=4)))}"


TRF_TEXT = st.lists(st.one_of(player_lines(), other_lines(), st.text(max_size=40)), max_size=12).map("\n".join)


@FUZZ
@given(TRF_TEXT)
def test_trf_reader_parses_or_raises_trf_error(text):
    """What the import does with a file: parse, rounds, scoring, the state of the next round."""
    try:
        doc = trf.parse(text, "fuzz.trf")
        trf.scoring(doc)
        played = doc.last_paired_round
        total = trf.total_rounds_of(doc) or max(played, 1)
        trf.state_from_document(doc, played + 1, total_rounds=max(total, played + 1))
    except InvalidInput:  # TrfError, or the state's own check of the same input
        pass


@FUZZ
@given(st.text(max_size=400))
def test_trf_reader_on_any_text(text):
    with contextlib.suppress(InvalidInput):
        trf.read_state(text, "fuzz.trf")


JSON_VALUE = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(-5, 40), st.floats(allow_nan=False), st.text(max_size=5), TRICKY),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=5),
    max_leaves=25,
)
KEYS = ["players", "id", "rating", "history", "rounds", "total_rounds", "round_to_pair", "opponent", "colour", "kind"]


@FUZZ
@given(st.dictionaries(st.sampled_from(KEYS), JSON_VALUE, max_size=6) | JSON_VALUE)
def test_json_state_reader_parses_or_raises_its_error(data):
    with contextlib.suppress(jsonstate.JsonStateError):
        jsonstate.read_json_state(json.dumps(data), "fuzz.json")


@FUZZ
@given(st.text(max_size=30))
def test_json_state_reader_on_any_text(text):
    with contextlib.suppress(jsonstate.JsonStateError):
        jsonstate.read_json_state(text, "fuzz.json")


@FUZZ
@given(st.one_of(st.text(max_size=20), st.sampled_from(["BH/C1", "bh-c1", "KS/L-1", "SB/P/C1", "BH:GP", "BH/C²"])))
def test_tiebreak_code_parses_or_raises_invalid_input(code):
    with contextlib.suppress(InvalidInput):
        tiebreaks.parse(code)
