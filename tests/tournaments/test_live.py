"""The pages that follow club night live: the pairings of the round in play, the live board, the QR code on the list."""

import io
import re
import subprocess

import pytest
from django.test import Client
from django.urls import reverse
from PIL import Image
from pypdf import PdfReader

from tests.conftest import make_competition, play_round

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}


@pytest.fixture
def in_play(club, td, members):
    from pairing.services import pair_next_round
    from pairing.services.records import publish

    competition = make_competition(club, td, members[:6])
    publish(pair_next_round(competition, td), td)
    return competition


def url(competition, name, *args):
    return reverse(name, args=[competition.club.slug, competition.slug, *args])


def first_game(competition):
    return competition.round_set.get(number=1).games.select_related("white__member", "black__member").get(board=1)


def pdf_page_image(pdf: bytes, folder, page: int = 1, mode: str = "L") -> Image.Image:
    """One page of a PDF as an image (greyscale by default), rendered by poppler's pdftoppm."""
    source = folder / "page.pdf"
    source.write_bytes(pdf)
    subprocess.run(
        ["pdftoppm", "-png", "-r", "60", "-f", str(page), "-l", str(page), "-singlefile", source, folder / "page"],
        check=True,
    )  # fmt: skip
    return Image.open(folder / "page.png").convert(mode)


def pixel_values(image: Image.Image) -> list:
    """The image's pixels row by row (Pillow 12.1 renamed `getdata` to `get_flattened_data`)."""
    flattened = getattr(image, "get_flattened_data", None)
    return list(flattened() if flattened else image.getdata())


def scripts_are_files(page: str) -> bool:
    return all("src=" in tag for tag in re.findall(r"<script[^>]*>", page))


def test_the_round_in_play_polls_itself_and_costs_a_304_while_nothing_changes(client, td, in_play):
    from pairing.services.records import set_result

    page = client.get(url(in_play, "pairings", 1)).content.decode()
    assert 'hx-trigger="every 3s"' in page and scripts_are_files(page)
    poll = client.get(url(in_play, "pairings_latest"), headers=HTMX)
    assert poll.status_code == 200 and "<html" not in poll.content.decode() and 'id="boards"' in poll.content.decode()
    again = client.get(url(in_play, "pairings_latest"), headers={**HTMX, "If-None-Match": poll["ETag"]})
    assert again.status_code == 304
    assert "HX-Request" in poll["Vary"]
    set_result(first_game(in_play), "1-0", td)
    fresh = client.get(url(in_play, "pairings_latest"), headers={**HTMX, "If-None-Match": poll["ETag"]})
    assert fresh.status_code == 200 and "1-0" in fresh.content.decode()


def test_an_earlier_round_and_a_finished_competition_do_not_poll(client, td, club, members):
    competition = make_competition(club, td, members[:4])
    for _ in range(3):
        play_round(competition, td)
    competition.refresh_from_db()
    assert competition.status == "finished"
    assert "every 3s" not in client.get(url(competition, "pairings", 3)).content.decode()


def test_live_board_shows_the_round_then_the_standings_without_login(client, td, in_play):
    from pairing.services.records import set_result

    board = url(in_play, "live_board")
    page = client.get(board)
    text = page.content.decode()
    game = first_game(in_play)
    assert page.status_code == 200 and game.white.name in text and "Round 1" in text
    assert 'hx-trigger="every 3s"' in text and "panel=standings" in text and 'hx-trigger="load delay:20s"' in text
    assert scripts_are_files(text) and "<header" not in text  # full screen: no site header
    set_result(game, "0-1", td)
    polled = client.get(board + "?panel=round", headers=HTMX)
    assert "0-1" in polled.content.decode() and "<html" not in polled.content.decode()
    assert client.get(board + "?panel=round", headers={**HTMX, "If-None-Match": polled["ETag"]}).status_code == 304
    standings = client.get(board + "?panel=standings", headers=HTMX).content.decode()
    assert "Standings" in standings and "panel=round" in standings and 'hx-trigger="load delay:12s"' in standings
    # The winner of board 1 (black) leads; the names appear in standings order.
    assert standings.index(game.black.name) < standings.index(game.white.name)


def test_live_board_shows_no_draft(client, td, club, members):
    from pairing.services import pair_next_round

    competition = make_competition(club, td, members[:4])
    rnd = pair_next_round(competition, td)
    text = Client().get(url(competition, "live_board")).content.decode()
    assert "No round has been published yet." in text and "Round 1" not in text
    assert 'id="live-board-1"' not in text and rnd.games.exists()


def test_live_board_in_dutch_and_danish(client, in_play):
    for language, word in (("nl", "Ronde"), ("da", "Runde")):
        text = client.get(url(in_play, "live_board"), headers={"Accept-Language": language}).content.decode()
        assert f"{word} 1" in text


def test_printed_pairing_list_carries_a_qr_code_to_the_rounds_page(client, in_play, tmp_path):
    response = client.get(url(in_play, "pairings", 1) + "?format=pdf")
    assert response["Content-Type"] == "application/pdf"
    public = "http://testserver" + url(in_play, "pairings", 1)
    assert public in PdfReader(io.BytesIO(response.content)).pages[0].extract_text().replace("\n", "")
    image = pdf_page_image(response.content, tmp_path)
    width, height = image.size
    corner = image.crop((int(width * 0.7), 0, width, int(height * 0.25)))  # the code stands top right
    dark = sum(1 for value in pixel_values(corner) if value < 100)
    assert dark > 0.05 * corner.size[0] * corner.size[1], dark


def test_the_qr_code_encodes_the_url(rf):
    import segno

    from tournaments.pdf import qr_code

    svg = str(qr_code("https://club.example/r/1/"))
    assert svg.startswith("<svg") and "<script" not in svg
    expected = segno.make("https://club.example/r/1/", micro=False, error="m")
    assert re.search(r'd="([^"]+)"', svg).group(1) in expected.svg_inline(scale=3, border=2)


def test_a_phone_waiting_for_round_one_gets_it_and_then_the_next_round(client, td, club, members):
    from pairing.services import pair_next_round
    from pairing.services.records import finish, publish, set_result

    competition = make_competition(club, td, members[:4])
    waiting = client.get(url(competition, "pairings_latest")).content.decode()
    assert "No round has been published yet." in waiting and 'hx-trigger="every 3s"' in waiting
    rnd = pair_next_round(competition, td)
    draft = client.get(url(competition, "pairings_latest"), headers=HTMX).content.decode()
    assert "No round has been published yet." in draft  # a draft is not public
    publish(rnd, td)
    polled = client.get(url(competition, "pairings_latest"), headers=HTMX).content.decode()
    assert "Round 1" in polled and 'hx-trigger="every 3s"' in polled and "<html" not in polled
    for game in rnd.games.all():
        set_result(game, "1-0", td)
    finish(rnd, td)
    publish(pair_next_round(competition, td), td)
    polled = client.get(url(competition, "pairings_latest"), headers=HTMX).content.decode()
    assert "Round 2" in polled and url(competition, "pairings", 2) in polled  # the rounds' links come along


@pytest.mark.parametrize(("system", "rounds", "standings"), [("keizer", 5, True), ("knockout", None, False)])
def test_live_board_of_other_systems(client, td, club, members, system, rounds, standings):
    """Keizer shows its own ranking; a knockout's board shows the round only (its bracket is its standings)."""
    from pairing.services import pair_next_round
    from pairing.services.records import publish

    competition = make_competition(club, td, members[:8], system=system, rounds=rounds, slug=system)
    publish(pair_next_round(competition, td), td)
    board = url(competition, "live_board")
    page = client.get(board).content.decode()
    assert "Round 1" in page and 'id="live-board-1"' in page
    assert ("panel=standings" in page) is standings
    other = client.get(board + "?panel=standings", headers=HTMX).content.decode()
    assert ('class="live-standings"' in other) is standings
    if standings:
        assert all(p.name in other for p in competition.participants.select_related("member"))
