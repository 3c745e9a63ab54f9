"""A team league in a real browser on a phone: the TD enters a line-up and a result on the match card,
and the league page shows the table without widening the page. Debian's Chromium driven by Playwright.

Skipped when no Chromium is installed, except in CI (CLUBAVOND_REQUIRE_BROWSER=1), where it must run.
"""

import pytest
from django.urls import reverse

from clubs.models import Club
from pairing.services import leagues as ls
from tests.conftest import make_members

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}


def test_match_card_and_league_table_on_a_phone(browser, live_server, club, td):
    other = Club.objects.create(name="Skakklubben Rivalen", slug="rivalen")
    ours, theirs = make_members(club, 4), make_members(other, 4)
    league = ls.create_league(club, td, name="Holdturnering 2026-2027", slug="hold", settings={"boards": 4})
    home = ls.add_team(league, td, club=club, name="SV Testclub 1", rank=1)
    away = ls.add_team(league, td, club=other, name="Skakklubben Rivalen 1", rank=1)
    ls.set_roster(home, td, ours)
    ls.set_roster(away, td, theirs)
    ls.make_schedule(league, td)
    ls.set_lineup(league.matches.get(), away, td, theirs)
    match = league.matches.get()
    page = browser.new_page(viewport=PHONE)
    try:
        page.goto(live_server.url + reverse("login"))
        page.fill("input[name=username]", "director")
        page.fill("input[name=password]", "secret-pass-1")
        page.click("button.primary")
        page.goto(live_server.url + reverse("league_match", args=[club.slug, "hold", match.pk]))
        for board, member in enumerate(ours, start=1):
            page.select_option(f"#lineup-home select[name=home-board_{board}]", str(member.pk))
        page.click("#lineup-home button")
        page.wait_for_load_state()
        for board in range(1, 5):
            page.select_option(f"#results select[name=result_{board}]", "1-0")
        page.click("#results button")
        page.wait_for_load_state()
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        page.goto(live_server.url + reverse("league", args=[club.slug, "hold"]))
        table = page.locator("#league-table tbody tr")
        assert table.count() == 2
        # White on boards 1 and 3 for the home team: 1-0 four times is 2-2, a drawn match.
        assert page.locator("td.result").first.inner_text().strip() == "2–2"
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    finally:
        page.close()
