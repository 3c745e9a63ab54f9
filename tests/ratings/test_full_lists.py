"""The site's full rating lists: a generated FIDE list of 20,000 players loaded in batches, replaced whole
or not at all, looked up by FIDE id, national id and name (case and accents ignored) in a fixed number of
queries; the entry form and the TD's inbox use it."""

from __future__ import annotations

import functools
import io
import random
from datetime import date

import pytest
from django.core.management import CommandError, call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from audit.models import AuditEntry
from entries import lookup
from entries.models import Entry
from ratings import full_lists
from ratings.lists import ListError
from ratings.models import ListedPlayer, RatingList
from tests.entries.conftest import entry_data

pytestmark = pytest.mark.django_db

COLUMNS = [("ID Number", 15), ("Name", 61), ("Fed", 4), ("Sex", 4), ("Tit", 5), ("WTit", 5), ("OTit", 15),
           ("FOA", 4), ("SRtng", 6), ("SGm", 4), ("SK", 3), ("B-day", 6), ("Flag", 4)]  # fmt: skip
SURNAMES = ["Jansen", "de Vries", "Müller", "Nielsen", "Smith", "García", "Kowalski", "Rossi", "Dubois", "Novák"]
SIZE = 20_000
# Players placed among the generated ones, each at a known line (header = line 1, player i = line i + 2).
KNOWN = {
    5_000: {"ID Number": 1503014, "Name": "de Vries, Anna", "Fed": "NED", "Tit": "WFM", "SRtng": 2210, "B-day": 1995},
    12_000: {"ID Number": 1401234, "Name": "Sørensen, Åse", "Fed": "DEN", "Tit": "WIM", "SRtng": 2105, "B-day": 1988},
    15_000: {"ID Number": 4100018, "Name": "Jansen, Piet", "Fed": "NED", "SRtng": 1875, "B-day": 1990},
}


def row(values: dict) -> str:
    return "".join(str(values.get(name, "")).ljust(width) for name, width in COLUMNS).rstrip() + "\n"


@functools.cache
def fide_list(size: int = SIZE, seed: int = 7, bad_line: int | None = None) -> bytes:
    """A FIDE TXT list of `size` players, the same for the same seed; `bad_line` gets a rating of letters."""
    rng = random.Random(seed)
    out = io.StringIO()
    out.write(row({name: name for name, _ in COLUMNS}))
    for i in range(size):
        values = {"ID Number": 20_000_000 + i, "Name": f"{rng.choice(SURNAMES)}{i % 1000}, Player{i}",
                  "Fed": rng.choice(["NED", "DEN", "GER", "FRA"]), "Sex": rng.choice("MF"),
                  "SRtng": rng.randint(1000, 2600) if rng.random() < 0.8 else "",
                  "B-day": rng.randint(1940, 2015)}  # fmt: skip
        values.update(KNOWN.get(i, {}))
        if i + 2 == bad_line:
            values["SRtng"] = "abc"
        out.write(row(values))
    return out.getvalue().encode()


KNSB = """relatienummer;naam;rating;geboortedatum
8123456;de Vries, Anna;2190;1995-03-02
8123457;Jansen, Piet;1850;1990-07-01
8123458;Jansen, Piet;1400;1961-01-05
"""


@pytest.fixture
def weekend_open(club, td):
    from entries.models import EntrySettings
    from tournaments.models import Competition

    competition = Competition.objects.create(club=club, name="Weekend Open", slug="open", system="dutch-1998", rounds=5)
    EntrySettings.objects.create(competition=competition, open=True, max_players=40)
    return competition


@pytest.fixture
def fide():
    return full_lists.load("fide", io.BytesIO(fide_list()), date(2026, 11, 1), "players_list_foa.txt")


@pytest.fixture
def knsb():
    return full_lists.load("knsb", io.BytesIO(KNSB.encode()), date(2026, 11, 1), "knsb.csv")


# Loading ---------------------------------------------------------------------------------------------


def test_a_generated_list_of_20000_players_is_loaded_in_batches():
    with CaptureQueriesContext(connection) as queries:
        loaded = full_lists.load("fide", io.BytesIO(fide_list()), date(2026, 11, 1), "players_list_foa.txt")
    assert loaded.players == SIZE == ListedPlayer.objects.filter(rating_list=loaded).count()
    inserts = [q for q in queries.captured_queries if 'INSERT INTO "ratings_listedplayer"' in q["sql"]]
    # batches of 5,000 rows; SQLite's limit of 999 parameters splits them further (99 rows an INSERT)
    assert SIZE // 5_000 <= len(inserts) <= SIZE // 90
    anna = ListedPlayer.objects.get(player_id="1503014")
    assert (anna.name, anna.search, anna.name_key) == ("de Vries, Anna", "de vries anna", "anna de vries")
    assert (anna.federation, anna.title, anna.rating, anna.birth_year) == ("NED", "WFM", 2210, 1995)
    assert AuditEntry.objects.get(action="rating-list-load").after["players"] == SIZE


def test_a_new_list_replaces_the_previous_one_and_an_older_one_is_refused(fide):
    newer = full_lists.load("fide", io.BytesIO(fide_list(size=3_000, seed=8)), date(2026, 12, 1), "dec.txt")
    assert list(RatingList.objects.filter(system="fide")) == [newer]
    assert ListedPlayer.objects.filter(system="fide").count() == 3_000
    with pytest.raises(ListError, match="later one"):
        full_lists.load("fide", io.BytesIO(fide_list(size=10)), date(2026, 11, 1), "nov.txt")
    assert ListedPlayer.objects.filter(system="fide").count() == 3_000


def test_a_bad_line_is_named_and_nothing_is_half_saved(fide):
    with pytest.raises(ListError) as error:
        full_lists.load("fide", io.BytesIO(fide_list(seed=9, bad_line=15_001)), date(2026, 12, 1), "bad.txt")
    assert error.value.line == 15_001 and "line 15001" in str(error.value)
    # The previous list is whole; no row of the bad one (15,000 were read before the bad line) stayed.
    assert list(RatingList.objects.all()) == [fide]
    assert ListedPlayer.objects.count() == SIZE and ListedPlayer.objects.get(player_id="1503014").rating == 2210


def test_the_management_command_loads_a_list_and_names_a_bad_line(tmp_path):
    good, bad = tmp_path / "knsb.csv", tmp_path / "bad.csv"
    good.write_text(KNSB, encoding="utf-8")
    bad.write_text(KNSB + "8123459;Bakker, Jan;veel;1990\n", encoding="utf-8")
    out = io.StringIO()
    call_command("load_rating_list", str(good), "--source", "knsb", "--date", "2026-11-01", stdout=out,
                 stderr=io.StringIO())  # fmt: skip
    assert "3 players" in out.getvalue()
    with pytest.raises(CommandError, match="line 5.*nothing was loaded"):
        call_command("load_rating_list", str(bad), "--source", "knsb", "--date", "2026-12-01", stderr=io.StringIO())
    assert ListedPlayer.objects.filter(system="knsb").count() == 3


# Looking up ------------------------------------------------------------------------------------------


def test_a_fide_id_finds_the_player_and_his_national_rating_by_name_and_year(club, fide, knsb):
    found = lookup.find(club, fide_id="01503014")
    assert (found.how, found.first_name, found.last_name, found.title, found.federation) == (
        "fide-id", "Anna", "de Vries", "WFM", "NED")  # fmt: skip
    assert (found.fide_id, found.fide_rating, found.national_id, found.national_rating) == (
        "1503014", 2210, "8123456", 2190)  # fmt: skip
    assert found.member is None and not found.is_member


def test_a_national_id_finds_the_player(club, fide, knsb):
    found = lookup.find(club, national_id="8123457")
    assert (found.how, found.full_name, found.national_rating) == ("national-id", "Piet Jansen", 1850)
    # Two Piet Jansens in the KNSB list: the FIDE one born 1990 is the one of that year.
    assert (found.fide_id, found.fide_rating) == ("4100018", 1875)
    assert lookup.find(club, national_id="8123458").fide_id == ""  # born 1961: not the FIDE one


def test_a_name_is_found_whatever_its_case_accents_and_order(club, fide):
    for first, last in (("Åse", "Sørensen"), ("ase", "SORENSEN"), ("Sørensen,", "Åse")):
        found = lookup.find(club, first_name=first, last_name=last)
        assert found is not None and (found.fide_id, found.fide_rating) == ("1401234", 2105), (first, last)
    assert lookup.find(club, first_name="Åse", last_name="Sørensen", birth_year=1987) is None


def test_a_name_of_two_players_names_nobody_until_the_year_tells_them_apart(club, knsb):
    assert lookup.find(club, first_name="Piet", last_name="Jansen") is None
    assert lookup.find(club, first_name="Piet", last_name="Jansen", birth_year=1961).national_rating == 1400


def test_a_name_prefix_gives_a_limited_number_of_candidates(club, fide):
    everyone = ListedPlayer.objects.filter(search__startswith="jansen").count()
    assert everyone > 1_000
    found = lookup.candidates(last_name="JANSEN")
    assert len(found) == full_lists.NAME_LIMIT
    assert found[0][1].full_name == "Piet Jansen"  # the exact name first, then the list's alphabetical order
    names = [f.last_name for _row, f in found[1:]]
    assert names == sorted(names, key=str.lower) and all(n.lower().startswith("jansen") for n in names)
    assert [f.full_name for _row, f in lookup.candidates(last_name="de vries", first_name="an")] == ["Anna de Vries"]
    assert lookup.candidates(last_name="Zzyzx") == []


@pytest.mark.parametrize(
    ("typed", "queries"),
    [({"fide_id": "1503014"}, 3), ({"national_id": "8123456"}, 3), ({"first_name": "Anna", "last_name": "de Vries"}, 2),
     ({"fide_id": "1503014", "national_id": "8123456", "first_name": "Anna", "last_name": "de Vries"}, 5)],
    ids=["FIDE id", "national id", "name", "everything"],
)  # fmt: skip
def test_a_look_up_costs_a_fixed_small_number_of_queries(club, fide, knsb, typed, queries, django_assert_num_queries):
    with django_assert_num_queries(queries):
        found = lookup.find(club, **typed)
    assert found.fide_id == "1503014" and found.national_rating == 2190
    with django_assert_num_queries(2):
        assert len(lookup.candidates(last_name="jansen")) == full_lists.NAME_LIMIT


# The entry form and the TD's inbox -----------------------------------------------------------------------


def test_the_entry_form_fills_in_a_player_of_another_country(client, weekend_open, fide, knsb):
    url = reverse("entry_form", args=["testclub", "open"])
    page = client.post(url, {"lookup": "1", "fide_id": "1401234"}).content.decode()
    assert "Found: Åse Sørensen" in page and "FIDE 2105" in page and "(the full lists)" not in page
    assert 'value="Sørensen"' in page and 'value="DEN"' in page
    by_name = client.post(url, {"lookup": "1", "last_name": "jansen"}).content.decode()
    assert by_name.count('name="pick"') == full_lists.NAME_LIMIT
    picked = ListedPlayer.objects.get(player_id="1503014")
    page = client.post(url, {"pick": str(picked.pk), "email": "a@example.org"}).content.decode()
    assert "Found: Anna de Vries" in page and 'value="1503014"' in page and 'value="a@example.org"' in page
    assert "8123456" not in page  # picked by name: the national id is not filled in


def test_an_entry_takes_title_and_ratings_from_the_full_lists_and_the_td_sees_the_differences(
    client, td_client, weekend_open, fide, knsb
):
    url = reverse("entry_form", args=["testclub", "open"])
    client.post(url, entry_data(fide_id="1503014", first_name="Anna", last_name="de Vries", federation="GER",
                                birth_year="1994", email="anna@example.org"))  # fmt: skip
    entry = Entry.objects.get()
    assert (entry.title, entry.fide_rating, entry.national_rating) == ("WFM", 2210, 2190)
    page = td_client.get(reverse("entry_inbox", args=["testclub", "open"])).content.decode()
    assert "In the rating lists: Anna de Vries (the full lists)" in page
    assert "<td>federation</td><td>GER</td><td>NED</td>" in page
    assert "<td>year of birth</td><td>1994</td><td>1995</td>" in page


def test_a_site_admins_upload_on_a_club_page_also_replaces_the_full_list(client, club):
    from django.contrib.auth import get_user_model

    from clubs.models import ClubRole

    admin = get_user_model().objects.create_superuser("site", "site@example.org", "pw-for-tests-only")
    ClubRole.objects.get_or_create(club=club, user=admin, defaults={"role": ClubRole.Role.DIRECTOR})
    client.force_login(admin)
    upload = io.BytesIO(KNSB.encode())
    upload.name = "knsb.csv"
    client.post(reverse("rating_lists", args=["testclub"]), {"source": "knsb", "file": upload,
                                                              "list_date": "2026-11-01"})  # fmt: skip
    assert RatingList.objects.get().players == 3
    assert club.rating_imports.get().players_read == 3
