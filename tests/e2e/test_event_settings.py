"""The settings pages of a team event and of a Gladiator competition, used in a real browser.

Seed 004 §4.9.9.5 leaves a team event's match points and ranking to the event; §4.9.8 lets the
Gladiator model have more ordinary games per round ("kan modificeres til at indeholde flere ordinære
partier pr. runde") and its replays. Uses the `browser` fixture of tests/e2e/conftest.py.
"""

import pytest
from django.urls import reverse

from pairing import services as pairing_services
from pairing.services import gladiator as gladiator_writes
from pairing.services import records as services
from tests.conftest import make_competition, make_members, play_round
from tournaments.models import Competition, Game

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def log_in(page, live_server) -> None:
    page.goto(live_server.url + reverse("login"))
    page.fill("input[name=username]", "director")
    page.fill("input[name=password]", "secret-pass-1")
    page.click("button.primary")


@pytest.mark.rule("004 4.9.9.5")
def test_team_event_match_points_and_ranking_on_the_settings_page(browser, live_server, club, td):
    """Win 3, draw 1, board points first. Teams (8 players): 1: [1, 8], 2: [2, 7], 3: [3, 6], 4: [4, 5].
    Round 1: 1-4 1-0 and 5-8 0-1: team 1 wins 2-0; 2-3 1-0 and 6-7 ½-½: team 2 wins 1½-½.
    Board points first: team 1 (2, 3 MP), team 2 (1½, 3 MP), team 3 (½, 0), team 4 (0, 0)."""
    event = make_competition(club, td, make_members(club, 8), system="olympiad", rounds=3, slug="teams")
    page = browser.new_page()
    try:
        log_in(page, live_server)
        page.goto(live_server.url + reverse("system_settings", args=[club.slug, event.slug]))
        page.fill("input[name=setting_match_win]", "3")
        page.fill("input[name=setting_match_draw]", "1")
        page.check("input[name=setting_rank_by_board_points]")
        page.click("form.grid-form button.primary")
        page.wait_for_url("**/manage/")
        event.refresh_from_db()
        assert (event.settings["match_win"], event.settings["match_draw"]) == (3.0, 1.0)
        assert event.settings["rank_by_board_points"] is True

        # A draw worth more than a win is refused, with the setting named.
        page.goto(live_server.url + reverse("system_settings", args=[club.slug, event.slug]))
        page.fill("input[name=setting_match_draw]", "4")
        page.click("form.grid-form button.primary")
        assert "match_draw must be at most 3" in page.inner_text("form.grid-form")

        play_round(event, td, {1: "1-0", 2: "0-1", 3: "1-0", 4: "½-½"})
        page.goto(live_server.url + reverse("standings", args=[club.slug, event.slug]))
        headers = [text.strip() for text in page.locator("#standings thead th").all_inner_texts()]
        match_points, board_points = headers.index("Match points"), headers.index("Board points")
        rows = page.locator("#standings tbody tr")
        table = [
            (cells.nth(1).inner_text(), cells.nth(match_points).inner_text(), cells.nth(board_points).inner_text())
            for cells in (rows.nth(i).locator("td") for i in range(rows.count()))
        ]
        assert table == [("Team 1", "3", "2"), ("Team 2", "3", "1½"), ("Team 3", "0", "½"), ("Team 4", "0", "0")]
    finally:
        page.close()


@pytest.mark.rule("004 4.9.8")
def test_gladiator_ordinary_games_and_replays_on_the_settings_page(browser, live_server, club, td):
    """Two ordinary games, no replay: a drawn first ordinary game is followed by the second ordinary
    game (colours reversed), not by a replay; both drawn, the encounter goes straight to blitz."""
    members = make_members(club, 4)
    competition = make_competition(club, td, members, system="roundrobin", slug="glad")
    Competition.objects.filter(pk=competition.pk).update(gladiator=True)
    page = browser.new_page()
    try:
        log_in(page, live_server)
        page.goto(live_server.url + reverse("system_settings", args=[club.slug, competition.slug]))
        page.fill("input[name=gladiator_ordinary_games]", "2")
        page.fill("input[name=gladiator_replays]", "0")
        page.click("form.grid-form button.primary")
        page.wait_for_url("**/manage/")
        competition.refresh_from_db()
        assert (competition.gladiator_ordinary_games, competition.gladiator_replays) == (2, 0)

        rnd = pairing_services.pair_next_round(competition, td)
        services.publish(rnd, td)
        first = rnd.games.order_by("board").first()
        gladiator_writes.set_game_result(first, "½-½", td)
        page.goto(live_server.url + reverse("manage_round", args=[club.slug, competition.slug, rnd.number]))
        assert "add the next ordinary game" in page.inner_text("body")
        page.click(f"#next-button-{first.match}")
        page.wait_for_load_state()
        second = Game.objects.filter(round=rnd, match=first.match).order_by("board").last()
        assert second.pk != first.pk and second.stage == "classical"
        assert (second.white_id, second.black_id) == (first.black_id, first.white_id)
        gladiator_writes.set_game_result(second, "½-½", td)
        page.goto(live_server.url + reverse("manage_round", args=[club.slug, competition.slug, rnd.number]))
        assert "add the next blitz game" in page.inner_text("body")
    finally:
        page.close()
