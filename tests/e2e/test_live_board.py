"""The playing hall's live board in a real browser: a result the TD enters appears within 5 seconds, no reload;
the round and the standings take turns by themselves."""

from pathlib import Path

import pytest
from django.urls import reverse

from tests.conftest import make_competition

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

SCREENSHOTS = Path(__file__).resolve().parents[2] / "test-results"


def test_live_board_shows_the_tds_result_within_5_seconds(browser, live_server, club, td, members):
    from pairing.services import pair_next_round
    from pairing.services.records import publish

    competition = make_competition(club, td, members[:6])
    publish(pair_next_round(competition, td), td)
    board_page = browser.new_page(viewport={"width": 1920, "height": 1080})
    td_context = browser.new_context(viewport={"width": 390, "height": 844})
    td_page = td_context.new_page()
    errors = []
    board_page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    try:
        polls = []  # (the ETag the browser sent, the one it holds after the answer)

        def seen(response):
            if "panel=" in response.url:
                polls.append((response.request.all_headers().get("if-none-match"), response.all_headers().get("etag")))

        board_page.on("response", seen)
        board_page.goto(live_server.url + reverse("live_board", args=[club.slug, competition.slug]))
        board_page.wait_for_selector("#live-board-1")
        board_page.wait_for_timeout(7000)  # two or three polls while nothing changes
        # The browser revalidates with the ETag it holds, which still matches: the server answers 304
        # (tests/tournaments/test_live.py) and the browser shows the copy it has.
        assert any(sent and sent == held for sent, held in polls), polls
        assert board_page.inner_text("#live-board-1 td.result") == "–"
        td_page.goto(live_server.url + reverse("login"))
        td_page.fill("input[name=username]", "director")
        td_page.fill("input[name=password]", "secret-pass-1")
        td_page.click("button.primary")
        td_page.goto(live_server.url + reverse("manage_round", args=[club.slug, competition.slug, 1]))
        box = td_page.locator("input[name=result-1]")
        box.fill("=")
        box.press("Enter")
        td_page.wait_for_selector("#board-1.done")
        board_page.wait_for_selector("#live-board-1.done", timeout=5000)  # polled, not reloaded
        assert board_page.inner_text("#live-board-1 td.result") == "½-½"
        SCREENSHOTS.mkdir(exist_ok=True)
        board_page.screenshot(path=SCREENSHOTS / "live-board-round.png")
        assert board_page.evaluate("performance.getEntriesByType('navigation').length") == 1
        # After its time the round gives way to the standings by itself, and the round comes back.
        board_page.wait_for_selector(".live-standings", timeout=30000)
        assert board_page.locator(".live-standings li").count() == 6
        board_page.screenshot(path=SCREENSHOTS / "live-board-standings.png")
        board_page.wait_for_selector("#live-board-1.done", timeout=20000)
        assert board_page.evaluate("performance.getEntriesByType('navigation').length") == 1
    finally:
        board_page.close()
        td_context.close()
    assert not [e for e in errors if "Content Security Policy" in e], errors
