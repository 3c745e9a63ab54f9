"""The Keizer competition on club night (seed 003): presence, club-match games, notice online, standings."""

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from pairing.services import pair_next_round
from pairing.services import records as services
from tests.conftest import make_competition, make_members
from tournaments.models import Bye, Round
from tournaments.standings import keizer_standings
from tournaments.state import CompetitionData

pytestmark = pytest.mark.django_db


@pytest.fixture
def season(club, td):
    return make_competition(club, td, make_members(club, 7), system="keizer", rounds=30, slug="keizer")


@pytest.mark.rule("003 3.3")
@pytest.mark.rule("003 3.4")
@pytest.mark.rule("003 1.2")
@pytest.mark.rule("003 1.3")
def test_club_night_with_notice_club_match_and_reserve(td_client, club, td, season):
    absent = season.participants.get(start_number=7)
    club_match = season.participants.get(start_number=6)
    td_client.post(reverse("set_absence", args=[club.slug, season.slug, 7]), {"kind": "absent-notice"})
    td_client.post(reverse("set_absence", args=[club.slug, season.slug, 6]), {"kind": "club-match"})
    td_client.post(reverse("pair", args=[club.slug, season.slug]))
    rnd = Round.objects.get(competition=season, number=1)
    # Five present: two boards and the reserve.
    assert rnd.games.count() == 2
    paired = {p for g in rnd.games.all() for p in (g.white_id, g.black_id)}
    assert absent.id not in paired and club_match.id not in paired
    kinds = dict(rnd.byes.values_list("participant__start_number", "kind"))
    assert kinds[7] == "absent-notice" and kinds[6] == "club-match"
    reserve = [n for n, kind in kinds.items() if kind == "pairing-bye"]
    assert len(reserve) == 1
    services.publish(rnd, td)
    for game in rnd.games.all():
        services.set_result(game, "1-0", td)
    url = reverse("club_match_result", args=[club.slug, season.slug, 1, 6])
    td_client.post(url, {"points": "1"})
    table, rows = keizer_standings(CompetitionData.load(season))
    by_number = {row.participant.start_number: row.line for row in rows}
    start_value = {n: 60 - (n - 1) for n in range(1, 8)}  # the start ranking is the start numbers
    # §1.2: absent with notice earns a third of one's own value; §1.3: a club-match win one's own value.
    assert by_number[7].round_points == [pytest.approx(start_value[7] / 3)]
    assert by_number[6].round_points == [pytest.approx(start_value[6])]
    assert by_number[reserve[0]].round_points == [pytest.approx(start_value[reserve[0]] / 2)]


def test_standings_page_has_the_seed_columns_and_the_player_explanation(client, td, club, season):
    rnd = pair_next_round(season, td)
    services.publish(rnd, td)
    for game in rnd.games.all():
        services.set_result(game, "½-½", td)
    page = client.get(reverse("standings", args=[club.slug, season.slug])).content.decode()
    for column in ("Keizer", "HRtg", "BRtg", "Rtgver", "TPR"):
        assert column in page
    game = rnd.games.first()
    card = client.get(reverse("player", args=[club.slug, season.slug, game.white.start_number])).content.decode()
    assert "drew with" in card and "How the Keizer points came about" in card


@pytest.mark.rule("003 3.3")
def test_member_sends_notice_online_until_the_round_is_paired(client, club, td, season):
    participant = season.participants.get(start_number=3)
    user = get_user_model().objects.create_user("speler3", password="pw-speler-3")
    member = participant.member
    member.user = user
    member.save()
    client.force_login(user)
    url = reverse("notice", args=[club.slug, season.slug])
    page = client.get(url).content.decode()
    assert "round 1" in page and 'value="absent-notice"' in page and 'value="half-bye"' not in page
    client.post(url, {"round": 1, "answer": "absent-notice"})
    bye = Bye.objects.get(participant=participant)
    assert (bye.round.number, bye.kind) == (1, "absent-notice")
    pair_next_round(season, td)
    # Once round 1 is paired, the page speaks of round 2; round 1's notice stays as it was.
    page = client.get(url).content.decode()
    assert "round 2" in page and 'value="absent-notice"' in page
    client.post(url, {"round": 1, "answer": "present"})
    client.post(url, {"round": 2, "answer": "present"})
    assert Bye.objects.get(participant=participant, round__number=1).kind == "absent-notice"
    from audit.models import AuditEntry

    notices = AuditEntry.objects.filter(action="notice", user_id=user.pk)
    assert notices.count() == 2 and not AuditEntry.objects.filter(action="absence", user_id=user.pk).exists()


def test_someone_outside_the_competition_cannot_send_notice(client, club, season):
    user = get_user_model().objects.create_user("outsider", password="pw-outsider")
    client.force_login(user)
    assert client.get(reverse("notice", args=[club.slug, season.slug])).status_code == 403


@pytest.mark.rule("003 1.10")
def test_new_season_start_ranking_follows_last_seasons_tpr(club, td):
    """Seed 003 §1.10: TPR after 5 or more games last season, rating otherwise."""
    from tests.conftest import play_round
    from tournaments.models import Competition

    members = make_members(club, 6)  # ratings 2090, 2080, ..., 2040: start numbers follow the rating
    last = make_competition(club, td, members, system="keizer", rounds=10, slug="last")
    assert list(last.participants.order_by("start_number").values_list("member_id", flat=True)) == [
        m.id for m in members
    ]
    for _ in range(5):
        # Black wins every board: the lower half of each pair outperforms the top.
        play_round(last, td, {board: "0-1" for board in range(1, 4)})
    data = CompetitionData.load(last)
    state = data.state()
    from pairing.engines.keizer import keizer_tpr

    rating = {p.start_number: p.rating for p in data.participants}
    tpr = {}
    for p in data.participants:
        games = [r for r in state.player(p.start_number).history if r.played]
        tpr[p.member_id] = keizer_tpr([rating[r.opponent] for r in games], sum(r.score for r in games))
    newcomer = make_members(club, 1, base=2500)[0]  # no games last season: slotted by rating
    season = Competition.objects.create(club=club, name="Next", slug="next", system="keizer", rounds=30, previous=last)
    services.add_participants(season, [*members, newcomer], td)
    order = list(season.participants.order_by("start_number").values_list("member_id", flat=True))
    strength = tpr | {newcomer.id: 2490}
    assert order == sorted(strength, key=lambda member_id: -strength[member_id])
