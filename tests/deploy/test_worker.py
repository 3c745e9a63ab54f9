"""A full FIDE-size rating list imported through the production server by a real worker, which is killed
in the middle of the job and started again: the job is picked up again and ends with one preview.

Run on the database queue, and on Redis (RQ) when a Redis server answers (required in CI).
"""

from __future__ import annotations

import contextlib
import http.cookiejar
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from pathlib import Path

import pytest

from tests.deploy.environment import ROOT, manage
from tests.deploy.server import gunicorn
from tests.ratings.test_web_rating_lists import fide_txt, zipped

pytestmark = pytest.mark.server

JOBS = "__import__('jobs.models').models.Job.objects"
IMPORTS = "__import__('ratings.models').models.RatingListImport.objects"
MEMBERS = "__import__('clubs.models').models.Member.objects"
LINES = 600_000


@contextlib.contextmanager
def redis_database_of_our_own():
    """A Redis database no other test run on this machine is using (runs of the suite in parallel would
    otherwise share one queue), emptied for the test and released after it."""
    import redis

    for number in range(8, 16):
        server = redis.Redis(host="127.0.0.1", port=6379, db=number)
        if server.set("clubavond-test-run", os.getpid(), nx=True, ex=1800):
            try:
                server.flushdb()
                server.set("clubavond-test-run", os.getpid(), ex=1800)
                yield f"redis://127.0.0.1:6379/{number}"
            finally:
                server.flushdb()
            return
    pytest.fail("every Redis database from 8 to 15 is taken by other test runs")


def redis_answers() -> bool:
    try:
        with socket.create_connection(("127.0.0.1", 6379), timeout=2) as sock:
            sock.sendall(b"PING\r\n")
            return sock.recv(16).startswith(b"+PONG")
    except OSError:
        return False


class Browser:
    """A TD's session over plain HTTP: cookies, CSRF token, no automatic redirects."""

    def __init__(self, base: str) -> None:
        self.base, self.jar = base, http.cookiejar.CookieJar()

        class Keep(urllib.request.HTTPRedirectHandler):
            def redirect_request(self, *args, **kwargs):
                return None

        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar), Keep)

    def open(self, path: str, data: bytes | None = None, content_type: str = "") -> tuple[int, dict, str]:
        headers = {"Content-Type": content_type} if content_type else {}
        request = urllib.request.Request(self.base + path, data=data, headers={**headers, "Referer": self.base})
        try:
            with self.opener.open(request, timeout=120) as response:
                return response.status, response.headers, response.read().decode()
        except urllib.error.HTTPError as answer:
            return answer.code, answer.headers, answer.read().decode()

    def csrf(self) -> str:
        return next(c.value for c in self.jar if c.name == "csrftoken")

    def login(self, username: str, password: str) -> None:
        self.open("/login/")
        form = {"username": username, "password": password, "csrfmiddlewaretoken": self.csrf()}
        status, headers, _ = self.open(
            "/login/", urllib.parse.urlencode(form).encode(), "application/x-www-form-urlencoded"
        )
        assert status == 302, "login failed"

    def upload(self, path: str, fields: dict[str, str], name: str, content: bytes) -> tuple[int, dict, str]:
        self.open(path)
        boundary = uuid.uuid4().hex
        parts = [
            f'--{boundary}\r\nContent-Disposition: form-data; name="{key}"\r\n\r\n{value}\r\n'.encode()
            for key, value in {**fields, "csrfmiddlewaretoken": self.csrf()}.items()
        ]
        parts.append(
            f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="{name}"\r\n'
            "Content-Type: application/zip\r\n\r\n".encode()
            + content
            + b"\r\n"
        )
        body = b"".join(parts) + f"--{boundary}--\r\n".encode()
        return self.open(path, body, f"multipart/form-data; boundary={boundary}")


def shell(env: dict[str, str], code: str):
    """Evaluate a Python expression in the deployment (its database), as JSON."""
    result = manage("shell", "-c", f"import json; print(json.dumps({code}))", env=env)
    return json.loads(result.stdout.strip().splitlines()[-1])


def start_worker(env: dict[str, str], log) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "manage.py", "worker"], cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT
    )


def descendants(pid: int) -> list[int]:
    """The processes started by `pid`, at any depth (RQ runs each job in a child of its own session)."""
    parents = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            parents[int(entry.name)] = int(stat.rsplit(")", 1)[1].split()[1])
    found, frontier = [], [pid]
    while frontier:
        children = [child for child, parent in parents.items() if parent in frontier]
        found += children
        frontier = children
    return found


def kill_worker(worker: subprocess.Popen) -> None:
    """As a crash would: every process of the worker at once, no chance to clean up."""
    for pid in [worker.pid, *descendants(worker.pid)]:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
    worker.wait(timeout=30)


def poll(browser: Browser, path: str, until, seconds: float = 240):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        answer = browser.open(path)
        if until(*answer):
            return answer
        time.sleep(0.1)
    raise TimeoutError(f"{path}: not reached within {seconds} s; last answer {answer[0]}")


def progress_of(body: str) -> int | None:
    found = re.search(r'<progress max="100" value="(\d+)"', body)
    return int(found.group(1)) if found else None


@pytest.mark.parametrize("queue", ["database", "redis"])
def test_a_rating_list_job_survives_a_worker_killed_midway(deployment, queue, request):
    env, folder = deployment
    stack = contextlib.ExitStack()
    request.addfinalizer(stack.close)
    if queue == "redis":
        if not redis_answers():
            if os.environ.get("CI"):
                pytest.fail("Redis must answer on 127.0.0.1:6379 in CI (.ci/run starts it)")
            pytest.skip("no Redis server on 127.0.0.1:6379")
        redis_url = stack.enter_context(redis_database_of_our_own())
        env = {**env, "REDIS_URL": redis_url}
    env = {**env, "HTTPS": "0", "JOBS_HEARTBEAT_SECONDS": "0.5", "JOBS_STALE_SECONDS": "5"}
    demo = f"{MEMBERS}.filter(club__slug='de-pion', fide_id__gt='')[:5]"
    members = shell(env, f"[(m.fide_id, m.last_name + ', ' + m.first_name, m.full_name) for m in {demo}]")
    assert len(members) == 5
    rows = [(int(fide_id), name, 2222, "") for fide_id, name, _full in members]
    rows += [(9_000_000 + i, f"Stranger{i}, Player", 1500 + i % 900, "1990") for i in range(LINES)]
    content = zipped("players_list_foa.txt", fide_txt(rows))
    list_date = "2030-01-01" if queue == "database" else "2030-02-01"

    with (
        gunicorn(env, folder / f"worker-{queue}-server.log") as base,
        (folder / f"worker-{queue}.log").open("w") as log,
    ):
        browser = Browser(base)
        browser.login("td", "clubavond")
        worker = start_worker(env, log)
        try:
            status, headers, _ = browser.upload(
                "/de-pion/ratings/lists/", {"source": "fide", "list_date": list_date}, "players.zip", content
            )
            assert status == 302 and re.fullmatch(r"/de-pion/jobs/\d+/", headers["Location"])
            job_page = headers["Location"]
            job_id = int(job_page.split("/")[-2])

            _, _, body = poll(
                browser, job_page, lambda status, _h, body: status == 200 and (progress_of(body) or 0) > 0
            )
            kill_worker(worker)
            status, _, body = browser.open(job_page)
            assert status == 200 and 'hx-trigger="every 1s"' in body, "the job ended before the worker was killed"
            assert shell(env, f"{JOBS}.get(pk={job_id}).status") == "running"

            worker = start_worker(env, log)
            status, headers, _ = poll(browser, job_page, lambda status, _h, _b: status == 302, seconds=300)
            preview = headers["Location"]
            assert re.fullmatch(r"/de-pion/ratings/lists/\d+/", preview)
        finally:
            kill_worker(worker) if worker.poll() is None else None

        _, _, page = browser.open(preview)
        for _fide_id, _name, full_name in members:
            assert full_name in page
        job = shell(env, f"{JOBS}.filter(pk={job_id}).values('attempt', 'status', 'upload')[0]")
        assert job == {"attempt": 2, "status": "done", "upload": None}
        imports = shell(
            env, f"{IMPORTS}.filter(list_date='{list_date}').values_list('players_read', 'matched_by_id')[::1]"
        )
        assert imports == [[LINES + 5, 5]]


PERF = ROOT.parent / "shared" / "oracle" / "perf"


def test_a_large_pairing_job_survives_a_worker_killed_midway(deployment):
    """1000 players of the oracle's generated tournament, round 7 paired by a worker that is killed while
    it pairs: the next worker pairs the round once, with the reference program's boards and colours."""
    env, folder = deployment
    env = {**env, "HTTPS": "0", "JOBS_HEARTBEAT_SECONDS": "0.5", "JOBS_STALE_SECONDS": "5"}
    trf_file, expected_file = PERF / "gen_1000_r7in.trf", PERF / "gen_1000_r7expected.txt"
    assert trf_file.is_file() and expected_file.is_file(), f"the oracle's perf files are missing in {PERF.parent}"
    imported = shell(env, (
        "__import__('tournaments.trf_io').trf_io.import_trf(__import__('clubs.models').models.Club.objects.get("
        f"slug='de-pion'), open({str(trf_file)!r}, encoding='utf-8').read(), name='Open 1000', slug='open-1000', "
        "system='dutch').participants.count()"
    ))  # fmt: skip
    assert imported == 1000
    expected = [tuple(map(int, line.split())) for line in expected_file.read_text().split("\n")[1:] if line.strip()]

    with gunicorn(env, folder / "pairing-server.log") as base, (folder / "pairing-worker.log").open("w") as log:
        browser = Browser(base)
        browser.login("td", "clubavond")
        browser.open("/de-pion/open-1000/manage/")
        form = urllib.parse.urlencode({"csrfmiddlewaretoken": browser.csrf()}).encode()
        status, headers, _ = browser.open("/de-pion/open-1000/manage/pair/", form, "application/x-www-form-urlencoded")
        assert status == 302 and re.fullmatch(r"/de-pion/jobs/\d+/", headers["Location"])
        job_page = headers["Location"]
        job_id = int(job_page.split("/")[-2])
        worker = start_worker(env, log)
        try:
            running = lambda status, _h, body: status == 200 and (progress_of(body) or 0) > 0  # noqa: E731
            poll(browser, job_page, running, seconds=120)
            kill_worker(worker)
            status, _, body = browser.open(job_page)
            assert status == 200 and 'hx-trigger="every 1s"' in body, "the job ended before the worker was killed"
            worker = start_worker(env, log)
            status, headers, _ = poll(browser, job_page, lambda status, _h, _b: status == 302, seconds=300)
            assert headers["Location"] == "/de-pion/open-1000/manage/round/7/"
        finally:
            kill_worker(worker) if worker.poll() is None else None

    job = shell(env, f"{JOBS}.filter(pk={job_id}).values('attempt', 'status', 'kind')[0]")
    assert job == {"attempt": 2, "status": "done", "kind": "pairing"}
    games = "__import__('tournaments.models').models.Game.objects.filter(round__competition__slug='open-1000')"
    boards = shell(env, f"[[g.white.start_number, g.black.start_number] for g in {games}.filter("
                        "round__number=7).select_related('white', 'black').order_by('board')]")  # fmt: skip
    assert len(boards) == 500 and {tuple(board) for board in boards} == set(expected)  # colours included
