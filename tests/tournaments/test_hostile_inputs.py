"""Hostile and careless input through the views: every importer (TRF, member CSV, each rating-list format)
and every form. Each case: no server error (the test client raises it), a message naming the problem,
and, when the input is refused, no row of the database changed (a snapshot of every club, member,
competition and rating table, compared before and after). Runs on SQLite and, with DATABASE_URL, on
PostgreSQL, where NUL characters and out-of-range integers fail in the database itself."""

from __future__ import annotations

import io
import zipfile

import pytest
from django.apps import apps
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from tests.conftest import make_competition, make_members

pytestmark = pytest.mark.django_db

SNAPSHOT_APPS = ("clubs", "tournaments", "ratings")


def snapshot() -> dict[str, list[dict]]:
    """Every row of every club, competition and rating table."""
    return {
        model._meta.label: list(model.objects.order_by("pk").values())
        for name in SNAPSHOT_APPS
        for model in apps.get_app_config(name).get_models()
    }


def page(response) -> str:
    assert response.status_code < 500
    return response.content.decode()


# ------------------------------------------------------------------------------------------------ TRF


def player(number: int, name: str, rating: str = "1500", fide: str = "", rounds: str = "", sex: str = "m",
           points: str = "") -> str:  # fmt: skip
    """A TRF 001 line: columns 5-8 number, 10 sex, 15-47 name, 49-52 rating, 58-68 FIDE id, 81-84 points,
    90- rounds."""
    return f"001 {number:>4} {sex}    {name:<33} {rating:>4}     {fide:>11} {'':<10} {points:>4} {number:>4}{rounds}"


def trf_text(*, players=None, header="012 Club Championship", extra=("XXR 5",)) -> str:
    rows = players or [
        player(1, "Alpha, Anna", "1800", "", "     2 w 1"),
        player(2, "Beta, Bram", "1700", "", "     1 b 0"),
        player(3, "Gamma, Gina", "1600", "", "     4 w =", sex="w"),
        player(4, "Delta, Dirk", "1500", "", "     3 b ="),
    ]
    return "\n".join([header, *rows, *extra]) + "\n"


GOOD_TRF = trf_text()


def _line(text: str, number: int) -> str:
    return text.splitlines()[number - 1]


TRF_CASES = {
    # id: (file content, text the page must show)
    "superscript-rating": (GOOD_TRF.replace(" 1800 ", " 18²2 "), 'upload.trf:2: rating in columns 49-52 is not a'),
    "fullwidth-rating": (GOOD_TRF.replace(" 1800 ", " １８００ "), "upload.trf:2: rating"),
    "xxr-too-large": (trf_text(extra=("XXR 99999",)), "upload.trf:6:"),
    "xxr-zero": (trf_text(extra=("XXR 0",)), "XXR needs a number of rounds"),
    "xxr-negative": (trf_text(extra=("XXR -3",)), "XXR needs a number of rounds"),
    "xxr-superscript": (trf_text(extra=("XXR ³",)), "XXR needs a number of rounds"),
    "name-300-characters": (trf_text(header="012 " + "N" * 300), "at most 120 characters"),
    "name-with-nul": (GOOD_TRF.replace("Alpha, Anna", "Alpha\x00Anna"), "upload.trf:2:"),
    "header-with-nul": (trf_text(header="012 Club\x00Championship"), "upload.trf:1:"),
    "one-fide-id-twice": (
        trf_text(
            players=[
                player(1, "Alpha, Anna", "1800", "1234567", "     2 w 1"),
                player(2, "Beta, Bram", "1700", "1234567", "     1 b 0"),
            ]
        ),
        "upload.trf:3: FIDE id 1234567 is also player 1",
    ),
    "xxs-nan": (trf_text(extra=("XXR 5", "XXS WW=nan")), "upload.trf:7: not a finite number"),
    "xxs-infinity": (trf_text(extra=("XXR 5", "XXS BW=inf")), "upload.trf:7: not a finite number"),
    "xxs-huge-bye": (
        trf_text(
            players=[
                player(1, "Alpha, Anna", "1800", "", "     2 w 1"),
                player(2, "Beta, Bram", "1700", "", "     1 b 0"),
                player(3, "Gamma, Gina", "1600", "", "  0000 - F"),
            ],
            extra=("XXR 5", "XXS FPB=1000"),
        ),
        "upload.trf:4: points",
    ),
    "xxs-unknown-code": (trf_text(extra=("XXR 5", "XXS QQ=1")), "unknown XXS scoring code"),
    "pairing-number-zero": (GOOD_TRF.replace("001    1 ", "001    0 ", 1), "upload.trf:2: missing pairing number"),
    "pairing-number-arabic-digit": (GOOD_TRF.replace("001    1 ", "001    ١ ", 1), "upload.trf:2: pairing number"),
    "opponent-unknown": (GOOD_TRF.replace("     2 w 1", "    99 w 1"), "upload.trf:"),
    "unknown-colour": (GOOD_TRF.replace("     2 w 1", "     2 q 1"), "upload.trf:2: round 1: unknown colour"),
    "points-exponent": (
        trf_text(players=[player(1, "Alpha, Anna", points="1e5"), player(2, "Beta, Bram")]),
        "upload.trf:2: points in columns 81-84 are not a number",
    ),
    "empty-file": ("", "The submitted file is empty"),
    "binary-garbage": (bytes(range(256)).decode("latin-1") * 4, "upload.trf"),
    "zip-as-trf": ("PK\x03\x04" + "x" * 200, "upload.trf"),
    "only-a-header": ("012 Nobody came\n", "upload.trf"),
}


@pytest.mark.parametrize("case", TRF_CASES, ids=str)
def test_hostile_trf_is_refused_with_its_line(td_client, club, case):
    content, message = TRF_CASES[case]
    before = snapshot()
    data = content.encode("latin-1") if case == "binary-garbage" else content.encode()
    response = td_client.post(
        reverse("import_trf", args=[club.slug]),
        {"file": SimpleUploadedFile("upload.trf", data), "slug": "imported", "system": "dutch"},
    )
    text = page(response)
    assert response.status_code == 200, "refused: the form comes back"
    assert message in text
    assert snapshot() == before


def test_the_good_trf_of_these_cases_is_imported(td_client, club):
    """The hostile cases above are one change away from this file, which imports."""
    response = td_client.post(
        reverse("import_trf", args=[club.slug]),
        {"file": SimpleUploadedFile("upload.trf", GOOD_TRF.encode()), "slug": "imported", "system": "dutch"},
    )
    assert response.status_code == 302
    assert club.competitions.get(slug="imported").participants.count() == 4


def test_trf_over_the_size_limit_is_refused(td_client, club, settings):
    settings.UPLOAD_MAX_BYTES = {**settings.UPLOAD_MAX_BYTES, "trf": 100}
    before = snapshot()
    response = td_client.post(
        reverse("import_trf", args=[club.slug]),
        {"file": SimpleUploadedFile("big.trf", GOOD_TRF.encode()), "slug": "imported", "system": "dutch"},
    )
    assert "at most 0.0001 MB is accepted" in page(response)
    assert snapshot() == before


def test_large_trf_goes_to_a_job_that_refuses_it_with_its_line(td_client, club, settings):
    """Over TRF_INLINE_MAX_BYTES the import is a job (run at once in the tests); its page names the line."""
    settings.TRF_INLINE_MAX_BYTES = 10
    before = snapshot()
    content = GOOD_TRF.replace(" 1800 ", " 18²2 ").encode()
    response = td_client.post(
        reverse("import_trf", args=[club.slug]),
        {"file": SimpleUploadedFile("big.trf", content), "slug": "imported", "system": "dutch"},
        follow=True,
    )
    assert "big.trf:2: rating in columns 49-52 is not a number" in page(response)
    assert snapshot() == before


@pytest.mark.parametrize(
    "form, message",
    [
        ({"slug": "../../etc", "system": "dutch"}, "short name"),
        ({"slug": "ok", "system": "no-such-system"}, "Select a valid choice"),
        ({"slug": "ok", "system": "dutch", "name": "N" * 300}, "at most 120 characters"),
        ({"slug": "ok", "system": "dutch", "name": "Club\x00Cup"}, "Null characters are not allowed"),
    ],
    ids=["slug-path", "unknown-system", "name-too-long", "name-nul"],
)
def test_trf_import_form_fields_are_checked(td_client, club, form, message):
    before = snapshot()
    response = td_client.post(
        reverse("import_trf", args=[club.slug]), {"file": SimpleUploadedFile("t.trf", GOOD_TRF.encode()), **form}
    )
    assert message in page(response)
    assert snapshot() == before


# ------------------------------------------------------------------------------------------ member CSV

HEADER = "first_name;last_name;sex;birth_date;title;fide_id;fide_rating;federation;national_id;national_rating"


def members_csv(*rows: str) -> str:
    return "\n".join([HEADER, *rows]) + "\n"


CSV_CASES = {
    "field-of-200000-characters": (members_csv("Anna;" + "x" * 200_000 + ";w;;;;;;;"), "Line 2"),
    "nul-in-name": (members_csv("An\x00na;de Vries;w;;;;;;;"), "NUL character"),
    "first-name-300": (members_csv("A" * 300 + ";de Vries;w;;;;;;;"), "300 characters long"),
    "superscript-rating": (members_csv("Anna;de Vries;w;;;;18²2;;;"), "“18²2”"),
    "rating-too-large": (members_csv("Anna;de Vries;w;;;;99999999999;;;"), "out of range"),
    "negative-rating": (members_csv("Anna;de Vries;w;;;;-5;;;"), "“-5”"),
    "fide-id-twice": (
        members_csv("Anna;de Vries;w;;;1234567;;;;", "Bram;Jansen;m;;;1234567;;;;"),
        "fide_id 1234567 is also on line 2",
    ),
    "national-id-twice": (
        members_csv("Anna;de Vries;w;;;;;;77;", "Bram;Jansen;m;;;;;;77;"),
        "national_id 77 is also on line 2",
    ),
    "fide-id-too-long": (members_csv("Anna;de Vries;w;;;123456789012345;;;;"), "at most 11"),
    "federation-too-long": (members_csv("Anna;de Vries;w;;;;;NEDERLAND;;"), "at most 3"),
    "impossible-date": (members_csv("Anna;de Vries;w;2026-02-30;;;;;;"), "birth_date must be YYYY-MM-DD"),
    "year-99999": (members_csv("Anna;de Vries;w;99999-01-01;;;;;;"), "birth_date must be YYYY-MM-DD"),
    "unknown-title": (members_csv("Anna;de Vries;w;;XYZ;;;;;"), "unknown title"),
    "bogus-sex": (members_csv("Anna;de Vries;q;;;;;;;"), "sex must be m or w"),
    "unknown-column": ("first_name;last_name;password\nAnna;de Vries;x\n", "unknown column"),
    "missing-column": ("first_name\nAnna\n", "missing column"),
    "header-only": (HEADER + "\n", "The file has no members"),
    "binary-garbage": (bytes(range(1, 256)).decode("latin-1"), "Line 1"),
}


def post_members(client, club, content: str | bytes, name="m.csv"):
    data = content if isinstance(content, bytes) else content.encode("utf-8")
    return client.post(reverse("import_members", args=[club.slug]), {"file": SimpleUploadedFile(name, data)})


@pytest.mark.parametrize("case", CSV_CASES, ids=str)
def test_hostile_member_csv_is_refused_with_its_line(td_client, club, case):
    content, message = CSV_CASES[case]
    before = snapshot()
    response = post_members(td_client, club, content)
    text = page(response)
    assert message in text
    assert response.context["preview"] is None or not response.context["preview"].ok
    # and a confirmation of the same text saves nothing either
    page(td_client.post(reverse("import_members", args=[club.slug]), {"text": content, "confirm": "1"}))
    assert snapshot() == before


def test_an_id_a_member_already_has_is_refused(td_client, club):
    club.members.create(first_name="Anna", last_name="de Vries", fide_id="1234567")
    before = snapshot()
    response = post_members(td_client, club, members_csv("Anna;Vries;w;;;1234567;;;;"))
    assert "fide_id 1234567 is already a member" in page(response)
    assert snapshot() == before


def test_member_csv_over_the_size_limit_is_refused(td_client, club, settings):
    settings.UPLOAD_MAX_BYTES = {**settings.UPLOAD_MAX_BYTES, "members": 10}
    before = snapshot()
    response = post_members(td_client, club, members_csv("Anna;de Vries;w;;;;;;;"))
    assert "MB is accepted" in page(response)
    assert snapshot() == before


def test_formula_like_names_are_kept_as_typed(td_client, club):
    """Accepted: a name is a name; the CSV exports neutralise it (test_csv_exports)."""
    content = members_csv("=HYPERLINK(1);@SUM;w;;;;;;;")
    assert post_members(td_client, club, content).context["preview"].ok
    td_client.post(reverse("import_members", args=[club.slug]), {"text": content, "confirm": "1"})
    assert club.members.get().first_name == "=HYPERLINK(1)"


# ---------------------------------------------------------------------------------------- rating lists


def fide_txt_line(player_id: str, name: str, rating: str, birth: str = "1990") -> str:
    return f"{player_id:<15}{name:<61}{'NED':<4}{'M':<4}{'':<5}{'':<5}{'':<15}{'':<4}{rating:<6}{'':<37}{birth}"


FIDE_HEADER = (
    f"{'ID Number':<15}{'Name':<61}{'Fed':<4}{'Sex':<4}{'Tit':<5}{'WTit':<5}{'OTit':<15}{'FOA':<4}{'SRtng':<6}"
    f"{'SGm':<4}{'SK':<3}{'RRtng':<6}{'RGm':<4}{'Rk':<3}{'BRtng':<6}{'BGm':<4}{'BK':<3}{'B-day':<6}Flag"
)


def fide_txt(*lines: str) -> bytes:
    return ("\n".join([FIDE_HEADER, fide_txt_line("1001", "de Vries, Anna", "1850"), *lines]) + "\n").encode()


def fide_xml(name: str = "de Vries, Anna", rating: str = "1850", player_id: str = "1001") -> bytes:
    return (
        '<?xml version="1.0" encoding="utf-8"?>\n<playerslist>\n<player>\n'
        f"<fideid>{player_id}</fideid>\n<name>{name}</name>\n<country>NED</country>\n<rating>{rating}</rating>\n"
        "<birthday>1990</birthday>\n</player>\n</playerslist>\n"
    ).encode()


def knsb_csv(*rows: str) -> bytes:
    return ("\n".join(["Relatienummer;Naam;Rating;Geboortedatum", "5001;de Vries, Anna;1750;01-05-1990", *rows])
            + "\n").encode("utf-8")  # fmt: skip


def dsu_csv(*rows: str) -> bytes:
    return ("\n".join(["Medlemsnummer,Navn,Rating,Fødselsdato", '5001,"de Vries, Anna",1750,1990-05-01', *rows])
            + "\n").encode("utf-8")  # fmt: skip


def zipped(files: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, content in files.items():
            archive.writestr(name, content)
    return buffer.getvalue()


LIST_CASES = {
    # id: (source, file name, content, text the job's page must show)
    "fide-txt-superscript-rating": ("fide", "l.txt", fide_txt(fide_txt_line("1002", "Jansen, Piet", "18²2")),
                                    "line 3: the rating must be a whole number, not “18²2”"),
    "fide-txt-negative-rating": ("fide", "l.txt", fide_txt(fide_txt_line("1002", "Jansen, Piet", "-1800")),
                                 "line 3: the rating must be a whole number, not “-1800”"),
    "fide-txt-id-too-long": ("fide", "l.txt", fide_txt(fide_txt_line("123456789012345", "Jansen, Piet", "1800")),
                             "line 3:"),
    "fide-txt-superscript-id": ("fide", "l.txt", fide_txt(fide_txt_line("100²", "Jansen, Piet", "1800")),
                                "line 3: the FIDE id must be a number"),
    "fide-txt-nul-in-name": ("fide", "l.txt", fide_txt(fide_txt_line("1002", "Jan\x00sen, Piet", "1800")),
                             "line 3:"),
    "fide-txt-endless-line": ("fide", "l.txt", FIDE_HEADER.encode() + b"\n" + b"1" * 300_000 + b"\n", "line 2:"),
    "fide-xml-superscript-rating": ("fide", "l.xml", fide_xml(rating="18²2"), "line 7: the rating must be"),
    "fide-xml-name-200000": ("fide", "l.xml", fide_xml(name="x" * 200_000), "line 3: the name is 200000"),
    "fide-xml-nul-reference": ("fide", "l.xml", fide_xml(name="a&#0;b"), "not well-formed XML"),
    "fide-xml-rating-too-large": ("fide", "l.xml", fide_xml(rating="99999999999"), "line 7:"),
    "fide-xml-unclosed": ("fide", "l.xml", b"<playerslist><player><fideid>1", "not well-formed XML"),
    "fide-zip-not-a-zip": ("fide", "l.zip", b"PK\x03\x04" + b"\x00" * 400, "not a readable zip archive"),
    "fide-zip-empty": ("fide", "l.zip", zipped({}), "line 1:"),
    "fide-zip-bad-inside": ("fide", "l.zip", zipped({"l.txt": fide_txt(fide_txt_line("1002", "P", "18²2"))}),
                            "line 3:"),
    "knsb-field-200000": ("knsb", "k.csv", knsb_csv("5002;" + "x" * 200_000 + ";1700;"), "line 3:"),
    "knsb-superscript-rating": ("knsb", "k.csv", knsb_csv("5002;Jansen, Piet;17²0;"), "line 3:"),
    "knsb-rating-too-large": ("knsb", "k.csv", knsb_csv("5002;Jansen, Piet;99999999999;"), "line 3:"),
    "knsb-id-too-long": ("knsb", "k.csv", knsb_csv("1234567890123456789012345;Jansen, Piet;1700;"), "line 3:"),
    "knsb-nul-in-name": ("knsb", "k.csv", knsb_csv("5002;Jan\x00sen, Piet;1700;"), "line 3:"),
    "knsb-too-few-columns": ("knsb", "k.csv", knsb_csv("5002;Jansen"), "line 3: 2 columns instead of 4"),
    "dsu-impossible-date": ("dsu", "d.csv", dsu_csv('5002,"Jensen, Per",1700,31-02-1990'), "line 3:"),
    "dsu-rating-too-large": ("dsu", "d.csv", dsu_csv('5002,"Jensen, Per",99999999999,'), "line 3:"),
    "dsu-not-a-list": ("dsu", "d.csv", b"hello,world\n1,2\n", "line 1:"),
}


@pytest.fixture
def anna(club):
    return club.members.create(first_name="Anna", last_name="de Vries", fide_id="1001", national_id="5001",
                               fide_rating=1800, national_rating=1700)  # fmt: skip


def post_list(client, club, source, name, content, day="2026-11-01"):
    data = {"source": source, "list_date": day, "file": SimpleUploadedFile(name, content)}
    return client.post(reverse("rating_lists", args=[club.slug]), data, follow=True)


@pytest.mark.parametrize("case", LIST_CASES, ids=str)
def test_hostile_rating_list_is_refused_with_its_line(td_client, club, anna, case):
    source, name, content, message = LIST_CASES[case]
    before = snapshot()
    text = page(post_list(td_client, club, source, name, content))
    assert message in text and "Nothing was imported" in text
    assert snapshot() == before


def test_an_empty_rating_list_is_refused(td_client, club, anna):
    before = snapshot()
    assert "The submitted file is empty" in page(post_list(td_client, club, "knsb", "k.csv", b""))
    assert snapshot() == before


@pytest.mark.parametrize(
    "source, day, message",
    [("ecf", "2026-11-01", "Select a valid choice"), ("fide", "2026-13-45", "Enter a valid date")],
    ids=["unknown-list", "impossible-date"],
)
def test_rating_list_form_fields_are_checked(td_client, club, anna, source, day, message):
    before = snapshot()
    assert message in page(post_list(td_client, club, source, "l.txt", fide_txt(), day))
    assert snapshot() == before


def test_rating_list_over_the_size_limit_is_refused(td_client, club, anna, settings):
    settings.UPLOAD_MAX_BYTES = {**settings.UPLOAD_MAX_BYTES, "rating-list": 100}
    before = snapshot()
    assert "MB is accepted" in page(post_list(td_client, club, "fide", "l.txt", fide_txt()))
    assert snapshot() == before


@pytest.mark.parametrize("value", ["²", "99999999999999999999999999", "-1", "abc"])
def test_confirming_a_list_with_bogus_lines_changes_only_the_id_matches(td_client, club, anna, value):
    from ratings.models import RatingListImport

    post_list(td_client, club, "fide", "l.txt", fide_txt())
    list_import = RatingListImport.objects.get()
    response = td_client.post(reverse("rating_list", args=[club.slug, list_import.pk]), {f"member-{anna.pk}": value})
    assert response.status_code == 302
    anna.refresh_from_db()
    assert anna.fide_rating == 1850  # matched by id, applied; the bogus line is ignored


@pytest.mark.parametrize("value", ["²", "99999999999999999999999999", "-1", "x"])
def test_rating_history_with_a_bogus_member(td_client, club, anna, value):
    assert page(td_client.get(reverse("rating_history", args=[club.slug]), {"member": value}))


# ----------------------------------------------------------------------------------------------- forms


@pytest.mark.parametrize(
    "data, message",
    [
        ({"first_name": "A" * 300, "last_name": "B"}, "at most 60 characters"),
        ({"first_name": "An\x00na", "last_name": "B"}, "Null characters are not allowed"),
        ({"first_name": "Anna", "last_name": "B", "fide_rating": "99999999999"}, "less than or equal to"),
        ({"first_name": "Anna", "last_name": "B", "fide_rating": "18²2"}, "Enter a whole number"),
        ({"first_name": "Anna", "last_name": "B", "sex": "x"}, "Select a valid choice"),
        ({"first_name": "Anna", "last_name": "B", "birth_date": "2026-02-30"}, "Enter a valid date"),
        ({"first_name": "Anna", "last_name": "B", "fide_id": "1003"}, "fide_id 1003 is already a member"),
        ({"first_name": "Anna", "last_name": "B", "national_id": " 5003 "}, "national_id 5003 is already a member"),
    ],
    ids=["name-300", "name-nul", "rating-too-large", "rating-superscript", "bogus-sex", "impossible-date",
         "fide-id-taken", "national-id-taken"],
)
def test_member_form_is_checked(td_client, club, data, message):
    club.members.create(first_name="Karel", last_name="Appel", fide_id="1003", national_id="5003")
    before = snapshot()
    assert message in page(td_client.post(reverse("members", args=[club.slug]), data))
    assert snapshot() == before


@pytest.fixture
def swiss(club, td):
    return make_competition(club, td, make_members(club, 6), system="dutch", rounds=5, slug="swiss")


@pytest.mark.parametrize("kind", ["bogus", "pairing-bye", "club-match", "x" * 500])
def test_absence_form_refuses_a_choice_it_does_not_offer(td_client, club, swiss, kind):
    before = snapshot()
    url = reverse("set_absence", args=[club.slug, swiss.slug, 1])
    response = td_client.post(url, {"kind": kind}, follow=True)
    assert page(response) and list(response.context["messages"])
    assert snapshot() == before


@pytest.mark.parametrize(
    "data, message",
    [
        ({"name": "N" * 300, "slug": "new", "system": "dutch", "rounds": "5"}, "at most 120 characters"),
        ({"name": "Cup", "slug": "new", "system": "dutch", "rounds": "99999"}, "less than or equal to"),
        ({"name": "Cup", "slug": "new", "system": "no-such", "rounds": "5"}, "Select a valid choice"),
        ({"name": "Cup", "slug": "manage", "system": "dutch", "rounds": "5"}, "is reserved"),
        ({"name": "Cup", "slug": "fresh", "system": "dutch", "rounds": "5", "players": ["x", "9" * 30]},
         "is not a valid value"),
        ({"name": "C\x00p", "slug": "new", "system": "dutch", "rounds": "5"}, "Null characters are not allowed"),
    ],
    ids=["name-300", "rounds-99999", "unknown-system", "reserved-slug", "bogus-players", "name-nul"],
)
def test_new_competition_form_is_checked(td_client, club, data, message):
    before = snapshot()
    assert message in page(td_client.post(reverse("new_competition", args=[club.slug]), data))
    assert snapshot() == before


@pytest.mark.parametrize("ids", [["abc"], ["9" * 30], ["-1"], ["²"]])
def test_adding_bogus_members_adds_no_one(td_client, club, swiss, ids):
    before = snapshot()
    page(td_client.post(reverse("add_participants", args=[club.slug, swiss.slug]), {"member": ids}))
    assert snapshot() == before


@pytest.mark.parametrize(
    "data",
    [{"first_name": "G" * 300, "last_name": "x"}, {"first_name": "G", "last_name": "x", "national_rating": "9" * 12}],
)
def test_guest_form_is_checked(td_client, club, swiss, data):
    before = snapshot()
    response = td_client.post(reverse("add_guest", args=[club.slug, swiss.slug]), data, follow=True)
    assert page(response) and list(response.context["messages"])
    assert snapshot() == before


@pytest.fixture
def olympiad(club, td):
    return make_competition(club, td, make_members(club, 6), system="olympiad", slug="olympiad")


@pytest.mark.parametrize(
    "data, message",
    [
        ({"teams": "7", "cycles": "1"}, "7 teams need at least 7 players; the competition has 6."),
        ({"teams": "abc", "cycles": "1"}, "Give whole numbers."),
        ({"teams": "", "cycles": ""}, "Give whole numbers."),
        ({"teams": "99999999999999999999", "cycles": "1"}, "players"),
    ],
    ids=["more-teams-than-players", "letters", "empty", "huge"],
)
def test_olympiad_team_settings_are_checked(td_client, client, club, olympiad, data, message):
    before = snapshot()
    response = td_client.post(reverse("team_settings", args=[club.slug, olympiad.slug]), data, follow=True)
    assert message in page(response)
    assert snapshot() == before
    assert page(client.get(reverse("standings", args=[club.slug, olympiad.slug]))), "the public page still shows"


def test_olympiad_page_with_more_teams_than_players_says_so(client, club, olympiad):
    """Teams fixed before players left the competition: the page tells, it does not crash."""
    olympiad.participants.filter(start_number__gt=2).delete()
    olympiad.settings = {"teams": 4, "cycles": 1}
    olympiad.save(update_fields=["settings"])
    text = page(client.get(reverse("standings", args=[club.slug, olympiad.slug])))
    assert 'id="team-problem"' in text and "2 players cannot form 4 teams" in text


@pytest.mark.parametrize("value", ["banana", "1-0-1", "\x00", "1" * 500])
def test_a_typed_result_that_is_no_result_is_refused(td_client, club, swiss, td, value):
    from pairing import services as pairing_services
    from pairing.services import records as services

    rnd = pairing_services.pair_next_round(swiss, td)
    services.publish(rnd, td)
    before = snapshot()
    url = reverse("enter_results", args=[club.slug, swiss.slug, 1])
    response = td_client.post(url, {"result-1": value}, follow=True)
    assert "is not a result" in page(response)
    assert snapshot() == before


@pytest.mark.parametrize(
    "data, message",
    [
        ({"main_text": "1" * 5000}, "is not a prize"),
        ({"main_text": "١٠٠, 50"}, "is not a prize"),
        ({"main_text": "100", "currency": "EURO€"}, ""),  # five characters: accepted
        ({"main_text": "100", "currency": "DOLLARS"}, "at most 5 characters"),
        ({"main_text": "100", "groups_text": "U; rating; " + "9" * 5000 + "; 5"}, "is not a range"),
        ({"main_text": "100", "groups_text": "U; colour; 1-2; 5"}, "is not a kind of prize group"),
        ({"main_text": "1\x0000"}, "Null characters are not allowed"),
        ({"main_text": "100", "sharing": "bogus"}, "Select a valid choice"),
    ],
    ids=["amount-5000-digits", "arabic-digits", "currency-5", "currency-7", "range-5000-digits", "bogus-kind",
         "nul", "bogus-sharing"],
)  # fmt: skip
def test_prize_table_form_is_checked(td_client, club, swiss, data, message):
    before = snapshot()
    response = td_client.post(reverse("prize_settings", args=[club.slug, swiss.slug]), data)
    text = page(response)
    if message:
        assert message in text
        assert snapshot() == before
    else:
        assert response.status_code == 302


@pytest.mark.parametrize(
    "data, message",
    [
        ({"codes": "BH, XYZ"}, "XYZ"),
        ({"codes": "BH/C²"}, "BH/C²"),
        ({"codes": "BH", "unrated_rating": "99999999999"}, "less than or equal to 3999"),
        ({"codes": "BH", "unrated_opponents": "bogus"}, "Select a valid choice"),
    ],
    ids=["unknown-code", "superscript-modifier", "huge-rating", "bogus-choice"],
)
def test_tiebreak_form_is_checked(td_client, club, swiss, data, message):
    before = snapshot()
    assert message in page(td_client.post(reverse("tiebreak_settings", args=[club.slug, swiss.slug]), data))
    assert snapshot() == before


@pytest.mark.parametrize("size", ["abc", "0", "-4", "99999999999999999999", "²"])
def test_splitting_into_groups_of_a_bogus_size(td_client, club, swiss, size):
    before = snapshot()
    response = td_client.post(reverse("split_groups", args=[club.slug, swiss.slug]), {"size": size})
    assert 'class="error"' in page(response) or "error" in page(response)
    assert snapshot() == before


@pytest.fixture
def cup(club, td):
    return make_competition(club, td, make_members(club, 8), system="knockout", slug="cup")


@pytest.mark.parametrize(
    "data",
    [{"games": "abc", "rapid_games": "2", "blitz_games": "2"},
     {"games": "9" * 30, "rapid_games": "2", "blitz_games": "2"},
     {"games": "-1", "rapid_games": "2", "blitz_games": "2"}, {}],
    ids=["letters", "huge", "negative", "nothing"],
)  # fmt: skip
def test_cup_format_is_checked(td_client, club, cup, data):
    before = snapshot()
    response = td_client.post(reverse("cup_format", args=[club.slug, cup.slug]), data, follow=True)
    assert page(response) and list(response.context["messages"])
    assert snapshot() == before


@pytest.mark.parametrize("a, b", [("²", "1"), ("9" * 30, "1"), ("", ""), ("1", "1")])
def test_exchanging_bogus_players(td_client, club, swiss, td, a, b):
    from pairing import services as adapter

    adapter.pair_next_round(swiss, td)
    before = snapshot()
    response = td_client.post(reverse("exchange", args=[club.slug, swiss.slug, 1]), {"a": a, "b": b}, follow=True)
    assert page(response)
    assert snapshot() == before


@pytest.mark.parametrize(
    "email, message",
    [("not-an-address", "Enter a valid email address"), ("a\x00b@example.org", "Null characters are not allowed"),
     ("x" * 300 + "@example.org", "at most 254 characters")],
    ids=["not-an-address", "nul", "too-long"],
)  # fmt: skip
def test_invitation_form_is_checked(td_client, club, email, message):
    before = snapshot()
    assert message in page(td_client.post(reverse("directors", args=[club.slug]), {"email": email}))
    assert snapshot() == before
