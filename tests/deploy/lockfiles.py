"""The dependency locks (README, "Dependencies"), read for the tests that hold them to their inputs.

`requirements.in` and `requirements-dev.in` are the ranges edited by hand; `requirements.txt` and
`requirements-dev.txt` are what pip-compile pinned from them: every package, direct or pulled in, at one
version with the hashes of its files, and under it the packages or input files that asked for it.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

ROOT = Path(__file__).resolve().parents[2]
RUNTIME = ("requirements.in", "requirements.txt")
DEV = ("requirements-dev.in", "requirements-dev.txt")


@dataclass(frozen=True)
class Pin:
    """One package of a lock: `name==version`, the sha256 hashes pip accepts, and what asked for it."""

    name: str
    version: str
    hashes: frozenset[str]
    via: frozenset[str]  # package names, or "-r requirements.in" for an input file, "-c ..." for a constraint


@dataclass(frozen=True)
class Asked:
    """One line of an input file: the requirement and the file it is written in."""

    requirement: Requirement
    source: str


def read_lock(path: Path) -> dict[str, Pin]:
    """The pins of a lock by canonical name; anything but an exact, hashed pin is refused."""
    pins: dict[str, Pin] = {}
    for entry in _entries(path.read_text(encoding="utf-8")):
        head, *options = entry["line"].split()
        name, sep, version = head.partition("==")
        if not sep or any(not option.startswith("--hash=") for option in options):
            raise ValueError(f"{path.name}: {entry['line']!r} is not an exact pin with hashes")
        hashes = frozenset(option.removeprefix("--hash=") for option in options)
        key = canonicalize_name(name)
        pins[key] = Pin(key, version, hashes, frozenset(entry["via"]))
    return pins


def _entries(text: str) -> list[dict]:
    """The lock's requirement lines (continuations joined) with the `# via` annotations under each."""
    entries: list[dict] = []
    logical = ""
    for raw in text.splitlines():
        stripped = raw.strip()
        if logical or (raw and not raw[0].isspace() and not raw.startswith("#")):
            logical += " " + stripped.removesuffix("\\").strip()
            if not stripped.endswith("\\"):
                entries.append({"line": logical.strip(), "via": []})
                logical = ""
        elif stripped.startswith("#") and raw[0].isspace() and entries:
            note = stripped.lstrip("#").strip()
            note = note.removeprefix("via").strip()
            if note:
                entries[-1]["via"].append(note)
    return entries


def read_input(path: Path, root: Path | None = None) -> list[Asked]:
    """The requirements of an input file, those of the files it includes (`-r`) after them; constraints
    (`-c`) ask for nothing and are left out."""
    root = root or path.parent
    asked: list[Asked] = []
    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.split(" #", 1)[0].strip()
        if not line or line.startswith("#") or line.startswith("-c "):
            continue
        if line.startswith("-r "):
            asked += read_input(path.parent / line.removeprefix("-r ").strip(), root)
        elif line.startswith("-"):
            raise ValueError(f"{path.name}: {line!r}: only requirements, -r and -c belong in an input file")
        else:
            asked.append(Asked(Requirement(line), str(path.relative_to(root))))
    return asked


def disagreements(ranges: Path, lock: Path) -> list[str]:
    """Where the lock no longer pins what its input asks for: a requirement not pinned, a pin its range
    does not admit, a pin kept for an input line that is gone."""
    pins = read_lock(lock)
    asked = read_input(ranges)
    problems = []
    for line in asked:
        name = canonicalize_name(line.requirement.name)
        pin = pins.get(name)
        if pin is None:
            problems.append(f"{line.source}: {line.requirement} is not pinned in {lock.name}")
        elif not line.requirement.specifier.contains(pin.version, prereleases=True):
            problems.append(f"{line.source}: {line.requirement} does not admit {lock.name}'s {name}=={pin.version}")
        elif f"-r {line.source}" not in pin.via:
            problems.append(f"{lock.name}: {name} is not pinned for {line.source}, which asks for it")
    by_source = {(canonicalize_name(line.requirement.name), f"-r {line.source}") for line in asked}
    for pin in pins.values():
        for via in sorted(pin.via):
            if via.startswith("-r ") and (pin.name, via) not in by_source:
                gone = f"{lock.name}: {pin.name}=={pin.version} is pinned for {via[3:]}, which no longer asks for it"
                problems.append(gone)
    return problems


def unlocked_dependencies(asked: list[Asked], pins: dict[str, Pin]) -> list[str]:
    """Follow every requirement through the installed packages' own dependencies (with their markers and
    extras, for this Python and platform): what is needed must be pinned at a version its dependants
    admit, and nothing else may be pinned."""
    problems: list[str] = []
    needed: set[tuple[str, frozenset[str]]] = set()
    todo = [(line.requirement, line.source) for line in asked]
    while todo:
        requirement, wanted_by = todo.pop()
        name = canonicalize_name(requirement.name)
        pin = pins.get(name)
        if pin is None:
            problems.append(f"{wanted_by} needs {requirement}, which the lock does not pin")
            continue
        if not requirement.specifier.contains(Version(pin.version), prereleases=True):
            problems.append(f"{wanted_by} needs {requirement}, but the lock pins {name}=={pin.version}")
        extras = {"", *requirement.extras}
        if (name, frozenset(extras)) in needed:
            continue
        needed.add((name, frozenset(extras)))
        try:
            declared = _requires(name)
        except metadata.PackageNotFoundError:
            problems.append(f"{name} is pinned but not installed here (make setup installs the lock)")
            continue
        for dependency in declared:
            if dependency.marker is None or any(dependency.marker.evaluate({"extra": e}) for e in extras):
                todo.append((dependency, name))
    reached = {name for name, _ in needed}
    problems += [
        f"{name}=={pins[name].version} is pinned, but nothing needs it" for name in sorted(set(pins) - reached)
    ]
    return problems


def _requires(name: str) -> list[Requirement]:
    """The dependencies an installed package declares (its metadata's Requires-Dist)."""
    return [Requirement(line) for line in metadata.requires(name) or []]
