"""Rating lists through the web: upload, preview, confirmation, history; malformed lists; permissions."""

from __future__ import annotations

import io
import os
import zipfile
from datetime import date

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.urls import reverse

if not os.environ.get("DJANGO_SETTINGS_MODULE"):  # the pure rating tests run with -p no:django
    pytest.skip("needs the Django test plugin", allow_module_level=True)

pytestmark = pytest.mark.django_db

# The FIDE TXT columns and widths (players_list_foa.txt).
FIDE_COLUMNS = [
    ("ID Number", 15), ("Name", 61), ("Fed", 4), ("Sex", 4), ("Tit", 5), ("WTit", 5), ("OTit", 15), ("FOA", 4),
    ("SRtng", 6), ("SGm", 4), ("SK", 3), ("RRtng", 6), ("RGm", 4), ("Rk", 3), ("BRtng", 6), ("BGm", 4), ("BK", 3),
    ("B-day", 6), ("Flag", 4),
]  # fmt: skip

# (id, name, rating, birth) of the list rows; ids are the FIDE ids, and with 4000 added the national ids.
ROWS = [
    (1001, "de Vries, Anna", 1850, "1990"),
    (2002, "Jansen, Piet", 1600, "1985"),
    (2003, "Jansen, Piet", 1400, "1960"),  # same name, another birth year: not proposed
    (2004, "Kierkegaard, Søren", 2000, ""),  # no birth year: proposed, "not compared"
    (9999, "Somebody, Else", 2100, "1999"),
]


def fide_txt(rows=ROWS, bad: str | None = None) -> bytes:
    def line(values: dict) -> str:
        return "".join(str(values.get(name, "")).ljust(width) for name, width in FIDE_COLUMNS).rstrip()

    lines = [line({name: name for name, _ in FIDE_COLUMNS})]
    for player_id, name, rating, birth in rows:
        lines.append(
            line({"ID Number": player_id, "Name": name, "Fed": "NED", "SRtng": rating, "B-day": birth or "0000"})
        )
    if bad is not None:
        lines.insert(3, bad)
    return ("\n".join(lines) + "\n").encode("utf-8")


def fide_xml(rows=ROWS, bad_rating: str | None = None) -> bytes:
    players = []
    for i, (player_id, name, rating, birth) in enumerate(rows):
        value = bad_rating if bad_rating is not None and i == 2 else rating
        players.append(
            f"<player>\n<fideid>{player_id}</fideid>\n<name>{name}</name>\n<country>NED</country>\n"
            f"<sex>M</sex>\n<title></title>\n<rating>{value}</rating>\n<games>0</games>\n<k>20</k>\n"
            f"<birthday>{birth}</birthday>\n<flag></flag>\n</player>"
        )
    return (
        '<?xml version="1.0" encoding="utf-8"?>\n<playerslist>\n' + "\n".join(players) + "\n</playerslist>\n"
    ).encode()


def knsb_csv(rows=ROWS, bad: str | None = None) -> bytes:
    lines = ["Relatienummer;Naam;Titel;FED;Rating;Geboortedatum"]
    for player_id, name, rating, birth in rows:
        born = {"1990": "01-05-1990", "1985": "02-03-1985"}.get(birth, birth)
        lines.append(f"{player_id + 4000};{name};;NED;{rating};{born}")
    if bad is not None:
        lines.insert(3, bad)
    return ("\n".join(lines) + "\n").encode("utf-8")


def dsu_csv(rows=ROWS, bad: str | None = None) -> bytes:
    lines = ["Medlemsnummer,Navn,Rating,Fødselsdato"]
    for player_id, name, rating, birth in rows:
        born = {"1990": "1990-05-01", "1985": "1985-03-02", "1960": "1960-03-02"}.get(birth, birth)
        lines.append(f'{player_id + 4000},"{name}",{rating},{born}')
    if bad is not None:
        lines.insert(3, bad)
    return ("\n".join(lines) + "\n").encode("cp1252")  # a Windows export: Latin-1 fallback


def zipped(name: str, content: bytes) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(name, content)
    return buffer.getvalue()


# (source, file name, good content, malformed content, line number of the malformed line)
FORMATS = {
    "fide-txt": ("fide", "players_list_foa.txt", fide_txt(), fide_txt(bad="12x4           Broken, Line"), 4),
    "fide-xml": ("fide", "players_list_xml_foa.xml", fide_xml(), fide_xml(bad_rating="2l00"), 33),
    "fide-zip": ("fide", "players_list.zip", zipped("players_list_foa.txt", fide_txt()), None, None),
    "knsb-csv": ("knsb", "knsb.csv", knsb_csv(), knsb_csv(bad="5005;Kapot, Regel;;NED;17OO;"), 4),
    "dsu-csv": ("dsu", "dsu.csv", dsu_csv(), dsu_csv(bad="6006,Forkert"), 4),
}


@pytest.fixture
def people(club):
    from clubs.models import Member

    make = Member.objects.create
    return {
        "anna": make(club=club, first_name="Anna", last_name="de Vries", fide_id="1001", national_id="5001",
                     fide_rating=1800, national_rating=1750, birth_date=date(1990, 5, 1)),
        "piet": make(club=club, first_name="Piet", last_name="Jansen", national_rating=1500,
                     birth_date=date(1985, 3, 2)),
        "soren": make(club=club, first_name="Soren", last_name="Kierkegaard", birth_date=date(1970, 1, 1)),
        "karel": make(club=club, first_name="Karel", last_name="Appel", fide_id="1003", national_id="5003",
                      fide_rating=1700, national_rating=1650),
    }  # fmt: skip


def upload(client, club, source: str, name: str, content: bytes, day: str = "2026-11-01", follow=False):
    """Post a list; the job reading it runs at once here (the tests' task backend runs tasks immediately)."""
    data = {"source": source, "list_date": day, "file": SimpleUploadedFile(name, content)}
    return client.post(reverse("rating_lists", args=[club.slug]), data, follow=follow)


def snapshot(club) -> list[tuple]:
    from ratings.models import RatingChange, RatingListImport

    members = list(club.members.order_by("id").values_list("fide_id", "fide_rating", "national_id", "national_rating"))
    return [members, RatingChange.objects.count(), RatingListImport.objects.count()]


@pytest.mark.parametrize("fmt", list(FORMATS))
def test_upload_preview_confirm_and_history(td_client, club, people, fmt):
    from ratings.models import RatingChange, RatingListImport

    source, name, content, _, _ = FORMATS[fmt]
    rating_field = "fide_rating" if source == "fide" else "national_rating"
    id_field = "fide_id" if source == "fide" else "national_id"
    offset = 0 if source == "fide" else 4000
    before = snapshot(club)

    response = upload(td_client, club, source, name, content)
    assert response.status_code == 302
    list_import = RatingListImport.objects.get()
    assert response["Location"] == reverse("rating_list", args=[club.slug, list_import.pk])
    assert list_import.players_read == 5 and list_import.matched_by_id == 1 and list_import.unmatched == 1
    assert snapshot(club)[:2] == before[:2]  # a preview changes no member

    page = td_client.get(response["Location"]).content.decode()
    assert "Jansen, Piet" in page and "Kierkegaard, Søren" in page
    assert "not compared" in page  # Søren: the list gives no birth date
    assert f"{2003 + offset}, 1960" in page  # the other Piet Jansen: shown, not proposed
    assert "Karel Appel" in page and "is not in the list" in page  # unmatched, reported

    piet_line = next(m["line"] for m in list_import.proposals["by_name"] if m["player_id"] == str(2002 + offset))
    soren = people["soren"]
    post = {f"member-{people['piet'].id}": str(piet_line), f"member-{soren.id}": "none", "confirm": "1"}
    response = td_client.post(reverse("rating_list", args=[club.slug, list_import.pk]), post)
    assert response.status_code == 302

    anna, piet, soren, karel = (type(m).objects.get(pk=m.pk) for m in people.values())
    assert getattr(anna, rating_field) == 1850
    assert getattr(piet, rating_field) == 1600 and getattr(piet, id_field) == str(2002 + offset)
    assert getattr(soren, rating_field) is None and getattr(soren, id_field) == ""  # declined
    assert getattr(karel, rating_field) == (1700 if source == "fide" else 1650)  # untouched
    history = {c.member_id: (c.old, c.new, c.date, c.system) for c in RatingChange.objects.all()}
    old_anna = 1800 if source == "fide" else 1750
    old_piet = None if source == "fide" else 1500
    assert history == {
        anna.id: (old_anna, 1850, date(2026, 11, 1), source),
        piet.id: (old_piet, 1600, date(2026, 11, 1), source),
    }
    list_import.refresh_from_db()
    assert list_import.status == "applied" and list_import.updated == 2 and list_import.matched_by_name == 1

    # the history page shows both changes; a second confirmation changes nothing
    page = td_client.get(reverse("rating_history", args=[club.slug])).content.decode()
    assert "Anna de Vries" in page and f"{1850 - old_anna:+d}" in page and "Piet Jansen" in page
    td_client.post(reverse("rating_list", args=[club.slug, list_import.pk]), post)
    assert RatingChange.objects.count() == 2


@pytest.mark.parametrize("fmt", [f for f in FORMATS if FORMATS[f][3] is not None])
def test_malformed_list_is_refused_with_its_line_and_nothing_saved(td_client, club, people, fmt):
    source, name, _, bad, line = FORMATS[fmt]
    before = snapshot(club)
    response = upload(td_client, club, source, name, bad, follow=True)
    assert response.status_code == 200
    assert response.redirect_chain[0][0].startswith(f"/{club.slug}/jobs/")  # the job's page tells
    page = response.content.decode()
    assert f"line {line}:" in page and "Nothing was imported" in page
    assert snapshot(club) == before


def test_a_second_list_matches_by_the_id_a_name_match_stored(td_client, club, people):
    from ratings.models import RatingListImport

    upload(td_client, club, "fide", "a.txt", fide_txt())
    first = RatingListImport.objects.get()
    line = next(m["line"] for m in first.proposals["by_name"] if m["player_id"] == "2002")
    td_client.post(reverse("rating_list", args=[club.slug, first.pk]), {f"member-{people['piet'].id}": str(line)})
    rows = [(2002, "Jansen, P.", 1620, "1985"), (1001, "de Vries, Anna", 1840, "1990")]
    upload(td_client, club, "fide", "b.txt", fide_txt(rows), day="2026-12-01")
    second = RatingListImport.objects.exclude(pk=first.pk).get()
    assert {m["member"] for m in second.proposals["by_id"]} == {people["anna"].id, people["piet"].id}
    td_client.post(reverse("rating_list", args=[club.slug, second.pk]), {})
    people["piet"].refresh_from_db()
    assert people["piet"].fide_rating == 1620
    assert list(people["piet"].rating_changes.values_list("old", "new")) == [(1600, 1620), (None, 1600)]


def test_header_that_is_not_a_rating_list_is_refused_on_line_1(td_client, club, people):
    response = upload(td_client, club, "knsb", "x.csv", b"foo;bar\n1;2\n", follow=True)
    assert "line 1:" in response.content.decode()
    assert snapshot(club)[2] == 0


def test_xml_with_a_doctype_is_refused(td_client, club, people):
    bomb = b'<?xml version="1.0"?>\n<!DOCTYPE x [<!ENTITY a "aaaa">]>\n<playerslist></playerslist>\n'
    response = upload(td_client, club, "fide", "x.xml", bomb, follow=True)
    assert "line 2:" in response.content.decode()


def test_only_tds_may_import(client, club, viewer, people):
    from ratings.models import RatingListImport

    urls = [reverse("rating_lists", args=[club.slug]), reverse("rating_history", args=[club.slug])]
    for url in urls:
        assert client.get(url)["Location"].startswith(reverse("login"))
    client.force_login(viewer)
    for url in urls:
        assert client.get(url).status_code == 403
    assert upload(client, club, "fide", "a.txt", fide_txt()).status_code == 403
    assert RatingListImport.objects.count() == 0


def test_viewer_cannot_confirm_a_preview(client, td_client, club, viewer, people):
    from ratings.models import RatingListImport

    upload(td_client, club, "fide", "a.txt", fide_txt())
    list_import = RatingListImport.objects.get()
    client.force_login(viewer)
    url = reverse("rating_list", args=[club.slug, list_import.pk])
    assert client.get(url).status_code == 403
    assert client.post(url, {}).status_code == 403
    list_import.refresh_from_db()
    assert list_import.status == "preview"


def test_management_command(tmp_path, club, people, capsys):
    path = tmp_path / "players_list_foa.txt"
    path.write_bytes(fide_txt())
    call_command("import_rating_list", str(path), club=club.slug, source="fide", date=date(2026, 11, 1),
                 accept_names=True)  # fmt: skip
    out = capsys.readouterr().out
    assert "5 players read; 1 members matched by id, 2 by name and birth date, 1 not matched." in out
    assert "not matched: Karel Appel" in out
    people["piet"].refresh_from_db()
    people["soren"].refresh_from_db()
    assert people["piet"].fide_rating == 1600 and people["soren"].fide_rating == 2000  # unique name matches


def test_management_command_refuses_a_malformed_list(tmp_path, club, people):
    from django.core.management.base import CommandError

    path = tmp_path / "bad.csv"
    path.write_bytes(knsb_csv(bad="5005;Kapot, Regel;;NED;17OO;"))
    before = snapshot(club)
    with pytest.raises(CommandError, match="line 4"):
        call_command("import_rating_list", str(path), club=club.slug, source="knsb")
    assert snapshot(club) == before
