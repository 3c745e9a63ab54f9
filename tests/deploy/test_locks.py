"""Reproducible installs: the locks pin exactly what their inputs ask for, and this environment is the lock.

README, "Dependencies": requirements.in and requirements-dev.in hold the ranges, requirements.txt and
requirements-dev.txt the exact versions with hashes that `make` installs. These tests need no network.
"""

from __future__ import annotations

import shutil
import subprocess
import sys

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from tests.deploy.lockfiles import (
    DEV,
    ROOT,
    RUNTIME,
    Asked,
    disagreements,
    read_input,
    read_lock,
    unlocked_dependencies,
)

BOTH = pytest.mark.parametrize("ranges, lock", [RUNTIME, DEV], ids=["runtime", "dev"])
TEST_TOOLS = {"pytest", "pytest-django", "hypothesis", "pypdf", "playwright", "ruff", "import-linter", "pip-tools"}


@BOTH
def test_the_lock_pins_what_its_input_asks_for(ranges, lock):
    """Change a range, add or drop a requirement without `make lock`, and this fails."""
    assert disagreements(ROOT / ranges, ROOT / lock) == []


@BOTH
def test_the_lock_holds_every_dependency_and_nothing_else(ranges, lock):
    """Followed through the packages' own metadata: the lock is closed and has no leftover."""
    assert unlocked_dependencies(read_input(ROOT / ranges), read_lock(ROOT / lock)) == []


@BOTH
def test_every_pin_is_exact_and_hashed(ranges, lock):
    pins = read_lock(ROOT / lock)
    assert {"django", "weasyprint", "psycopg-binary", "asgiref", "pip", "setuptools", "cffi"} <= set(pins)
    for pin in pins.values():
        assert pin.hashes and all(h.startswith("sha256:") and len(h) == len("sha256:") + 64 for h in pin.hashes)


def test_the_runtime_carries_no_test_tool_and_the_dev_lock_runs_the_same_server():
    runtime, dev = read_lock(ROOT / RUNTIME[1]), read_lock(ROOT / DEV[1])
    assert set(dev) >= TEST_TOOLS
    assert TEST_TOOLS.isdisjoint(runtime)
    assert set(dev) > set(runtime)
    for name, pin in runtime.items():
        assert (dev[name].version, dev[name].hashes) == (pin.version, pin.hashes), name


def test_this_environment_is_exactly_the_dev_lock():
    """`make test` installed every locked version and nothing more (the project itself aside)."""
    freeze = subprocess.run(
        [sys.executable, "-m", "pip", "freeze", "--all", "--exclude-editable"],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    installed = {}
    for line in freeze.stdout.splitlines():
        name, sep, version = line.partition("==")
        installed[canonicalize_name(name)] = version if sep else line
    locked = {name: pin.version for name, pin in read_lock(ROOT / DEV[1]).items()}
    assert installed == locked


def copy_locks(tmp_path):
    for name in (*RUNTIME, *DEV):
        shutil.copy(ROOT / name, tmp_path / name)
    return tmp_path / RUNTIME[0], tmp_path / RUNTIME[1]


def edit(path, old, new):
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new), encoding="utf-8")


def test_a_range_changed_without_locking_is_caught(tmp_path):
    ranges, lock = copy_locks(tmp_path)
    version = read_lock(lock)["django"].version
    edit(ranges, "Django>=5.2,<5.3", "Django>=5.3,<5.4")
    assert disagreements(ranges, lock) == [
        f"requirements.in: Django<5.4,>=5.3 does not admit requirements.txt's django=={version}"
    ]


def test_a_requirement_added_or_dropped_without_locking_is_caught(tmp_path):
    ranges, lock = copy_locks(tmp_path)
    segno = read_lock(lock)["segno"].version
    edit(ranges, "segno>=1.6,<2\n", "python-slugify>=8\n")
    assert disagreements(ranges, lock) == [
        "requirements.in: python-slugify>=8 is not pinned in requirements.txt",
        f"requirements.txt: segno=={segno} is pinned for requirements.in, which no longer asks for it",
    ]
    dev_ranges, dev_lock = tmp_path / DEV[0], tmp_path / DEV[1]
    assert "requirements.in: python-slugify>=8 is not pinned in requirements-dev.txt" in disagreements(
        dev_ranges, dev_lock
    )


def test_a_lock_missing_a_dependency_or_keeping_a_stray_one_is_caught():
    asked = read_input(ROOT / RUNTIME[0])
    pins = read_lock(ROOT / RUNTIME[1])
    del pins["sqlparse"]
    problems = unlocked_dependencies(asked, pins)
    assert problems and all("sqlparse" in p and "the lock does not pin" in p for p in problems)
    assert any(p.startswith("django needs sqlparse") for p in problems)
    pins = {**read_lock(ROOT / RUNTIME[1]), "pytest": read_lock(ROOT / DEV[1])["pytest"]}
    assert unlocked_dependencies(asked, pins) == [f"pytest=={pins['pytest'].version} is pinned, but nothing needs it"]


def test_an_extra_pulls_in_its_own_dependencies():
    """psycopg[binary] needs psycopg-binary; plain psycopg does not."""
    pins = read_lock(ROOT / RUNTIME[1])

    def unneeded(requirement: str) -> set[str]:
        problems = unlocked_dependencies([Asked(Requirement(requirement), "requirements.in")], pins)
        return {p.split("==")[0] for p in problems if p.endswith("nothing needs it")}

    assert "psycopg-binary" not in unneeded("psycopg[binary]>=3.2,<4")
    assert "psycopg-binary" in unneeded("psycopg>=3.2,<4")
    assert "django" in unneeded("psycopg[binary]>=3.2,<4")


@pytest.mark.parametrize(
    "target, edited, lock",
    [
        ("install", RUNTIME[1], RUNTIME[1]),
        ("setup", DEV[1], DEV[1]),
        ("setup", RUNTIME[1], DEV[1]),
        ("setup", "pairing/engines/matcher.cpp", DEV[1]),
    ],
)
def test_editing_a_lock_reinstalls_from_it_with_hashes(tmp_path, target, edited, lock):
    """`make run`/`serve` need `install`, `make test` `setup`: a newer lock (or matcher) reinstalls, and
    nothing is downloaded but the locked, hashed files (no `pip install --upgrade pip`)."""
    venv = tmp_path / "venv"
    venv.mkdir()
    for stamp in (".installed", ".installed-dev"):
        (venv / stamp).touch()

    def dry_run(*args: str) -> list[str]:
        run = subprocess.run(
            ["make", "--dry-run", f"VENV={venv}", *args, target], cwd=ROOT, capture_output=True, text=True, check=True
        )
        return [line for line in run.stdout.splitlines() if "pip install" in line or "pip-sync" in line]

    assert all("|| " in line for line in dry_run())  # up to date: only the matcher's fallback
    installs = dry_run(f"--what-if={edited}")
    assert any(line.endswith(f"pip install --quiet --require-hashes -r {lock}") for line in installs)
    locked = (f"--require-hashes -r {lock}", "--no-deps --no-build-isolation -e .", f"pip-sync --quiet {lock}")
    assert all(line.endswith(locked) for line in installs)
