"""Club night under load: `make serve`'s server, 2 workers, PostgreSQL, members polling while the TD types.

The set-up: a database of its own on the local PostgreSQL (`clubavond_bench`, dropped and made anew), the
demo club, and a generated club night in it: a FIDE Swiss of 60 players, two rounds played, round 3
published with all 30 boards open. Then gunicorn (gunicorn.conf.py, DEBUG off, 2 workers) on a free
loopback port, and in this process, on loopback only:
- `--members` members (200) each polling the round's pairings and the standings in turn, a page every
  `--poll` seconds (0.4: 500 requests/s offered in all), revalidating with the ETag their browser keeps
  (a 304 when nothing changed); a member whose answer comes late asks again at once;
- the TD, logged in, entering the 30 results one every `--interval` seconds (2), the first an interval after
  the members begin, on the round's page: each sent as it is typed (htmx), answered with its board's row;
- a watcher reading the public pairings page every 0.1 s to see when each result becomes visible.
The run ends when the last result is visible, or after `--seconds` (bounded either way).

`--scenario open`: a 1000-player open by the FIDE Dutch system instead, round 1 played and round 2 published
with its 500 boards open; `--members` (500) members each poll the round in play as its live page does (a
request every `--poll` seconds, 3 by default, with the ETag), and the TD enters the round's 500 results one
every `--interval` seconds (0.25 by default). The same figures are printed.

Printed: requests/s of the public pages (and how many were 304s), p50/p99 of public pages and of result
entry, errors, and the delay from the TD's click to the result on the public page (p50 and max).
Targets on the 2-core machine (docs/benchmarks.md): public pages >= 500 requests/s with p99 < 100 ms,
result entry p99 < 200 ms, 0 errors, every result visible within 5 s.

Usage: python bench/bench_load.py [--scenario club-night|open] [--members 200] [--poll 0.4] [--interval 2]
       [--seconds 180] [--workers 2]
  DATABASE_URL names the PostgreSQL server (default postgres://postgres@127.0.0.1:5432/test; the benchmark
  uses a database of its own beside it); REDIS_URL, when set, is handed to the server (cache in Redis).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import re
import secrets
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CLUB = "de-pion"


class Scenario:
    """The competition of a run: its address, size and the round in play, and what the members poll."""

    def __init__(self, slug: str, name: str, players: int, round_number: int, rating: str, both_pages: bool) -> None:
        self.slug, self.name, self.players, self.round, self.rating = slug, name, players, round_number, rating
        self.both_pages = both_pages  # the pairings and the standings in turn; else the round's page only

    def pages(self) -> list[str]:
        round_page = f"/{CLUB}/{self.slug}/round/{self.round}/"
        return [round_page, f"/{CLUB}/{self.slug}/"] if self.both_pages else [round_page]

    def script(self) -> str:
        return SETUP.format(
            club=CLUB, slug=self.slug, name=self.name, players=self.players, round=self.round, rating=self.rating
        )


SCENARIOS = {
    "club-night": Scenario("clubavond", "Clubavond Swiss", 60, 3, "2300 - 15 * i", both_pages=True),
    "open": Scenario("open", "Open 1000", 1000, 2, "2300 - (1500 * i) // 1000", both_pages=False),
}
# Per scenario: members, seconds between one member's requests, seconds between the TD's results, the bound.
DEFAULTS = {"club-night": (200, 0.4, 2.0, 180.0), "open": (500, 3.0, 0.25, 600.0)}

SETUP = """
import random
from clubs.models import Club, Member
from django.contrib.auth import get_user_model
from pairing import services
from tournaments.models import Competition

rng = random.Random({players})
club = Club.objects.get(slug={club!r})
td = get_user_model().objects.get(username="td")
members = Member.objects.bulk_create(
    Member(club=club, first_name=f"Speler{{i:02d}}", last_name=f"Avond{{i:02d}}",
           national_rating={rating}, sex="m")
    for i in range({players})
)
competition = services.create_competition(
    Competition(club=club, name={name!r}, slug={slug!r}, system="dutch", rounds=7), members, td
)
for number in range(1, {round}):
    rnd = services.pair_next_round(competition, td)
    services.publish(rnd, td)
    for game in rnd.games.all():
        if not game.result:
            services.set_result(game, services.parse_result(rng.choice(["1", "=", "0"])), td)
    services.finish(rnd, td)
rnd = services.pair_next_round(competition, td)
services.publish(rnd, td)
print(rnd.games.count())
"""


def percentile(values: list[float], share: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


class Response:
    def __init__(self, status: int, headers: dict[str, list[str]], body: bytes) -> None:
        self.status, self.headers, self.body = status, headers, body

    def header(self, name: str) -> str | None:
        values = self.headers.get(name.lower())
        return values[0] if values else None

    @classmethod
    def parse(cls, raw: bytes) -> Response:
        head, _, content = raw.partition(b"\r\n\r\n")
        status_line, *header_lines = head.decode("latin-1").split("\r\n")
        parsed: dict[str, list[str]] = {}
        for line in header_lines:
            name, _, value = line.partition(":")
            parsed.setdefault(name.strip().lower(), []).append(value.strip())
        return cls(int(status_line.split()[1]), parsed, content)


class Exchange(asyncio.Protocol):
    """One request on a connection of its own, as a reverse proxy sends it to gunicorn's sync workers: the
    request, then the end of the client's side at once (the worker closes the connection after its answer and
    waits for the client's end before it takes the next request: a proxy's, in C, comes at once, and this
    client's, in Python under load, must not come later)."""

    def __init__(self, request: bytes, answer: asyncio.Future) -> None:
        self.request, self.answer, self.chunks = request, answer, []

    def connection_made(self, transport) -> None:
        transport.write(self.request)
        transport.write_eof()

    def data_received(self, data: bytes) -> None:
        self.chunks.append(data)

    def eof_received(self) -> bool:
        if not self.answer.done():
            self.answer.set_result(b"".join(self.chunks))
        return False  # close

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.answer.done():
            self.answer.set_exception(exc or ConnectionError("the connection closed before the answer"))


async def http(port: int, method: str, path: str, headers: dict[str, str] | None = None, body: bytes = b"") -> Response:
    """One HTTP/1.1 request on a connection of its own (gunicorn's sync workers close after each)."""
    lines = [f"{method} {path} HTTP/1.1", "Host: 127.0.0.1", "Connection: close", "Accept-Encoding: identity"]
    lines += [f"{name}: {value}" for name, value in (headers or {}).items()]
    if body:
        lines.append(f"Content-Length: {len(body)}")
    request = ("\r\n".join(lines) + "\r\n\r\n").encode() + body
    loop = asyncio.get_running_loop()
    answer = loop.create_future()
    transport, _ = await loop.create_connection(lambda: Exchange(request, answer), "127.0.0.1", port)
    try:
        raw = await answer
    finally:
        transport.close()
    return Response.parse(raw)


class Cookies:
    """A browser's cookies for this one site."""

    def __init__(self) -> None:
        self.values: dict[str, str] = {}

    def header(self) -> dict[str, str]:
        return {"Cookie": "; ".join(f"{k}={v}" for k, v in self.values.items())} if self.values else {}

    def keep(self, response: Response) -> None:
        for line in response.headers.get("set-cookie", []):
            name, _, rest = line.partition("=")
            self.values[name.strip()] = rest.split(";", 1)[0]


class TD:
    """A logged-in TD's session: cookies and the CSRF token."""

    def __init__(self, port: int) -> None:
        self.port, self.cookies = port, Cookies()

    async def get(self, path: str) -> Response:
        response = await http(self.port, "GET", path, self.cookies.header())
        self.cookies.keep(response)
        return response

    async def post(self, path: str, fields: dict[str, str], extra: dict[str, str] | None = None) -> Response:
        fields = {"csrfmiddlewaretoken": self.cookies.values["csrftoken"], **fields}
        headers = {
            **self.cookies.header(),
            "Content-Type": "application/x-www-form-urlencoded",
            "Referer": f"http://127.0.0.1:{self.port}{path}",
            **(extra or {}),
        }
        response = await http(self.port, "POST", path, headers, urllib.parse.urlencode(fields).encode())
        self.cookies.keep(response)
        return response

    async def login(self, username: str, password: str) -> None:
        await self.get("/login/")
        response = await self.post("/login/", {"username": username, "password": password})
        if response.status != 302 or "sessionid" not in self.cookies.values:
            raise RuntimeError(f"the TD could not log in: {response.status}")


ROW = re.compile(rb'<tr><td>(\d+).*?<td class="result">(.*?)</td>', re.S)


def results_on_page(body: bytes) -> dict[int, str]:
    """Board number -> the result shown on the public pairings page ('' while the game is on)."""
    return {
        int(board): "" if shown.strip() == b"\xe2\x80\x93" or not shown.strip() else shown.decode().strip()
        for board, shown in ROW.findall(body)
    }


class Load:
    def __init__(
        self, scenario: Scenario, port: int, members: int, poll: float, interval: float, seconds: float, boards: int
    ) -> None:
        self.scenario, self.port, self.members, self.poll, self.interval = scenario, port, members, poll, interval
        self.seconds, self.boards = seconds, boards
        self.public: list[float] = []
        self.not_modified = 0
        self.entry: list[float] = []
        self.errors: list[str] = []
        self.entered_at: dict[int, float] = {}
        self.visible_after: dict[int, float] = {}
        self.done = asyncio.Event()

    async def member(self, number: int) -> None:
        """Polls the pairings and the standings in turn (the open: the round's page), one page every `poll`
        seconds (a phone's live page), revalidating with the ETag it was given and keeping its cookies, as a
        browser does; falls behind (no sleep) when the server is slower."""
        pages = self.scenario.pages()
        etags: dict[str, str] = {}
        cookies = Cookies()
        turn = number
        due = time.perf_counter() + random.Random(number).random() * self.poll
        while not self.done.is_set():
            await asyncio.sleep(max(0.0, due - time.perf_counter()))
            due += self.poll
            page = pages[turn % len(pages)]
            turn += 1
            headers = {"If-None-Match": etags[page]} if page in etags else {}
            start = time.perf_counter()
            try:
                response = await http(self.port, "GET", page, headers | cookies.header())
            except OSError as error:
                self.errors.append(f"{page}: {error}")
                continue
            self.public.append(time.perf_counter() - start)
            cookies.keep(response)
            if response.status == 304:
                self.not_modified += 1
            elif response.status != 200:
                self.errors.append(f"{page}: {response.status}")
            if response.header("etag"):
                etags[page] = response.header("etag")

    async def director(self, td: TD, results: list[tuple[int, str]]) -> None:
        """Types the results into the round's page as the TD's browser sends them: each board's result as
        it is typed (htmx), answered with the board's row showing it."""
        path = f"/{CLUB}/{self.scenario.slug}/manage/round/{self.scenario.round}/"
        await td.get(path)
        await asyncio.sleep(self.interval)  # the first result comes an interval after the members open their pages
        for board, result in results:
            start = time.perf_counter()
            response = await td.post(
                f"{path}result/{board}/",
                {f"result-{board}": result, f"based-{board}": ""},
                {"HX-Request": "true", "HX-Target": f"board-{board}", "HX-Current-URL": f"http://127.0.0.1:{self.port}{path}"},
            )
            self.entry.append(time.perf_counter() - start)
            self.entered_at[board] = start
            if response.status != 200 or f'id="board-{board}"'.encode() not in response.body:
                self.errors.append(f"result of board {board}: {response.status}")
            await asyncio.sleep(max(0.0, self.interval - (time.perf_counter() - start)))

    async def watcher(self) -> None:
        page = self.scenario.pages()[0]
        while not self.done.is_set():
            try:
                shown = results_on_page((await http(self.port, "GET", page)).body)
            except OSError:
                shown = {}
            now = time.perf_counter()
            for board, start in list(self.entered_at.items()):
                if board not in self.visible_after and shown.get(board):
                    self.visible_after[board] = now - start
            if len(self.visible_after) == self.boards:
                self.done.set()
            await asyncio.sleep(0.1)

    async def run(self, td: TD, results: list[tuple[int, str]]) -> float:
        start = time.perf_counter()
        tasks = [asyncio.create_task(self.member(i)) for i in range(self.members)]
        tasks.append(asyncio.create_task(self.watcher()))
        director = asyncio.create_task(self.director(td, results))
        try:
            await asyncio.wait_for(self.done.wait(), self.seconds)
        except TimeoutError:
            self.done.set()
        elapsed = time.perf_counter() - start
        director.cancel()
        await asyncio.gather(*tasks, director, return_exceptions=True)
        return elapsed


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def fresh_database(base_url: str, name: str) -> str:
    import psycopg

    admin = base_url.rsplit("/", 1)[0] + "/postgres"
    with psycopg.connect(admin, autocommit=True) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        connection.execute(f'CREATE DATABASE "{name}"')
    return base_url.rsplit("/", 1)[0] + "/" + name


def manage(env: dict[str, str], *args: str) -> str:
    done = subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True)
    if done.returncode:
        raise RuntimeError(f"manage.py {' '.join(args[:1])} failed:\n{done.stderr[-3000:]}")
    return done.stdout


def wait_for(port: int, process: subprocess.Popen, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the server stopped: exit code {process.returncode}")
        try:
            asyncio.run(http(port, "GET", "/health/"))
            return
        except OSError:
            time.sleep(0.2)
    raise TimeoutError(f"the server did not answer within {seconds} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scenario", choices=sorted(SCENARIOS), default="club-night")
    parser.add_argument("--members", type=int, help="default 200 (club night), 500 (open)")
    parser.add_argument("--poll", type=float, help="seconds between one member's requests: 0.4 (club night), 3 (open)")
    parser.add_argument("--interval", type=float, help="seconds between the TD's results: 2 (club night), 0.25 (open)")
    parser.add_argument("--seconds", type=float, help="the run's bound: 180 (club night), 600 (open)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--database", default="clubavond_bench", help="the benchmark's own database, made anew")
    options = parser.parse_args()
    scenario = SCENARIOS[options.scenario]
    members, poll, interval, seconds = DEFAULTS[options.scenario]
    options.seconds = seconds if options.seconds is None else options.seconds
    options.members = members if options.members is None else options.members
    options.poll = poll if options.poll is None else options.poll
    options.interval = interval if options.interval is None else options.interval

    base_url = os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/test")
    if not base_url.startswith(("postgres://", "postgresql://")):
        sys.exit("bench_load runs on PostgreSQL: DATABASE_URL must name a PostgreSQL server")
    folder = Path(tempfile.mkdtemp(prefix="clubavond-load-"))
    port = free_port()
    keep = {"PATH", "HOME", "LANG", "REDIS_URL", "GUNICORN_CMD_ARGS", "ACCESS_LOG"}
    env = {k: v for k, v in os.environ.items() if k in keep}
    env.update(
        DATABASE_URL=fresh_database(base_url, options.database),
        SECRET_KEY=secrets.token_urlsafe(50),
        ALLOWED_HOSTS="127.0.0.1,localhost",
        STATIC_ROOT=str(folder / "static"),
        BIND=f"127.0.0.1:{port}",
        WEB_CONCURRENCY=str(options.workers),
    )
    print(
        f"setting up: demo club and {scenario.name} ({scenario.players} players, round {scenario.round}) on PostgreSQL"
        + (" (cache in Redis)" if "REDIS_URL" in env else " (cache in each worker's memory)"),
        flush=True,
    )
    manage(env, "migrate", "--noinput", "-v0")
    manage(env, "collectstatic", "--noinput", "-v0")
    manage(env, "demo")
    boards = int(manage(env, "shell", "-c", scenario.script()).split()[-1])

    rng = random.Random(3)
    results = [(board, rng.choice(["1", "=", "0"])) for board in range(1, boards + 1)]
    log = (folder / "server.log").open("w")
    server = subprocess.Popen(
        [str(Path(sys.executable).parent / "gunicorn")], cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT
    )
    try:
        wait_for(port, server)
        load = Load(scenario, port, options.members, options.poll, options.interval, options.seconds, boards)

        async def night() -> float:
            td = TD(port)
            await td.login("td", "clubavond")
            return await load.run(td, results)

        elapsed = asyncio.run(night())
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=30)
        log.close()

    ms = 1000
    visible = list(load.visible_after.values())
    offered = options.members / options.poll
    print(
        f"{options.members} members polling every {options.poll:g} s ({offered:.0f} requests/s offered), "
        f"{options.workers} workers, {boards} results one every {options.interval:g} s, {elapsed:.1f} s"
    )
    p50, p99 = percentile(load.public, 0.5) * ms, percentile(load.public, 0.99) * ms
    print(
        f"public pages : {len(load.public) / elapsed:7.1f} requests/s ({load.not_modified} of {len(load.public)} "
        f"answered 304), p50 {p50:.1f} ms, p99 {p99:.1f} ms"
    )
    print(
        f"result entry : {len(load.entry)} results, p50 {percentile(load.entry, 0.5) * ms:.1f} ms, "
        f"p99 {percentile(load.entry, 0.99) * ms:.1f} ms"
    )
    print(
        f"visible after: {len(visible)} of {boards} results, p50 "
        f"{(statistics.median(visible) if visible else float('nan')):.2f} s, "
        f"max {(max(visible) if visible else float('nan')):.2f} s"
    )
    print(f"errors       : {len(load.errors)}" + (f" (first: {load.errors[0]})" if load.errors else ""))
    tail = ", ".join(f"p{share * 100:g} {percentile(load.public, share) * ms:.1f} ms" for share in (0.9, 0.95, 0.999))
    print(f"public tail  : {tail}")
    print(f"server log   : {folder / 'server.log'}")


if __name__ == "__main__":
    main()
