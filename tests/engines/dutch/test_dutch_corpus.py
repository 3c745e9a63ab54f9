"""The FIDE Dutch system (2026) against the oracle corpus of 82 tournaments.

For every round k of every tournament: pair from rounds 1..k-1 (the input `trf_tools.py truncate`
makes) and compare with the recorded round k: the same pairs with the same colours and the same
pairing-allocated bye. Until every round agrees this is a ratchet: the count of agreeing rounds may
only rise (raise MATCHED_AT_LEAST as the engine improves, never lower it).
"""

from __future__ import annotations

import importlib.util
import json
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from pairing.engines import registry, trf
from pairing.engines.state import Kind
from tests.shared_data import ORACLE

CORPUS = ORACLE / "dutch"
ROUNDS_IN_CORPUS = 636
MATCHED_AT_LEAST = 636  # every round: 100 %


def _trf_tools():
    spec = importlib.util.spec_from_file_location("trf_tools", ORACLE / "tools" / "trf_tools.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("trf_tools", module)
    spec.loader.exec_module(module)
    return module


def rounds(path: Path) -> Iterator[tuple[int, str, dict]]:
    """(k, the TRF to pair round k from, round k as recorded) for every round of one tournament."""
    tools = _trf_tools()
    recorded = json.loads(path.with_suffix(".expected.json").read_text())
    document = tools.Trf(str(path))
    for detail in recorded["rounds_detail"]:
        yield detail["round"], document.truncate(detail["round"] - 1), detail


def replay(path: Path) -> tuple[int, int, int, list[str]]:
    """(rounds agreeing, rounds, rounds also in the same board order, differences) of one file."""
    system = registry.get("dutch")
    good = total = ordered = 0
    notes: list[str] = []
    for k, text, detail in rounds(path):
        total += 1
        state = trf.read_state(text, f"{path.name} before round {k}")
        try:
            pairing = system.pair(state)
        except Exception as exc:  # noqa: BLE001 - a failure to pair is a disagreement
            notes.append(f"{path.stem} round {k}: {type(exc).__name__}: {exc}")
            continue
        boards = [(b.white, b.black) for b in pairing.boards]
        byes = sorted(b.player for b in pairing.byes if b.kind is Kind.PAIRING_BYE)
        want = {tuple(p) for p in detail["pairs_white_black"]}
        if set(boards) == want and byes == sorted(detail["pab"]):
            good += 1
            order = [list(b) for b in boards] + [[p, 0] for p in byes]
            ordered += order == detail["bbp_output_board_order"]
        else:
            notes.append(
                f"{path.stem} round {k}: ours only {sorted(set(boards) - want)}, "
                f"recorded only {sorted(want - set(boards))}, bye {byes} vs {detail['pab']}"
            )
    return good, total, ordered, notes


@pytest.mark.rule("C.04.3 B4")
@pytest.mark.rule("C.04.3 B5")
@pytest.mark.rule("C.04.3 B6")
@pytest.mark.rule("C.04.3 B7")
@pytest.mark.rule("C.04.3 B8")
@pytest.mark.rule("C.04.3 C4")
@pytest.mark.rule("C.04.3 C7")
@pytest.mark.rule("C.04.3 C8")
@pytest.mark.rule("C.04.3 C9")
@pytest.mark.rule("C.04.3 C14")
@pytest.mark.rule("C.04.3 C15")
@pytest.mark.rule("C.04.3 C16")
@pytest.mark.rule("C.04.3 C17")
@pytest.mark.rule("C.04.3 C18")
@pytest.mark.rule("C.04.3 C19")
@pytest.mark.rule("C.04.3 C20")
@pytest.mark.rule("C.04.3 C21")
@pytest.mark.rule("C.04.3 D1")
@pytest.mark.rule("C.04.3 D2")
@pytest.mark.rule("C.04.3 D3")
@pytest.mark.rule("C.04.3 A7")
@pytest.mark.rule("C.04.3 A9")
@pytest.mark.corpus
def test_dutch_corpus_ratchet() -> None:
    good = total = ordered = 0
    notes: list[str] = []
    for path in sorted(CORPUS.glob("*.trf")):
        g, t, o, n = replay(path)
        good, total, ordered, notes = good + g, total + t, ordered + o, notes + n
    print(
        f"\nDutch corpus: {good}/{total} rounds identical (pairs, colours, bye); "
        f"{ordered} of them also in the recorded board order"
    )
    for note in notes:
        print("  ", note)
    assert total == ROUNDS_IN_CORPUS
    assert good >= MATCHED_AT_LEAST
