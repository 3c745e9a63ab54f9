"""Settings, tie-breaks, entries, withdrawals and absences are guarded like the round actions: each form
carries what its page showed; when another TD changed it meanwhile, nothing is saved and the message says
what changed, by whom and when."""

from __future__ import annotations

import pytest
from django.urls import reverse

from audit.models import AuditEntry
from clubs.models import Member
from pairing import services as adapter
from tests.conftest import make_competition, make_members
from tests.guard import basis, messages_of, page, post, stale_message
from tournaments.forms import SystemSettingsForm
from tournaments.models import Bye

pytestmark = pytest.mark.django_db


@pytest.fixture
def keizer(club, td):
    return make_competition(club, td, make_members(club, 8), system="keizer", slug="keizer")


def settings_post(competition, html: str, **changes) -> dict:
    """What the settings form posts: its fields as shown, the basis from the page, `changes` typed over."""
    form = SystemSettingsForm(competition=competition)
    data = {}
    for name, field in form.fields.items():
        if name in ("based_on", "override"):
            continue
        value = field.initial
        if value is True:
            data[name] = "on"
        elif value is not False and value is not None:
            data[name] = value
    return data | {"based_on": basis(html)} | changes


def test_settings_saved_meanwhile_by_another_td_stop_a_save_from_an_older_page(td_client, keizer, other_td):
    jan, jan_client = other_td
    mine = page(td_client, "system_settings", keizer)
    theirs = page(jan_client, "system_settings", keizer)
    post(jan_client, "system_settings", keizer, settings_post(keizer, theirs, setting_top_value=70))
    keizer.refresh_from_db()
    saved = dict(keizer.settings)
    assert saved["top_value"] == 70
    entries = AuditEntry.objects.count()
    response = post(td_client, "system_settings", keizer, settings_post(keizer, mine))
    stale_message(messages_of(response), "settings")
    keizer.refresh_from_db()
    assert keizer.settings == saved and AuditEntry.objects.count() == entries
    # The page now shows the settings as they are, and a save based on it goes through.
    response = post(td_client, "system_settings", keizer, settings_post(keizer, response.content.decode()))
    assert "Settings saved." in messages_of(response)


def test_a_preset_applied_from_an_older_page_is_refused(td_client, keizer, other_td):
    jan, jan_client = other_td
    mine = page(td_client, "system_settings", keizer)
    post(jan_client, "system_settings", keizer, settings_post(keizer, page(jan_client, "system_settings", keizer),
                                                              setting_top_value=70))  # fmt: skip
    response = post(td_client, "system_settings", keizer, {"preset": "club", "based_on": basis(mine)})
    stale_message(messages_of(response), "settings")
    keizer.refresh_from_db()
    assert keizer.settings["top_value"] == 70
    assert not AuditEntry.objects.filter(params__preset="club").exists()


def test_tiebreaks_changed_meanwhile_are_not_overwritten(td_client, club, td, other_td):
    jan, jan_client = other_td
    swiss = make_competition(club, td, make_members(club, 8), system="dutch", rounds=5, slug="swiss")
    mine = page(td_client, "tiebreak_settings", swiss)
    post(
        jan_client,
        "tiebreak_settings",
        swiss,
        {"codes": "BH, SB", "based_on": basis(page(jan_client, "tiebreak_settings", swiss))},
    )
    swiss.refresh_from_db()
    assert swiss.tiebreaks == ["BH", "SB"]
    response = post(td_client, "tiebreak_settings", swiss, {"codes": "DE", "based_on": basis(mine)})
    stale_message(messages_of(response), "tie-breaks")
    swiss.refresh_from_db()
    assert swiss.tiebreaks == ["BH", "SB"]
    response = post(
        td_client, "tiebreak_settings", swiss, {"codes": "DE", "based_on": basis(response.content.decode())}
    )
    swiss.refresh_from_db()
    assert swiss.tiebreaks == ["DE"]


@pytest.fixture
def swiss(club, td):
    return make_competition(club, td, make_members(club, 8), system="dutch", rounds=5, slug="swiss")


def test_members_entered_from_a_page_older_than_another_entry_are_refused(td_client, club, swiss, other_td):
    jan, jan_client = other_td
    newcomers = make_members(club, 2, base=1200)
    mine = page(td_client, "manage", swiss)
    post(
        jan_client,
        "add_participants",
        swiss,
        {"member": [newcomers[0].pk], "based_on": basis(page(jan_client, "manage", swiss))},
    )
    response = post(td_client, "add_participants", swiss, {"member": [newcomers[1].pk], "based_on": basis(mine)})
    stale_message(messages_of(response), "player entered")
    assert set(swiss.participants.values_list("member_id", flat=True)) >= {newcomers[0].pk}
    assert not swiss.participants.filter(member=newcomers[1]).exists()
    post(
        td_client,
        "add_participants",
        swiss,
        {"member": [newcomers[1].pk], "based_on": basis(response.content.decode())},
    )
    assert swiss.participants.filter(member=newcomers[1]).exists()


def test_a_guest_entered_from_an_older_page_is_not_saved(td_client, club, swiss, other_td):
    jan, jan_client = other_td
    mine = page(td_client, "manage", swiss)
    adapter.withdraw(swiss.participants.get(start_number=3), jan)
    guests = Member.objects.filter(is_guest=True).count()
    response = post(
        td_client, "add_guest", swiss, {"first_name": "Gast", "last_name": "Speler", "based_on": basis(mine)}
    )
    stale_message(messages_of(response), "player withdrawn")
    assert Member.objects.filter(is_guest=True).count() == guests


def test_a_withdrawal_from_an_older_page_is_refused(td_client, swiss, other_td):
    jan, jan_client = other_td
    mine = page(td_client, "manage", swiss)
    post(jan_client, "withdraw", swiss, {"based_on": basis(page(jan_client, "manage", swiss))}, 2)
    response = post(td_client, "withdraw", swiss, {"based_on": basis(mine)}, 5)
    stale_message(messages_of(response), "player withdrawn")
    assert swiss.participants.get(start_number=5).withdrawn_after is None
    assert swiss.participants.get(start_number=2).withdrawn_after is not None


def test_a_double_click_on_withdraw_withdraws_once(td_client, swiss):
    data = {"based_on": basis(page(td_client, "manage", swiss))}
    post(td_client, "withdraw", swiss, data, 2)
    entries = AuditEntry.objects.count()
    response = post(td_client, "withdraw", swiss, data, 2)
    assert "changed after your page was shown (player withdrawn, by director at " in messages_of(response)
    assert AuditEntry.objects.count() == entries


def absence_shown(html: str, number: int) -> str:
    form = html[html.index(f'id="absence-{number}"') :]
    return basis(form[: form.index("</form>")], "shown")


def test_an_absence_changed_meanwhile_is_not_overwritten(td_client, swiss, other_td):
    jan, jan_client = other_td
    mine = absence_shown(page(td_client, "manage", swiss), 4)
    assert mine == "present"
    post(
        jan_client,
        "set_absence",
        swiss,
        {"kind": Bye.Kind.HALF_BYE, "shown": absence_shown(page(jan_client, "manage", swiss), 4)},
        4,
    )
    response = post(td_client, "set_absence", swiss, {"kind": Bye.Kind.ABSENT_NOTICE, "shown": mine}, 4)
    message = messages_of(response)
    assert "changed after your page was shown (by Jan Tweede at " in message and "nothing was saved" in message
    bye = Bye.objects.get(round__competition=swiss, round__number=1, participant__start_number=4)
    assert bye.kind == Bye.Kind.HALF_BYE
    # The same choice as Jan's, or one made on the page that shows his, goes through.
    post(
        td_client,
        "set_absence",
        swiss,
        {"kind": Bye.Kind.ABSENT_NOTICE, "shown": absence_shown(response.content.decode(), 4)},
        4,
    )
    bye = Bye.objects.get(round__competition=swiss, round__number=1, participant__start_number=4)
    assert bye.kind == Bye.Kind.ABSENT_NOTICE


def test_a_settings_basis_that_is_not_a_number_saves_nothing(td_client, keizer):
    html = page(td_client, "system_settings", keizer)
    entries = AuditEntry.objects.count()
    response = td_client.post(
        reverse("system_settings", args=[keizer.club.slug, keizer.slug]),
        settings_post(keizer, html, setting_top_value=70, based_on="yesterday"),
    )
    assert response.status_code == 200 and "Enter a whole number." in response.content.decode()
    keizer.refresh_from_db()
    assert keizer.settings.get("top_value", 60) == 60 and AuditEntry.objects.count() == entries


def forbidden_basis(html: str) -> str:
    return basis(html[html.index('id="forbidden-pairs"') :])


def test_a_forbidden_pair_lifted_meanwhile_is_reported_not_a_404(td_client, swiss, other_td):
    jan, jan_client = other_td
    first, second, third = swiss.participants.order_by("start_number")[:3]
    data = {
        "first": first.pk,
        "second": second.pk,
        "based_on": forbidden_basis(page(td_client, "system_settings", swiss)),
    }
    post(td_client, "add_forbidden_pair", swiss, data)
    pair = swiss.forbidden_pairs.get()
    mine = forbidden_basis(page(td_client, "system_settings", swiss))
    post(
        jan_client,
        "delete_forbidden_pair",
        swiss,
        {"based_on": forbidden_basis(page(jan_client, "system_settings", swiss))},
        pair.pk,
    )
    response = post(td_client, "delete_forbidden_pair", swiss, {"based_on": mine}, pair.pk)
    assert response.status_code == 200
    stale_message(messages_of(response), "forbidden pair lifted")
    # A new ban from the older page is refused too: Jan lifted one meanwhile.
    data = {"first": first.pk, "second": third.pk, "based_on": mine}
    response = post(td_client, "add_forbidden_pair", swiss, data)
    assert "by Jan Tweede at " in response.content.decode() and not swiss.forbidden_pairs.exists()
