"""A full FIDE-size rating list imported through the production server by a real worker, which is killed
in the middle of the job and started again: the job is picked up again and ends with one preview.

Run on the database queue, and on Redis (RQ) when a Redis server answers (required in CI). A run keeps to
Redis keys of its own (a prefix), and the test waits on what the worker says (a job's attempt starting)
and on the job's page, never for a fixed time.
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
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from collections.abc import Callable, Iterator
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
REDIS_DB = 7  # the tests' database on the Redis server; each run keeps to keys of its own there


@contextlib.contextmanager
def redis_of_our_own() -> Iterator[tuple[dict[str, str], Callable[[], list[bytes]]]]:
    """This run's own keys on the Redis server (a prefix of its own for the cache and the job queue), so
    runs of the suite in parallel, or a site using the same Redis, never share a queue or a key; the
    environment of the site's processes, and a function listing the keys made; only those are removed."""
    import redis

    prefix = f"clubavond-test-{uuid.uuid4().hex}"
    server = redis.Redis(host="127.0.0.1", port=6379, db=REDIS_DB)
    keys = lambda: list(server.scan_iter(f"{prefix}:*"))  # noqa: E731
    try:
        yield {"REDIS_URL": f"redis://127.0.0.1:6379/{REDIS_DB}", "REDIS_PREFIX": prefix}, keys
    finally:
        for key in keys():
            server.delete(key)


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


class Worker:
    """`manage.py worker` whose output the test reads as it comes, copied to `log`: the test waits for the
    lines it writes (a job's attempt starting), never for a fixed time, and learns at once when it stops."""

    def __init__(self, env: dict[str, str], log: Path) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "manage.py", "worker"], cwd=ROOT, env={**env, "PYTHONUNBUFFERED": "1"},
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        )  # fmt: skip
        self.pid, self.lines, self.ended = self.process.pid, [], False
        self.changed = threading.Condition()
        threading.Thread(target=self._read, args=(log,), daemon=True).start()

    def _read(self, log: Path) -> None:
        with log.open("a") as out:
            for line in self.process.stdout:
                out.write(line)
                out.flush()
                with self.changed:
                    self.lines.append(line)
                    self.changed.notify_all()
        with self.changed:
            self.ended = True
            self.changed.notify_all()

    def wait_for(self, text: str, seconds: float = 900) -> None:
        """Until the worker writes a line holding `text`; fails when it stops first."""
        said = lambda: any(text in line for line in self.lines)  # noqa: E731
        with self.changed:
            self.changed.wait_for(lambda: said() or self.ended, timeout=seconds)
            if not said():
                state = "stopped" if self.ended else f"did not within {seconds} s"
                raise AssertionError(f"the worker {state} before saying {text!r}:\n{''.join(self.lines[-30:])}")

    def poll(self) -> int | None:
        return self.process.poll()

    def wait(self, timeout: float) -> int:
        return self.process.wait(timeout=timeout)


def start_worker(env: dict[str, str], log: Path) -> Worker:
    return Worker(env, log)


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


def kill_worker(worker: Worker) -> None:
    """As a crash would: every process of the worker at once, no chance to clean up."""
    for pid in [worker.pid, *descendants(worker.pid)]:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
    worker.wait(timeout=30)


def poll(browser: Browser, path: str, until, worker: Worker, seconds: float = 900):
    """The job's page until `until(status, headers, body)`: it changes as the worker works, so this waits
    on the worker (failing at once when it stops), with a bound only against a hang."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        answer = browser.open(path)
        if until(*answer):
            return answer
        assert worker.poll() is None, f"the worker stopped:\n{''.join(worker.lines[-30:])}"
        with worker.changed:  # the next line of the worker's, or a moment
            worker.changed.wait(0.2)
    raise TimeoutError(f"{path}: not reached within {seconds} s; last answer {answer[0]}")


def running(status: int, _headers, body: str) -> bool:
    """The job's page shows progress; fails if the job has already ended (too early to kill its worker)."""
    assert status == 200, f"the job ended before its worker could be killed (answer {status})"
    return (progress_of(body) or 0) > 0


def progress_of(body: str) -> int | None:
    found = re.search(r'<progress max="100" value="(\d+)"', body)
    return int(found.group(1)) if found else None


@pytest.mark.parametrize("queue", ["database", "redis"])
def test_a_rating_list_job_survives_a_worker_killed_midway(deployment, queue, request):
    env, folder = deployment
    stack = contextlib.ExitStack()
    request.addfinalizer(stack.close)
    redis_keys = None
    if queue == "redis":
        if not redis_answers():
            if os.environ.get("CI"):
                pytest.fail("Redis must answer on 127.0.0.1:6379 in CI (.ci/run starts it)")
            pytest.skip("no Redis server on 127.0.0.1:6379")
        redis_env, redis_keys = stack.enter_context(redis_of_our_own())
        env = {**env, **redis_env}
    env = {**env, "HTTPS": "0", "JOBS_HEARTBEAT_SECONDS": "0.5", "JOBS_STALE_SECONDS": "5"}
    demo = f"{MEMBERS}.filter(club__slug='de-pion', fide_id__gt='')[:5]"
    members = shell(env, f"[(m.fide_id, m.last_name + ', ' + m.first_name, m.full_name) for m in {demo}]")
    assert len(members) == 5
    rows = [(int(fide_id), name, 2222, "") for fide_id, name, _full in members]
    rows += [(9_000_000 + i, f"Stranger{i}, Player", 1500 + i % 900, "1990") for i in range(LINES)]
    content = zipped("players_list_foa.txt", fide_txt(rows))
    list_date = "2030-01-01" if queue == "database" else "2030-02-01"

    log = folder / f"worker-{queue}.log"
    with gunicorn(env, folder / f"worker-{queue}-server.log") as base:
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

            worker.wait_for(f"job {job_id} attempt 1 started")
            poll(browser, job_page, running, worker)
            kill_worker(worker)
            status, _, body = browser.open(job_page)
            assert status == 200 and 'hx-trigger="every 1s"' in body, "the job ended before the worker was killed"
            assert shell(env, f"{JOBS}.get(pk={job_id}).status") == "running"

            worker = start_worker(env, log)
            worker.wait_for(f"job {job_id} attempt 2 started")
            status, headers, _ = poll(browser, job_page, lambda status, _h, _b: status == 302, worker)
            preview = headers["Location"]
            assert re.fullmatch(r"/de-pion/ratings/lists/\d+/", preview)
        finally:
            kill_worker(worker) if worker.poll() is None else None
        if redis_keys:
            assert any(b":rq:" in key for key in redis_keys()), "the job queue was not under this run's prefix"

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
        "__import__('pairing.services').services.import_trf(__import__('clubs.models').models.Club.objects.get("
        f"slug='de-pion'), open({str(trf_file)!r}, encoding='utf-8').read(), name='Open 1000', slug='open-1000', "
        "system='dutch').participants.count()"
    ))  # fmt: skip
    assert imported == 1000
    expected = [tuple(map(int, line.split())) for line in expected_file.read_text().split("\n")[1:] if line.strip()]

    log = folder / "pairing-worker.log"
    with gunicorn(env, folder / "pairing-server.log") as base:
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
            worker.wait_for(f"job {job_id} attempt 1 started")
            poll(browser, job_page, running, worker)
            kill_worker(worker)
            status, _, body = browser.open(job_page)
            assert status == 200 and 'hx-trigger="every 1s"' in body, "the job ended before the worker was killed"
            worker = start_worker(env, log)
            worker.wait_for(f"job {job_id} attempt 2 started")
            status, headers, _ = poll(browser, job_page, lambda status, _h, _b: status == 302, worker)
            assert headers["Location"] == "/de-pion/open-1000/manage/round/7/"
        finally:
            kill_worker(worker) if worker.poll() is None else None

    job = shell(env, f"{JOBS}.filter(pk={job_id}).values('attempt', 'status', 'kind')[0]")
    assert job == {"attempt": 2, "status": "done", "kind": "pairing"}
    games = "__import__('tournaments.models').models.Game.objects.filter(round__competition__slug='open-1000')"
    boards = shell(env, f"[[g.white.start_number, g.black.start_number] for g in {games}.filter("
                        "round__number=7).select_related('white', 'black').order_by('board')]")  # fmt: skip
    assert len(boards) == 500 and {tuple(board) for board in boards} == set(expected)  # colours included
