"""Competition rules in the web app: start numbers, late entries, withdrawals, double round robin, TRF."""

from decimal import Decimal
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from audit.models import AuditEntry
from pairing.engines import trf
from pairing.services import records as services
from tests.conftest import make_competition, make_members, play_round
from tests.shared_data import DUTCH_CORPUS
from tournaments.models import Bye, Competition, Game, Result, Round
from tournaments.state import CompetitionData

pytestmark = pytest.mark.django_db
CORPUS = DUTCH_CORPUS


def test_settings_are_validated_on_save(club):
    from django.core.exceptions import ValidationError

    with pytest.raises(ValidationError):
        Competition.objects.create(club=club, name="x", slug="x", system="double-roundrobin", settings={"bogus": 1})
    with pytest.raises(ValidationError):
        Competition.objects.create(club=club, name="y", slug="y", system="no-such-system")


def test_rating_systems_number_by_rating_then_title_then_name(club, td):
    members = make_members(club, 4)
    members[1].national_rating = members[0].national_rating
    members[1].title = "IM"
    members[1].save()
    competition = make_competition(club, td, members, system="dutch", rounds=5, slug="swiss")
    order = list(competition.participants.order_by("start_number").values_list("member_id", flat=True))
    assert order == [members[1].id, members[0].id, members[2].id, members[3].id]


def test_round_robin_start_numbers_are_a_recorded_lot(club, td):
    members = make_members(club, 8)
    first = make_competition(club, td, members, slug="a")
    again = Competition.objects.create(club=club, name="b", slug="b", system="roundrobin", seed=first.seed)
    for member in members:
        services.add_participant(again, member, td)
    order = lambda c: list(c.participants.order_by("start_number").values_list("member_id", flat=True))  # noqa: E731
    assert order(first) == order(again)  # same seed, same lot


def test_late_entry_scores_the_missed_rounds_per_the_setting(club, td):
    members = make_members(club, 7)
    competition = make_competition(club, td, members[:6], system="dutch", rounds=5, slug="swiss")
    competition.late_entry_points = Decimal("0.5")
    competition.save()
    play_round(competition, td)
    late = services.add_participant(competition, members[6], td)
    assert late.joined_round == 2
    bye = Bye.objects.get(participant=late)
    assert (bye.round.number, bye.kind, bye.points) == (1, "absent-notice", Decimal("0.5"))
    state = CompetitionData.load(competition).state()
    assert state.player(late.start_number).score() == 0.5


def test_double_round_robin_pairs_both_cycles_through_the_web(club, td):
    competition = make_competition(club, td, make_members(club, 4), system="double-roundrobin", slug="drr")
    assert competition.planned_rounds() == 6
    for _ in range(6):
        play_round(competition, td)
    pairs = [
        {(g.white.start_number, g.black.start_number) for g in r.games.select_related("white", "black")}
        for r in competition.round_set.all()
    ]
    assert pairs[3] == {(4, 1), (3, 2)}
    assert pairs[1] == {(2, 4), (3, 1)}  # the seam swap: round 3 of the table comes second


def test_withdrawal_in_a_round_robin_forfeits_the_rest(club, td):
    competition = make_competition(club, td, make_members(club, 4), slug="rr")
    play_round(competition, td)
    play_round(competition, td)
    leaver = competition.participants.get(start_number=4)
    services.withdraw(leaver, td)
    from pairing.services import pair_next_round

    rnd = pair_next_round(competition, td)
    game = rnd.games.get(white=leaver) if rnd.games.filter(white=leaver).exists() else rnd.games.get(black=leaver)
    assert game.result in ("1-0R", "0-1R")
    assert (game.white == leaver) == (game.result == "0-1R")


def _import_and_export(client, club, path: Path) -> tuple[str, str]:
    """Import a TRF through the TD's page as a new competition, export it again: (original, exported)."""
    text = path.read_text()
    slug = path.stem.replace("_", "-")[:50]
    response = client.post(
        reverse("import_trf", args=[club.slug]),
        {"file": SimpleUploadedFile(path.name, text.encode()), "slug": slug, "system": "dutch", "name": ""},
    )
    assert response.status_code == 302, response.content
    return text, client.get(reverse("export_trf", args=[club.slug, slug])).content.decode()


def _assert_same_players_and_rounds(text: str, exported: str) -> None:
    """Every player line the same but for the rank column (86-89, which we compute), every round
    entry the same."""
    original, again = trf.parse(text, "original"), trf.parse(exported, "exported")
    lines = {line[4:8]: line for line in text.splitlines() if line.startswith("001")}
    lines_again = {line[4:8]: line for line in exported.splitlines() if line.startswith("001")}
    assert lines.keys() == lines_again.keys()
    for number, line in lines.items():
        assert (line[:85] + line[89:]).rstrip() == (lines_again[number][:85] + lines_again[number][89:]).rstrip()
    for a, b in zip(original.players, again.players, strict=True):
        assert (a.number, a.name, a.rating, a.points) == (b.number, b.name, b.rating, b.points)
        for r in range(1, original.last_paired_round + 1):
            ea, eb = a.entry(r), b.entry(r)
            assert (ea.opponent, ea.colour, ea.code) == (eb.opponent, eb.colour, eb.code), (a.number, r)


def test_trf_import_then_export_keeps_players_and_rounds(td_client, club):
    path = CORPUS / "t001_n007_r05_messy.trf"
    text, exported = _import_and_export(td_client, club, path)
    competition = Competition.objects.get(slug="t001-n007-r05-messy")
    original = trf.parse(text, "orig")
    assert competition.participants.count() == len(original.players)
    assert competition.round_set.filter(paired_at__isnull=False).count() == original.last_paired_round
    _assert_same_players_and_rounds(text, exported)


def test_a_forfeit_lost_by_both_imports_as_a_double_forfeit(td_client, club):
    """t037 round 1: player 6 has `14 w -` and player 14 `6 b -`: nobody scores (0-0R), and the
    export writes both losses back."""
    text, exported = _import_and_export(td_client, club, CORPUS / "t037_n016_r07_messy.trf")
    game = Game.objects.get(round__competition__slug="t037-n016-r07-messy", round__number=1, white__start_number=6)
    assert (game.black.start_number, game.result) == (14, Result.DOUBLE_FORFEIT)
    _assert_same_players_and_rounds(text, exported)


@pytest.mark.corpus
def test_every_corpus_trf_survives_import_and_export(td_client, club):
    """The whole Dutch corpus through the web app: import as a competition, export, compare."""
    paths = sorted(CORPUS.glob("*.trf"))
    assert len(paths) >= 80
    for path in paths:
        _assert_same_players_and_rounds(*_import_and_export(td_client, club, path))


def test_malformed_trf_is_refused_with_its_line_and_nothing_is_saved(td_client, club):
    text = (CORPUS / "t001_n007_r05_messy.trf").read_text().splitlines()
    broken = [line if not line.startswith("001    3") else line[:96] + "Q" + line[97:] for line in text]
    response = td_client.post(
        reverse("import_trf", args=[club.slug]),
        {"file": SimpleUploadedFile("bad.trf", "\n".join(broken).encode()), "slug": "bad", "system": "dutch"},
    )
    assert response.status_code == 200
    assert "bad.trf:4: round 1: unknown colour" in response.content.decode()
    assert not Competition.objects.filter(slug="bad").exists()
    assert not Round.objects.exists()


@pytest.mark.rule("004 16")
def test_round_robin_leaver_under_half_is_struck_from_the_standings(club, td):
    """Seed 004 §16: under 50 % of his games played, his results do not count."""
    from tournaments.standings import standings

    competition = make_competition(club, td, make_members(club, 6), slug="rr6")
    play_round(competition, td)  # white wins every board
    play_round(competition, td)
    leaver = competition.participants.get(start_number=6)
    services.withdraw(leaver, td)  # 2 of 5 games: under 50 %
    data = CompetitionData.load(competition)
    _names, rows = standings(data)
    assert leaver not in [row.participant for row in rows]
    state = data.state()
    for row in rows:
        player = state.player(row.participant.start_number)
        own = sum(r.score for r in player.history if r.opponent != 6)
        assert row.points == own  # what anyone scored against number 6 is gone


def test_round_robin_leaver_from_half_keeps_his_results_and_loses_the_rest(club, td):
    from pairing.services import pair_next_round
    from tournaments.standings import standings

    competition = make_competition(club, td, make_members(club, 4), slug="rr4")
    play_round(competition, td)
    play_round(competition, td)
    leaver = competition.participants.get(start_number=4)
    services.withdraw(leaver, td)  # 2 of 3 games
    rnd = pair_next_round(competition, td)
    services.publish(rnd, td)
    for game in rnd.games.filter(result=""):
        services.set_result(game, "½-½", td)
    _names, rows = standings(CompetitionData.load(competition))
    assert leaver in [row.participant for row in rows]
    assert sum(row.points for row in rows) == 6  # 3 rounds x 2 boards, the forfeit included


def test_system_settings_are_validated_and_locked_once_paired(td_client, club, td):
    competition = make_competition(club, td, make_members(club, 6), system="keizer", rounds=20, slug="kz")
    url = reverse("system_settings", args=[club.slug, competition.slug])
    form = td_client.get(url).context["form"]
    shown = {name: field.initial for name, field in form.fields.items() if name != "based_on"}
    data = {name: value for name, value in shown.items() if value is not False}
    td_client.post(url, data | {"setting_repeat_window": "3"})
    competition.refresh_from_db()
    assert competition.settings["repeat_window"] == 3
    response = td_client.post(url, data | {"setting_revaluation": "sideways"})
    assert response.status_code == 200 and "revaluation" in response.content.decode()
    td_client.post(url, {"preset": "keizerforclubs"})
    competition.refresh_from_db()
    from pairing.engines import keizer

    assert competition.settings == keizer.apply_preset("keizerforclubs")
    from pairing.services import pair_next_round

    pair_next_round(competition, td)
    response = td_client.post(url, data | {"setting_repeat_window": "2"})
    assert "needs the override" in response.content.decode()
    td_client.post(url, data | {"setting_repeat_window": "2", "override": "on"})
    competition.refresh_from_db()
    assert competition.settings["repeat_window"] == 2
    assert AuditEntry.objects.filter(competition_id=competition.pk, action="settings-override").count() == 1
