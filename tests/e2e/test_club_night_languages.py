"""Club night in Dutch and Danish, on a desktop and a 390 px phone: what the TD and the members meet.

The TD enters results from the keyboard (no error in the browser's console, no page wider than the phone),
reads the crosstable in chess notation with the colour letters of the language (w/z, h/s) and the standings
with exact values (1¾, not 1.8); a member answers three coming rounds at once. Every page is checked by
axe-core (tests/e2e/package.json, `make setup`) for serious and critical accessibility violations.

Skipped when no Chromium is installed, except in CI (CLUBAVOND_REQUIRE_BROWSER=1), where it must run.
"""

import os
import re
from datetime import time, timedelta
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils import timezone, translation
from playwright.sync_api import expect

from pairing import services as adapter
from tests.conftest import make_competition, play_round

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

SCREENSHOTS = Path(__file__).resolve().parents[2] / "test-results"
AXE = Path(__file__).resolve().parent / "node_modules" / "axe-core" / "axe.min.js"
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}
VIEWPORTS = pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
LANGUAGES = pytest.mark.parametrize("language", ["nl", "da"])
COLOUR_LETTERS = {"nl": "wz", "da": "hs"}
# axe's serious and critical violations, each with the first nodes it found (a list of plain data)
AXE_RUN = """axe.run(document, {resultTypes: ["violations"]}).then(result => result.violations
  .filter(v => v.impact === "serious" || v.impact === "critical")
  .map(v => ({id: v.id, impact: v.impact, nodes: v.nodes.slice(0, 3).map(n => n.target.join(" "))})))"""


@pytest.fixture(scope="module")
def axe_source() -> str:
    if not AXE.exists():
        if os.environ.get("CLUBAVOND_REQUIRE_BROWSER"):
            pytest.fail("axe-core is required for the browser tests (make setup; npm ci in tests/e2e)")
        pytest.skip("axe-core is not installed (make setup; npm ci in tests/e2e)")
    return AXE.read_text(encoding="utf-8")


def new_page(browser, viewport, language):
    phone = viewport["width"] < 600
    context = browser.new_context(viewport=viewport, locale=language, is_mobile=phone, has_touch=phone)
    page = context.new_page()
    page.console_errors = []
    page.on("console", lambda message: message.type == "error" and page.console_errors.append(message.text))
    page.on("pageerror", lambda error: page.console_errors.append(str(error)))
    return page


def log_in(page, base: str, username: str, password: str) -> None:
    page.goto(base + reverse("login"))
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", password)
    page.click("button.primary")
    page.wait_for_load_state()


def axe_violations(page, source: str) -> list[dict]:
    """axe-core's serious and critical violations on the page as it stands (the checker is evaluated through
    the browser's debugging protocol, which the page's Content-Security-Policy does not govern)."""
    if not page.evaluate("typeof axe !== 'undefined'"):
        page.evaluate(source)
    return page.evaluate(AXE_RUN)


def check_page(page, source: str, width: int, name: str) -> None:
    """No serious accessibility violation, nothing wider than the screen, a screenshot to look at."""
    page.screenshot(path=SCREENSHOTS / f"{name}.png", full_page=True)
    assert axe_violations(page, source) == [], name
    assert page.evaluate("document.documentElement.scrollWidth") <= width, name


@pytest.fixture
def played(club, td, members):
    """A round robin of four, two rounds played with draws: Sonneborn-Berger values in quarters."""
    competition = make_competition(club, td, members[:4], slug="rr")
    play_round(competition, td, {1: "½-½", 2: "1-0"})
    play_round(competition, td, {1: "½-½", 2: "½-½"})
    return competition


def expected_standings(competition, language: str) -> list[list[str]]:
    """The standings' tie-break cells as the page must show them: the exact values, computed here from
    the engine's numbers."""
    from tournaments import standings
    from tournaments.state import CompetitionData
    from tournaments.templatetags.clubavond import exact

    with translation.override(language):
        data = CompetitionData.load(competition, public=True)
        names, rows = standings.standings(data)
        hidden = standings.unused_columns(names, rows)
        return [
            [exact(v) if v is not None else "" for i, v in enumerate(row.tiebreaks) if i not in hidden] for row in rows
        ]


@LANGUAGES
@VIEWPORTS
def test_td_enters_results_reads_crosstable_and_standings(
    browser, live_server, club, td, members, played, axe_source, language, viewport
):
    name = f"{language}-{'phone' if viewport['width'] < 600 else 'desktop'}"
    SCREENSHOTS.mkdir(exist_ok=True)
    base = live_server.url
    args = [club.slug, played.slug]
    page = new_page(browser, viewport, language)
    try:
        log_in(page, base, "director", "secret-pass-1")
        page.goto(base + reverse("manage", args=args))
        check_page(page, axe_source, viewport["width"], f"{name}-manage")
        page.click("#pair-button")
        page.wait_for_selector("#publish-button")
        page.click("#publish-button")
        page.wait_for_selector("input.result-input")
        page.locator("input.result-input").first.focus()
        for done, key in enumerate(("1", "="), start=1):
            box = page.evaluate("document.activeElement.name")
            page.keyboard.type(key)
            page.keyboard.press("Enter")
            expect(page.locator("tr.done")).to_have_count(done, timeout=30_000)
            page.locator(f"[name='{box}']:focus").wait_for(state="detached")
        assert page.console_errors == []  # the htmx swaps break no rule of the Content-Security-Policy
        check_page(page, axe_source, viewport["width"], f"{name}-results")
        page.click("form[action$='/finish/'] button")
        page.wait_for_selector(".badge.finished")
        check_page(page, axe_source, viewport["width"], f"{name}-round-closed")
        for view in ("present_list", "system_settings", "tiebreak_settings"):
            page.goto(base + reverse(view, args=args))
            check_page(page, axe_source, viewport["width"], f"{name}-{view}")
        # A Swiss's pages: the players' presence column, the sign-off rules, the pairing explained.
        swiss = make_competition(club, td, members[4:8], system="dutch", rounds=5, slug="swiss")
        for view in ("manage", "present_list", "system_settings"):
            page.goto(base + reverse(view, args=[club.slug, swiss.slug]))
            check_page(page, axe_source, viewport["width"], f"{name}-swiss-{view}")
        page.goto(base + reverse("manage", args=[club.slug, swiss.slug]))
        page.click("#pair-button")
        page.wait_for_selector("#publish-button")
        check_page(page, axe_source, viewport["width"], f"{name}-swiss-paired")

        page.goto(base + reverse("crosstable", args=args))
        check_page(page, axe_source, viewport["width"], f"{name}-crosstable")
        cells = page.locator("#crosstable td.cell").all_inner_texts()
        white, black = COLOUR_LETTERS[language]
        assert len(cells) == 4 * 3
        assert all(re.fullmatch(rf"[1-4][{white}{black}][10½]", cell) for cell in cells), cells
        assert f"12{white}1" in page.inner_text("#crosstable-key")

        page.goto(base + reverse("standings", args=args))
        check_page(page, axe_source, viewport["width"], f"{name}-standings")
        shown = [
            [cell.strip() for cell in row.locator("td.num").all_inner_texts()[2:]]
            for row in page.locator("#standings tbody tr").all()
        ]
        assert shown == expected_standings(played, language)
        assert any("¼" in cell or "¾" in cell for row in shown for cell in row)  # Sonneborn-Berger in quarters
        titles = page.locator("#standings thead abbr").evaluate_all("nodes => nodes.map(n => n.title)")
        assert titles and all(titles)
        # The other pages a club night passes through, as the TD sees them.
        for view, view_args in (("pairings_latest", args), ("player", [*args, 1]), ("prize_list", args),
                                ("club", [club.slug]), ("members", [club.slug]), ("club_calendar", [club.slug]),
                                ("plan_season", [club.slug])):  # fmt: skip
            page.goto(base + reverse(view, args=view_args))
            check_page(page, axe_source, viewport["width"], f"{name}-{view}")
        # A knockout cup's bracket, drawn (a region of its own, scrolled by keyboard too), and the live board.
        cup = make_competition(club, td, members[4:8], system="knockout", slug="cup")
        adapter.pair_next_round(cup, td)
        page.goto(base + reverse("pairings_latest", args=[club.slug, cup.slug]))
        check_page(page, axe_source, viewport["width"], f"{name}-bracket")
        page.goto(base + reverse("live_board", args=args))
        check_page(page, axe_source, viewport["width"], f"{name}-live")
        assert page.console_errors == []
    finally:
        page.context.close()


@LANGUAGES
def test_member_answers_three_rounds_at_once_on_a_phone(browser, live_server, club, td, members, axe_source, language):
    from clubs.models import Season
    from season import planning
    from season.models import SignOff

    season = Season.objects.create(club=club, name="2026-2027")
    first = timezone.localdate() + timedelta(days=7)
    nights = planning.add_nights(season, [first + timedelta(days=7 * i) for i in range(6)], time(20, 0))
    swiss = make_competition(club, td, members[:6], system="dutch", rounds=6, slug="swiss")
    planning.plan_rounds(swiss, dict(enumerate(nights, start=1)), td)
    member = members[1]
    member.user = get_user_model().objects.create_user("speler2", password="pw-speler-2")
    member.save()
    participant = swiss.participants.get(member=member)
    SCREENSHOTS.mkdir(exist_ok=True)
    page = new_page(browser, PHONE, language)
    try:
        log_in(page, live_server.url, "speler2", "pw-speler-2")
        page.goto(live_server.url + reverse("my_page"))
        check_page(page, axe_source, PHONE["width"], f"{language}-phone-me")
        cards = page.locator("#sign-off-form li")
        assert cards.count() == 6
        for number in (2, 3, 4):
            page.select_option(f"#answer-{participant.pk}-{number}", "absent-notice")
        page.click("#save-answers")
        page.wait_for_selector(".messages li")
        check_page(page, axe_source, PHONE["width"], f"{language}-phone-me-answered")
        for number in (2, 3, 4):
            assert page.locator(f"#answer-{participant.pk}-{number}").input_value() == "absent-notice"
        assert page.console_errors == []
    finally:
        page.context.close()
    answered = sorted(SignOff.objects.filter(participant=participant).values_list("round_number", "answer"))
    assert answered == [(2, "absent-notice"), (3, "absent-notice"), (4, "absent-notice")]
