"""`python -m pairing` (docs/README.md, "The command line"): output format, exit codes, -c, JSON input."""

import importlib.util
import re
import subprocess
import sys
from pathlib import Path

import pytest

from pairing.engines import registry
from pairing.engines.jsonstate import write_json_state
from pairing.engines.roundrobin import berger_round
from pairing.engines.state import Colour, Kind, NoValidPairing, Player, RoundRecord, TournamentState
from pairing.engines.trf import document_from_state, write

ROOT = Path(__file__).resolve().parents[3]


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pairing", *args], cwd=ROOT, capture_output=True, text=True, timeout=120
    )


def played_round_robin(n: int, rounds: int) -> TournamentState:
    """A round robin of `n` players with `rounds` rounds played from the Berger tables, white always wins."""
    players = [Player(i, name=f"Player {i}", rating=2000 - i) for i in range(1, n + 1)]
    for rnd in range(1, rounds + 1):
        for white, black in berger_round(rnd, n):
            if black == 0:
                players[white - 1].history.append(RoundRecord(Kind.PAIRING_BYE, score=1.0))
                continue
            players[white - 1].history.append(RoundRecord(Kind.GAME, black, Colour.WHITE, 1.0))
            players[black - 1].history.append(RoundRecord(Kind.GAME, white, Colour.BLACK, 0.0))
    return TournamentState(players=players, total_rounds=n - 1 + n % 2, round_to_pair=rounds + 1, name="Club")


def trf_file(tmp_path: Path, state: TournamentState, name: str = "t.trf") -> Path:
    path = tmp_path / name
    path.write_text(write(document_from_state(state)))
    return path


def expected_output(rnd: int, n: int) -> str:
    pairs = berger_round(rnd, n)
    boards = [p for p in pairs if p[1]] + [p for p in pairs if not p[1]]
    return "".join(f"{line}\n" for line in [str(len(boards)), *(f"{w} {b}" for w, b in boards)])


def test_pair_prints_the_boards_and_the_bye_last(tmp_path):
    path = trf_file(tmp_path, played_round_robin(5, 2))
    result = run("--system", "roundrobin", str(path), "-p")
    assert result.returncode == 0, result.stderr
    assert result.stdout == expected_output(3, 5)
    lines = result.stdout.splitlines()
    assert int(lines[0]) == len(lines) - 1 == 3  # two boards and the bye
    assert lines[-1].endswith(" 0")


def test_pair_to_a_file_and_explain(tmp_path):
    path = trf_file(tmp_path, played_round_robin(6, 0))
    out = tmp_path / "pairs.txt"
    result = run("--system", "roundrobin", str(path), "-p", str(out), "--explain")
    assert result.returncode == 0
    assert result.stdout == ""
    assert out.read_text() == expected_output(1, 6)
    assert "Berger table" in result.stderr


def test_json_input_gives_the_same_pairing(tmp_path):
    state = played_round_robin(5, 2)
    path = tmp_path / "t.json"
    path.write_text(write_json_state(state))
    result = run("--system", "roundrobin", str(path), "-p")
    assert result.returncode == 0, result.stderr
    assert result.stdout == expected_output(3, 5)


def test_rounds_option_when_the_file_has_none(tmp_path):
    text = write(document_from_state(played_round_robin(4, 1)))
    path = tmp_path / "t.trf"
    path.write_text("".join(line + "\n" for line in text.splitlines() if not line.startswith("XXR")))
    refused = run("--system", "roundrobin", str(path), "-p")
    assert refused.returncode == 3 and "number of rounds" in refused.stderr
    result = run("--system", "roundrobin", str(path), "-p", "--rounds", "3")
    assert result.returncode == 0 and result.stdout == expected_output(2, 4)


def test_check_a_correct_file_exits_0(tmp_path):
    path = trf_file(tmp_path, played_round_robin(5, 5))
    result = run("--system", "roundrobin", str(path), "-c")
    assert (result.returncode, result.stdout) == (0, "")


def test_check_reports_each_deviation(tmp_path):
    state = played_round_robin(4, 3)
    # round 2 as recorded: 4-3 and 1-2 (Berger); swap the colours of 1-2
    p1, p2 = state.player(1), state.player(2)
    assert p1.history[1].opponent == 2
    p1.history[1] = RoundRecord(Kind.GAME, 2, p1.history[1].colour.opposite, 1.0)
    p2.history[1] = RoundRecord(Kind.GAME, 1, p2.history[1].colour.opposite, 0.0)
    path = trf_file(tmp_path, state)
    result = run("--system", "roundrobin", str(path), "-c")
    assert result.returncode == 1
    white, black = (1, 2) if p1.history[1].colour is Colour.WHITE else (2, 1)
    assert result.stdout == f"round 2: board {white}-{black}: colours: the system gives {black}-{white}\n"


def test_check_of_a_json_state(tmp_path):
    path = tmp_path / "t.json"
    path.write_text(write_json_state(played_round_robin(6, 5)))
    result = run("--system", "roundrobin", str(path), "-c")
    assert (result.returncode, result.stdout) == (0, "")


@pytest.mark.parametrize("system_id", registry.system_ids())
def test_check_works_for_every_registered_system(tmp_path, system_id):
    if importlib.util.find_spec(f"pairing.engines.{registry._MODULES[system_id]}") is None:
        pytest.skip(f"{system_id} is not written yet")
    path = trf_file(tmp_path, played_round_robin(6, 2))
    result = run("--system", system_id, str(path), "-c")
    assert result.returncode in (0, 1, 3), result.stderr
    for line in result.stdout.splitlines():
        assert re.fullmatch(r"round [12]: (board \d+-\d+: \S.*|no valid pairing: .*)", line), line


def test_invalid_input_names_file_and_line(tmp_path):
    path = tmp_path / "bad.trf"
    good = write(document_from_state(played_round_robin(4, 1))).splitlines()
    good[1] = good[1][:91] + "   9" + good[1][95:]  # player 1 meets a player who does not exist
    path.write_text("\n".join(good) + "\n")
    result = run("--system", "roundrobin", str(path), "-p")
    assert result.returncode == 3
    assert result.stdout == ""
    assert result.stderr.count("\n") == 1
    assert result.stderr.startswith(f"{path}:2: round 1: opponent 9 does not exist")


def test_invalid_json_names_the_line(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text('{\n "total_rounds": 3,\n "round_to_pair": 1\n "players": []}\n')
    result = run("--system", "roundrobin", str(path), "-p")
    assert result.returncode == 3
    assert result.stderr.startswith(f"{path}:4: ")


@pytest.mark.parametrize(
    ("args", "code"),
    [
        (["--system", "roundrobin", "/nonexistent/t.trf", "-p"], 5),
        (["--system", "no-such-system", "{trf}", "-p"], 3),
        (["--system", "roundrobin", "{trf}"], 3),  # neither -p nor -c
        (["--system", "roundrobin", "{trf}", "-p", "/nonexistent/dir/out.txt"], 5),
    ],
)
def test_exit_codes(tmp_path, args, code):
    path = trf_file(tmp_path, played_round_robin(4, 1))
    result = run(*[a.replace("{trf}", str(path)) for a in args])
    assert result.returncode == code
    assert result.stderr.strip()


def test_every_round_paired_is_refused(tmp_path):
    path = trf_file(tmp_path, played_round_robin(4, 3))
    result = run("--system", "roundrobin", str(path), "-p")
    assert result.returncode == 3 and "all 3 rounds" in result.stderr


def test_no_valid_pairing_exits_1(tmp_path, monkeypatch, capsys):
    from pairing import cli

    # a system that cannot pair anything, known for this test only
    def refuse(state):
        raise NoValidPairing("every pairing breaks C1")

    system = registry.PairingSystem(id="refuse", name="Refuse", pair=refuse)
    original = registry.get
    monkeypatch.setattr(registry, "get", lambda sid: system if sid == "refuse" else original(sid))
    path = trf_file(tmp_path, played_round_robin(4, 1))
    assert cli.main(["--system", "refuse", str(path), "-p"]) == 1
    assert "no valid pairing: every pairing breaks C1" in capsys.readouterr().err


def test_sub_commands_are_dispatched_by_name(tmp_path):
    from pairing import cli

    seen = []
    cli.SUBCOMMANDS["echo"] = lambda argv: seen.append(argv) or 0
    try:
        assert cli.main(["echo", "--system", "keizer", "season.json"]) == 0
    finally:
        del cli.SUBCOMMANDS["echo"]
    assert seen == [["--system", "keizer", "season.json"]]


def test_check_lists_the_checkers_violations_of_recorded_rounds(tmp_path, monkeypatch, capsys):
    from pairing import cli
    from pairing.engines.checks import recorded_pairing

    # round 2 repeats round 1; a Swiss system that pairs as recorded leaves only the checker's lines
    state = played_round_robin(4, 1)
    for p in state.players:
        p.history.append(p.history[0])  # the same pairs and colours again in round 2
    state.round_to_pair = 3
    path = trf_file(tmp_path, state)

    def as_recorded(s):
        return recorded_pairing(state, s.round_to_pair)

    system = registry.PairingSystem(id="dutch-as-recorded", name="As recorded", pair=as_recorded)
    original = registry.get
    monkeypatch.setattr(registry, "get", lambda sid: system if sid == system.id else original(sid))
    assert cli.main(["--system", system.id, str(path), "-c"]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out == [
        "round 2: board 1-4: C1 rematch 1 and 4 met in round 1",
        "round 2: board 2-3: C1 rematch 2 and 3 met in round 1",
    ]
