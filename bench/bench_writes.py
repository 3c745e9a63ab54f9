"""The TD's writes at 20, 500 and 3000 players: database queries and time of each, posted through the pages.

For each size the script enters that many members in a fresh club and writes the TRF file of a 9-round open
of them with round 1 played (1 against the middle of the field, colours alternating, results 1-0, ½-½, 0-1
board by board in turn), then posts, as the TD does through the test client:

- import: the file imported as a new FIDE Dutch competition of the club (the import page; inline), every
  player matched to his member;
- pair: round 2 paired (the pair button; inline, as for a field below `PAIRING_JOB_MIN_PLAYERS`);
- result: round 2 published (not measured), then one result typed on its page (the htmx post of one board);
- undo: the result cleared again (not measured), then round 2 undone (the undo button).

Printed for each: the number of queries, the wall-clock and the processor time of the request. The input
is made by the script, the same at every run, in a SQLite database of its own; the first requests of a
process (loading the templates, the translations and the engine) are made on a small field first and not
counted.

With `--against FOLDER` (another checkout of the project, in a folder beside this one, e.g.
`git worktree add ../clubavond-main main`) the script runs itself once on that code and once on its own,
each in a fresh process, and prints the two side by side: before (FOLDER) and after (this checkout).
The compiled matcher of this checkout is used by both.

Usage: .venv/bin/python bench/bench_writes.py [--sizes 20 500 3000] [--against FOLDER]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
import warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ACTIONS = ("import", "pair", "result", "undo")


def setup_django(folder: Path) -> None:
    os.environ["DATABASE_URL"] = f"sqlite:///{folder / 'bench.sqlite3'}"
    os.environ.setdefault("SECRET_KEY", "bench-" + "x" * 50)
    os.environ["ALLOWED_HOSTS"] = "testserver"
    os.environ["DEBUG"] = "0"
    os.environ.pop("REDIS_URL", None)
    os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings"
    import django

    warnings.filterwarnings("ignore", message="No directory at")
    django.setup()
    from django.conf import settings
    from django.core.management import call_command

    settings.STORAGES["staticfiles"] = {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"}
    settings.PAIRING_JOB_MIN_PLAYERS = 10**9  # paired in the request, as a smaller field is
    settings.TRF_INLINE_MAX_BYTES = 10**12  # imported in the request
    call_command("migrate", verbosity=0)


def measured(post) -> tuple[int, float, float, object]:
    """Queries, wall and processor seconds of one request."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as queries:
        wall, cpu = time.perf_counter(), time.process_time()
        response = post()
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    if response.status_code not in (200, 302):
        raise RuntimeError(f"{response.status_code}: {response.content[:500]!r}")
    return len(queries), wall, cpu, response


def open_trf(size: int) -> str:
    """The TRF of the open after round 1: player i is member i (`Surname, Player`), rated 2700 down to 1000."""
    from pairing.engines import trf
    from pairing.engines.state import Colour, Kind, Player, RoundRecord, TournamentState

    players = [
        Player(id=i, name=f"Surname{i:04d}, Player{i:04d}", rating=2700 - (1700 * i) // size, federation="NED")
        for i in range(1, size + 1)
    ]
    half = size // 2
    for board in range(1, half + 1):
        top, bottom = players[board - 1], players[half + board - 1]
        white, black = (top, bottom) if board % 2 else (bottom, top)
        score = (1.0, 0.5, 0.0)[board % 3]
        white.history.append(RoundRecord(Kind.GAME, black.id, Colour.WHITE, score))
        black.history.append(RoundRecord(Kind.GAME, white.id, Colour.BLACK, 1.0 - score))
    for player in players[2 * half :]:
        player.history.append(RoundRecord(Kind.PAIRING_BYE, score=1.0))
    state = TournamentState(players=players, total_rounds=9, round_to_pair=2)
    return trf.write(trf.document_from_state(state))


def one_size(size: int) -> dict[str, tuple[int, float, float]]:
    from django.contrib.auth import get_user_model
    from django.core.files.uploadedfile import SimpleUploadedFile
    from django.test import Client
    from django.urls import reverse

    from clubs.models import Club, ClubRole, Member
    from tournaments.models import Competition, Game

    try:  # the code before the writer moved (run beside it with --against)
        from tournaments import adapter
    except ImportError:
        from pairing import services as adapter

    club = Club.objects.create(name=f"Club {size}", slug=f"club-{size}")  # one club per size
    td = get_user_model().objects.create_user(f"td{size}", password="bench-pass-1")
    ClubRole.objects.create(club=club, user=td, role=ClubRole.Role.DIRECTOR)
    Member.objects.bulk_create(
        Member(club=club, first_name=f"Player{i:04d}", last_name=f"Surname{i:04d}") for i in range(1, size + 1)
    )
    client = Client()
    client.force_login(td)
    figures = {}
    upload = SimpleUploadedFile("open.trf", open_trf(size).encode(), content_type="text/plain")
    form = {"name": "Open", "slug": "open", "system": "dutch", "file": upload}
    *figures["import"], _ = measured(lambda: client.post(reverse("import_trf", args=[club.slug]), form))
    competition = Competition.objects.get(club=club, slug="open")
    if competition.participants.exclude(member__club=club).exists() or Member.objects.filter(club=club).count() != size:
        raise RuntimeError("the players were not matched to the members")
    where = (club.slug, competition.slug)
    *figures["pair"], _ = measured(lambda: client.post(reverse("pair", args=where), {"round": "2"}))
    rnd = competition.round_set.get(number=2)
    adapter.publish(rnd, td)
    url = reverse("enter_result", args=[*where, 2, 1])
    *figures["result"], _ = measured(
        lambda: client.post(url, {"result-1": "=", "based-1": ""}, headers={"HX-Request": "true"})
    )
    adapter.set_result(Game.objects.get(round=rnd, board=1), "", td)
    post = {"round": "2", "based_on": str(adapter.boards_seen(rnd))}
    *figures["undo"], _ = measured(lambda: client.post(reverse("undo_round", args=where), post))
    if competition.round_set.paired().filter(number=2).exists():
        raise RuntimeError("round 2 was not undone")
    return figures


def child(sizes: list[int]) -> None:
    """Measure every size on the code this process imports; the figures as one JSON line."""
    with tempfile.TemporaryDirectory() as folder:
        setup_django(Path(folder))
        one_size(6)  # the first requests load the templates, translations and the engine: not counted
        out = {}
        for size in sizes:
            out[size] = one_size(size)
            print(f"  {size} players measured", file=sys.stderr, flush=True)
        print(json.dumps(out))


def run(code: Path, sizes: list[int]) -> dict:
    """The figures of the code in `code`, measured by this script in a fresh process."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(code), str(ROOT)]))
    command = [sys.executable, __file__, "--child", *map(str, sizes)]
    done = subprocess.run(command, cwd=code, env=env, check=True, capture_output=True, text=True)
    sys.stderr.write(done.stderr[-2000:] if done.returncode else "")
    return json.loads(done.stdout.strip().splitlines()[-1])


def show(label: str, figures: dict) -> None:
    print(f"{label}")
    print(f"{'players':>7} | " + " | ".join(f"{a:>26}" for a in ACTIONS))
    print(f"{'':>7} | " + " | ".join(f"{'queries   wall s    cpu s':>26}" for _ in ACTIONS))
    for size, row in figures.items():
        cells = [f"{row[a][0]:>7} {row[a][1]:>8.3f} {row[a][2]:>8.3f}" for a in ACTIONS]
        print(f"{size:>7} | " + " | ".join(f"{c:>26}" for c in cells), flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", type=int, nargs="*", default=[20, 500, 3000])
    parser.add_argument("--against", type=Path, help="another checkout, measured first as 'before'")
    parser.add_argument("--child", type=int, nargs="*", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child is not None:
        sys.path.insert(0, os.getcwd())
        child(args.child)
        return
    if args.against:
        show(f"before ({args.against.name})", run(args.against.resolve(), args.sizes))
    show("after (this checkout)" if args.against else "this checkout", run(ROOT, args.sizes))


if __name__ == "__main__":
    main()
