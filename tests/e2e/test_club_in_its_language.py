"""A Dutch or Danish club in a real browser, desktop and phone: date fields keep their values and save, a
member meets no link that answers 403, the error pages speak the visitor's language with a way back, and
the pairings mail comes in the language the member chose.

Skipped when no Chromium is installed, except in CI (CLUBAVOND_REQUIRE_BROWSER=1), where it must run.
"""

from __future__ import annotations

from datetime import date, time
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from django.core import mail
from django.urls import reverse

from clubs.models import Season
from season.models import ClubNight
from tests.conftest import make_competition
from tests.season.conftest import linked_user

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

SCREENSHOTS = Path(__file__).resolve().parents[2] / "test-results"
VIEWPORTS = {"desktop": {"width": 1280, "height": 900}, "phone": {"width": 390, "height": 844}}
SAVED = {"nl": "Clubavond opgeslagen.", "da": "Klubaften gemt."}


def open_page(browser, viewport: str):
    """A new page that keeps the browser console's errors in `page.errors`."""
    size = VIEWPORTS[viewport]
    page = browser.new_page(viewport=size, is_mobile=viewport == "phone", has_touch=viewport == "phone")
    page.errors = []
    page.on("console", lambda message: message.type == "error" and page.errors.append(message.text))
    page.on("pageerror", lambda error: page.errors.append(str(error)))
    return page


def log_in(page, base: str, username: str, password: str, language: str) -> None:
    """Choose the language with the switcher at the top, then log in."""
    page.goto(base + reverse("login"))
    with page.expect_navigation():
        page.select_option("header select[name=language]", language)
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", password)
    with page.expect_navigation():
        page.click("button.primary")


def fits(page, width: int) -> bool:
    return page.evaluate("document.documentElement.scrollWidth") <= width


@pytest.mark.parametrize("viewport", VIEWPORTS)
@pytest.mark.parametrize("language", ["nl", "da"])
def test_the_club_night_form_keeps_its_date_and_saves(browser, live_server, club, td, language, viewport):
    season = Season.objects.create(club=club, name="2026-2027", start=date(2026, 9, 1), end=date(2027, 6, 30))
    night = ClubNight.objects.create(season=season, date=date(2027, 1, 21), start=time(20, 0))
    page = open_page(browser, viewport)
    SCREENSHOTS.mkdir(exist_ok=True)
    try:
        log_in(page, live_server.url, "director", "secret-pass-1", language)
        page.goto(live_server.url + reverse("edit_night", args=[club.slug, night.pk]))
        form = page.locator("#night-form")
        assert form.locator("input[name=date]").input_value() == "2027-01-21"
        assert form.locator("input[name=start]").input_value() == "20:00"
        form.locator("input[name=date]").fill("2027-01-28")
        page.screenshot(path=SCREENSHOTS / f"night-form-{language}-{viewport}.png", full_page=True)
        with page.expect_navigation():
            form.locator("button.primary").click()
        assert SAVED[language] in page.locator(".messages").inner_text()
        # Opened again, the form shows the new date.
        page.goto(live_server.url + reverse("edit_night", args=[club.slug, night.pk]))
        assert page.locator("#night-form input[name=date]").input_value() == "2027-01-28"
        assert fits(page, VIEWPORTS[viewport]["width"]) and page.errors == []
    finally:
        page.close()
    night.refresh_from_db()
    assert night.date == date(2027, 1, 28) and night.start == time(20, 0)


@pytest.mark.parametrize(("language", "viewport"), [("nl", "phone"), ("da", "desktop")])
def test_a_member_meets_no_link_that_answers_403(browser, live_server, club, td, members, language, viewport):
    keizer = make_competition(club, td, members[:6], system="keizer", rounds=5, slug="keizer")
    linked_user(members[0], "anna")
    base = live_server.url
    page = open_page(browser, viewport)
    try:
        log_in(page, base, "anna", "pw-anna-123", language)
        assert urlsplit(page.url).path == reverse("my_page")  # a member lands on his own page
        seen = set()
        for name in ("standings", "pairings_latest", "crosstable", "competition_calendar", "prize_list"):
            page.goto(base + reverse(name, args=[club.slug, keizer.slug]))
            assert page.locator(f"a[href='{reverse('manage', args=[club.slug, keizer.slug])}']").count() == 0
            for href in page.eval_on_selector_all("a[href^='/']", "links => links.map(a => a.getAttribute('href'))"):
                seen.add(href.split("#")[0])
        assert reverse("notice", args=[club.slug, keizer.slug]) in seen  # he plays: he may give notice
        statuses = {href: page.request.get(base + href, max_redirects=0).status for href in sorted(seen)}
        assert [href for href, status in statuses.items() if status in (403, 404, 500)] == []
        page.goto(base + reverse("notice", args=[club.slug, keizer.slug]))
        page.screenshot(path=SCREENSHOTS / f"member-notice-{language}-{viewport}.png", full_page=True)
        assert fits(page, VIEWPORTS[viewport]["width"]) and page.errors == []
    finally:
        page.close()


@pytest.mark.parametrize(
    ("language", "viewport", "forbidden", "missing"),
    [("nl", "phone", "Deze pagina is niet voor jou", "Pagina niet gevonden"),
     ("da", "desktop", "Denne side er ikke åben for dig", "Siden findes ikke")],
)  # fmt: skip
def test_error_pages_speak_the_visitors_language_and_lead_back(
    browser, live_server, club, members, language, viewport, forbidden, missing
):
    linked_user(members[0], "anna")
    base = live_server.url
    page = open_page(browser, viewport)
    try:
        log_in(page, base, "anna", "pw-anna-123", language)
        response = page.goto(base + reverse("members", args=[club.slug]))  # the TDs' page
        assert response.status == 403
        assert page.locator("html").get_attribute("lang") == language
        assert page.locator("header.site").is_visible() and forbidden in page.locator("main").inner_text()
        page.screenshot(path=SCREENSHOTS / f"error-403-{language}-{viewport}.png", full_page=True)
        with page.expect_navigation():
            page.locator(".way-back a.primary").click()
        assert urlsplit(page.url).path == club.get_absolute_url()
        response = page.goto(base + f"/{club.slug}/no-such-competition/standings/")
        assert response.status == 404 and missing in page.locator("main").inner_text()
        assert page.locator(f".way-back a[href='{club.get_absolute_url()}']").count() == 1
        page.screenshot(path=SCREENSHOTS / f"error-404-{language}-{viewport}.png", full_page=True)
        assert fits(page, VIEWPORTS[viewport]["width"])
    finally:
        page.close()


def test_the_pairings_mail_comes_in_the_language_the_member_chose(browser, live_server, club, td, members):
    keizer = make_competition(club, td, members[:6], system="keizer", rounds=5, slug="keizer")
    linked_user(members[0], "anna", "anna@example.org")
    base = live_server.url
    phone = open_page(browser, "phone")
    try:
        log_in(phone, base, "anna", "pw-anna-123", "nl")  # the site in Dutch ...
        phone.goto(base + reverse("my_page"))
        with phone.expect_navigation():
            phone.locator("#my-language select").select_option("da")  # ... her pages and mail in Danish
            phone.locator("#my-language button").click()
        assert phone.locator("html").get_attribute("lang") == "da"
        assert phone.locator("#my-language select").input_value() == "da"
        phone.locator("#mail input[name=mail_pairings]").check()
        with phone.expect_navigation():
            phone.locator("#mail button").click()
        phone.screenshot(path=SCREENSHOTS / "me-language-phone-da.png", full_page=True)
        assert phone.errors == []
    finally:
        phone.close()
    desk = open_page(browser, "desktop")
    try:
        log_in(desk, base, "director", "secret-pass-1", "nl")  # the TD reads Dutch
        desk.goto(base + reverse("manage", args=[club.slug, keizer.slug]))
        desk.click("#pair-button")
        desk.wait_for_selector("#publish-button")
        with desk.expect_navigation():
            desk.click("#publish-button")
        assert desk.errors == []
    finally:
        desk.close()
    (pairings,) = [m for m in mail.outbox if m.to == ["anna@example.org"]]
    assert "parringer i runde 1" in pairings.subject and "Kære " in pairings.body
