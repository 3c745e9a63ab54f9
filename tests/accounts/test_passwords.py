"""Password reset by e-mail (Django's views, this site's pages) and password change."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from django_tasks import default_task_backend

from accounts.changes import password_mark
from accounts.tasks import send_password_reset
from audit.models import AuditEntry

pytestmark = pytest.mark.django_db


def test_password_reset_end_to_end(client, td, mailoutbox):
    td.email = "td@club.example.org"
    td.save()
    page = client.get(reverse("login")).content.decode()
    assert reverse("password_reset") in page  # the login page links to it
    response = client.post(reverse("password_reset"), {"email": "td@club.example.org"})
    assert response.status_code == 302 and response["Location"] == reverse("password_reset_done")
    (mail,) = mailoutbox
    assert mail.to == ["td@club.example.org"]
    assert "director" in mail.body
    link = re.search(r"https?://testserver(/password/reset/\S+/)", mail.body).group(1)
    response = client.get(link)  # Django moves the token into the session and redirects
    assert response.status_code == 302
    form_url = response["Location"]
    assert "Choose a new password" in client.get(form_url).content.decode()
    response = client.post(form_url, {"new_password1": "a-new-club-pass-9", "new_password2": "a-new-club-pass-9"})
    assert response.status_code == 302 and response["Location"] == reverse("password_reset_complete")
    td.refresh_from_db()
    assert td.check_password("a-new-club-pass-9") and not td.check_password("secret-pass-1")
    row = AuditEntry.objects.get(action="password-reset")
    assert (row.username, row.object_type, row.object_id) == ("director", "user", str(td.pk))
    assert row.before["password"] != row.after["password"] == password_mark(td)
    assert row.before["email"] == row.after["email"] == "td@club.example.org"
    assert "a-new-club-pass-9" not in str(row.after) and td.password not in str(row.after)
    # The link works once.
    assert "not valid" in client.get(link, follow=True).content.decode()
    # The new password logs in.
    response = client.post(reverse("login"), {"username": "director", "password": "a-new-club-pass-9"})
    assert response.status_code == 302


def test_password_reset_for_an_unknown_address_sends_nothing_and_says_the_same(client, td, mailoutbox):
    response = client.post(reverse("password_reset"), {"email": "nobody@example.org"}, follow=True)
    assert response.status_code == 200 and "Check your e-mail" in response.content.decode()
    assert mailoutbox == []


def test_mail_goes_to_the_console_unless_an_smtp_server_is_set(monkeypatch):
    import importlib

    import config.settings as production

    monkeypatch.setenv("SECRET_KEY", "x" * 50)
    monkeypatch.setenv("ALLOWED_HOSTS", "example.org")
    monkeypatch.delenv("EMAIL_HOST", raising=False)
    assert importlib.reload(production).EMAIL_BACKEND == "django.core.mail.backends.console.EmailBackend"
    monkeypatch.setenv("EMAIL_HOST", "smtp.example.org")
    monkeypatch.setenv("EMAIL_PORT", "587")
    reloaded = importlib.reload(production)
    assert reloaded.EMAIL_BACKEND == "django.core.mail.backends.smtp.EmailBackend"
    assert (reloaded.EMAIL_HOST, reloaded.EMAIL_PORT) == ("smtp.example.org", 587)
    monkeypatch.delenv("EMAIL_HOST")
    importlib.reload(production)


def test_password_change(client, td):
    client.force_login(td)
    assert reverse("password_change") in client.get(reverse("home")).content.decode()  # linked from every page
    response = client.post(
        reverse("password_change"),
        {"old_password": "wrong", "new_password1": "another-pass-77", "new_password2": "another-pass-77"},
    )
    assert response.status_code == 200 and "Your old password was entered incorrectly" in response.content.decode()
    response = client.post(
        reverse("password_change"),
        {"old_password": "secret-pass-1", "new_password1": "another-pass-77", "new_password2": "another-pass-77"},
    )
    assert response.status_code == 302 and response["Location"] == reverse("password_change_done")
    td.refresh_from_db()
    assert td.check_password("another-pass-77")
    row = AuditEntry.objects.get(action="password-change")
    assert (row.username, row.object_id) == ("director", str(td.pk))
    assert row.before == {"username": "director", "email": "", "password": row.before["password"]}
    assert row.after == {"username": "director", "email": "", "password": password_mark(td)}
    assert row.before["password"] not in ("", row.after["password"])
    assert client.get(reverse("home")).wsgi_request.user == td  # still logged in


def test_password_change_needs_a_login(client):
    response = client.get(reverse("password_change"))
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))


def ask_reset(client, email, address="10.0.0.1"):
    return client.post(reverse("password_reset"), {"email": email}, REMOTE_ADDR=address)


@pytest.fixture
def queued(settings):
    """Jobs are queued and kept, not run: what the page leaves for the worker."""
    settings.TASKS = {"default": {"BACKEND": "django_tasks.backends.dummy.DummyBackend"}}
    default_task_backend.clear()
    return default_task_backend.results


@pytest.mark.parametrize("email", ["td@club.example.org", "nobody@example.org"])
def test_the_reset_mail_is_queued_for_the_worker_not_sent_by_the_page(client, td, mailoutbox, queued, email):
    td.email = "td@club.example.org"
    td.save()
    response = ask_reset(client, email)
    assert response.status_code == 302 and response["Location"] == reverse("password_reset_done")
    assert mailoutbox == []  # the page looked nothing up and sent nothing, for a known address or not
    (job,) = queued
    assert job.task.name == send_password_reset.name and job.args[0] == email
    assert job.task.call(*job.args, **job.kwargs) == (1 if email == "td@club.example.org" else 0)
    assert [mail.to for mail in mailoutbox] == ([[email]] if email == "td@club.example.org" else [])
    if mailoutbox:
        assert re.search(r"http://testserver/password/reset/\S+/", mailoutbox[0].body)


def test_reset_mails_are_limited_per_address(client, td, mailoutbox, settings):
    settings.PASSWORD_RESET_LIMITS = {"address": 3, "client": 10}
    td.email = "td@club.example.org"
    td.save()
    for _ in range(3):
        assert ask_reset(client, "td@club.example.org").status_code == 302
    response = ask_reset(client, "TD@club.example.org", address="10.0.0.2")  # from elsewhere, in capitals
    assert response.status_code == 429 and "Too many password reset mails" in response.content.decode()
    assert len(mailoutbox) == 3
    # Another address is not held back; an unknown one counts the same as a known one.
    for _ in range(3):
        assert ask_reset(client, "nobody@example.org").status_code == 302
    assert ask_reset(client, "nobody@example.org").status_code == 429
    assert len(mailoutbox) == 3


def test_reset_mails_are_limited_per_client(client, td, mailoutbox, settings):
    settings.PASSWORD_RESET_LIMITS = {"address": 3, "client": 5}
    for n in range(5):
        assert ask_reset(client, f"someone{n}@example.org").status_code == 302
    assert ask_reset(client, "someone-else@example.org").status_code == 429
    assert ask_reset(client, "someone-else@example.org", address="10.0.0.9").status_code == 302


def test_the_owner_changes_the_email_address_with_the_password(client, td):
    client.force_login(td)
    url = reverse("email_change")
    assert url in client.get(reverse("password_change")).content.decode()
    response = client.post(url, {"email": "new@club.example.org", "password": "wrong"})
    assert response.status_code == 200 and "entered incorrectly" in response.content.decode()
    td.refresh_from_db()
    assert td.email == "" and not AuditEntry.objects.filter(action="email-change").exists()
    assert client.post(url, {"email": "new@club.example.org", "password": "secret-pass-1"}).status_code == 302
    td.refresh_from_db()
    assert td.email == "new@club.example.org"
    row = AuditEntry.objects.get(action="email-change")
    assert (row.username, row.object_id) == ("director", str(td.pk))
    assert (row.before["email"], row.after["email"]) == ("", "new@club.example.org")
    assert row.before["password"] == row.after["password"] == password_mark(td)


def test_the_email_page_needs_a_login(client):
    response = client.get(reverse("email_change"))
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))
