"""A weekend open's entries in a real browser, on a phone (390 px wide) in English, Dutch and Danish.

Forty players enter: some matched in the club's rating lists by FIDE id, some unrated, one twice (the
double entry is refused), and one over the maximum goes to the waiting list. Most entries are posted as
the form does, through the test client; a few are typed in the browser, one per language. The TD refuses
one with a reason and accepts the others; the entry list shows them; at check-in four players have not
arrived, and round 1 is paired without them (seed 000 F5: a player known to be absent is not paired).
"""

import pytest
from django.core import mail
from django.test import Client, override_settings
from django.urls import reverse

from clubs.models import Member
from entries.models import Entry, EntrySettings
from tests.entries.conftest import entry_data
from tournaments.models import Bye, Competition, Round

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
LANGUAGES = ("en", "nl", "da")
NAMES = ["Jansen", "de Vries", "Bakker", "Visser", "Smit", "Meijer", "Mulder", "Bos", "Vos", "Peters", "Hendriks",
         "Dekker", "Brouwer", "Nielsen", "Hansen", "Pedersen", "Andersen", "Christensen", "Larsen", "Sørensen",
         "Rasmussen", "Jørgensen", "Madsen", "Kristensen", "Olsen", "Thomsen", "Poulsen", "Johansen", "Møller",
         "Mortensen", "Schmidt", "Weber", "Wagner", "Becker", "Hoffmann", "Koch"]  # fmt: skip


def listed_players(club) -> list[Member]:
    """Ten players of other clubs the club's FIDE list has matched (earlier guests): ids and ratings."""
    return [
        Member.objects.create(club=club, first_name="Guest", last_name=f"Listed{chr(65 + i)}", is_guest=True,
                              fide_id=str(1_600_000 + i), fide_rating=2300 - 50 * i,
                              federation="DEN" if i % 2 else "NED")
        for i in range(10)
    ]  # fmt: skip


def enter_by_post(url: str, count: int, listed: list[Member]) -> None:
    """`count` entries as the form posts them, in the three languages; the first ten by a listed FIDE id."""
    client = Client()
    for i in range(count):
        if i < len(listed):
            fields = {
                "first_name": listed[i].first_name,
                "last_name": listed[i].last_name,
                "fide_id": listed[i].fide_id,
            }
        else:
            fields = {"first_name": f"Player{chr(65 + i % 26)}", "last_name": NAMES[i % len(NAMES)]}
        data = entry_data(email=f"player{i}@example.org", birth_year=str(1960 + i), **fields)
        response = client.post(url, data, HTTP_ACCEPT_LANGUAGE=LANGUAGES[i % 3])
        assert response.status_code == 302, response.content.decode()[:2000]


def type_entry(browser, live_server, url: str, language: str, fields: dict, lookup: str = "") -> str:
    """A player enters on his phone in `language`; returns the text of the page the form leads to."""
    context = browser.new_context(locale=language, **PHONE)
    page = context.new_page()
    try:
        page.goto(live_server.url + url)
        if lookup:
            page.fill("input[name=fide_id]", lookup)
            page.click("#lookup")
            page.wait_for_selector("#lookup-found")
        for name, value in fields.items():
            page.fill(f"[name={name}]", value)
        page.click("#send-entry")
        page.wait_for_load_state()
        return page.inner_text("main") + page.inner_text("ul.messages") if page.locator("ul.messages").count() else ""
    finally:
        context.close()


def log_in(page, live_server) -> None:
    page.goto(live_server.url + reverse("login"))
    page.fill("input[name=username]", "director")
    page.fill("input[name=password]", "secret-pass-1")
    page.click("button.primary")
    page.wait_for_url("**/")


@pytest.mark.rule("000 F5")
@override_settings(ENTRY_LIMITS={"client": 100, "email": 3})
def test_forty_players_enter_a_weekend_open_on_their_phones(browser, live_server, club, td):
    competition = Competition.objects.create(club=club, name="Weekend Open", slug="open", system="dutch-1998", rounds=5)
    EntrySettings.objects.create(competition=competition, open=True, max_players=38, fee_note="€ 25")
    listed = listed_players(club)
    url = reverse("entry_form", args=[club.slug, competition.slug])

    enter_by_post(url, 36, listed)
    # Typed on phones: a Dutch player found by his FIDE id, a Danish player without a rating, an English one.
    Member.objects.create(club=club, first_name="Sanne", last_name="Kok", fide_id="1699999",
                                      fide_rating=2105, federation="NED", title="WFM", is_guest=True)  # fmt: skip
    text = type_entry(browser, live_server, url, "nl", {"email": "sanne@example.org", "birth_year": "2001"},
                      lookup="1699999")  # fmt: skip
    assert "Je inschrijving is ontvangen" in text
    mette = {"first_name": "Mette", "last_name": "Holm", "email": "mette@example.org", "club_name": "Aarhus Skakklub",
             "federation": "DEN", "birth_year": "1995"}  # fmt: skip
    text = type_entry(browser, live_server, url, "da", mette)
    assert "Din tilmelding er modtaget" in text
    text = type_entry(browser, live_server, url, "en", {"first_name": "John", "last_name": "Smith", "email":
                      "john@example.org", "federation": "ENG", "birth_year": "1980"})  # fmt: skip
    assert "The field is full: you are on the waiting list." in text  # the 39th of 38 places
    # The 40th: a player who entered already, again by the same FIDE id.
    text = type_entry(browser, live_server, url, "nl", {"email": "other@example.org"}, lookup=listed[0].fide_id)
    assert "heeft al ingeschreven voor deze competitie" in text

    entries = Entry.objects.filter(competition=competition)
    assert entries.count() == 39 and entries.filter(status="waiting").get().last_name == "Smith"
    assert entries.filter(fide_rating__isnull=False).count() == 11 and entries.get(last_name="Kok").title == "WFM"
    subjects = {m.subject for m in mail.outbox}
    assert {"Weekend Open: your entry is received", "Weekend Open: je inschrijving is ontvangen",
            "Weekend Open: din tilmelding er modtaget"} <= subjects  # fmt: skip

    # The TD, on his phone: refuses one with a reason and accepts two in the browser, the rest as the page posts.
    context = browser.new_context(**PHONE)
    page = context.new_page()
    try:
        log_in(page, live_server)
        page.goto(live_server.url + reverse("entry_inbox", args=[club.slug, competition.slug]))
        refused = entries.get(last_name="Holm")
        card = page.locator(f"#entry-{refused.pk}")
        card.locator("input[name=reason]").fill("Late entry after the deadline")
        card.locator("button[value=refuse]").click()
        page.wait_for_load_state()
        # Players the lists know are earlier guests: the TD accepts them as those guests (a merge).
        for last_name in ("Kok", "ListedA"):
            page.locator(f"#entry-{entries.get(last_name=last_name).pk} button[value=merge]").click()
            page.wait_for_load_state()
        page.locator(f"#entry-{entries.get(last_name='Hendriks').pk} button[value=accept]").click()
        page.wait_for_load_state()
        td_client = Client()
        td_client.force_login(td)
        guests = {m.fide_id: m.pk for m in listed}
        for entry in entries.filter(status="pending"):
            action = {"action": "merge", "member": guests[entry.fide_id]} if entry.fide_id else {"action": "accept"}
            td_client.post(reverse("entry_decide", args=[club.slug, competition.slug, entry.pk]), action)
        assert entries.filter(status="accepted").count() == 37
        refusal = [m for m in mail.outbox if m.to == ["mette@example.org"]][-1]
        assert entries.get(last_name="Holm").status == "refused"
        assert "Late entry after the deadline" in refusal.body and "ikke godkendt" in refusal.subject

        # The public entry list, in Danish.
        public = browser.new_context(locale="da", **PHONE).new_page()
        public.goto(live_server.url + reverse("entry_list", args=[club.slug, competition.slug]))
        assert "37 spillere er tilmeldt" in public.inner_text("#entry-count")
        rows = public.locator("#entry-list tbody tr")
        assert rows.count() == 37 and "Guest ListedA" in rows.nth(0).inner_text()
        assert "@example.org" not in public.content()
        public.context.close()

        # Check-in: 33 arrive; two are marked on the phone after a search, the others as the page posts.
        check_in = reverse("check_in", args=[club.slug, competition.slug])
        accepted = list(entries.filter(status="accepted").order_by("pk"))
        no_shows = {e.pk for e in [e for e in accepted if e.last_name != "Kok"][-4:]}  # Kok arrives on the phone
        page.goto(live_server.url + check_in)
        page.fill("#check-in-search", "Kok")
        page.press("#check-in-search", "Enter")
        page.wait_for_load_state()
        page.locator(f"#check-in-{entries.get(last_name='Kok').pk} button").click()
        page.wait_for_load_state()
        for entry in accepted:
            if entry.pk not in no_shows and entry.last_name != "Kok":
                td_client.post(check_in, {"entry": entry.pk, "arrived": "1"})
        page.goto(live_server.url + check_in)
        assert "33 of 37 arrived" in page.inner_text("#check-in-count")
        page.click("#close-check-in button")
        page.wait_for_load_state()
        page.click("#pair-round-one")
        page.wait_for_load_state()
    finally:
        context.close()

    rnd = Round.objects.get(competition=competition, number=1)
    paired = {p for g in rnd.games.all() for p in (g.white_id, g.black_id)}
    paired |= set(rnd.byes.filter(kind=Bye.Kind.PAIRING_BYE).values_list("participant_id", flat=True))
    absent = set(rnd.byes.filter(kind=Bye.Kind.ABSENT).values_list("participant_id", flat=True))
    assert len(paired) == 33 and absent == {e.participant_id for e in Entry.objects.filter(pk__in=no_shows)}
    assert not paired & absent
