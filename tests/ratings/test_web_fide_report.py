"""The competition's FIDE rating report by B.02, through the page: hand-computed events.

The games are stored as the TD's results (rounds dated as played), so each event is exactly the one computed
by hand in the docstring. PD from table 8.1.2, dp from table 8.1.1 (B.02).
"""

from __future__ import annotations

import html
import io
import os
import re
from datetime import date, datetime

import pytest
from django.urls import reverse
from django.utils import timezone, translation
from pypdf import PdfReader

if not os.environ.get("DJANGO_SETTINGS_MODULE"):  # the pure rating tests run with -p no:django
    pytest.skip("needs the Django test plugin", allow_module_level=True)

pytestmark = pytest.mark.django_db

# FIDE TXT columns and widths (players_list_foa.txt)
FIDE_COLUMNS = [("ID Number", 15), ("Name", 61), ("Fed", 4), ("SRtng", 6), ("SGm", 4), ("SK", 3), ("B-day", 6)]


def members(club, ratings: dict[str, int | None], **fields):
    from clubs.models import Member

    return {
        name: Member.objects.create(club=club, first_name=name, last_name="Test", fide_rating=rating, **fields)
        for name, rating in ratings.items()
    }


def competition_with_games(club, td, players: dict, rounds, slug="event", time_control="standard"):
    """A competition whose rounds are `rounds`: [(day, [(white, black, result), ...]), ...] by first name."""
    from pairing.services import records as services
    from tournaments.models import Competition, Game, Round

    competition = Competition.objects.create(
        club=club, name=slug, slug=slug, system="dutch", rounds=len(rounds), time_control=time_control
    )
    services.add_participants(competition, list(players.values()), td)
    by_name = {p.member.first_name: p for p in competition.participants.select_related("member")}
    for number, (day, games) in enumerate(rounds, start=1):
        moment = timezone.make_aware(datetime(day.year, day.month, day.day, 20))
        rnd = Round.objects.create(
            competition=competition, number=number, status=Round.Status.FINISHED, paired_at=moment, published_at=moment
        )
        for board, (white, black, result) in enumerate(games, start=1):
            Game.objects.create(round=rnd, board=board, white=by_name[white], black=by_name[black], result=result)
    return competition


def report(client, club, competition, query="", **headers) -> str:
    """The report page, its entities unescaped."""
    url = reverse("rating_report", args=[club.slug, competition.slug]) + query
    return html.unescape(client.get(url, **headers).content.decode())


def rows(page: str, table: str = "rating-report") -> dict[str, list[str]]:
    """The report table's cells by first name: #, name, old, games, W, W_e, K, new, change, norm."""
    body = page[page.index(f'id="{table}"') :]
    body = body[: body.index("</table>")]
    found = {}
    for row in re.findall(r"<tr>(.*?)</tr>", body, re.S):
        cells = [" ".join(re.sub(r"<[^>]+>", "", c).split()) for c in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)]
        if cells:
            found.setdefault(cells[1].split()[-2], []).append(cells)
    return {name: lines[0] if table == "rating-report" else lines for name, lines in found.items()}


def line(cells: list[str]) -> tuple[str, ...]:
    """Old, games, W, W_e, K, new, change."""
    return tuple(cells[i] for i in (2, 3, 4, 5, 6, 7, 8))


def apply_list(club, td, list_date: date, entries: list[tuple[str, str, int, int, int]]) -> None:
    """Import and confirm a FIDE TXT list: (FIDE id, name, rating, games, K) per player."""
    from ratings import imports

    def text(values: dict) -> str:
        return "".join(str(values.get(name, "")).ljust(width) for name, width in FIDE_COLUMNS).rstrip()

    lines = [text({name: name for name, _ in FIDE_COLUMNS})]
    for fide_id, name, rating, games, k in entries:
        lines.append(text({"ID Number": fide_id, "Name": name, "Fed": "NED", "SRtng": rating, "SGm": games, "SK": k}))
    data = ("\n".join(lines) + "\n").encode()
    preview = imports.create_preview(club, "fide", io.BytesIO(data), "list.txt", list_date, td)
    imports.apply(preview, [], td)


@pytest.mark.rule("B.02 8.3")
def test_a_club_season_is_rated_month_by_month(td_client, club, td):
    """A 2000, B 1900, C 1800 (K 20). September 2025: A beats B (D 100: .64, +0.36), draws C (D 200: .76, -0.26):
    +0.10 x 20 = +2; B -0.36 x 20 = -7.2 -> -7; C +0.26 x 20 = +5.2 -> +5.
    October: the club imported the list of 1 October (A 2010, B 1893, C 1805). B beats C (D 88: .62):
    B +0.38 x 20 = +7.6 -> +8, C -8. November: no list: A 2010 + 0, B 1893 + 8 = 1901, C 1805 - 8 = 1797.
    C beats A (D -213: .23): C +0.77 x 20 = +15.4 -> +15 -> 1812; A -15 -> 1995.
    The report: A 2000 -> 1995 (-5), B 1900 -> 1901 (+1), C 1800 -> 1812 (+12), each month shown.
    """
    from ratings.models import RatingChange, RatingListImport

    players = members(club, {"A": 2000, "B": 1900, "C": 1800})
    season = competition_with_games(
        club,
        td,
        players,
        [
            (date(2025, 9, 12), [("A", "B", "1-0")]),
            (date(2025, 9, 26), [("C", "A", "½-½")]),
            (date(2025, 10, 10), [("B", "C", "1-0")]),
            (date(2025, 11, 14), [("C", "A", "1-0")]),
        ],
        slug="season",
    )
    october = RatingListImport.objects.create(
        club=club, source="fide", file_name="oct.txt", list_date=date(2025, 10, 1), status="applied"
    )
    for name, new in (("A", 2010), ("B", 1893), ("C", 1805)):
        member = players[name]
        RatingChange.objects.create(member=member, system="fide", date=october.list_date, old=member.fide_rating,
                                    new=new, source=october)  # fmt: skip
        member.fide_rating = new
        member.save()
    page = report(td_client, club, season)
    table = rows(page)
    assert line(table["A"]) == ("2000", "3", "1½", "2.17", "20", "1995", "-5")  # W_e .64 + .76 + .77
    assert line(table["B"]) == ("1900", "2", "1", "0.98", "20", "1901", "+1")  # .36 + .62
    assert line(table["C"]) == ("1800", "3", "1½", "0.85", "20", "1812", "+12")  # .24 + .38 + .23
    months = rows(page, "rating-periods")
    assert [(m[2], m[3], m[8]) for m in months["C"]] == [
        ("September 2025", "1800", "+5"), ("October 2025", "1805", "-8"), ("November 2025", "1797°", "+15")
    ]  # fmt: skip
    assert "spans 3 rating periods" in page and "that month's list" in page


def round_robin(names: list[str]) -> list[list[tuple[str, str]]]:
    """The rounds of a round robin (circle method): every pair once."""
    order = list(names)
    rounds = []
    for _ in range(len(order) - 1):
        rounds.append([(order[i], order[-1 - i]) for i in range(len(order) // 2)])
        order = [order[0], order[-1], *order[1:-1]]
    return rounds


WEEKEND_RATINGS = {"R1": 1600, "R2": 1700, "R3": 1800, "R4": 1900, "R5": 2000, "R6": 2100, "U": None, "V": None}


def weekend_result(white: str, black: str) -> str:
    """The higher rated wins; U beats R1-R3 and V, loses to R4-R6; V loses every game."""

    def strength(name: str) -> int:
        return {"U": 1850, "V": 0}[name] if name in ("U", "V") else WEEKEND_RATINGS[name]

    return "1-0" if strength(white) > strength(black) else "0-1"


def weekend_open(club, td, players, slug="open"):
    pairs = round_robin(list(WEEKEND_RATINGS))
    days = [date(2026, 3, 7)] * 4 + [date(2026, 3, 8)] * 3
    rounds = [(day, [(w, b, weekend_result(w, b)) for w, b in games]) for day, games in zip(days, pairs, strict=True)]
    return competition_with_games(club, td, players, rounds, slug=slug)


@pytest.mark.rule("B.02 8.2")
def test_a_weekend_open_with_unrated_players(td_client, club, td):
    """Eight players, all against all on 7 and 8 March 2026: R1-R6 rated 1600 ... 2100, U and V unrated.

    U: 3 of 6 against rated opponents (beats 1600, 1700, 1800, loses to 1900, 2000, 2100; the win against V does
    not count). Ra = (11100 + 2 x 1800) / 8 = 1837.5, p = (3 + 1) / 8 = .50, dp 0: 1837.5 -> 1838 (B.02 8.2).
    V: 0 of 6 in the first event: the zero score is disregarded, no initial rating (0 of the 5 games needed).
    R6 (2100) beats R1-R5: D 100, 200, 300, 400, 500 (capped 400): W_e .64 + .76 + .85 + .92 + .92 = 4.09,
    +0.91 x 20 = 18.2 -> +18: 2118; the games against U and V (unrated) are not rated: 5 games.
    R1 (1600) loses to R2-R6: W_e .36 + .24 + .15 + .08 + .08 = .91, -0.91 x 20 = -18.2 -> -18: 1582.
    """
    event = weekend_open(club, td, members(club, WEEKEND_RATINGS))
    page = report(td_client, club, event)
    table = rows(page)
    assert line(table["U"]) == ("–", "6", "3", "", "", "1838 initial rating", "")
    assert line(table["V"]) == ("–", "6", "0", "", "", "0 of 5 games", "")
    assert line(table["R6"]) == ("2100", "5", "5", "4.09", "20", "2118", "+18")
    assert line(table["R1"]) == ("1600", "5", "0", "0.91", "20", "1582", "-18")
    assert "two hypothetical opponents rated 1800" in page
    assert "By rating period" not in page  # one weekend: one rating period


@pytest.mark.rule("B.02 7.1.4")
def test_earlier_club_results_of_an_unrated_player_are_pooled(td_client, club, td):
    """U played the club's January 2025 rapid-free standard event: 1 of 2 against P 1500 and Q 1500 (14 months
    before the open: within 26 months); and 1 of 1 against P in June 2023 (33 months before: left out).
    Pooled with the open (3 of 6 against 1600 ... 2100): Ra = (3000 + 11100 + 3600) / 10 = 1770,
    p = (1 + 3 + 1) / 10 = .50, dp 0: 1770, on 8 games. A rapid event of U's is not pooled with standard games.
    """
    players = members(club, WEEKEND_RATINGS)
    extra = members(club, {"P": 1500, "Q": 1500})
    old = {"U": players["U"], "P": extra["P"]}
    competition_with_games(club, td, old, [(date(2023, 6, 3), [("U", "P", "1-0")])], slug="old")
    january = {"U": players["U"], **extra}
    competition_with_games(
        club, td, january, [(date(2025, 1, 11), [("U", "P", "1-0")]), (date(2025, 1, 18), [("Q", "U", "1-0")])],
        slug="january",
    )  # fmt: skip
    competition_with_games(
        club, td, january, [(date(2025, 2, 1), [("U", "P", "0-1")])], slug="rapid", time_control="rapid"
    )
    table = rows(report(td_client, club, weekend_open(club, td, players)))
    assert line(table["U"])[5] == "1770 initial rating"


@pytest.mark.rule("B.02 8.3.3")
def test_both_k_rules_from_the_imported_lists(td_client, club, td):
    """Two FIDE lists imported and confirmed (1 September and 1 October 2026), then an event on 7 November:
    M: 2410 on September's list, 2350 on October's: a published 2400 was reached, K 10.
    N: first on October's list: 1800, 12 games, published K 40: a new player (12 < 30), K 40.
    O: 2000 on both, 18 and 14 games with K 40: 32 games of completed events, K 20.
    P: 1900, on no list: K 20.
    M beats O, P, N; O beats P and N; P and N draw.
    M: D 350, 450 (400), 550 (400): W_e .89 + .92 + .92 = 2.73, +0.27 x 10 = +2.7 -> +3: 2353 (K 20: +5).
    N: W_e .08 + .24 + .36 = .68, W ½: -0.18 x 40 = -7.2 -> -7: 1793 (K 20: -4).
    O: W_e .11 + .64 + .76 = 1.51, W 2: +0.49 x 20 = +9.8 -> +10: 2010 (K 40: +20).
    P: W_e .08 + .36 + .64 = 1.08, W ½: -0.58 x 20 = -11.6 -> -12: 1888.
    """
    players = members(club, {"M": 2300, "N": None, "O": 2000, "P": 1900})
    for name, fide_id in (("M", "9001"), ("N", "9002"), ("O", "9003")):
        players[name].fide_id = fide_id
        players[name].save()
    apply_list(club, td, date(2026, 9, 1), [("9001", "Test, M", 2410, 4, 10), ("9003", "Test, O", 2000, 18, 40)])
    apply_list(
        club, td, date(2026, 10, 1),
        [("9001", "Test, M", 2350, 5, 10), ("9002", "Test, N", 1800, 12, 40), ("9003", "Test, O", 2000, 14, 40)],
    )  # fmt: skip
    day = date(2026, 11, 7)
    games = [("M", "O", "1-0"), ("P", "M", "0-1"), ("M", "N", "1-0"), ("O", "P", "1-0"), ("N", "O", "0-1"),
             ("P", "N", "½-½")]  # fmt: skip
    event = competition_with_games(club, td, players, [(day, games[i : i + 2]) for i in (0, 2, 4)])
    table = rows(report(td_client, club, event))
    assert line(table["M"]) == ("2350", "3", "3", "2.73", "10", "2353", "+3")
    assert line(table["N"]) == ("1800", "3", "½", "0.68", "40", "1793", "-7")
    assert line(table["O"]) == ("2000", "3", "2", "1.51", "20", "2010", "+10")
    assert line(table["P"]) == ("1900", "3", "½", "1.08", "20", "1888", "-12")


@pytest.mark.rule("B.02 7.2.1")
def test_a_rating_under_1400_drops_off_the_list(td_client, club, td):
    """D 1410 loses to X 1500 (D -90: .38), Y 1450 (D -40: .44) and Z 1600 (D -190: .25): W_e 1.07,
    -1.07 x 20 = -21.4 -> -21: 1389, below 1400: off the list; the page and the PDF say so.
    """
    players = members(club, {"D": 1410, "X": 1500, "Y": 1450, "Z": 1600})
    day = date(2026, 4, 4)
    rounds = [(day, [("X", "D", "1-0"), ("Z", "Y", "1-0")]), (day, [("D", "Y", "0-1"), ("Z", "X", "1-0")]),
              (day, [("Z", "D", "1-0"), ("X", "Y", "1-0")])]  # fmt: skip
    event = competition_with_games(club, td, players, rounds)
    page = report(td_client, club, event)
    assert line(rows(page)["D"]) == ("1410", "3", "0", "1.07", "20", "below 1400: off the list", "")
    assert "A rating below 1400 is not published: the player drops off the list (B.02 7.2.1)." in page
    pdf = td_client.get(reverse("rating_report", args=[club.slug, event.slug]) + "?format=pdf")
    text = " ".join(" ".join(p.extract_text().split()) for p in PdfReader(io.BytesIO(pdf.content)).pages)
    assert "below 1400: off the list" in text and "drops off the list" in text


@pytest.mark.rule("B.02 RB")
@pytest.mark.rule("B.02 8.3.1")
def test_a_rapid_event_is_rated_by_the_rapid_rules(td_client, club, td):
    """X 2700, Y 2000, Z 2150 on 2 May 2026; X beats Y and Z, Z beats Y.

    Rapid: X-Y is 700 apart with X above 2600: not rated. X: Z D 550 capped 400 -> .92: +0.08 x 10 = +0.8 -> +1.
    Y: only Z (D -150: .30): -0.30 x 20 = -6. Z: X D -550 capped -400 -> .08, Y D 150 -> .70: +0.22 x 20 = +4.4 -> +4.
    The same games as standard (X 2650+: the real difference, B.02 8.3.1): X: .99 + .97, +0.04 x 10 = 0.4 -> 0;
    Y: .08 + .30, -0.38 x 20 = -7.6 -> -8; Z: +4.
    """
    players = members(club, {"X": 2700, "Y": 2000, "Z": 2150})
    day = date(2026, 5, 2)
    rounds = [(day, [("X", "Y", "1-0")]), (day, [("Z", "X", "0-1")]), (day, [("Y", "Z", "0-1")])]
    event = competition_with_games(club, td, players, rounds, time_control="rapid")
    page = report(td_client, club, event)
    table = rows(page)
    assert line(table["X"]) == ("2700", "1", "1", "0.92", "10", "2701", "+1")
    assert line(table["Y"]) == ("2000", "1", "0", "0.30", "20", "1994", "-6")
    assert line(table["Z"]) == ("2150", "2", "1", "0.78", "20", "2154", "+4")
    assert "Time control: rapid." in page and "600 or more points apart" in page
    event.time_control = "standard"
    event.save()
    table = rows(report(td_client, club, event))
    assert line(table["X"]) == ("2700", "2", "2", "1.96", "10", "2700", "0")
    assert line(table["Y"]) == ("2000", "2", "0", "0.38", "20", "1992", "-8")
    assert line(table["Z"]) == ("2150", "2", "1", "0.78", "20", "2154", "+4")


@pytest.mark.parametrize(
    "language, words",
    [
        (
            "nl",
            (
                "Bedenktijd: rapid.",
                "partijen met rapid-bedenktijd",
                "onder 1400: van de lijst",
                "verdwijnt van de lijst",
            ),
        ),
        (
            "da",
            ("Betænkningstid: hurtigskak.", "som hurtigskakpartier", "under 1400: udgår af listen", "udgår af listen"),
        ),
    ],
)
def test_the_new_lines_are_translated(td_client, club, td, language, words):
    """The time control, the floor and the notes in Dutch and Danish."""
    players = members(club, {"D": 1410, "X": 1500, "Y": 1450, "Z": 1600})
    day = date(2026, 4, 4)
    rounds = [(day, [("X", "D", "1-0"), ("Z", "Y", "1-0")]), (day, [("D", "Y", "0-1"), ("Z", "X", "1-0")]),
              (day, [("Z", "D", "1-0"), ("X", "Y", "1-0")])]  # fmt: skip
    event = competition_with_games(club, td, players, rounds, time_control="rapid")
    with translation.override(language):
        page = report(td_client, club, event, HTTP_ACCEPT_LANGUAGE=language)
    assert "B.02 7.2.1" in page and "B.02 8.3.3" in page
    for words_of_the_page in words:
        assert words_of_the_page in page


def test_the_td_sets_the_time_control_on_the_report_recorded(td_client, client, viewer, club, td):
    """A POST on the report sets the time control (a TD action, in the audit log); a bad value is refused with
    a message and changes nothing; others may not."""
    from audit.models import AuditEntry

    players = members(club, {"X": 2700, "Y": 2000})
    event = competition_with_games(club, td, players, [(date(2026, 5, 2), [("X", "Y", "1-0")])])
    url = reverse("rating_report", args=[club.slug, event.slug])
    answer = td_client.post(url, {"time_control": "blitz"})
    assert answer.status_code == 302
    event.refresh_from_db()
    assert event.time_control == "blitz"
    entry = AuditEntry.objects.filter(action="time-control", competition_id=event.pk, user_id=td.pk).get()
    assert (entry.before["time_control"], entry.after["time_control"]) == ("standard", "blitz")
    page = html.unescape(td_client.post(url, {"time_control": "bullet"}, follow=True).content.decode())
    assert "Unknown time control bullet." in page and "Time control: blitz." in page
    client.force_login(viewer)
    assert client.post(url, {"time_control": "rapid"}).status_code == 403
    event.refresh_from_db()
    assert event.time_control == "blitz"


@pytest.mark.rule("B.02 8.3.3")
@pytest.mark.parametrize("club_games, k, change", [(5, 20, "+10"), (4, 40, "+20")])
def test_games_since_the_latest_list_count_from_the_clubs_own_competitions(td_client, club, td, club_games, k, change):
    """N is on the 1 October 2026 list with 25 games and K 40. Since then N played `club_games` games in the
    club's own standard competition (against FIDE-rated R), and one rapid game (not counted). 25 + 5 = 30:
    no longer new, K 20; 25 + 4 = 29: still K 40. The event on 7 November: N 1800 beats S 1800 (D 0: .50):
    +0.50 x 20 = +10, or +0.50 x 40 = +20.
    """
    players = members(club, {"N": 1800, "R": 1800, "S": 1800})
    players["N"].fide_id = "9002"
    players["N"].save()
    apply_list(club, td, date(2026, 10, 1), [("9002", "Test, N", 1800, 25, 40)])
    pair = {"N": players["N"], "R": players["R"]}
    played = [(date(2026, 10, 2 + i), [("N", "R", "½-½")]) for i in range(club_games)]
    competition_with_games(club, td, pair, played, slug="club")
    competition_with_games(club, td, pair, [(date(2026, 10, 20), [("N", "R", "1-0")])], slug="quick",
                           time_control="rapid")  # fmt: skip
    event = competition_with_games(club, td, {"N": players["N"], "S": players["S"]},
                                   [(date(2026, 11, 7), [("N", "S", "1-0")])])  # fmt: skip
    table = rows(report(td_client, club, event))
    assert line(table["N"]) == ("1800", "1", "1", "0.50", str(k), str(1800 + int(change)), change)


def test_the_fide_lists_give_the_games_and_the_k_of_each_player():
    """TXT (SGm, SK) and XML (<games>, <k>) keep the period's games and the published K."""
    from ratings.lists import read_list

    def text(values: dict) -> str:
        return "".join(str(values.get(name, "")).ljust(width) for name, width in FIDE_COLUMNS).rstrip()

    txt = "\n".join([text({n: n for n, _ in FIDE_COLUMNS}),
                     text({"ID Number": 7, "Name": "A, B", "SRtng": 1850, "SGm": 9, "SK": 40})])  # fmt: skip
    [entry] = read_list("fide", io.BytesIO(txt.encode()))
    assert (entry.rating, entry.games, entry.k) == (1850, 9, 40)
    xml = (b"<playerslist><player><fideid>7</fideid><name>A, B</name><rating>2405</rating><games>3</games>"
           b"<k>10</k></player></playerslist>")  # fmt: skip
    [entry] = read_list("fide", io.BytesIO(xml))
    assert (entry.rating, entry.games, entry.k) == (2405, 3, 10)
