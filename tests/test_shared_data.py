"""The reference data is found relative to the repository, and a test whose data is missing fails."""

from __future__ import annotations

import re
import subprocess
import sys

from tests.shared_data import ROOT, SHARED, data_files


def test_shared_is_the_sibling_of_the_checkout():
    assert ROOT.parent / "shared" == SHARED
    assert (SHARED / "oracle" / "dutch").is_dir(), "the reference data belongs next to the repository"


def test_missing_data_gives_a_case_that_fails(tmp_path):
    (path,) = data_files(tmp_path, "*.trf")
    assert not path.exists()


def test_no_test_reads_an_absolute_path_or_skips_on_missing_data():
    absolute = re.compile(r"""Path\(\s*["']/(?!proc\b|dev\b|sys\b)|["']/(work|home|tmp|srv)/""")
    skip_on_missing = re.compile(r"skip(if)?\(.*(exists|is_file|is_dir|not present|missing)")
    offenders = []
    for path in sorted((ROOT / "tests").rglob("*.py")):
        if path.name == "test_shared_data.py":
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if absolute.search(line) or skip_on_missing.search(line):
                offenders.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert offenders == []


def test_a_parametrized_test_without_its_data_fails(tmp_path):
    """Run pytest on a test whose data folder is empty: it must fail, not pass with no case."""
    (tmp_path / "test_data.py").write_text(
        "import pytest\n"
        "from pathlib import Path\n"
        "from tests.shared_data import data_files\n"
        "@pytest.mark.parametrize('path', data_files(Path(__file__).parent / 'nothing', '*.trf'))\n"
        "def test_reads(path):\n"
        "    assert path.read_text()\n",
        encoding="utf-8",
    )
    (tmp_path / "nothing").mkdir()
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:django", "-p", "no:cacheprovider", "-q", str(tmp_path)],
        cwd=ROOT, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert result.returncode == 1, result.stdout
    assert "1 failed" in result.stdout and "FileNotFoundError" in result.stdout
