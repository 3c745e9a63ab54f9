"""Login throttling (django-axes): wrong passwords lock the user name from that address, with a clear message."""

from __future__ import annotations

import pytest
from django.test import RequestFactory, override_settings
from django.urls import reverse

from accounts.client_ip import client_ip

pytestmark = pytest.mark.django_db


def attempt(client, password, address="203.0.113.7", username="director"):
    return client.post(reverse("login"), {"username": username, "password": password}, REMOTE_ADDR=address)


def test_wrong_passwords_lock_the_login_with_a_clear_message(client, td, settings):
    limit = settings.AXES_FAILURE_LIMIT
    for _ in range(limit - 1):
        response = attempt(client, "wrong")
        assert response.status_code == 200  # the login form again, with its error
        assert "Please enter a correct username and password" in response.content.decode()
    response = attempt(client, "wrong")  # the limit-th wrong password locks
    assert response.status_code == 429
    page = response.content.decode()
    assert "Too many wrong passwords" in page and "15 minutes" in page
    assert reverse("password_reset") in page
    # Locked: even the right password is refused now, and nobody is logged in.
    response = attempt(client, "secret-pass-1")
    assert response.status_code == 429
    assert "_auth_user_id" not in client.session


def test_the_lock_is_per_user_name_and_address(client, td, settings):
    for _ in range(settings.AXES_FAILURE_LIMIT):
        attempt(client, "wrong")
    assert attempt(client, "secret-pass-1").status_code == 429
    # The TD logging in from another address (a club evening's other network) is not locked out.
    response = attempt(client, "secret-pass-1", address="198.51.100.1")
    assert response.status_code == 302 and client.session["_auth_user_id"] == str(td.pk)


def test_a_good_login_resets_the_count(client, td, settings):
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        attempt(client, "wrong")
    assert attempt(client, "secret-pass-1").status_code == 302
    client.logout()
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        assert attempt(client, "wrong").status_code == 200
    assert attempt(client, "secret-pass-1").status_code == 302


def test_the_locked_page_is_translated(client, td, settings):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "nl"
    for _ in range(settings.AXES_FAILURE_LIMIT):
        response = attempt(client, "wrong")
    assert response.status_code == 429
    assert "Te vaak een verkeerd wachtwoord" in response.content.decode()


def request_from(remote, forwarded=None):
    extra = {"REMOTE_ADDR": remote}
    if forwarded is not None:
        extra["HTTP_X_FORWARDED_FOR"] = forwarded
    return RequestFactory().post("/login/", **extra)


@override_settings(TRUSTED_PROXIES=0)
def test_without_a_proxy_x_forwarded_for_is_ignored():
    # A client that sends its own X-Forwarded-For must not pick the address it is throttled under.
    assert client_ip(request_from("203.0.113.7", "1.2.3.4")) == "203.0.113.7"


@override_settings(TRUSTED_PROXIES=1)
def test_behind_one_proxy_the_address_it_appended_counts():
    # nginx appends the address it was connected from; what the client sent is further left.
    assert client_ip(request_from("127.0.0.1", "1.2.3.4, 203.0.113.7")) == "203.0.113.7"
    assert client_ip(request_from("127.0.0.1", "203.0.113.7")) == "203.0.113.7"
    # Not through the proxy as configured, or garbage: the connection's address.
    assert client_ip(request_from("127.0.0.1")) == "127.0.0.1"
    assert client_ip(request_from("127.0.0.1", "not-an-address")) == "127.0.0.1"


@override_settings(TRUSTED_PROXIES=2)
def test_behind_two_proxies():
    assert client_ip(request_from("10.0.0.2", "1.2.3.4, 203.0.113.7, 10.0.0.1")) == "203.0.113.7"


@override_settings(TRUSTED_PROXIES=1)
def test_behind_a_proxy_a_spoofed_header_does_not_escape_the_lock(client, td, settings):
    for n in range(settings.AXES_FAILURE_LIMIT):
        client.post(reverse("login"), {"username": "director", "password": "wrong"},
                    REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR=f"10.9.9.{n}, 203.0.113.7")  # fmt: skip
    response = client.post(reverse("login"), {"username": "director", "password": "secret-pass-1"},
                           REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR="10.1.1.1, 203.0.113.7")  # fmt: skip
    assert response.status_code == 429
