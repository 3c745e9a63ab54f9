"""What the pages print for chess players: crosstable cells, exact tie-break values, forfeit results, column
keys, in English, Dutch and Danish."""

import re

import pytest
from django.urls import reverse
from django.utils import translation

from pairing.engines.state import Colour, Kind, RoundRecord
from tests.conftest import make_competition, play_round
from tests.tournaments.test_pages import pdf_text
from tournaments import prizes, standings
from tournaments.standings import Row, crosstable_cell
from tournaments.templatetags.clubavond import exact, points, result

pytestmark = pytest.mark.django_db


def game(opponent: int, colour: Colour, score: float | None, kind: Kind = Kind.GAME) -> RoundRecord:
    return RoundRecord(kind=kind, opponent=opponent, colour=colour, score=score)


@pytest.mark.parametrize(
    ("language", "won_white", "lost_black", "drew_black"),
    [("en", "12w1", "10b0", "3b½"), ("nl", "12w1", "10z0", "3z½"), ("da", "12h1", "10s0", "3s½")],
)
def test_a_crosstable_cell_is_opponent_colour_result_in_the_readers_letters(
    language, won_white, lost_black, drew_black
):
    """FIDE's crosstable notation: opponent's number, colour letter (w/b, Dutch wit/zwart, Danish hvid/sort),
    result."""
    with translation.override(language):
        assert crosstable_cell(game(7, Colour.WHITE, 1.0), 12).text == won_white
        assert crosstable_cell(game(7, Colour.BLACK, 0.0), 10).text == lost_black
        assert crosstable_cell(game(7, Colour.BLACK, 0.5), 3).text == drew_black
        assert crosstable_cell(game(7, Colour.WHITE, None), 4).text.endswith("*")


def test_a_forfeit_has_no_colour_and_a_plus_or_minus():
    won = crosstable_cell(game(2, Colour.WHITE, 1.0, Kind.FORFEIT), 5)
    lost = crosstable_cell(game(2, Colour.BLACK, 0.0, Kind.FORFEIT), 5)
    assert (won.text, won.colour) == ("5+", "")
    assert (lost.text, lost.colour) == ("5-", "")
    assert "forfeit" in won.title and "5" in won.title


def test_a_round_without_opponent_shows_its_points_or_a_dash():
    assert crosstable_cell(RoundRecord(kind=Kind.HALF_BYE, score=0.5), None).text == "½"
    assert crosstable_cell(RoundRecord(kind=Kind.FULL_BYE, score=1.0), None).text == "1"
    assert crosstable_cell(RoundRecord(kind=Kind.ABSENT, score=0.0), None).text == "–"
    with translation.override("nl"):
        assert crosstable_cell(RoundRecord(kind=Kind.PAIRING_BYE, score=1.0), None).text == "vrij"


@pytest.mark.parametrize(
    ("value", "shown"),
    [(1.75, "1¾"), (0.25, "¼"), (3.0, "3"), (0, "0"), (2.5, "2½"), (0.75, "¾"), (10.125, "10⅛"),
     (-0.25, "-¼"), (37 / 3, "12⅓"), (12.33, "12.33"), (1.8, "1.8")],
)  # fmt: skip
def test_tie_break_values_are_shown_exactly(value, shown):
    """Sonneborn-Berger over half points gives quarters: 1¾, never rounded to 1.8."""
    assert exact(value) == shown


def test_decimals_follow_the_readers_language():
    with translation.override("nl"):
        assert exact(12.33) == "12,33"
        assert exact(1.75) == "1¾"


def test_points_show_halves_and_quarters_and_keizer_decimals():
    assert points(1.75) == "1¾" and points(2.5) == "2½" and points(0.5) == "½" and points(4) == "4"
    assert points(33.4) == "33.4"


def test_a_forfeit_result_reads_in_the_readers_language():
    assert result("1-0") == "1-0" and result("½-½") == "½-½" and result("") == ""
    assert result("1-0R") == "+/-" and result("0-1R") == "-/+"
    with translation.override("nl"):
        assert result("1-0R") == "1-0R" and result("0-0R") == "0-0R"
    with translation.override("da"):
        assert result("0-1R") == "-/+"


def test_column_titles_name_the_tie_break_in_words():
    with translation.override("en"):
        assert prizes.column_title("SB") == "Sonneborn-Berger"
        assert prizes.column_title("BH/C1") == "Buchholz (BH/C1)"
        assert prizes.column_title("ordinary wins") == "ordinary wins"
    with translation.override("nl"):
        assert prizes.column_title("DE") == "Onderling resultaat"


def test_an_encounter_column_without_any_value_is_left_out():
    rows = [Row("1", None, 2.0, tiebreaks=[3.0, None]), Row("2", None, 1.0, tiebreaks=[1.5, None])]
    assert standings.unused_columns(["SB", "DE"], rows) == {1}
    rows[1].tiebreaks[1] = 0.0
    assert standings.unused_columns(["SB", "DE"], rows) == set()
    assert standings.unused_columns(["SB", "BH"], [Row("1", None, 0.0, tiebreaks=[None, None])]) == set()


@pytest.fixture
def three_rounds(club, td, members):
    competition = make_competition(club, td, members[:4])
    for results in ({1: "1-0", 2: "½-½"}, {1: "½-½", 2: "1-0R"}, {1: "0-1", 2: "1-0"}):
        play_round(competition, td, results)
    return competition


def test_crosstable_numbers_are_the_standings_places_and_cells_agree_both_ways(three_rounds):
    """Every game appears twice, from each side: same round, opposite colours, results adding up to one;
    the number in a cell is the opponent's line in the table."""
    from tournaments.state import CompetitionData

    table = standings.crosstable(CompetitionData.load(three_rounds, public=True))
    _names, ranked = standings.standings(CompetitionData.load(three_rounds, public=True))
    assert [number for number, _row, _cells in table] == [1, 2, 3, 4]
    assert [row.participant for _n, row, _c in table] == [row.participant for row in ranked]
    by_number = {number: cells for number, _row, cells in table}
    value = {"1": 1.0, "½": 0.5, "0": 0.0, "+": 1.0, "-": 0.0}
    for number, cells in by_number.items():
        for rnd, cell in enumerate(cells):
            opponent, colour, score = NOTATION.match(cell.text).groups()
            other = NOTATION.match(by_number[int(opponent)][rnd].text).groups()
            assert int(other[0]) == number
            assert value[score] + value[other[2]] == 1.0
            assert {colour, other[1]} in ({"w", "b"}, {""})


NOTATION = re.compile(r"^(\d+)([wb]?)([10½+-])$")


def test_crosstable_page_and_pdf_carry_the_key_in_danish(client, club, three_rounds):
    url = reverse("crosstable", args=[club.slug, three_rounds.slug])
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="da").content.decode()
    assert 'id="crosstable-key"' in page and "12h1" in page  # the key's example
    assert re.search(r">[1-4][hs][10½]<", page)
    text = pdf_text(client.get(url + "?format=pdf", HTTP_ACCEPT_LANGUAGE="da"))
    assert "12h1" in text and re.search(r"\b[1-4]s[10½]", text) and club.name in text


def test_standings_drop_an_unused_encounter_column_and_explain_the_others(client, club, three_rounds):
    url = reverse("standings", args=[club.slug, three_rounds.slug])
    page = client.get(url).content.decode()
    assert '<abbr title="Sonneborn-Berger">SB</abbr>' in page
    assert 'id="standings-key"' in page
    text = pdf_text(client.get(url + "?format=pdf"))
    assert "Sonneborn-Berger" in text


def test_pairing_list_pdf_names_club_competition_round_and_date(client, club, three_rounds):
    rnd = three_rounds.round_set.get(number=2)
    text = pdf_text(client.get(reverse("pairings", args=[club.slug, three_rounds.slug, 2]) + "?format=pdf"))
    heading = f"{club.name} · {three_rounds.name} · Round 2"
    assert heading in text
    with translation.override("en"):
        from django.utils.formats import date_format

        assert date_format(rnd.published_at.date(), "DATE_FORMAT") in text


def test_rule_references_are_set_in_small_print_by_the_regulations_name():
    from tournaments.notes import in_print

    with translation.override("en"):
        text = in_print("Berger table for 4 players, round 3 (seed 004 §4.9.11).")
        assert text == 'Berger table for 4 players, round 3 <small class="ref">(DSU handbook §4.9.11)</small>.'
        assert in_print("colour preference not met ×2 (C12)").endswith('<small class="ref">(C12)</small>')
        assert in_print("Anna <b> (1½)") == "Anna &lt;b&gt; (1½)"  # escaped; a score in brackets stays
    with translation.override("nl"):
        assert "(DSU-handboek §4.9.8)" in in_print("(seed 004 §4.9.8)")


def test_the_pairing_explanation_speaks_in_words_with_the_rules_in_small_print(td_client, club, td, members):
    from pairing import services as adapter

    competition = make_competition(club, td, members[:4], slug="rr")
    rnd = adapter.pair_next_round(competition, td)
    page = td_client.get(reverse("manage_round", args=[club.slug, competition.slug, rnd.number])).content.decode()
    assert 'Berger table for 4 players, round 1 <small class="ref">(DSU handbook §4.9.11)</small>' in page
    assert "seed 004" not in page
