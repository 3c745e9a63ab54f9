"""Members sign off themselves: the rules per system, the deadline, the TD's present list, mail on publication."""

from __future__ import annotations

from datetime import datetime, time, timedelta

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils import timezone

from audit.models import AuditEntry
from pairing import services as adapter
from pairing.engines import registry
from pairing.services import pair_next_round
from season import planning, rules, signoff
from season.models import MemberCalendar, SignOff, SignOffRules
from tests.conftest import make_competition, play_round
from tournaments.models import Bye

from .conftest import linked_user


@pytest.fixture
def coming_nights(season):
    """Weekly nights from a week ahead, so the default deadline (24 h before) lies in the future."""
    first = timezone.localdate() + timedelta(days=7)
    return planning.add_nights(season, [first + timedelta(days=7 * i) for i in range(6)], time(20, 0))


@pytest.fixture
def keizer(club, td, members, coming_nights):
    competition = make_competition(club, td, members[:6], system="keizer", rounds=6, slug="keizer")
    planning.plan_rounds(competition, dict(enumerate(coming_nights, start=1)), td)
    return competition


@pytest.fixture
def swiss(club, td, members, coming_nights):
    competition = make_competition(club, td, members[:6], system="dutch", rounds=5, slug="swiss")
    planning.plan_rounds(competition, dict(enumerate(coming_nights[:5], start=1)), td)
    return competition


def participant_of(competition, member):
    return competition.participants.get(member=member)


# The rules, without the database --------------------------------------------------------------

NOW = datetime(2026, 9, 1, 12, 0, tzinfo=timezone.get_fixed_timezone(0))


ONE_BYE = rules.Limits(half_byes=1)


def check(system="dutch", answer=rules.HALF_BYE, limits=ONE_BYE, **kw):
    values = {"round_number": 2, "planned_rounds": 7, "half_byes_taken": 0, "now": NOW, "night_start": None,
              "paired": False} | kw  # fmt: skip
    rules.check(registry.get(system), answer, limits, **values)


def refused(**kw) -> str:
    with pytest.raises(rules.Refused) as info:
        check(**kw)
    return info.value.code


def test_keizer_members_give_notice_and_request_no_bye():
    assert rules.answers(registry.get("keizer"), rules.Limits(half_byes=3)) == [rules.PRESENT, rules.ABSENT_NOTICE]
    check("keizer", rules.ABSENT_NOTICE)
    assert refused(system="keizer") == "keizer-bye"


def test_swiss_half_point_byes_only_as_far_as_the_regulations_allow():
    """Seed 001 F9: voluntary half-point byes only when the tournament regulations allow them."""
    assert rules.answers(registry.get("dutch"), rules.Limits()) == [rules.PRESENT, rules.ABSENT_NOTICE]
    assert refused(limits=rules.Limits(half_byes=0)) == "no-byes"
    check(limits=rules.Limits(half_byes=2), half_byes_taken=1)
    assert refused(limits=rules.Limits(half_byes=2), half_byes_taken=2) == "bye-limit"
    # None in the last two of seven rounds: round 5 may, round 6 may not.
    check(limits=rules.Limits(half_byes=1, no_byes_last_rounds=2), round_number=5)
    assert refused(limits=rules.Limits(half_byes=1, no_byes_last_rounds=2), round_number=6) == "last-rounds"


def test_scheduled_and_team_systems_take_no_answers():
    for system in ("roundrobin", "double-roundrobin", "knockout", "olympiad"):
        assert rules.answers(registry.get(system), rules.Limits(half_byes=1)) == []
        assert refused(system=system, answer=rules.ABSENT_NOTICE) == "system"


def test_deadline_hours_before_the_night_and_never_after_pairing():
    night = datetime(2026, 9, 3, 20, 0, tzinfo=timezone.get_fixed_timezone(0))
    limits = rules.Limits(deadline_hours=24)
    check(answer=rules.ABSENT_NOTICE, limits=limits, night_start=night, now=night - timedelta(hours=24))
    assert refused(answer=rules.ABSENT_NOTICE, limits=limits, night_start=night,
                   now=night - timedelta(hours=23, minutes=59)) == "deadline"  # fmt: skip
    assert refused(answer=rules.ABSENT_NOTICE, paired=True) == "paired"


# The web ---------------------------------------------------------------------------------------


def test_member_signs_off_and_the_answer_is_recorded_with_who_and_when(client, keizer, members):
    user = linked_user(members[2], "speler3")
    client.force_login(user)
    page = client.get(reverse("my_page")).content.decode()
    assert "Test keizer" in page and "absent with notice" in page and "half-point bye" not in page
    participant = participant_of(keizer, members[2])
    before = timezone.now()
    response = client.post(reverse("sign_off", args=[participant.pk]), {"round": 1, "answer": "absent-notice"})
    assert response.status_code == 302
    bye = Bye.objects.get(participant=participant, round__number=1)
    assert bye.kind == Bye.Kind.ABSENT_NOTICE
    answer = SignOff.objects.get(participant=participant)
    assert (answer.answer, answer.answered_by, answer.round_number) == ("absent-notice", user, 1)
    assert answer.answered_at >= before
    client.post(reverse("sign_off", args=[participant.pk]), {"round": 1, "answer": "present"})
    assert not Bye.objects.filter(participant=participant).exists()
    assert SignOff.objects.filter(participant=participant).count() == 2


def test_the_pairing_starts_from_the_answers(client, keizer, members, td):
    client.force_login(linked_user(members[2], "speler3"))
    participant = participant_of(keizer, members[2])
    client.post(reverse("sign_off", args=[participant.pk]), {"round": 1, "answer": "absent-notice"})
    rnd = pair_next_round(keizer, td)
    playing = {p for g in rnd.games.all() for p in (g.white_id, g.black_id)}
    assert participant.pk not in playing and len(playing) == 4
    assert rnd.byes.get(participant=participant).kind == Bye.Kind.ABSENT_NOTICE
    response = client.post(reverse("sign_off", args=[participant.pk]), {"round": 1, "answer": "present"}, follow=True)
    assert "Round 1 cannot be answered for: answers are taken for the coming rounds only." in response.content.decode()
    assert rnd.byes.get(participant=participant).kind == Bye.Kind.ABSENT_NOTICE


def test_a_swiss_allows_the_half_point_byes_the_td_set(client, swiss, members, td):
    participant = participant_of(swiss, members[0])
    user = linked_user(members[0], "anna")
    client.force_login(user)
    url = reverse("sign_off", args=[participant.pk])
    response = client.post(url, {"round": 1, "answer": "half-bye"}, follow=True)
    assert "allows no requested byes" in response.content.decode()
    assert not Bye.objects.filter(participant=participant).exists()
    SignOffRules.objects.create(competition=swiss, half_byes=1)
    client.post(url, {"round": 1, "answer": "half-bye"})
    assert Bye.objects.get(participant=participant, round__number=1).points == 0.5
    play_round(swiss, td)
    response = client.post(url, {"round": 2, "answer": "half-bye"}, follow=True)
    assert "You have had the 1 half-point byes" in response.content.decode()
    assert not Bye.objects.filter(participant=participant, round__number=2).exists()
    client.post(url, {"round": 2, "answer": "absent-notice"})
    assert Bye.objects.get(participant=participant, round__number=2).kind == Bye.Kind.ABSENT_NOTICE


def test_no_answer_after_the_deadline(client, keizer, members, coming_nights):
    SignOffRules.objects.create(competition=keizer, deadline_hours=24 * 8)  # the first night is 7 days away
    participant = participant_of(keizer, members[1])
    client.force_login(linked_user(members[1], "bob"))
    page = client.get(reverse("my_page")).content.decode()
    assert "Answers for this round were taken until" in page
    response = client.post(reverse("sign_off", args=[participant.pk]), {"round": 1, "answer": "absent-notice"},
                           follow=True)  # fmt: skip
    assert "were taken until" in response.content.decode()
    assert not Bye.objects.exists() and not SignOff.objects.exists()


def test_members_answer_only_for_themselves(client, keizer, members):
    client.force_login(linked_user(members[1], "bob"))
    other = participant_of(keizer, members[2])
    assert client.post(reverse("sign_off", args=[other.pk]), {"round": 1, "answer": "absent-notice"}).status_code == 404
    assert not Bye.objects.exists()
    client.logout()
    response = client.post(reverse("sign_off", args=[other.pk]), {"round": 1, "answer": "absent-notice"})
    assert response.status_code == 302 and "login" in response["Location"]


def test_bad_input_gets_a_message_not_an_error(client, keizer, members):
    participant = participant_of(keizer, members[1])
    client.force_login(linked_user(members[1], "bob"))
    for data in ({"round": "x", "answer": "absent-notice"}, {"round": 1, "answer": "full-bye"}, {}):
        response = client.post(reverse("sign_off", args=[participant.pk]), data, follow=True)
        assert response.status_code == 200
    assert not Bye.objects.exists()


def test_round_robins_offer_no_sign_off(client, club, td, members):
    rr = make_competition(club, td, members[:4], system="roundrobin", slug="rr")
    client.force_login(linked_user(members[0], "anna"))
    assert "No coming round to answer for" in client.get(reverse("my_page")).content.decode()
    with pytest.raises(ValidationError):
        signoff.answer(participant_of(rr, members[0]), 1, "absent-notice", None)


def test_present_list_shows_answers_and_the_td_decides(td_client, keizer, members, td):
    from django.test import Client

    user = linked_user(members[2], "speler3")
    client = Client()
    client.force_login(user)
    participant = participant_of(keizer, members[2])
    client.post(reverse("sign_off", args=[participant.pk]), {"round": 1, "answer": "absent-notice"})
    url = reverse("present_list", args=[keizer.club.slug, keizer.slug])
    page = td_client.get(url).content.decode()
    row = page[page.index(f'id="present-{participant.start_number}"') :]
    row = row[: row.index("</tr>")]
    assert "absent with notice" in row and "speler3" in row and "changed by the TD" not in row
    assert "5 of 6 present, 1 answered themselves" in page
    # The TD decides otherwise: the player is down as absent without notice.
    td_client.post(url, {"participant": participant.pk, "kind": "absent"})
    assert Bye.objects.get(participant=participant, round__number=1).kind == Bye.Kind.ABSENT
    page = td_client.get(url).content.decode()
    assert "changed by the TD" in page
    decided = AuditEntry.objects.filter(action="absence", competition_id=keizer.pk, user_id=td.pk).get()
    assert decided.params == {"player": participant.name}
    assert (decided.before, decided.after) == ({"kind": "absent-notice"}, {"kind": "absent"})  # the player's notice
    assert client.get(url).status_code == 403
    pair_next_round(keizer, td)
    assert "Round 2" in td_client.get(url).content.decode()  # once paired, the list moves on to round 2
    row = signoff.present_list(keizer, 1)[participant.start_number - 1]
    assert row.presence_label == "absent without notice" and row.td_decided


def test_td_sets_the_deadline_and_limits(td_client, swiss):
    url = reverse("present_list", args=[swiss.club.slug, swiss.slug])
    td_client.post(url, {"action": "rules", "open": "on", "deadline_hours": "6", "half_byes": "2",
                         "no_byes_last_rounds": "1"})  # fmt: skip
    rules_obj = SignOffRules.objects.get(competition=swiss)
    assert (rules_obj.deadline_hours, rules_obj.half_byes, rules_obj.no_byes_last_rounds) == (6, 2, 1)
    response = td_client.post(url, {"action": "rules", "deadline_hours": "-3", "half_byes": "x"})
    assert response.status_code == 200 and SignOffRules.objects.get(competition=swiss).deadline_hours == 6


def test_closed_sign_off_takes_no_answers(client, keizer, members):
    SignOffRules.objects.create(competition=keizer, open=False)
    participant = participant_of(keizer, members[1])
    client.force_login(linked_user(members[1], "bob"))
    client.post(reverse("sign_off", args=[participant.pk]), {"round": 1, "answer": "absent-notice"})
    assert not Bye.objects.exists()


def test_pairings_mailed_once_to_members_who_asked(keizer, members, td, mailoutbox, django_capture_on_commit_callbacks):
    linked_user(members[0], "anna", "anna@example.org")
    linked_user(members[1], "bob", "bob@example.org")
    linked_user(members[2], "carl", "")  # asked, but no address
    for member in members[:3]:
        calendar = MemberCalendar.of(member)
        calendar.mail_pairings = member != members[1]
        calendar.save()
    rnd = pair_next_round(keizer, td)
    assert mailoutbox == []
    with django_capture_on_commit_callbacks(execute=True):
        adapter.publish(rnd, td)
    assert [m.to for m in mailoutbox] == [["anna@example.org"]]
    mail = mailoutbox[0]
    assert "round 1" in mail.subject and "Test keizer" in mail.subject
    assert reverse("pairings", args=[keizer.club.slug, keizer.slug, 1]) in mail.body
    participant = participant_of(keizer, members[0])
    game = rnd.games.filter(white=participant).first() or rnd.games.get(black=participant)
    assert f"board {game.board}: {game.white.name} – {game.black.name}" in mail.body
    with django_capture_on_commit_callbacks(execute=True):
        adapter.publish(rnd, td)  # already published: nothing new
    assert len(mailoutbox) == 1


def test_the_member_sees_the_tds_decision(client, keizer, members, td):
    participant = participant_of(keizer, members[1])
    adapter.set_absence(keizer, participant, Bye.Kind.CLUB_MATCH, td)
    client.force_login(linked_user(members[1], "bob"))
    page = client.get(reverse("my_page")).content.decode()
    assert "The tournament director has you down as: club match." in page
    assert 'aria-pressed="true"' not in page


def test_a_member_answers_several_coming_rounds_at_once(client, keizer, members, td):
    """A holiday of three weeks: rounds 2, 3 and 4 answered in one go; each lands on its round when that round
    is paired, and the member's page lists the rounds by date."""
    participant = participant_of(keizer, members[3])
    client.force_login(linked_user(members[3], "dirk"))
    page = client.get(reverse("my_page")).content.decode()
    form = page[page.index('id="sign-off-form"') :]
    positions = [form.index(f'id="coming-keizer-{n}"') for n in range(1, 7)]
    assert positions == sorted(positions)  # by date: round n on night n
    fields = {f"answer-{participant.pk}-{n}": "absent-notice" for n in (2, 3, 4)}
    fields[f"answer-{participant.pk}-1"] = "present"  # unchanged: not recorded
    response = client.post(reverse("sign_off_rounds"), fields, follow=True)
    assert "3 answers recorded." in response.content.decode()
    answered = sorted(SignOff.objects.filter(participant=participant).values_list("round_number", "answer"))
    assert answered == [(2, "absent-notice"), (3, "absent-notice"), (4, "absent-notice")]
    kinds = dict(Bye.objects.filter(participant=participant).values_list("round__number", "kind"))
    assert kinds == {2: "absent-notice", 3: "absent-notice", 4: "absent-notice"}
    page = client.get(reverse("my_page")).content.decode()
    card = page[page.index('id="coming-keizer-3"') :]
    assert 'value="absent-notice" selected' in card[: card.index("</li>")]
    # Round 1 paired and played: round 2 is paired without the member, who is down as absent with notice.
    play_round(keizer, td)
    assert signoff.present_list(keizer, 2)[participant.start_number - 1].presence == "absent-notice"
    rnd = pair_next_round(keizer, td)
    assert participant.pk not in {p for g in rnd.games.all() for p in (g.white_id, g.black_id)}
    assert rnd.byes.get(participant=participant).kind == Bye.Kind.ABSENT_NOTICE


def test_rounds_out_of_reach_are_refused_by_name(client, keizer, members):
    participant = participant_of(keizer, members[3])
    client.force_login(linked_user(members[3], "dirk"))
    response = client.post(reverse("sign_off_rounds"), {f"answer-{participant.pk}-9": "absent-notice"}, follow=True)
    assert "Round 9 cannot be answered for" in response.content.decode()
    assert not SignOff.objects.exists()


def test_a_half_point_bye_the_rules_no_longer_allow_is_not_offered(client, swiss, members, td):
    """One half-point bye per player, none in the last round (seed 000 A5): once taken, the other rounds offer
    none; the last round never does."""
    SignOffRules.objects.create(competition=swiss, half_byes=1, no_byes_last_rounds=1)
    participant = participant_of(swiss, members[0])
    client.force_login(linked_user(members[0], "anna"))

    def offered() -> dict[int, list[str]]:
        return {c.number: [v for v, _ in c.choices] for c in signoff.coming_rounds_of(participant)}

    assert offered()[1] == ["present", "absent-notice", "half-bye"] and "half-bye" not in offered()[5]
    client.post(reverse("sign_off_rounds"), {f"answer-{participant.pk}-2": "half-bye"})
    choices = offered()
    assert "half-bye" in choices[2]  # the one taken stays
    assert all("half-bye" not in choices[n] for n in (1, 3, 4, 5))
    page = client.get(reverse("my_page")).content.decode()
    card = page[page.index('id="coming-swiss-3"') :]
    assert "half-point bye" not in card[: card.index("</li>")]


def test_the_present_list_shows_the_current_answer_first(td_client, keizer, members):
    from django.test import Client

    participant = participant_of(keizer, members[2])
    client = Client()
    client.force_login(linked_user(members[2], "speler3"))
    for answer in ("absent-notice", "present", "absent-notice"):
        client.post(reverse("sign_off", args=[participant.pk]), {"round": 1, "answer": answer})
    page = td_client.get(reverse("present_list", args=[keizer.club.slug, keizer.slug])).content.decode()
    row = page[page.index(f'id="present-{participant.start_number}"') :]
    row = row[: row.index("</tr>")]
    current = row[row.index('class="current-answer"') :]
    assert current[: current.index("</div>")].count("absent with notice") == 1
    assert "2 earlier answers" in row and row.index("current-answer") < row.index("<details>")
