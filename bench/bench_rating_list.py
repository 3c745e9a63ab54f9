"""Import a full-size FIDE rating list for one club: time and peak memory.

    .venv/bin/python bench/bench_rating_list.py [lines] [members]

Writes a FIDE TXT list of `lines` players (default 500,000) in a temporary folder, creates a club of
`members` members (default 200) in a temporary SQLite database (150 found by FIDE id, 30 by name and
birth year, 20 not in the list, for 200 members), then reads, matches and applies the list as the web
upload and `import_rating_list` do. Prints the time of each step, the process's peak resident memory
(ru_maxrss, Django included) and, in a second pass under tracemalloc, the peak of Python allocations.
Target: under a minute and under 300 MB.
"""

from __future__ import annotations

import os
import random
import resource
import sys
import tempfile
import time
import tracemalloc
from datetime import date
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

COLUMNS = [
    ("ID Number", 15), ("Name", 61), ("Fed", 4), ("Sex", 4), ("Tit", 5), ("WTit", 5), ("OTit", 15), ("FOA", 4),
    ("SRtng", 6), ("SGm", 4), ("SK", 3), ("RRtng", 6), ("RGm", 4), ("Rk", 3), ("BRtng", 6), ("BGm", 4), ("BK", 3),
    ("B-day", 6), ("Flag", 4),
]  # fmt: skip
FEDERATIONS = ["NED", "DEN", "GER", "FRA", "ESP", "IND", "USA", "RUS", "NOR", "SWE"]


def line(values: dict[str, object]) -> str:
    return "".join(str(values.get(name, "")).ljust(width) for name, width in COLUMNS).rstrip() + "\n"


def write_list(path: Path, lines: int, rng: random.Random) -> None:
    with path.open("w", encoding="utf-8") as out:
        out.write(line({name: name for name, _ in COLUMNS}))
        for i in range(lines):
            rating = rng.randint(1400, 2700) if rng.random() < 0.7 else ""
            out.write(
                line(
                    {
                        "ID Number": 1_000_000 + i, "Name": f"Surname{i}, Firstname{i % 997}",
                        "Fed": rng.choice(FEDERATIONS), "Sex": rng.choice("MF"), "SRtng": rating,
                        "SGm": 0, "SK": 20 if rating else "", "B-day": rng.randint(1940, 2018), "Flag": "i",
                    }
                )
            )  # fmt: skip


def main(lines: int = 500_000, members: int = 200) -> None:
    folder = Path(tempfile.mkdtemp(prefix="clubavond-bench-"))
    os.environ["DATABASE_URL"] = f"sqlite:///{folder / 'bench.sqlite3'}"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ.setdefault("DEBUG", "1")  # a local run, no SECRET_KEY needed
    import django

    django.setup()
    from django.core.management import call_command

    from clubs.models import Club, Member
    from ratings import imports

    call_command("migrate", verbosity=0)
    rng = random.Random(2026)
    path = folder / "players_list_foa.txt"
    started = time.perf_counter()
    write_list(path, lines, rng)
    print(
        f"list: {lines:,} players, {path.stat().st_size / 1e6:.0f} MB written in {time.perf_counter() - started:.1f} s"
    )

    club = Club.objects.create(name="Bench", slug="bench", federation="NED")
    by_id, by_name = members * 3 // 4, members * 3 // 20
    picks = rng.sample(range(lines), by_id + by_name)
    people = []
    for n, i in enumerate(picks):
        known = n < by_id
        people.append(
            Member(
                club=club, first_name=f"Firstname{i % 997}", last_name=f"Surname{i}",
                fide_id=str(1_000_000 + i) if known else "", fide_rating=1500,
            )
        )  # fmt: skip
    people += [Member(club=club, first_name="Nobody", last_name=f"Absent{n}") for n in range(members - len(people))]
    Member.objects.bulk_create(people)

    def progress(at: int) -> None:
        print(f"\r  {at:,} lines read", end="", file=sys.stderr, flush=True)

    rss_before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    started, cpu = time.perf_counter(), time.process_time()
    with path.open("rb") as stream:
        preview = imports.create_preview(club, "fide", stream, path.name, date.today(), progress=progress)
    read, read_cpu = time.perf_counter() - started, time.process_time() - cpu
    print(file=sys.stderr)
    proposals = preview.proposals["by_name"]
    started = time.perf_counter()
    changed = imports.apply(preview, [m["line"] for m in proposals])
    applied = time.perf_counter() - started
    rss_after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(
        f"read and match: {read:.1f} s ({read_cpu:.1f} s CPU; {preview.players_read:,} players; "
        f"{preview.matched_by_id} by id, {preview.matched_by_name} members by name, {preview.unmatched} not matched)"
    )
    print(f"apply: {applied:.2f} s ({changed} ratings changed)")
    print(f"peak resident memory: {rss_after:.0f} MB (before the import {rss_before:.0f} MB)")

    tracemalloc.start()
    with path.open("rb") as stream:
        imports.read_and_match(club, "fide", stream)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    print(f"peak Python allocations while reading and matching (tracemalloc): {peak / 1e6:.1f} MB")
    path.unlink()


if __name__ == "__main__":
    main(*(int(a) for a in sys.argv[1:3]))
