"""Every server error on stderr with its traceback and request id; to ADMINS by e-mail when configured."""

from __future__ import annotations

import logging

import pytest
from django.test import Client

from config.request_id import RequestIdFilter

pytestmark = [pytest.mark.urls("tests.deploy.urls_failing"), pytest.mark.django_db]


@pytest.fixture
def stderr_lines(settings):
    """What the configured stderr handler writes: its formatter and request id filter, into a list."""
    configured = next(h for h in logging.getLogger("django.request").handlers if isinstance(h, logging.StreamHandler))
    lines: list[str] = []

    class Capture(logging.Handler):
        def emit(self, record):
            lines.append(configured.format(record))

    handler = Capture()
    handler.addFilter(RequestIdFilter())
    logging.getLogger("django.request").addHandler(handler)
    yield lines
    logging.getLogger("django.request").removeHandler(handler)


def test_a_server_error_is_logged_with_traceback_and_request_id(stderr_lines, mailoutbox, settings):
    settings.ADMINS = []
    response = Client(raise_request_exception=False).get("/failing/")
    assert response.status_code == 500
    request_id = response["X-Request-ID"]
    assert len(request_id) == 32
    logged = "\n".join(stderr_lines)
    assert f"ERROR django.request [{request_id}] Internal Server Error: /failing/" in logged
    assert "Traceback (most recent call last)" in logged and "ZeroDivisionError: a bug in a view" in logged
    assert mailoutbox == []  # no ADMINS, no mail


def test_admins_get_the_error_by_mail(stderr_lines, mailoutbox, settings):
    settings.ADMINS = [("TD", "td@club.example.org")]
    Client(raise_request_exception=False).get("/failing/")
    (mail,) = mailoutbox
    assert mail.to == ["td@club.example.org"]
    assert "Internal Server Error: /failing/" in mail.subject
    assert "ZeroDivisionError at /failing/" in mail.body and "Traceback" in mail.body


def test_a_request_id_from_the_proxy_is_kept_and_a_bad_one_replaced(client):
    assert client.get("/", headers={"X-Request-ID": "proxy-abc-123456"})["X-Request-ID"] == "proxy-abc-123456"
    replaced = client.get("/", headers={"X-Request-ID": "<script>"})["X-Request-ID"]
    assert replaced != "<script>" and len(replaced) == 32
