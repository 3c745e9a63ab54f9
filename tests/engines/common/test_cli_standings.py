"""`python -m pairing standings`: standings without the web app, from TRF or the engine's JSON state."""

import subprocess
import sys
from pathlib import Path

import pytest

from pairing.engines import jsonstate, tiebreaks, trf
from pairing.engines.state import Colour, Kind, Player, RoundRecord, TournamentState

ROOT = Path(__file__).resolve().parents[3]
CORPUS = ROOT.parent / "shared" / "oracle" / "dutch"


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pairing", *args], cwd=ROOT, capture_output=True, text=True)


def test_trf_standings_follow_the_tiebreak_module():
    path = CORPUS / "t001_n007_r05_messy.trf"
    result = run("standings", "--system", "dutch", str(path))
    assert result.returncode == 0, result.stderr
    doc = trf.parse(path.read_text(), str(path))
    state = trf.state_from_document(doc, doc.last_paired_round + 1, doc.last_paired_round + 1)
    expected = [line.player for line in tiebreaks.standings(state, tiebreaks.default_tiebreaks("dutch"))]
    printed = [int(line.split()[1]) for line in result.stdout.splitlines()[1:]]
    assert printed == expected


def test_unknown_tiebreak_is_invalid_input():
    result = run("standings", "--system", "dutch", str(CORPUS / "t001_n007_r05_messy.trf"), "--tiebreaks", "XYZ")
    assert result.returncode == 3 and "XYZ" in result.stderr


@pytest.mark.rule("003 1.2")
def test_keizer_standings_from_the_json_state(tmp_path):
    # Three players, one round: 1 beats 2, 3 is absent with notice (seed 003 §1.2: a third of his value).
    players = [
        Player(1, "Anna", history=[RoundRecord(Kind.GAME, 2, Colour.WHITE, 1.0)]),
        Player(2, "Bram", history=[RoundRecord(Kind.GAME, 1, Colour.BLACK, 0.0)]),
        Player(3, "Cees", history=[RoundRecord(Kind.ABSENT_NOTICE, score=0.0)]),
    ]
    state = TournamentState(players, total_rounds=10, round_to_pair=2, settings={"aalsmeer_rounds": 0})
    path = tmp_path / "season.json"
    path.write_text(jsonstate.write_json_state(state))
    result = run("standings", "--system", "keizer", str(path))
    assert result.returncode == 0, result.stderr
    rows = [line.split() for line in result.stdout.splitlines()[2:]]
    # Anna wins Bram's value 59; Cees gets 58 / 3 = 19.3; Bram 0.
    assert [(row[2], row[3]) for row in rows] == [("Anna", "59.0"), ("Cees", "19.3"), ("Bram", "0.0")]
