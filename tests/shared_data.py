"""Where the tests find the reference data: relative to the repository (`../shared`, a sibling of the
checkout), never by an absolute path. A test whose data is missing fails; it never passes empty."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
ORACLE = SHARED / "oracle"
DUTCH_CORPUS = ORACLE / "dutch"


def data_files(folder: Path, pattern: str) -> list[Path]:
    """The files of `folder` matching `pattern`, sorted; when there are none, one path that does not exist
    (named after the pattern), so that a test parametrized with them fails on reading it instead of
    being collected with no case at all."""
    return sorted(folder.glob(pattern)) or [folder / f"missing-{pattern.replace('*', 'any')}"]


def require(path: Path) -> Path:
    """`path`, asserted to exist: the test fails, naming the missing reference data."""
    assert path.exists(), f"reference data missing: {path} (expected next to the repository, in ../shared)"
    return path
