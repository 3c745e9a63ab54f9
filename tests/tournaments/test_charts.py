"""Charts as inline SVG with their numbers as a table: standings progression, score line, rating over time.

Drawn in the pages and in the PDFs (rendered to PNG by poppler's pdftoppm and looked at), in English,
Dutch and Danish, with nothing the Content-Security-Policy forbids.
"""

import io
import re
from datetime import date

import pytest
from django.urls import reverse
from pypdf import PdfReader

from tests.conftest import make_competition, play_round
from tests.tournaments.test_live import pdf_page_image, pixel_values
from tournaments import charts

LANGUAGES = [
    ("en", "Place after each round", "Score of"),
    ("nl", "Plaats na elke ronde", "Score van"),
    ("da", "Placering efter hver runde", "Pointtal for"),
]


def test_ticks_are_one_two_or_five_times_a_power_of_ten():
    assert [charts.nice_step(span) for span in (12, 37, 100, 450, 0.9)] == [2, 10, 20, 100, 0.2]


def test_places_are_drawn_with_the_first_at_the_top_and_rounds_left_to_right():
    chart = charts.line_chart(
        "t", [charts.Series("a", [(1, 3), (2, 1)]), charts.Series("b", [(1, 1), (2, 4)])], invert_y=True
    )
    a, b = chart.lines
    assert a.dots[0][0] == chart.left and a.dots[1][0] == chart.right
    assert a.dots[1][1] == b.dots[0][1] == chart.top  # place 1
    assert b.dots[1][1] == chart.bottom  # place 4, the worst
    (x1, y1), (x2, y2) = a.dots
    assert a.path == f"M{x1} {y1} L{x2} {y2}"
    assert a.colour != b.colour
    assert [t.label for t in chart.y_ticks] == ["1", "2", "3", "4"]


def test_an_empty_chart_is_empty():
    assert charts.line_chart("t", []).empty


def svg_is_csp_clean(page: str) -> None:
    for svg in re.findall(r"<svg.*?</svg>", page, re.S):
        assert "<script" not in svg and "<style" not in svg and "style=" not in svg


@pytest.fixture
def three_rounds(club, td, members):
    competition = make_competition(club, td, members[:4])
    for results in ({1: "1-0", 2: "1-0"}, {1: "0-1", 2: "½-½"}, {1: "1-0", 2: "0-1"}):
        play_round(competition, td, results)
    return competition


@pytest.mark.django_db
def test_standings_show_the_places_after_each_round_as_chart_and_table(client, three_rounds):
    from tournaments import standings
    from tournaments.state import CompetitionData

    page = client.get(reverse("standings", args=[three_rounds.club.slug, three_rounds.slug])).content.decode()
    assert page.count('class="chart-svg"') == 1 and "Place after each round" in page
    svg_is_csp_clean(page)
    data = CompetitionData.load(three_rounds, public=True)
    numbers, rows = standings.progression(data)
    assert numbers == [1, 2, 3] and len(rows) == 4
    final = {row.participant.start_number: int(row.rank.split("-")[0]) for row in standings.standings(data)[1]}
    for participant, places in rows:
        assert places[-1] == final[participant.start_number]  # after the last round: the standings
    state = data.state(upto_round=1)
    for participant, places in rows:  # after round 1: the two winners share first place, the losers third
        assert places[0] == (1 if state.player(participant.start_number).score() == 1 else 3)
    table = page[page.index('class="list chart-table"') :]
    for participant, places in rows:
        row = table[table.index(participant.name) :]
        cells = re.findall(r'<td class="num">([^<]*)</td>', row)[:3]
        assert cells == [str(p) for p in places]


@pytest.mark.django_db
def test_an_earlier_rounds_places_are_kept_until_that_round_changes(three_rounds, td, monkeypatch):
    """The places after round 1 are cached under a digest of what they are made of: a correction of a
    round-1 result makes a new digest, and the chart shows the corrected places."""
    from pairing.services.records import set_result
    from tournaments import standings
    from tournaments.state import CompetitionData

    def after_round_1():
        return standings.places_after(CompetitionData.load(three_rounds, public=True), 1)

    first = after_round_1()
    winners = {n for n, place in first.items() if place == 1}
    ranked, real = [], standings.tiebreaks.places

    def counted(*args, **kwargs):
        ranked.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(standings.tiebreaks, "places", counted)
    assert len(winners) == 2 and after_round_1() == first and not ranked  # from the cache
    game = three_rounds.round_set.get(number=1).games.select_related("white", "black").get(board=1)
    set_result(game, "0-1", td, override=True)  # the TD corrects board 1 of round 1: black won
    corrected = after_round_1()
    assert corrected != first and ranked  # ranked anew
    assert corrected[game.black.start_number] == 1 and corrected[game.white.start_number] == 3


@pytest.mark.django_db
def test_keizer_standings_chart_follows_the_keizer_ranking(client, club, td, members):
    from pairing.engines import keizer
    from tournaments import standings
    from tournaments.state import CompetitionData

    competition = make_competition(club, td, members[:6], system="keizer", rounds=5, slug="keizer")
    play_round(competition, td)
    play_round(competition, td, {1: "0-1", 2: "½-½"})
    page = client.get(reverse("standings", args=[club.slug, competition.slug])).content.decode()
    assert "Keizer place after each round" in page
    data = CompetitionData.load(competition, public=True)
    _numbers, rows = standings.progression(data)
    after_one = keizer.ranking_after(data.state(upto_round=1), 1)
    for participant, places in rows:
        assert places[0] == list(after_one).index(participant.start_number) + 1


@pytest.mark.django_db
@pytest.mark.parametrize(("language", "title", "score"), LANGUAGES)
def test_charts_speak_the_pages_language(client, three_rounds, language, title, score):
    headers = {"Accept-Language": language}
    args = [three_rounds.club.slug, three_rounds.slug]
    assert title in client.get(reverse("standings", args=args), headers=headers).content.decode()
    player = client.get(reverse("player", args=[*args, 1]), headers=headers).content.decode()
    assert score in player and 'class="chart-svg"' in player
    for svg in re.findall(r'<svg class="chart-svg".*?</svg>', player, re.S):  # numbers as SVG reads them
        for value in re.findall(r'(?:x|y|x1|x2|y1|y2|d)="([^"]*)"', svg):
            assert "," not in value, value


@pytest.mark.django_db
def test_a_player_page_draws_the_score_line(client, three_rounds):
    from tournaments.state import CompetitionData

    data = CompetitionData.load(three_rounds, public=True)
    history = data.state().player(1).history
    running, expected = 0.0, []
    for record in history:
        running += record.score or 0
        expected.append(running)
    page = client.get(reverse("player", args=[three_rounds.club.slug, three_rounds.slug, 1])).content.decode()
    table = page[page.index('class="list chart-table"') :]
    cells = re.findall(r'<td class="num">([^<]*)</td>', table[: table.index("</table>")])
    assert cells == [f"{v:g}".replace("0.5", "½").replace(".5", "½") for v in expected]
    svg_is_csp_clean(page)


@pytest.fixture
def rated(club, td, members):
    from ratings.models import RatingChange

    member = members[0]
    for day, system, old, new in (
        (date(2026, 1, 1), "knsb", 1800, 1850),
        (date(2026, 4, 1), "knsb", 1850, 1832),
        (date(2026, 7, 1), "knsb", 1832, 1901),
        (date(2026, 4, 1), "fide", None, 1790),
    ):
        RatingChange.objects.create(member=member, system=system, date=day, old=old, new=new)
    return member


@pytest.mark.django_db
def test_rating_history_draws_a_members_rating_over_time(client, td, club, rated):
    client.force_login(td)
    page = client.get(reverse("rating_history", args=[club.slug]) + f"?member={rated.pk}").content.decode()
    assert f"Rating of {rated.full_name} over time" in page
    svg = re.search(r'<svg class="chart-svg".*?</svg>', page, re.S).group(0)
    assert svg.count("<g>") == 2  # a line for KNSB and one for FIDE
    table = page[page.index('class="list chart-table"') :]
    cells = re.findall(r'<td class="num">([^<]*)</td>', table[: table.index("</table>")])
    assert cells == ["–", "1850", "1790", "1832", "–", "1901"]  # by date: FIDE, KNSB
    svg_is_csp_clean(page)


@pytest.mark.django_db
def test_the_competitions_player_page_draws_the_rating_and_keeps_private_data_private(client, td, club, members, rated):
    from django.test import Client

    rated.birth_date = date(1987, 6, 5)
    rated.save()
    competition = make_competition(club, td, members[:4])
    play_round(competition, td)
    number = competition.participants.get(member=rated).start_number
    page = Client().get(reverse("player", args=[club.slug, competition.slug, number])).content.decode()
    assert f"Rating of {rated.full_name} over time" in page and "1901" in page
    assert "1987" not in page


@pytest.mark.django_db
@pytest.mark.parametrize(("language", "title", "_score"), LANGUAGES)
def test_the_standings_pdf_draws_the_chart(client, three_rounds, tmp_path, language, title, _score):
    response = client.get(
        reverse("standings", args=[three_rounds.club.slug, three_rounds.slug]) + "?format=pdf",
        headers={"Accept-Language": language},
    )
    assert response["Content-Type"] == "application/pdf"
    text = "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(response.content)).pages)
    assert title in text
    image = pdf_page_image(response.content, tmp_path, mode="RGB")
    # The lines are the only coloured ink on the page (text and rules are black and grey).
    pixels = zip(_coordinates(image), pixel_values(image), strict=True)
    coloured = [xy for xy, (r, g, b) in pixels if max(r, g, b) - min(r, g, b) > 80]
    assert len(coloured) > 200, len(coloured)
    top = min(y for _x, y in coloured)
    bottom = max(y for _x, y in coloured)
    assert bottom - top > 40  # a chart's height of lines, not a stray mark


def _coordinates(image):
    width, height = image.size
    return ((x, y) for y in range(height) for x in range(width))


@pytest.mark.django_db
def test_a_new_rating_shows_at_once_on_the_cached_player_page(client, td, club, members, rated):
    """A rating list applied records RatingChange rows: the pages of the member's competitions follow."""
    from ratings.models import RatingChange

    competition = make_competition(club, td, members[:4])
    number = competition.participants.get(member=rated).start_number
    player = reverse("player", args=[club.slug, competition.slug, number])
    assert "1957" not in client.get(player).content.decode()
    RatingChange.objects.create(member=rated, system="knsb", date=date(2026, 10, 1), old=1901, new=1957)
    assert "1957" in client.get(player).content.decode()
