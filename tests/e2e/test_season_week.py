"""The club's week in a browser: the TD plans the season's nights, a member signs off on a phone, the TD's
present list shows the answer, the member opens the calendar feed.

Skipped when no Chromium is installed, except in CI (CLUBAVOND_REQUIRE_BROWSER=1), where it must run.
"""

from datetime import timedelta
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils import timezone
from icalendar import Calendar

from tests.conftest import make_competition

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

SCREENSHOTS = Path(__file__).resolve().parents[2] / "test-results"
PHONE = {"width": 390, "height": 844}


def log_in(page, base: str, username: str, password: str) -> None:
    page.goto(base + reverse("login"))
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", password)
    page.click("button.primary")
    page.wait_for_load_state()


def test_td_plans_nights_member_signs_off_on_a_phone_and_subscribes(browser, live_server, club, td, members):
    from clubs.models import Season

    season = Season.objects.create(club=club, name="2026-2027")
    keizer = make_competition(club, td, members[:6], system="keizer", rounds=8, slug="keizer")
    keizer.season = season
    keizer.save()
    member = members[2]
    user = get_user_model().objects.create_user("speler3", password="pw-speler-3")
    member.user = user
    member.save()
    first = timezone.localdate() + timedelta(days=7)
    last = first + timedelta(days=7 * 7)
    skip = first + timedelta(days=14)
    SCREENSHOTS.mkdir(exist_ok=True)
    base = live_server.url

    td_page = browser.new_page(viewport={"width": 1280, "height": 900})
    try:
        log_in(td_page, base, "director", "secret-pass-1")
        td_page.goto(base + reverse("plan_season", args=[club.slug]) + f"?season={season.pk}")
        form = td_page.locator("#nights-form")
        form.locator("input[name=first]").fill(first.isoformat())
        form.locator("input[name=last]").fill(last.isoformat())
        form.locator("select[name=weekday]").select_option(str(first.weekday()))
        form.locator("input[name=start]").fill("20:00")
        form.locator("textarea[name=skip]").fill(skip.isoformat())
        form.locator("button.primary").click()
        td_page.wait_for_selector(".messages li")
        assert td_page.locator("ol.nights > li").count() == 7
        td_page.screenshot(path=SCREENSHOTS / "season-nights.png", full_page=True)
        td_page.goto(base + reverse("plan_rounds", args=[club.slug, keizer.slug]))
        td_page.click("#fill-rounds button")
        td_page.wait_for_selector(".messages li")
        assert td_page.locator("#plan-rounds select[name=round-1]").input_value() != ""
    finally:
        td_page.close()
    assert season.nights.count() == 7 and keizer.round_plan.count() == 7

    phone = browser.new_page(viewport=PHONE, is_mobile=True, has_touch=True)
    try:
        log_in(phone, base, "speler3", "pw-speler-3")
        phone.goto(base + reverse("my_page"))
        card = phone.locator("#coming-keizer-1")
        assert first.strftime("%-d") in card.inner_text()
        answer = card.locator("select")
        box = answer.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"] and box["height"] >= 40
        assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        answer.select_option("absent-notice")
        phone.click("#save-answers")
        phone.wait_for_selector(".messages li")
        assert phone.locator("#coming-keizer-1 select").input_value() == "absent-notice"
        phone.screenshot(path=SCREENSHOTS / "season-sign-off-phone.png", full_page=True)
        feed_url = phone.locator("#feed-url").input_value()
        response = phone.request.get(feed_url)
        assert response.ok and response.headers["content-type"].startswith("text/calendar")
        feed = Calendar.from_ical(response.body())
    finally:
        phone.close()
    here = timezone.get_current_timezone()
    starts = sorted(e.decoded("DTSTART").astimezone(here).date() for e in feed.walk("VEVENT"))
    assert starts == [n.date for n in season.nights.order_by("date")] and skip not in starts

    td_page = browser.new_page(viewport={"width": 1280, "height": 900})
    try:
        log_in(td_page, base, "director", "secret-pass-1")
        td_page.goto(base + reverse("present_list", args=[club.slug, keizer.slug]))
        number = keizer.participants.get(member=member).start_number
        row = td_page.locator(f"#present-{number}")
        assert "absent with notice" in row.inner_text() and "speler3" in row.inner_text()
        assert row.locator("select[name=kind]").input_value() == "absent-notice"
        td_page.screenshot(path=SCREENSHOTS / "season-present-list.png", full_page=True)
        td_page.click("#pair-from-list")
        td_page.wait_for_load_state()
    finally:
        td_page.close()
    rnd = keizer.round_set.get(number=1)
    assert rnd.is_paired and rnd.byes.get(participant__member=member).kind == "absent-notice"
