"""Large opens: processor time of one uncached request to the public pages at 30, 300 and 3000 players.

For each size the script makes a 9-round open by the FIDE Dutch system (`pairing.engines.dutch`), seeded:
ratings 1000-2800, results drawn from the rating gap, a few half-point byes asked for, a few forfeits,
and a few players who withdraw after round 5 (they are no longer paired). It writes the tournament as a
TRF file, imports it (`pairing.services.import_trf`, system "dutch") into a fresh SQLite database of its
own, and asks the pages through Django's test client with the cache emptied before every request (the
page cache, the cached places behind the standings chart, the standings the process keeps between
versions, `standings.live_lines`, the competition's data, `tournaments.live`, and the rows of the large
tables, `tournaments.templatetags.tables`): standings, crosstable, the last round's pairings, a player
card and one tie-break explanation (the second value of the list, for the player in the middle of the
field). Then the standings and the pairings once more, each right after a result of the last round is
changed through the writer (a new version: the page is made again, as the site makes it then, with what
it has kept: the competition's data, the earlier rounds' places, the ranked standings, the rows written).
Printed: the median processor time of `--runs` requests per page, in seconds.

The generated TRF is kept beside the other temporary files (`$TMPDIR/clubavond-bench-scale/`), so a second
run (another checkout of the code, the same machine) ranks exactly the same tournament without pairing it
again; pairing the 3000-player field takes some minutes.

With `--pdf` it times the PDFs of the standings, the crosstable and the last round's pairing list instead,
each rendered in the request (as a worker renders it, `tournaments.printed`), in the same run: as tables with
the print stylesheet of large tables ("tables", as they were printed before), and as lines of text, one per
row (`tournaments.templatetags.print_lines`, "lines"); with `--site-css` also as tables with the site's whole
stylesheet ("site css"). Printed: processor seconds of one PDF (median of `--runs`) and its pages.

Usage: .venv/bin/python bench/bench_scale.py [--sizes 30 300 3000] [--runs 3] [--seed 1]
       [--pdf [--site-css] [--keep FOLDER]]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
import warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

ROUNDS = 9
CACHE_DIR = Path(tempfile.gettempdir()) / "clubavond-bench-scale"


def tournament_trf(size: int, seed: int) -> str:
    """The TRF of a finished 9-round Dutch open of `size` players (the same text for the same arguments)."""
    path = CACHE_DIR / f"open-{size}-seed{seed}.trf"
    if path.exists():
        return path.read_text()
    from pairing.engines import registry, trf
    from pairing.engines.state import Colour, Kind, Player, RoundRecord, TournamentState

    rng = random.Random(seed * 100_003 + size)
    ratings = sorted((rng.randint(1000, 2800) for _ in range(size)), reverse=True)
    players = [Player(id=i, name=f"Player{i:04}, Open", rating=r, federation="NED") for i, r in enumerate(ratings, 1)]
    state = TournamentState(players=players, total_rounds=ROUNDS, round_to_pair=1, top_colour_round1=Colour.WHITE)
    leaving = set(rng.sample(range(1, size + 1), max(1, size // 100)))
    for rnd in range(1, ROUNDS + 1):
        if rnd == 6:
            for p in players:
                p.withdrawn = p.id in leaving
        active = [p.id for p in players if not p.withdrawn]
        state.requested_byes = {pid: Kind.HALF_BYE for pid in rng.sample(active, max(1, size // 60))}
        pairing = registry.pair(state, "dutch")
        by_id = {p.id: p for p in players}
        done = set()
        for board in pairing.boards:
            white, black = by_id[board.white], by_id[board.black]
            if rng.random() < 0.01:  # a forfeit: one player did not come
                score, kind = float(rng.random() < 0.5), Kind.FORFEIT
            else:
                expected = 1 / (1 + 10 ** ((black.rating - white.rating - 35) / 400))
                draw = 0.3 * (1 - abs(2 * expected - 1))
                roll = rng.random()
                score = 0.5 if roll < draw else 1.0 if roll < draw + (1 - draw) * expected else 0.0
                kind = Kind.GAME
            white.history.append(RoundRecord(kind, black.id, Colour.WHITE, score))
            black.history.append(RoundRecord(kind, white.id, Colour.BLACK, 1.0 - score))
            done.update((white.id, black.id))
        for bye in pairing.byes:
            by_id[bye.player].history.append(RoundRecord(bye.kind, score=bye.points))
            done.add(bye.player)
        for p in players:
            if p.id not in done:
                p.history.append(RoundRecord(Kind.ABSENT, score=0.0))
        state.round_to_pair += 1
        print(f"  {size} players: round {rnd} paired", file=sys.stderr, flush=True)
    state.requested_byes = {}
    text = trf.write(trf.document_from_state(state))
    CACHE_DIR.mkdir(exist_ok=True)
    path.write_text(text)
    return text


def setup_django(folder: Path) -> None:
    os.environ["DATABASE_URL"] = f"sqlite:///{folder / 'bench.sqlite3'}"
    os.environ.setdefault("SECRET_KEY", "bench-" + "x" * 50)
    os.environ["ALLOWED_HOSTS"] = "testserver"
    os.environ["DEBUG"] = "0"
    os.environ.pop("REDIS_URL", None)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    warnings.filterwarnings("ignore", message="No directory at")
    django.setup()
    from django.conf import settings
    from django.core.management import call_command
    from django.test.utils import override_settings

    # Static files as `make run` serves them: no collected manifest is needed for the page's links. Through
    # override_settings, whose signal makes Django forget the storages it may have made already.
    storages = settings.STORAGES | {"staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"}}
    # Every request renders its page: the render throttle would answer a copy of the version before.
    override_settings(STORAGES=storages, PAGE_RENDER_SECONDS=0).enable()

    call_command("migrate", verbosity=0)


def competition(size: int, seed: int):
    """The open imported into the database, with its club."""
    from clubs.models import Club
    from pairing.services import import_trf

    club, _ = Club.objects.get_or_create(slug="open", defaults={"name": "Open", "federation": "NED"})
    text = tournament_trf(size, seed)
    start = time.process_time()
    imported = import_trf(club, text, name=f"Open {size}", slug=f"open-{size}", system="dutch")
    print(f"  {size} players: imported in {time.process_time() - start:.2f} s processor", file=sys.stderr)
    return imported


def timed(client, url: str, runs: int) -> float:
    """Median processor time of `runs` requests to `url`, each with an empty cache."""
    from django.core.cache import caches

    from tournaments import standings

    try:
        from tournaments import live
        from tournaments.templatetags import tables
    except ImportError:  # a checkout from before the data and the rows kept between versions
        live = tables = None
    times = []
    for _ in range(runs):
        for name in ("default", "stamps"):
            caches[name].clear()
        getattr(standings, "_LIVE", {}).clear()  # the standings the process keeps between versions
        if live is not None:  # and the competitions' data, and the rows of the tables written
            live.forget()
            tables.forget()
        start = time.process_time()
        response = client.get(url)
        times.append(time.process_time() - start)
        if response.status_code != 200:
            raise RuntimeError(f"{url}: {response.status_code}")
    return statistics.median(times)


def after_result(client, url: str, event, runs: int) -> float:
    """Median processor time of `runs` requests to the page `url` (the standings, the last round's pairings),
    each right after a result of the last round (of the next of its top boards) is changed through the
    writer, as the TD enters it (`pairing.services.set_result`); nothing is emptied: the site has what it
    kept from the version before."""
    from django.contrib.auth import get_user_model

    from pairing.services import set_result
    from tournaments.models import Game

    user, _ = get_user_model().objects.get_or_create(username="bench-td")
    games = Game.objects.filter(round__competition=event, round__number=ROUNDS, result__in=["1-0", "0-1"])
    client.get(url)  # the page of the version before the result
    times = []
    for game in games.order_by("board")[:runs]:  # the top boards' results, one after the other
        set_result(game, "0-1" if game.result == "1-0" else "1-0", user, override=True)
        start = time.process_time()
        response = client.get(url)
        times.append(time.process_time() - start)
        if response.status_code != 200:
            raise RuntimeError(f"{url}: {response.status_code}")
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", type=int, nargs="*", default=[30, 300, 3000])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--pdf", action="store_true", help="time the PDFs, as tables and as lines")
    parser.add_argument("--keep", type=Path, help="with --pdf: write each PDF into this folder, to look at")
    parser.add_argument("--site-css", action="store_true", help="with --pdf: also as tables with the site's stylesheet")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        setup_django(Path(folder))
        from django.test import Client
        from django.urls import reverse

        client = Client()
        if args.pdf:
            time_pdfs(client, args)
            return
        pages = ["standings", "crosstable", "pairings", "player card", "tie-break explanation"]
        pages += ["standings after a result", "pairings after a result"]
        print(f"{'players':>7} | " + " | ".join(f"{page:>21}" for page in pages) + "   (processor s)")
        warm = False
        for size in args.sizes:
            event = competition(size, args.seed)
            where = ("open", event.slug)
            middle = size // 2
            urls = [
                reverse("standings", args=where),
                reverse("crosstable", args=where),
                reverse("pairings", args=(*where, ROUNDS)),
                reverse("player", args=(*where, middle)),
                reverse("tiebreak_explanation", args=(*where, middle, 1)),
            ]
            if not warm:  # the first requests load the templates and the translations
                for url in urls:
                    client.get(url)
                warm = True
            figures = [timed(client, url, args.runs) for url in urls]
            figures.append(after_result(client, urls[0], event, args.runs))
            figures.append(after_result(client, urls[2], event, args.runs))
            print(f"{size:>7} | " + " | ".join(f"{figure:>21.3f}" for figure in figures), flush=True)


def time_pdfs(client, args) -> None:
    """The PDFs of each size, rendered in the request: as tables (with the site's stylesheet, with the print
    one) and as lines of text."""
    from django.conf import settings
    from django.core.cache import caches
    from django.urls import reverse

    from tournaments import pdf

    settings.PDF_JOB_MIN_PLAYERS = 10**9  # every PDF rendered in the request, as the worker renders it
    kinds = {"tables": ("css/print.css", 10**9), "lines": ("css/print.css", 0)}
    if args.site_css:
        kinds = {"site css": ("css/clubavond.css", 10**9), **kinds}
    pages = ["standings", "crosstable", "pairings"]
    print(f"{'players':>7} | {'format':>8} | " + " | ".join(f"{page + ' PDF (pages)':>22}" for page in pages))
    for size in args.sizes:
        event = competition(size, args.seed)
        where = ("open", event.slug)
        urls = [reverse("standings", args=where), reverse("crosstable", args=where)]
        urls = [url + "?format=pdf" for url in [*urls, reverse("pairings", args=(*where, ROUNDS))]]
        for name, (sheet, lines_from) in kinds.items():
            pdf.stylesheet_for = lambda request, sheet=sheet: sheet
            settings.PDF_LINES_MIN_PLAYERS = lines_from
            figures = []
            for url in urls:
                seconds = timed(client, url, args.runs)
                for cache in ("default", "stamps"):
                    caches[cache].clear()
                printed = client.get(url).content
                count = page_count(printed)
                if args.keep:
                    args.keep.mkdir(parents=True, exist_ok=True)
                    (args.keep / f"{size}-{name.replace(' ', '-')}-{pages[len(figures)]}.pdf").write_bytes(printed)
                figures.append(f"{seconds:.2f} s ({count})")
            print(f"{size:>7} | {name:>8} | " + " | ".join(f"{figure:>22}" for figure in figures), flush=True)


def page_count(content: bytes) -> str:
    """The pages of a PDF, read by pypdf (a development tool): "?" without it."""
    try:
        from io import BytesIO

        from pypdf import PdfReader
    except ImportError:
        return "?"
    return str(len(PdfReader(BytesIO(content)).pages))


if __name__ == "__main__":
    main()
