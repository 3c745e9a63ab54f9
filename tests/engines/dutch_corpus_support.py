"""Replays the Dutch oracle corpus: pair round k from rounds 1..k-1 and compare with round k."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

from pairing.engines import trf
from pairing.engines.dutch import pair_round
from pairing.engines.state import Kind

ORACLE = Path("/work/shared/oracle")
CORPUS = ORACLE / "dutch"


def _tools():
    spec = importlib.util.spec_from_file_location("trf_tools", ORACLE / "tools" / "trf_tools.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("trf_tools", module)
    spec.loader.exec_module(module)
    return module


def tournaments() -> list[Path]:
    return sorted(CORPUS.glob("*.trf"))


def cases(path: Path):
    """(round, input TRF text, expected pairs {(w, b)}, expected bye list) for every round."""
    tools = _tools()
    expected = json.loads(path.with_suffix(".expected.json").read_text())
    t = tools.Trf(str(path))
    for detail in expected["rounds_detail"]:
        k = detail["round"]
        text = t.truncate(k - 1)
        pairs = {tuple(p) for p in detail["pairs_white_black"]}
        yield k, text, pairs, sorted(detail["pab"]), detail


def replay(path: Path) -> tuple[int, int, list[str]]:
    good = total = 0
    notes = []
    for k, text, pairs, pab, _ in cases(path):
        total += 1
        state = trf.read_state(text, f"{path.name}@{k}")
        try:
            result = pair_round(state)
        except Exception as exc:  # noqa: BLE001 - recorded as a mismatch
            notes.append(f"{path.stem} r{k}: {type(exc).__name__} {exc}")
            continue
        got = {(b.white, b.black) for b in result.boards}
        byes = sorted(b.player for b in result.byes if b.kind is Kind.PAIRING_BYE)
        if got == pairs and byes == pab:
            good += 1
        else:
            notes.append(f"{path.stem} r{k}: +{sorted(got - pairs)} -{sorted(pairs - got)} bye {byes} vs {pab}")
    return good, total, notes
