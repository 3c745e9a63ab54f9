"""A knockout cup in a real browser: the TD runs a 12-player cup from the draw to the final and prints the bracket.

Uses the `browser` fixture of tests/e2e/conftest.py (skipped without Chromium unless CLUBAVOND_REQUIRE_BROWSER=1).
"""

import io
from pathlib import Path

import pytest
from django.urls import reverse
from pypdf import PdfReader

from tests.conftest import make_competition, make_members
from tournaments import knockout

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

SCREENSHOTS = Path(__file__).resolve().parents[2] / "test-results"


def type_result(page, key: str) -> None:
    """Type a result in the focused box and press Enter: the row is saved and the focus moves on."""
    name = page.evaluate("document.activeElement.name")
    page.keyboard.type(key)
    page.keyboard.press("Enter")
    page.wait_for_selector(f"#board-{name.split('-')[1]}.done")
    # the box left focused or gone; a locator, as wait_for_function would evaluate a string in the page,
    # which the Content-Security-Policy forbids
    page.locator(f"[name='{name}']:focus").wait_for(state="detached")


def test_td_runs_a_twelve_player_cup_with_a_tie_break_and_prints_the_bracket(browser, live_server, club, td):
    members = make_members(club, 12)
    competition = make_competition(club, td, members, system="knockout", rounds=4, slug="cup")
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    SCREENSHOTS.mkdir(exist_ok=True)
    try:
        page.goto(live_server.url + reverse("login"))
        page.fill("input[name=username]", "director")
        page.fill("input[name=password]", "secret-pass-1")
        page.click("button.primary")
        page.goto(live_server.url + reverse("manage", args=[club.slug, competition.slug]))
        page.click("#cup-link")
        # One normal game per match, then two rapid games on a draw.
        page.fill("#format-form input[name=games]", "1")
        page.click("#format-form button")
        page.click("#pair-button")
        page.click("#publish-button")
        page.wait_for_selector("input.result-input")
        assert page.locator("input.result-input").count() == 4  # seeds 1-4 have byes
        page.locator("input.result-input").first.focus()
        for key in ("1", "=", "0", "1"):
            type_result(page, key)
        assert page.locator("tr.done[id^='board-']").count() == 4
        assert "add the next game" in page.inner_text("#results")
        # The drawn match needs its rapid games: black wins the first, the second is drawn.
        for key in ("0", "="):
            page.click("#next-games-button")
            new = page.locator("input.result-input[value='']")
            assert new.count() == 1
            new.focus()
            type_result(page, key)
        page.reload()
        page.screenshot(path=SCREENSHOTS / "cup-round-1.png", full_page=True)
        statuses = page.inner_text("#results")
        assert statuses.count("advances") == 4
        assert "won the rapid tie-break 1½-½" in statuses
        pdf = page.request.get(live_server.url + page.locator("#bracket-pdf").get_attribute("href"))
        pdf_type, pdf_body = pdf.headers["content-type"], pdf.body()
        (SCREENSHOTS / "cup-bracket.pdf").write_bytes(pdf_body)
        # Quarter-finals, semi-finals, final: white wins every game, so no tie-breaks.
        for boards in (4, 2, 1):
            page.click("#pair-button")
            page.click("#publish-button")
            page.wait_for_selector("input.result-input")
            assert page.locator("input.result-input").count() == boards
            page.locator("input.result-input").first.focus()
            for _board in range(boards):
                type_result(page, "1")
            page.reload()
        champion = page.inner_text("#champion")
        final_pdf = page.request.get(live_server.url + page.locator("#bracket-pdf").get_attribute("href"))
        final_text = "\n".join(p.extract_text() for p in PdfReader(io.BytesIO(final_pdf.body())).pages)
        page.goto(live_server.url + reverse("bracket", args=[club.slug, competition.slug]))
        page.screenshot(path=SCREENSHOTS / "cup-bracket.png", full_page=True)
    finally:
        page.close()
    competition.refresh_from_db()
    assert competition.settings["games"] == 1
    cup = knockout.Cup.load(competition)
    round_one = [m for m in cup.matches(1) if not m.match.is_bye]
    assert [len(m.games) for m in round_one].count(3) == 1 and all(m.decided for m in round_one)
    tie = next(m for m in round_one if len(m.games) == 3)
    assert [g.stage for g in tie.games] == ["classical", "rapid", "rapid"]
    assert tie.winner == tie.games[1].black
    assert pdf_type == "application/pdf"
    text = "\n".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf_body)).pages)
    for member in members:
        assert member.full_name in text
    assert "Quarter-final" in text and "won the rapid tie" in text  # the PDF may break the line at its hyphen
    # The whole cup: the final's white player won it, and the printed bracket names the winner.
    final = cup.matches(4)[0]
    assert final.winner == final.games[0].white and final.winner.name in champion
    assert f"Winner: {final.winner.name}" in final_text
    competition.refresh_from_db()
    assert competition.status == "finished"
