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


def test_a_captain_enters_his_line_up_and_confirms_on_a_phone(browser, live_server, club, td):
    from django.contrib.auth import get_user_model

    other = Club.objects.create(name="Skakklubben Rivalen", slug="rivalen")
    ours, theirs = make_members(club, 2), make_members(other, 2)
    for member, name in ((ours[0], "kees"), (theirs[0], "piet")):
        member.user = get_user_model().objects.create_user(name, password="secret-pass-9")
        member.save(update_fields=["user"])
    league = ls.create_league(club, td, name="Regio", slug="regio", settings={"boards": 2})
    home = ls.add_team(league, td, club=club, name="SV Testclub 1", captain=ours[0])
    away = ls.add_team(league, td, club=other, name="Rivalen 1", captain=theirs[0])
    ls.set_roster(home, td, ours)
    ls.set_roster(away, td, theirs)
    ls.make_schedule(league, td)
    match = league.matches.get()
    ls.set_lineup(match, away, theirs[0].user, theirs)
    page = browser.new_page(viewport=PHONE)
    try:
        page.goto(live_server.url + reverse("login"))
        page.fill("input[name=username]", "kees")
        page.fill("input[name=password]", "secret-pass-9")
        page.click("button.primary")
        page.goto(live_server.url + reverse("my_page"))
        page.click("#team-matches a[href$='/captain/']")
        assert page.locator("#lineup-away").count() == 0
        for board, member in enumerate(ours, start=1):
            page.select_option(f"#lineup-home select[name=home-board_{board}]", str(member.pk))
        page.click("#lineup-home button")
        page.wait_for_load_state()
        page.select_option("#results select[name=result_1]", "1-0")
        page.select_option("#results select[name=result_2]", "½-½")
        page.click("#results button")
        page.wait_for_load_state()
        page.click("#confirm button")
        page.wait_for_load_state()
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    finally:
        page.close()
    match.refresh_from_db()
    assert match.home_confirmed and not match.away_confirmed
    assert [b.result for b in match.boards.all()] == ["1-0", "½-½"]
