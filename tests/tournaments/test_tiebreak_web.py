"""Tie-break settings, explanations, prize tables and lists, TRF 202/212 in the web app."""

from __future__ import annotations

import io
from datetime import date
from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import pgettext
from pypdf import PdfReader

from pairing.engines.notes import TEMPLATES, Note
from pairing.engines.tiebreaks import Explanation
from tests.conftest import make_competition, make_members, play_round
from tournaments.standings import Row
from tournaments.templatetags.clubavond import tiebreak_cells

pytestmark = pytest.mark.django_db


def pdf_text(response) -> str:
    assert response["Content-Type"] == "application/pdf"
    reader = PdfReader(io.BytesIO(response.content))
    return "\n".join(page.extract_text() for page in reader.pages)


def add_round(competition, number: int, games: list[tuple[int, int, str]], byes: list[tuple[int, str, str]] = ()):
    """A finished round with games (white, black, result) and byes (start number, kind, points) by start number."""
    from tournaments.models import Bye, Game, Round

    now = timezone.now()
    rnd = Round.objects.create(
        competition=competition, number=number, status=Round.Status.FINISHED, paired_at=now, published_at=now
    )
    by_start = {p.start_number: p for p in competition.participants.all()}
    for board, (white, black, result) in enumerate(games, 1):
        Game.objects.create(round=rnd, board=board, white=by_start[white], black=by_start[black], result=result)
    for start, kind, points in byes:
        Bye.objects.create(round=rnd, participant=by_start[start], kind=kind, points=Decimal(points))
    return rnd


@pytest.fixture
def rr(club, td, members):
    """A 4-player round robin, by start number: 1 on 2½; 2 and 3 on 1½ (SB 1¼ and 2¼); 4 on ½."""
    competition = make_competition(club, td, members[:4], system="roundrobin", slug="rr4")
    add_round(competition, 1, [(1, 4, "1-0"), (2, 3, "½-½")])
    add_round(competition, 2, [(1, 3, "½-½"), (4, 2, "0-1")])
    add_round(competition, 3, [(2, 1, "0-1"), (3, 4, "½-½")])
    competition.status = competition.Status.FINISHED
    competition.save()
    return competition


def participant(competition, start_number: int):
    return competition.participants.select_related("member").get(start_number=start_number)


# ---------------------------------------------------------------------------------------------- the setting


def test_each_system_shows_its_regulation_as_default(td_client, club, td, members):
    dutch = make_competition(club, td, members[:4], system="dutch", rounds=3, slug="swiss")
    rr = make_competition(club, td, members[4:8], system="roundrobin", slug="robin")
    page = td_client.get(reverse("tiebreak_settings", args=[club.slug, dutch.slug])).content.decode()
    assert "BH/C1, BH, SB, DE" in page and "in use" in page
    page = td_client.get(reverse("tiebreak_settings", args=[club.slug, rr.slug])).content.decode()
    assert "SB, DE, WIN" in page
    standings = td_client.get(reverse("standings", args=[club.slug, dutch.slug])).content.decode()
    assert ">BH/C1<" in standings and ">SB<" in standings


def test_change_before_round_1_is_free_and_normalised(td_client, club, td, members):
    from audit.models import AuditEntry

    competition = make_competition(club, td, members[:4], system="dutch", rounds=3, slug="swiss")
    url = reverse("tiebreak_settings", args=[club.slug, competition.slug])
    response = td_client.post(url, {"codes": "PTS, bh-c1, sb, WIN"})
    assert response.status_code == 302
    competition.refresh_from_db()
    assert competition.tiebreaks == ["BH/C1", "SB", "WIN"]
    entry = AuditEntry.objects.get(competition_id=competition.pk, action__startswith="tiebreaks")
    assert entry.action == "tiebreaks" and entry.after == {"tiebreaks": ["BH/C1", "SB", "WIN"]}
    assert entry.before == {"tiebreaks": []}  # the system's regulation
    # Typing the regulation again goes back to the default (an empty list).
    td_client.post(url, {"codes": "BH/C1, BH, SB, DE"})
    competition.refresh_from_db()
    assert competition.tiebreaks == []


def test_a_bad_code_is_a_form_error_naming_it(td_client, club, td, members):
    competition = make_competition(club, td, members[:4], system="dutch", rounds=3, slug="swiss")
    url = reverse("tiebreak_settings", args=[club.slug, competition.slug])
    response = td_client.post(url, {"codes": "BH, XYZ, WIN/C1"})
    assert response.status_code == 200
    page = response.content.decode()
    assert "“XYZ” is not a tie-break of the catalogue." in page
    assert "“WIN/C1”: this modifier is not allowed" in page
    competition.refresh_from_db()
    assert competition.tiebreaks == []


def test_after_round_1_only_an_override_changes_it_and_is_recorded(td_client, club, td, members):
    from audit.models import AuditEntry

    competition = make_competition(club, td, members[:4], system="dutch", rounds=3, slug="swiss")
    play_round(competition, td)
    url = reverse("tiebreak_settings", args=[club.slug, competition.slug])
    response = td_client.post(url, {"codes": "SB, BH"})
    assert response.status_code == 200 and "explicit override" in response.content.decode()
    competition.refresh_from_db()
    assert competition.tiebreaks == []
    assert not AuditEntry.objects.filter(competition_id=competition.pk, action__startswith="tiebreaks").exists()
    response = td_client.post(url, {"codes": "SB, BH", "override": "1"})
    assert response.status_code == 302
    competition.refresh_from_db()
    assert competition.tiebreaks == ["SB", "BH"]
    entry = AuditEntry.objects.get(competition_id=competition.pk, action="tiebreaks-override")
    assert entry.user_id == td.pk and (entry.before, entry.after) == ({"tiebreaks": []}, {"tiebreaks": ["SB", "BH"]})
    manage = td_client.get(reverse("manage", args=[club.slug, competition.slug])).content.decode()
    assert "tie-breaks (override)" in manage


def test_only_the_td_may_change_tiebreaks(client, club, td, viewer, members):
    competition = make_competition(club, td, members[:4], system="dutch", rounds=3, slug="swiss")
    client.force_login(viewer)
    response = client.post(reverse("tiebreak_settings", args=[club.slug, competition.slug]), {"codes": "SB"})
    assert response.status_code == 403
    assert client.get(reverse("prize_settings", args=[club.slug, competition.slug])).status_code == 403
    competition.refresh_from_db()
    assert competition.tiebreaks == []


# ---------------------------------------------------------------------------------------------- standings


def test_shared_places_where_every_tiebreak_is_equal(client, club, td, members):
    competition = make_competition(club, td, members[:4], system="roundrobin", slug="draws")
    add_round(competition, 1, [(1, 4, "½-½"), (2, 3, "½-½")])
    add_round(competition, 2, [(4, 3, "½-½"), (1, 2, "½-½")])
    add_round(competition, 3, [(2, 4, "½-½"), (3, 1, "½-½")])
    page = client.get(reverse("standings", args=[club.slug, competition.slug])).content.decode()
    assert page.count("<td>1-4</td>") == 4


def test_standings_order_by_sonneborn_berger(client, club, rr):
    from tournaments import standings
    from tournaments.state import CompetitionData

    names, rows = standings.standings(CompetitionData.load(rr))
    assert names == ["SB", "DE", "WIN"]
    assert [(r.participant.start_number, r.rank, r.points) for r in rows] == [
        (1, "1", 2.5),
        (3, "2", 1.5),
        (2, "3", 1.5),
        (4, "4", 0.5),
    ]
    assert rows[1].tiebreaks[0] == 2.25 and rows[2].tiebreaks[0] == 1.25


# ---------------------------------------------------------------------------------------------- explanations


def test_each_value_links_to_its_explanation(client, club, rr):
    page = client.get(reverse("standings", args=[club.slug, rr.slug])).content.decode()
    url = reverse("tiebreak_explanation", args=[club.slug, rr.slug, 2, 0])
    assert f'href="{url}"' in page and f'hx-get="{url}"' in page and 'hx-target="#explain-2"' in page


def test_a_cell_links_to_an_explanation_only_where_there_is_one():
    """Each tie-break cell: the value as shown (half points as ½) and the explanation's address under the
    player's own; no link for a missing value, nor in a row without explanations."""
    row = Row(rank="1", participant=None, points=2.0, tiebreaks=[3.5, None, 0.0], explanations=[None, None, None])
    assert tiebreak_cells(row, "/c/x/player/4/") == [
        ("3½", "/c/x/player/4/tiebreak/0/"),
        ("", None),
        ("0", "/c/x/player/4/tiebreak/2/"),
    ]
    row.explanations = []
    assert tiebreak_cells(row, "/c/x/player/4/") == [("3½", None), ("", None), ("0", None)]


@pytest.mark.rule("C.07 10.1")
def test_a_value_over_no_games_shows_as_a_dash_and_explains_itself():
    """C.07 10.1, 14: ARO over no games has no value: "–" (never 0), linked to its explanation; a direct
    encounter that was not needed stays empty. AOB keeps its two decimals."""
    undefined = Explanation("ARO", None, notes=[])
    row = Row("1", None, 2.0, tiebreaks=[None, None, 12.33], explanations=[undefined, None, None])
    assert tiebreak_cells(row, "/c/x/player/4/") == [
        ("–", "/c/x/player/4/tiebreak/0/"),
        ("", None),
        ("12.33", "/c/x/player/4/tiebreak/2/"),
    ]


def test_explanation_partial_for_htmx_and_page_for_plain_get(client, club, rr):
    url = reverse("tiebreak_explanation", args=[club.slug, rr.slug, 2, 0])
    partial = client.get(url, HTTP_HX_REQUEST="true").content.decode()
    assert "<html" not in partial and 'class="explanation' in partial
    # Player 2's SB: a draw with 3 (1½ × ½ = 0.75), a win over 4 (½), a loss to 1 (0): 1.25.
    for text in ("SB", "Sonneborn-Berger", participant(rr, 3).name, participant(rr, 4).name, "¾", "1¼"):
        assert text in partial, text
    page = client.get(url).content.decode()
    assert "<html" in page and "Back to the standings" in page and "¾" in page


def test_explanation_shows_unplayed_rounds_and_cuts(client, club, td, members):
    competition = make_competition(club, td, members[:5], system="dutch", rounds=2, slug="swiss5")
    add_round(competition, 1, [(1, 2, "1-0"), (3, 4, "½-½")], [(5, "pairing-bye", "1")])
    add_round(competition, 2, [(5, 1, "0-1"), (2, 3, "1-0")], [(4, "pairing-bye", "1")])
    url = reverse("tiebreak_explanation", args=[club.slug, competition.slug, 5, 0])  # BH/C1
    partial = client.get(url, HTTP_HX_REQUEST="true").content.decode()
    assert "pairing-allocated bye" in partial and "dummy opponent" in partial
    assert "cut: round" in partial and "<s " in partial
    assert client.get(reverse("tiebreak_explanation", args=[club.slug, competition.slug, 5, 9])).status_code == 404


# ---------------------------------------------------------------------------------------------- prizes


def make_table(competition, **fields):
    from tournaments.models import PrizeTable

    return PrizeTable.objects.create(competition=competition, **fields)


def awards(competition) -> set[tuple[str, int, Decimal, str]]:
    from tournaments.prizes import prize_list
    from tournaments.state import CompetitionData

    result = prize_list(CompetitionData.load(competition, public=True))
    return {(x.category, x.participant.start_number, x.award.amount, x.award.label) for x in result.lines}


@pytest.mark.rule("004 24")
def test_round_robin_shares_cash_on_equal_points_by_default(rr):
    # Seed 004 §24: 2 and 3 on 1½ share places 2 and 3: (60 + 40) / 2 = 50; the cup goes to 1.
    make_table(rr, main=[["100", "cup"], ["60", ""], ["40", ""]])
    assert awards(rr) == {
        ("Main prizes", 1, Decimal(100), "cup"),
        ("Main prizes", 3, Decimal(50), ""),
        ("Main prizes", 2, Decimal(50), ""),
    }


@pytest.mark.parametrize(("sharing", "three", "two"), [("tiebreak", "60", "40"), ("hort", "55", "45")])
def test_the_competitions_own_regulation(rr, sharing, three, two):
    # By tie-break order 3 (SB 2¼) takes place 2; Hort: half the place's prize + 25 (half of 100, shared).
    make_table(rr, sharing=sharing, main=[["100", ""], ["60", ""], ["40", ""]])
    assert awards(rr) == {
        ("Main prizes", 1, Decimal(100), ""),
        ("Main prizes", 3, Decimal(three), ""),
        ("Main prizes", 2, Decimal(two), ""),
    }


def test_prize_groups_one_prize_each(rr):
    from clubs.models import Member

    # Women: 2 and 4. Rating under 1800: 3 and 4. Juniors (under 16): 4, born 2015.
    for start, sex, rating, birth in ((1, "m", 2000, None), (2, "w", 1900, None), (3, "m", 1700, None),
                                      (4, "w", 1600, date(2015, 3, 1))):  # fmt: skip
        p = participant(rr, start)
        Member.objects.filter(id=p.member_id).update(sex=sex, birth_date=birth)
        p.rating = rating
        p.save()
    groups = [
        {"name": "Women", "kind": "women", "low": None, "high": None, "prizes": [["30", ""]]},
        {"name": "U1800", "kind": "rating", "low": None, "high": 1799, "prizes": [["20", ""]]},
        {"name": "U16", "kind": "age", "low": None, "high": 15, "prizes": [["0", "book"]]},
    ]
    make_table(rr, main=[["100", ""], ["60", ""], ["40", ""]], groups=groups, age_on=date(2026, 11, 1))
    # 2 and 3 keep their 50 from the main list; the women's prize passes to 4 (30 > 20 > the book);
    # U1800 then has nobody left (3 has a main prize, 4 the women's), the book nobody either.
    assert awards(rr) == {
        ("Main prizes", 1, Decimal(100), ""),
        ("Main prizes", 3, Decimal(50), ""),
        ("Main prizes", 2, Decimal(50), ""),
        ("Women", 4, Decimal(30), ""),
    }


def test_keizer_strength_groups(club, td):
    from tournaments import standings
    from tournaments.state import CompetitionData

    players = make_members(club, 9, base=2000)
    competition = make_competition(club, td, players, system="keizer", slug="keizer")
    for _ in range(3):
        play_round(competition, td)
    groups = [
        {"name": f"Group {g}", "kind": "strength", "low": g, "high": g, "prizes": [["0", "cup"]]} for g in (1, 2, 3)
    ]
    make_table(competition, groups=groups)
    table, _rows = standings.keizer_standings(CompetitionData.load(competition, public=True))
    expected = set()
    for g in (1, 2, 3):
        best = next(line for line in table.published if line.group == g)
        expected.add((f"Group {g}", best.player, Decimal(0), "cup"))
    assert awards(competition) == expected


@pytest.mark.rule("004 24")
def test_prize_settings_form_and_list_page(td_client, client, club, rr):
    from tournaments.models import PrizeTable

    url = reverse("prize_settings", args=[club.slug, rr.slug])
    page = td_client.get(url).content.decode()
    assert "cash shared on equal points" in page  # the round robin's regulation, seed 004 §24
    form = {"sharing": "", "one_prize_each": "on", "currency": "€", "age_on": ""}
    response = td_client.post(url, form | {"main_text": "100 + cup, 60, 40", "groups_text": "Women; women; ; 30"})
    assert response.status_code == 302
    table = PrizeTable.objects.get(competition=rr)
    assert table.main == [["100", "cup"], ["60", ""], ["40", ""]]
    assert table.groups == [{"name": "Women", "kind": "women", "low": None, "high": None, "prizes": [["30", ""]]}]
    bad = td_client.post(url, {"sharing": "", "currency": "€", "main_text": "", "groups_text": "Seniors; hair; ; 10"})
    assert "“hair” is not a kind of prize group" in bad.content.decode()
    page = client.get(reverse("prize_list", args=[club.slug, rr.slug])).content.decode()
    assert participant(rr, 1).name in page and "€ 100" in page and "shared by 2" in page


def test_the_prize_list_never_shows_birth_dates(client, club, rr):
    from clubs.models import Member

    p = participant(rr, 4)
    Member.objects.filter(id=p.member_id).update(birth_date=date(2013, 7, 19))
    make_table(rr, main=[["10", ""]], groups=[{"name": "Youth", "kind": "age", "low": None, "high": 15,
                                               "prizes": [["5", ""]]}], age_on=date(2026, 11, 1))  # fmt: skip
    page = client.get(reverse("prize_list", args=[club.slug, rr.slug])).content.decode()
    assert p.name in page and "2013" not in page and "19-07" not in page and "Jul" not in page


def test_prize_list_pdf(client, club, rr):
    make_table(rr, main=[["100", ""], ["60", ""], ["40", ""]])
    text = pdf_text(client.get(reverse("prize_list", args=[club.slug, rr.slug]) + "?format=pdf"))
    for start in (1, 2, 3):
        assert participant(rr, start).name in text
    assert "100.00" in text or "100" in text
    assert "50.00" in text and "shared by 2" in text


# ---------------------------------------------------------------------------------------------- TRF


def test_trf_export_has_202_212_and_ranks_by_the_tiebreaks(rr):
    from pairing.engines import trf
    from tournaments.trf_export import export_trf

    doc = trf.parse(export_trf(rr))
    assert doc.header_value("202") == "SB,DE,WIN"
    assert doc.header_value("212") == "PTS,SB,DE,WIN"
    # Points alone would rank 2 before 3; SB puts 3 second.
    assert {p.number: p.rank for p in doc.players} == {1: 1, 3: 2, 2: 3, 4: 4}


def test_trf_codes_of_the_seeds_carry_the_other_prefix_and_read_back(club, td, members):
    from pairing.engines import trf
    from pairing.services.trf import import_trf
    from tournaments.trf_export import export_trf

    competition = make_competition(club, td, members[:4], system="knsb-wp", rounds=3, slug="wp")
    play_round(competition, td)
    text = export_trf(competition)
    doc = trf.parse(text)
    assert doc.header_value("212") == "PTS,OTHER_DE1,OTHER_WP,OTHER_WSB,OTHER_LOT"
    assert doc.header_value("202") == "OTHER_DE1,OTHER_WP,OTHER_WSB,OTHER_LOT"
    competition.tiebreaks = ["WP", "SB/C1"]
    competition.save()
    copy = import_trf(club, export_trf(competition), name="Copy", slug="copy", system="knsb-wp")
    assert copy.tiebreaks == ["WP", "SB/C1"]


@pytest.mark.rule("C.07 7.7")
@pytest.mark.rule("C.07 7.6")
def test_trf_codes_of_2026_and_aob_with_forfeits():
    """TRF26 202/212: STD is a C.07 code; GE is written by its present name REP; AOB/P is no C.07 code."""
    from tournaments.trf_export import trf_tiebreak_code

    assert [trf_tiebreak_code(c) for c in ("STD", "GE", "TPN/R", "KS/L60", "AOB/P", "AOB/F")] == [
        "STD", "REP", "TPN/R", "KS/L60", "OTHER_AOB/P", "AOB/F",
    ]  # fmt: skip


@pytest.mark.rule("C.07 10.1")
@pytest.mark.rule("C.07 10.2")
def test_the_standings_and_the_explanation_show_no_value_over_no_games(client, club, td, members):
    """4 has only a forfeit win and a half-point bye: no ARO, no TPR. The standings (page and PDF) show
    "–", linked to the explanation, which says why; nobody's value is 0."""
    competition = make_competition(club, td, members[:4], system="dutch", rounds=2, slug="swiss")
    competition.participants.filter(start_number__lte=3).update(rating=1800)
    competition.participants.filter(start_number=4).update(rating=1700)
    add_round(competition, 1, [(1, 2, "1-0"), (4, 3, "1-0R")])
    add_round(competition, 2, [(3, 1, "½-½")], byes=[(4, "half-bye", "0.5"), (2, "pairing-bye", "1")])
    competition.tiebreaks = ["ARO", "TPR"]
    competition.save()
    url = reverse("standings", args=[club.slug, competition.slug])
    page = client.get(url)
    row = next(r for r in page.context["rows"] if r.participant.start_number == 4)
    assert row.tiebreaks == [None, None]
    explain = reverse("tiebreak_explanation", args=[club.slug, competition.slug, 4, 0])
    html = page.content.decode()
    assert f'<a href="{explain}" hx-get="{explain}"' in html and ">–</a>" in html
    text = client.get(explain).content.decode()
    assert "no games to count" in text and "<strong>–</strong>" in text
    assert "–" in pdf_text(client.get(url + "?format=pdf"))


# ---------------------------------------------------------------------------------------------- cost


def test_standings_with_links_cost_a_fixed_number_of_queries(client, club, td):
    counts = []
    for size, slug in ((10, "small"), (100, "big")):
        players = make_members(club, size, base=2400 if size == 10 else 2300)
        competition = make_competition(club, td, players, system="dutch", rounds=5, slug=slug)
        play_round(competition, td)
        play_round(competition, td)
        with CaptureQueriesContext(connection) as context:
            response = client.get(reverse("standings", args=[club.slug, slug]))
        assert response.status_code == 200 and "tiebreak/0/" in response.content.decode()
        counts.append(len(context.captured_queries))
    assert counts[0] == counts[1], counts


def test_every_value_on_the_standings_links_to_its_own_explanation(client, club, td):
    """The page writes the explanations' addresses from the player's own (one reversal per row): each is
    the address of `tiebreak_explanation` for that player and tie-break."""
    import re

    players = make_members(club, 6, base=2400)
    competition = make_competition(club, td, players, system="dutch", rounds=5, slug="links")
    play_round(competition, td)
    page = client.get(reverse("standings", args=[club.slug, "links"])).content.decode()
    links = re.findall(r'<a href="([^"]+)" hx-get="([^"]+)"', page)
    numbers = {p.start_number for p in competition.participants.all()}
    seen = set()
    for href, hx_get in links:
        assert href == hx_get
        match = re.fullmatch(r"(.*)tiebreak/(\d+)/", href)
        assert match, href
        start = int(match.group(1).rstrip("/").rsplit("/", 1)[1])
        assert href == reverse("tiebreak_explanation", args=[club.slug, "links", start, int(match.group(2))])
        seen.add(start)
    assert links and seen == numbers


def test_prize_table_text_reads_and_writes_back():
    from django.core.exceptions import ValidationError

    from tournaments.prizes import format_groups, format_prize_items, parse_groups, parse_prize_items

    # Commas separate prizes; cents take a point.
    assert parse_prize_items("12.50,7.5") == [["12.50", ""], ["7.5", ""]]
    assert parse_prize_items("200, 100, 50 + cup, book") == [["200", ""], ["100", ""], ["50", "cup"], ["0", "book"]]
    assert format_prize_items([["200", ""], ["50", "cup"], ["0", "book"]]) == "200, 50 + cup, book"
    lines = ["U1800; rating; -1799; 50, 25", "Seniors; age; 65-; cup", "Group 2; strength; 2; book"]
    text = "\n".join([*lines, "Band; rating; 1500-1799; 10"])
    groups = parse_groups(text)
    assert [(g["kind"], g["low"], g["high"]) for g in groups] == [
        ("rating", None, 1799),
        ("age", 65, None),
        ("strength", 2, 2),
        ("rating", 1500, 1799),
    ]
    assert parse_groups(format_groups(groups)) == groups
    with pytest.raises(ValidationError, match="Line 1"):
        parse_groups("Band; rating; 1800-1500; 10")
    with pytest.raises(ValidationError, match="Line 2"):
        parse_groups("Women; women; ; 10\nno semicolons here")


def _parts(note):
    """A note and every note nested in its values."""
    yield note
    for value in note.params.values():
        for item in value if isinstance(value, list) else [value]:
            if isinstance(item, Note):
                yield from _parts(item)


@pytest.mark.parametrize("rules", ["fide-2026", "fide-2023", "fide-pre2023", "knsb", "fide-roundrobin", "plain"])
def test_every_note_of_the_tiebreak_module_is_shown_in_dutch_and_danish(rules):
    """Each note (and what each round was) is a declared note that the pages render in the reader's
    language: every template in it has its own Dutch and Danish text."""
    from pairing.engines.tiebreaks import standings
    from tests.engines.tiebreaks.tiebreak_builders import build
    from tournaments.notes import render_note

    state = build(
        6,
        [
            [("1-0", 1, 2), ("+-", 3, 4), ("H", 5), ("Z", 6)],
            [("=", 3, 1), ("0-1", 2, 5), ("U", 4)],
            [("1-0", 1, 5), ("=", 2, 6), ("-+", 3, 4)],
        ],
        ratings={1: 2000, 2: 1900, 3: 1800, 5: 1700},
        total_rounds=4,
    )
    codes = ["BH/C1", "SB/M1", "FB", "KS", "TPR", "KORR", "MKORR", "WP", "WSB", "ARO/C1", "AOB", "LOT", "DE"]
    notes = set()
    for line in standings(state, codes, rules=rules):
        for explanation in line.explanations.values():
            notes |= set(explanation.notes) | {i.note for i in explanation.items if i.note}
            notes |= {i.what for i in explanation.items}
    assert len(notes) > 8
    for note in notes:
        english = note.text()
        for language in ("nl", "da"):
            with translation.override(language):
                shown = render_note(note)
                untranslated = [
                    part.code
                    for part in _parts(note)
                    if pgettext(part.code, TEMPLATES[part.code].template) == TEMPLATES[part.code].template
                ]
            assert shown and not untranslated, (language, english, shown, untranslated)


@pytest.mark.rule("C.07 10.1")
def test_unrated_opponents_setting_and_the_standings_say_which_applies(td_client, client, club, td):
    """C.07 art. 10: the regulations say how unrated participants are rated; by default the
    rating-based tie-breaks are not used while one takes part. Four players rated 2090, 2080, 2070
    and one unrated, all against all. Rated 1000, an unrated opponent of the 2090 player gives
    (2080 + 2070 + 1000) / 3 = 1716.7 -> 1717; left out, (2080 + 2070) / 2 = 2075."""
    from audit.models import AuditEntry

    players = make_members(club, 4)
    players[3].national_rating = None
    players[3].save()
    competition = make_competition(club, td, players, system="roundrobin", slug="rated")
    add_round(competition, 1, [(1, 4, "1-0"), (2, 3, "1-0")])
    add_round(competition, 2, [(1, 3, "1-0"), (4, 2, "0-1")])
    add_round(competition, 3, [(2, 1, "0-1"), (3, 4, "1-0")])
    url = reverse("tiebreak_settings", args=[club.slug, competition.slug])
    standings_url = reverse("standings", args=[club.slug, competition.slug])
    td_client.post(url, {"codes": "ARO", "override": "on"})
    page = client.get(standings_url)
    assert "not used while unrated players take part" in page.content.decode()
    assert page.context["rows"][0].tiebreaks == [None]

    response = td_client.post(url, {"codes": "ARO", "unrated_opponents": "rating", "override": "on"})
    assert "Give the rating at which unrated opponents count." in response.content.decode()
    td_client.post(url, {"codes": "ARO", "unrated_opponents": "rating", "unrated_rating": "1000", "override": "on"})
    competition.refresh_from_db()
    assert (competition.unrated_opponents, competition.unrated_rating) == ("rating", 1000)
    entry = AuditEntry.objects.filter(competition_id=competition.pk, action="unrated-opponents-override").first()
    assert entry.after == {"unrated_opponents": "rating", "unrated_rating": 1000}
    page = client.get(standings_url)
    rows = {row.participant.start_number: row.tiebreaks[0] for row in page.context["rows"]}
    ratings = {p.start_number: p.rating for p in competition.participants.all()}
    assert sorted(ratings.values()) == [0, 2070, 2080, 2090]

    def aro(player: int, unrated_at: int | None) -> int:
        """Everybody met everybody; an unrated opponent at `unrated_at`, or left out (None)."""
        counted = [ratings[o] or unrated_at for o in ratings if o != player]
        counted = [r for r in counted if r]
        return int(sum(counted) / len(counted) + 0.5)

    assert rows == {p: aro(p, 1000) for p in ratings}
    assert "counts at rating 1000" in page.content.decode()

    td_client.post(url, {"codes": "ARO", "unrated_opponents": "leave-out", "override": "on"})
    page = client.get(standings_url)
    rows = {row.participant.start_number: row.tiebreaks[0] for row in page.context["rows"]}
    assert rows == {p: aro(p, None) for p in ratings}
    assert "do not count" in page.content.decode()
