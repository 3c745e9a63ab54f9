"""Load a full-size FIDE list into the site's full lists, then look players up in it: time and memory.

    .venv/bin/python bench/bench_full_list.py [lines] [lookups]

Writes a FIDE TXT list of `lines` players (default 1,200,000, the size of the real list) in a temporary
folder (`bench_rating_list.write_list`), loads it into a temporary SQLite database (or the database of
DATABASE_URL when set: give a database of its own) as `manage.py load_rating_list` does, then times
`lookups` look-ups (default 1,000) of each kind the entry form makes: a FIDE id, an exact name, and a
name prefix giving the form's candidates. Prints the load's time and the process's peak resident
memory (ru_maxrss, Django included), each look-up kind's median and slowest time, and its queries.
Targets: the load within a few minutes in bounded memory; each look-up a few milliseconds.
"""

from __future__ import annotations

import os
import random
import resource
import statistics
import sys
import tempfile
import time
from datetime import date
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_rating_list import write_list  # noqa: E402


def timed(function, rounds: list) -> tuple[list[float], float]:
    """Each call's wall time (ms) and the processor time (ms) of one call on average."""
    times = []
    processor = time.process_time()
    for argument in rounds:
        start = time.perf_counter()
        function(argument)
        times.append((time.perf_counter() - start) * 1000)
    return times, (time.process_time() - processor) * 1000 / len(rounds)


def report(label: str, measured: tuple[list[float], float]) -> None:
    times, processor = measured
    print(f"{label:<28} median {statistics.median(times):6.2f} ms   slowest {max(times):7.2f} ms   "
          f"processor {processor:5.2f} ms")  # fmt: skip


def main(lines: int = 1_200_000, lookups: int = 1_000) -> None:
    folder = Path(tempfile.mkdtemp(prefix="clubavond-bench-"))
    os.environ.setdefault("DATABASE_URL", f"sqlite:///{folder / 'bench.sqlite3'}")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ.setdefault("DEBUG", "1")  # a local run, no SECRET_KEY needed
    import django

    django.setup()
    from django.conf import settings

    settings.DEBUG = False  # DEBUG keeps the last 9,000 statements (the batches' INSERTs: over 100 MB)
    from django.core.management import call_command
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from clubs.models import Club
    from entries import lookup
    from ratings import full_lists

    call_command("migrate", verbosity=0)
    rng = random.Random(1)
    path = folder / "players_list_foa.txt"
    start = time.perf_counter()
    write_list(path, lines, rng)
    print(f"list written: {lines:,} players, {path.stat().st_size / 1e6:.0f} MB, {time.perf_counter() - start:.1f} s")
    start, processor = time.perf_counter(), time.process_time()
    with path.open("rb") as stream:
        loaded = full_lists.load("fide", stream, date(2026, 11, 1), path.name)
    seconds, processor = time.perf_counter() - start, time.process_time() - processor
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"loaded {loaded.players:,} players in {seconds:.1f} s ({processor:.1f} s processor, "
          f"{loaded.players / seconds:,.0f} rows/s); peak memory {peak:.0f} MB ({connection.vendor})")  # fmt: skip
    club = Club.objects.create(name="Bench", slug=f"bench-{rng.randrange(10**9)}")
    picks = [rng.randrange(lines) for _ in range(lookups)]
    with CaptureQueriesContext(connection) as queries:
        lookup.find(club, fide_id=str(1_000_000 + picks[0]))
    by_id = timed(lambda i: lookup.find(club, fide_id=str(1_000_000 + i)), picks)
    report(f"FIDE id ({len(queries)} queries)", by_id)
    by_name = timed(lambda i: lookup.find(club, first_name=f"Firstname{i % 997}", last_name=f"Surname{i}"), picks)
    report("exact name", by_name)
    prefix = timed(lambda i: lookup.candidates(last_name=f"surname{i // 100}"), picks)
    report("name prefix (10 candidates)", prefix)


if __name__ == "__main__":
    main(*(int(arg) for arg in sys.argv[1:3]))
