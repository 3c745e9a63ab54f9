"""The engine's JSON state (docs/json-state.md): lossless round trip and refused inputs."""

import json

import pytest

from pairing.engines.jsonstate import JsonStateError, read_json_state, state_to_json, write_json_state
from pairing.engines.state import Colour, Kind, Player, RoundRecord, TournamentState
from pairing.engines.trf import parse, read_file, state_from_document
from tests.shared_data import DUTCH_CORPUS, data_files

CORPUS = DUTCH_CORPUS


def _fields(state: TournamentState) -> tuple:
    return (
        state.name,
        state.total_rounds,
        state.round_to_pair,
        state.top_colour_round1,
        state.seed,
        state.settings,
        state.requested_byes,
        state.players,
    )


@pytest.mark.parametrize("path", data_files(CORPUS, "*messy.trf")[:12], ids=lambda p: p.stem)
def test_corpus_states_survive_json(path):
    doc = parse(read_file(str(path)), str(path))
    for rnd in range(1, doc.last_paired_round + 1):
        state = state_from_document(doc, rnd, seed=rnd)
        assert _fields(read_json_state(write_json_state(state))) == _fields(state)


def test_what_trf_cannot_carry():
    players = [
        Player(1, "A", 1800, history=[RoundRecord(Kind.CLUB_MATCH, score=0.5)], withdrawn=True, extra={"k": 1}),
        Player(2, "B", history=[RoundRecord(Kind.ABSENT_NOTICE)]),
        Player(3, "C", history=[RoundRecord(Kind.ABSENT)]),
    ]
    state = TournamentState(
        players,
        9,
        2,
        settings={"swap_seam": False},
        seed=7,
        requested_byes={3: Kind.CLUB_MATCH},
        top_colour_round1=Colour.BLACK,
    )
    back = read_json_state(write_json_state(state))
    assert _fields(back) == _fields(state)
    assert back.player(1).withdrawn and back.player(1).extra == {"k": 1}


def _data() -> dict:
    state = TournamentState(
        [
            Player(1, history=[RoundRecord(Kind.GAME, 2, Colour.WHITE, 1.0)]),
            Player(2, history=[RoundRecord(Kind.GAME, 1, Colour.BLACK, 0.0)]),
        ],
        5,
        2,
    )
    return state_to_json(state)


@pytest.mark.parametrize(
    ("change", "where"),
    [
        (lambda d: d.pop("total_rounds"), ""),
        (lambda d: d.update(round_to_pair="2"), "round_to_pair"),
        (lambda d: d["players"][1].update(id=1), "players[1].id"),
        (lambda d: d["players"][0]["history"].append({"kind": "absent"}), "players[0].history"),
        (lambda d: d["players"][0]["history"][0].update(kind="won"), "players[0].history[0].kind"),
        (lambda d: d["players"][0]["history"][0].update(colour="x"), "players[0].history[0].colour"),
        (lambda d: d["players"][0]["history"][0].update(opponent=9), "players[0].history[0]"),
        (lambda d: d["players"][1]["history"][0].update(colour="w"), "players[0].history[0]"),
        (lambda d: d["players"][1]["history"][0].update(kind="forfeit"), "players[0].history[0]"),
        (lambda d: d["players"][0]["history"][0].pop("colour"), "players[0].history[0]"),
        (lambda d: d.update(requested_byes={"3": "half-bye"}), "requested_byes.3"),
        (lambda d: d.update(requested_byes={"1": "pairing-bye"}), "requested_byes.1"),
        (lambda d: d.update(version=2), "version"),
    ],
)
def test_refused_with_the_field(change, where):
    data = _data()
    change(data)
    with pytest.raises(JsonStateError) as caught:
        read_json_state(json.dumps(data), "t.json")
    assert caught.value.where == where
    assert str(caught.value).startswith(f"t.json:{where}: " if where else "t.json: ")


def test_syntax_error_names_the_line():
    with pytest.raises(JsonStateError) as caught:
        read_json_state('{\n "total_rounds": 5\n "round_to_pair": 1}', "t.json")
    assert caught.value.where == "3"
