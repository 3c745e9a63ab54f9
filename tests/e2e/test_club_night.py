"""Club night in a real browser: Debian's Chromium driven by Playwright, desktop and phone.

Skipped when no Chromium is installed, except in CI (CLUBAVOND_REQUIRE_BROWSER=1), where it must run.
"""

from pathlib import Path

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from tests.conftest import make_competition

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

SCREENSHOTS = Path(__file__).resolve().parents[2] / "test-results"


@pytest.mark.parametrize(
    "viewport", [{"width": 1280, "height": 900}, {"width": 390, "height": 844}], ids=["desktop", "phone"]
)
def test_td_pairs_enters_results_from_the_keyboard_and_reads_standings(
    browser, live_server, club, td, members, viewport
):
    competition = make_competition(club, td, members[:6])
    page = browser.new_page(viewport=viewport)
    name = "desktop" if viewport["width"] > 600 else "phone"
    SCREENSHOTS.mkdir(exist_ok=True)
    try:
        page.goto(live_server.url + reverse("login"))
        page.fill("input[name=username]", "director")
        page.fill("input[name=password]", "secret-pass-1")
        page.click("button.primary")
        page.goto(live_server.url + reverse("manage", args=[club.slug, competition.slug]))
        page.click("#pair-button")
        page.wait_for_selector("#publish-button")
        page.screenshot(path=SCREENSHOTS / f"{name}-paired.png", full_page=True)
        page.click("#publish-button")
        page.wait_for_selector("input.result-input")
        first = page.locator("input.result-input").first
        first.focus()
        for done, key in enumerate(("1", "=", "0"), start=1):
            box = page.evaluate("document.activeElement.name")
            page.keyboard.type(key)
            page.keyboard.press("Enter")
            # the row saved and the focus moved on before the next key; locators, not wait_for_function, which
            # evaluates a string in the page, and the site's Content-Security-Policy forbids that
            expect(page.locator("tr.done")).to_have_count(done, timeout=30_000)
            page.locator(f"[name='{box}']:focus").wait_for(state="detached")
        page.screenshot(path=SCREENSHOTS / f"{name}-results.png", full_page=True)
        page.goto(live_server.url + reverse("standings", args=[club.slug, competition.slug]))
        text = page.inner_text("#standings")
        page.screenshot(path=SCREENSHOTS / f"{name}-standings.png", full_page=True)
    finally:
        page.close()
    results = list(competition.round_set.get(number=1).games.order_by("board").values_list("result", flat=True))
    assert results == ["1-0", "½-½", "0-1"]
    for participant in competition.participants.select_related("member"):
        assert participant.name in text
    assert "½" in text
