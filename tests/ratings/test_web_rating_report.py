"""The rating report of a played competition (page, PDF, CSV) with hand-computed numbers; the player card."""

from __future__ import annotations

import io
import os
from datetime import date, timedelta

import pytest
from django.template import Context, Template
from django.urls import reverse
from django.utils import timezone
from pypdf import PdfReader

from tests.conftest import make_competition

if not os.environ.get("DJANGO_SETTINGS_MODULE"):  # the pure rating tests run with -p no:django
    pytest.skip("needs the Django test plugin", allow_module_level=True)

pytestmark = pytest.mark.django_db


def play_all(competition, td, outcome) -> None:
    """Play every round; `outcome(white, black)` gives each game's result from the two members."""
    from pairing import services as adapter
    from pairing.services import records as services

    for _ in range(competition.planned_rounds()):
        rnd = adapter.pair_next_round(competition, td)
        services.publish(rnd, td)
        for game in rnd.games.select_related("white__member", "black__member"):
            services.set_result(game, outcome(game.white.member, game.black.member), td)
        services.finish(rnd, td)


def ranked_outcome(order: list[str]):
    """The earlier name in `order` beats the later ones, except that the last two draw."""

    def outcome(white, black) -> str:
        w, b = order.index(white.first_name), order.index(black.first_name)
        if {w, b} == {len(order) - 2, len(order) - 1}:
            return "½-½"
        return "1-0" if w < b else "0-1"

    return outcome


@pytest.fixture
def four(club, td):
    """A round robin of four: A 2000, B 1900, C 1800, D 1700 (FIDE and national). D is a junior.

    A beats everyone, B beats C and D, C and D draw: A 3, B 2, C ½, D ½.
    """
    from clubs.models import Member

    members = [
        Member.objects.create(club=club, first_name=name, last_name="Test", fide_rating=rating,
                              national_rating=rating, birth_date=born)
        for name, rating, born in (("A", 2000, date(1980, 1, 1)), ("B", 1900, date(1981, 1, 1)),
                                   ("C", 1800, date(1982, 1, 1)), ("D", 1700, date(2012, 1, 1)))
    ]  # fmt: skip
    competition = make_competition(club, td, members)
    play_all(competition, td, ranked_outcome(["A", "B", "C", "D"]))
    return competition


def report_rows(page: str) -> dict[str, list[str]]:
    """The cells of the report table by player name."""
    import re

    table = page[page.index('id="rating-report"') :]
    table = table[: table.index("</table>")]
    rows = {}
    for row in re.findall(r"<tr>(.*?)</tr>", table, re.S):
        cells = [re.sub(r"<[^>]+>", "", c).strip() for c in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)]
        if cells:
            rows[cells[1].split()[-2]] = cells
    return rows


def test_fide_report_hand_computed(td_client, club, four):
    """FIDE table 8.1.2: D 100 -> .64, 200 -> .76, 300 -> .85; K 20, junior 40; rounded halves away.

    A: W_e .64+.76+.85 = 2.25, W 3: +0.75 x 20 = +15.  B: W_e .36+.64+.76 = 1.76, W 2: +0.24 x 20 = +4.8 -> +5.
    C: W_e .24+.36+.64 = 1.24, W ½: -0.74 x 20 = -14.8 -> -15.
    D (junior): W_e .15+.24+.36 = .75, W ½: -0.25 x 40 = -10.
    """
    page = td_client.get(reverse("rating_report", args=[club.slug, four.slug])).content.decode()
    assert "Rating system: FIDE" in page and "Chosen from the club's federation" in page
    assert reverse("export_trf", args=[club.slug, four.slug]) in page
    rows = report_rows(page)
    # name, old, games, W, W_e, K, new, change
    assert [rows["A"][i] for i in (2, 3, 4, 5, 6, 7, 8)] == ["2000", "3", "3", "2.25", "20", "2015", "+15"]
    assert [rows["B"][i] for i in (2, 3, 4, 5, 6, 7, 8)] == ["1900", "3", "2", "1.76", "20", "1905", "+5"]
    assert [rows["C"][i] for i in (2, 3, 4, 5, 6, 7, 8)] == ["1800", "3", "½", "1.24", "20", "1785", "-15"]
    assert [rows["D"][i] for i in (2, 3, 4, 5, 6, 7, 8)] == ["1700", "3", "½", "0.75", "40", "1690", "-10"]


def test_report_pdf_and_csv(td_client, club, four):
    url = reverse("rating_report", args=[club.slug, four.slug])
    response = td_client.get(url + "?format=pdf")
    assert response["Content-Type"] == "application/pdf"
    text = "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(response.content)).pages)
    for figure in ("2015", "1905", "1785", "1690", "A Test", "D Test", "Rating report"):
        assert figure in text
    lines = td_client.get(url + "?format=csv").content.decode().splitlines()
    assert lines[0].startswith("start_number,name,id,old_rating,games,score,expected")
    assert sorted(line.split(",")[-1] for line in lines[1:]) == ["-10", "-15", "15", "5"]


def test_knsb_report_uses_the_logistic_expectation(td_client, club, four):
    """KNSB: W_e = 1 / (1 + 10^((R_c - R_o) / 400)); K as FIDE's. A: W_e 2.2489, +0.7511 x 20 = +15.02 -> +15."""
    club.federation = "NED"
    club.save()
    rows = report_rows(td_client.get(reverse("rating_report", args=[club.slug, four.slug])).content.decode())
    expected = sum(1 / (1 + 10 ** ((r - 2000) / 400)) for r in (1900, 1800, 1700))
    assert rows["A"][5] == f"{expected:.2f}" == "2.25"
    assert rows["A"][7:9] == ["2015", "+15"]
    # C: W_e .3599 + .3599... computed the same way; change rounded halves away from zero
    c_expected = sum(1 / (1 + 10 ** ((r - 1800) / 400)) for r in (2000, 1900, 1700))
    c_change = round(20 * (0.5 - c_expected))
    assert rows["C"][7:9] == [str(1800 + c_change), f"{c_change:+d}"]


def test_dsu_report_by_federation_and_override(td_client, club, four):
    """DSU, difference method (spread 300 > 200): W_e rounded to 0.05, K 20 from 2000, 30 below; rounded halves up.

    A: 2.25, +0.75 x 20 = +15 -> 2015.  B: 1.76 -> 1.75, +0.25 x 30 = +7.5 -> 1907.5 -> 1908.
    C: 1.24 -> 1.25, -0.75 x 30 = -22.5 -> 1777.5 -> 1778.  D: .75, -0.25 x 30 = -7.5 -> 1692.5 -> 1693.
    """
    club.federation = "DEN"
    club.save()
    url = reverse("rating_report", args=[club.slug, four.slug])
    page = td_client.get(url).content.decode()
    assert "Rating system: DSU" in page
    rows = report_rows(page)
    # name, old, class, games, W, W_e, B, K, new, change
    assert [rows["A"][i] for i in (2, 3, 5, 6, 8, 9, 10)] == ["2000", "master player", "3", "2.25", "20", "2015", "+15"]
    assert [rows["B"][i] for i in (2, 3, 6, 8, 9, 10)] == ["1900", "master player", "1.75", "30", "1908", "+8"]
    assert [rows["C"][i] for i in (2, 3, 6, 8, 9, 10)] == ["1800", "1st class", "1.25", "30", "1778", "-22"]
    assert [rows["D"][i] for i in (2, 3, 6, 8, 9, 10)] == ["1700", "1st class", "0.75", "30", "1693", "-7"]
    # the override: FIDE numbers, and the page says the club's federation would give DSU
    page = td_client.get(url + "?system=fide").content.decode()
    assert "Rating system: FIDE" in page and "would give DSU" in page
    assert report_rows(page)["D"][7] == "1690"


@pytest.mark.rule("004 26")
def test_dsu_average_method_candidate_result_and_player_card(client, td_client, club, td):
    """Six players 2000 ... 1950 in a round robin (spread 50: average method), A wins all, the others draw.

    R_a = 1975. A: D 25 -> P .53, W_e = 6 x .53 - ½ = 2.68 -> 2.70; B = 5 - 2.70 - 1.5 = 0.80;
    K 20: +20 x (5 - 2.70 + 0.80) = +62 -> 2062. F (1950): D -25 -> .47, W_e 2.32 -> 2.30, W 2: -0.3 x 30 = -9.
    §26: average 1975 is category 1 (1900-2100): 100 % of 5 rounds = 5 points: A has a candidate result.
    """
    from clubs.models import Member

    club.federation = "DEN"
    club.save()
    names = ["A", "B", "C", "D", "E", "F"]
    members = [Member.objects.create(club=club, first_name=n, last_name="Test", national_rating=2000 - 10 * i)
               for i, n in enumerate(names)]  # fmt: skip
    competition = make_competition(club, td, members, slug="six")

    def outcome(white, black) -> str:
        if "A" in (white.first_name, black.first_name):
            return "1-0" if white.first_name == "A" else "0-1"
        return "½-½"

    play_all(competition, td, outcome)
    rows = report_rows(td_client.get(reverse("rating_report", args=[club.slug, competition.slug])).content.decode())
    assert [rows["A"][i] for i in (4, 5, 6, 7, 8, 9, 10)] == ["5", "5", "2.70", "0.80", "20", "2062", "+62"]
    assert "candidate result (round 5)" in rows["A"][11]
    assert [rows["F"][i] for i in (5, 6, 8, 9, 10)] == ["2", "2.30", "30", "1941", "-9"]
    assert "5 needed" in rows["F"][11]

    # the player card include: class, rating change and candidate result, on the public card
    participant = competition.participants.get(member__first_name="A")
    html = Template('{% include "ratings/_player_class.html" %}').render(
        Context({"competition": competition, "participant": participant})
    )
    assert "master player" in html and "2000 → 2062 (+62)" in html and "reached after round 5" in html


def test_old_ratings_come_from_the_history_on_the_day_of_round_1(td_client, club, four):
    """A list imported after the event changed A's rating; the report still starts from 2000."""
    from ratings.models import RatingChange

    a = four.participants.get(member__first_name="A").member
    RatingChange.objects.create(member=a, system="fide", date=timezone.localdate() + timedelta(days=5), old=2000,
                                new=2100)  # fmt: skip
    a.fide_rating = 2100
    a.save()
    rows = report_rows(td_client.get(reverse("rating_report", args=[club.slug, four.slug])).content.decode())
    assert rows["A"][2] == "2000" and rows["A"][7] == "2015"


def test_report_is_for_tds_only(client, club, viewer, four):
    url = reverse("rating_report", args=[club.slug, four.slug])
    assert client.get(url)["Location"].startswith(reverse("login"))
    client.force_login(viewer)
    assert client.get(url).status_code == 403
    assert client.get(url + "?format=pdf").status_code == 403


@pytest.mark.rule("004 4.5.4.2")
@pytest.mark.parametrize("system", ["fide", "knsb", "dsu"])
def test_forfeits_count_for_the_dsu_only_and_pending_games_for_none(td_client, club, td, system):
    """Round 1: board 1 won by forfeit (a no-show: rated by DSU §4.5.4.2, not by FIDE/KNSB), round 2 drawn.

    Round 3 is paired and not played: its games count nowhere. (A player whose every game is a no-show is
    absent from the whole event: §4.5.4.2 rates none of them; here both played round 2.)
    A competition without rounds has a report too.
    """
    from clubs.models import Member
    from pairing import services as adapter
    from tests.conftest import play_round

    members = [Member.objects.create(club=club, first_name=n, last_name="Test", fide_rating=r, national_rating=r)
               for n, r in (("A", 2000), ("B", 1900), ("C", 1800), ("D", 1700))]  # fmt: skip
    empty = make_competition(club, td, members[:2], slug="empty")
    assert td_client.get(reverse("rating_report", args=[club.slug, empty.slug])).status_code == 200
    swiss = make_competition(club, td, members, system="dutch", rounds=3, slug="swiss")
    play_round(swiss, td, {1: "1-0R", 2: "½-½"})
    play_round(swiss, td, {1: "½-½", 2: "½-½"})
    adapter.pair_next_round(swiss, td)
    page = td_client.get(reverse("rating_report", args=[club.slug, swiss.slug]) + f"?system={system}")
    rows = report_rows(page.content.decode())
    games_column = 4 if system == "dsu" else 3
    forfeit = swiss.round_set.get(number=1).games.get(board=1)
    forfeit_names = {forfeit.white.member.first_name, forfeit.black.member.first_name}
    for name, cells in rows.items():
        played = 1 if name in forfeit_names and system != "dsu" else 2
        assert cells[games_column] == str(played), (name, cells)
