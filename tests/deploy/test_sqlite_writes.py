"""`make run`'s set-up takes concurrent writes: SQLite, the development server and a job worker polling
the queue beside it. A TD gives members a login while those members log in and answer for the coming
round, from several browsers at once: no answer is a server error ("database is locked"), and every
write is saved. A lock held longer than the busy timeout does not stop the worker.
"""

from __future__ import annotations

import sqlite3
import time
import urllib.parse
from concurrent.futures import ThreadPoolExecutor

import pytest

from tests.deploy.server import prepared_env, runserver, server_database, worker
from tests.deploy.test_worker import Browser, shell

pytestmark = pytest.mark.server

PLAYERS = 8  # members of the demo's Keizer competition who get a login and answer, each in a browser of their own
ANSWERS = 6  # answers each of them gives, alternating present and absent with notice
PARTICIPANTS = "__import__('tournaments.models').models.Participant.objects"
COMPETITIONS = "__import__('tournaments.models').models.Competition.objects"
SIGN_OFFS = "__import__('season.models').models.SignOff.objects"


def post(browser: Browser, path: str, fields: dict[str, str]) -> int:
    browser.open(path)
    form = {**fields, "csrfmiddlewaretoken": browser.csrf()}
    body = urllib.parse.urlencode(form).encode()
    return browser.open(path, body, "application/x-www-form-urlencoded")[0]


def login(browser: Browser, username: str, password: str) -> int:
    return post(browser, "/login/", {"username": username, "password": password})


def give_login_and_answer(base: str, member: int, participant: int, number: int) -> list[tuple[str, int]]:
    """The TD makes the member an account; the member logs in and answers ANSWERS times. The answers' statuses."""
    username, password = f"lid-{member}", f"pion-{member}-wachtwoord"
    director, player = Browser(base), Browser(base)
    statuses = [("TD login", login(director, "td", "clubavond"))]
    account = {  # a new account for the member (the page's form; the password under each name it has had)
        "action": "account", "username": username, "email": f"{username}@example.org",
        "password": password, "password1": password, "password2": password,
    }  # fmt: skip
    statuses.append(("member login given", post(director, f"/de-pion/members/{member}/account/", account)))
    statuses.append(("member logs in", login(player, username, password)))
    for i in range(ANSWERS):
        answer = "absent-notice" if i % 2 == 0 else "present"
        fields = {"round": str(number), "answer": answer}
        statuses.append((f"answer {i}", post(player, f"/me/answer/{participant}/", fields)))
    return statuses


def test_concurrent_logins_and_sign_offs_beside_the_worker_are_all_saved(tmp_path):
    with server_database(tmp_path, None) as url:  # SQLite, whatever the test run's own database
        env = prepared_env(url, tmp_path / "static", DEBUG="1", HTTPS="0")
        rows = shell(env, f"[(p.member_id, p.pk) for p in {PARTICIPANTS}.filter(competition__slug='interne', "
                          f"member__user=None).order_by('start_number')[:{PLAYERS}]]")  # fmt: skip
        number = shell(
            env, f"__import__('season.signoff').signoff.next_round_number({COMPETITIONS}.get(slug='interne'))"
        )
        assert len(rows) == PLAYERS
        with worker(env, tmp_path / "worker.log") as polling, runserver(env, tmp_path / "server.log") as base:
            with ThreadPoolExecutor(PLAYERS) as pool:
                outcomes = list(pool.map(lambda row: give_login_and_answer(base, row[0], row[1], number), rows))
            assert polling.poll() is None, "the worker stopped"
        log = (tmp_path / "server.log").read_text()
        failed = [(member, what, status) for (member, _), statuses in zip(rows, outcomes, strict=True)
                  for what, status in statuses if status != 302]  # fmt: skip
        errors = log[log.find("Traceback") :][:4000] if "Traceback" in log else log[-3000:]
        assert not failed, f"{failed}\n{errors}"
        assert "database is locked" not in log
        ids = [participant for _member, participant in rows]
        linked = shell(env, f"{PARTICIPANTS}.filter(pk__in={ids}, member__user__isnull=False).count()")
        assert linked == PLAYERS
        saved = shell(env, f"{SIGN_OFFS}.filter(participant_id__in={ids}, round_number={number}).count()")
        assert saved == PLAYERS * ANSWERS


def wait_until(condition, what: str, seconds: float = 120) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            raise TimeoutError(f"{what}: not within {seconds} s")
        time.sleep(0.05)


def test_the_worker_outlives_a_lock_held_longer_than_its_wait(tmp_path):
    with server_database(tmp_path, None) as url:
        env = {**prepared_env(url, tmp_path / "static", DEBUG="1", HTTPS="0"), "SQLITE_BUSY_SECONDS": "0.2"}
        path = url.removeprefix("sqlite:///")
        log = tmp_path / "worker.log"
        with worker(env, log) as polling:
            wait_until(lambda: "Starting worker" in log.read_text(), "the worker starts")
            holder = sqlite3.connect(path, isolation_level=None)
            holder.execute("BEGIN IMMEDIATE")  # another process writing for longer than the worker waits
            try:
                noticed = lambda: "stayed locked" in log.read_text() or polling.poll() is not None  # noqa: E731
                wait_until(noticed, "the worker notices the lock")
                assert polling.poll() is None, log.read_text()[-3000:]
            finally:
                holder.execute("ROLLBACK")
                holder.close()
            task = shell(env, "__import__('season.tasks').tasks.send_pairing_mail.enqueue(0).id")
            reader = sqlite3.connect(path)
            try:
                finished = "SELECT status FROM django_tasks_database_dbtaskresult WHERE id = ?"
                status = lambda: reader.execute(finished, [task.replace("-", "")]).fetchone()  # noqa: E731
                wait_until(lambda: (status() or [""])[0] == "SUCCESSFUL", "the worker runs the next task")
            finally:
                reader.close()
            assert polling.poll() is None
