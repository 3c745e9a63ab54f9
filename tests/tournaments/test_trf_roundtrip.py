"""TRF export and import lose nothing: every demo competition, a Gladiator round robin with replays, a Swiss
with a draft round, a withdrawal and requested byes, and the oracle corpus come back data-identical;
players are matched to the club's members (FIDE id, national id, exact name), never duplicated."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from django.core.management import call_command

from clubs.models import Club, Member
from pairing import services as pairing_services
from pairing.engines import trf
from pairing.engines.trf import TrfError
from pairing.services import gladiator as gladiator_writes
from pairing.services import import_trf
from pairing.services import records as services
from tests.conftest import make_competition, make_members, play_round
from tournaments import trf_export
from tournaments.models import Bye, Competition, ForbiddenPair, Game, Round

pytestmark = pytest.mark.django_db

ORACLE = Path(__file__).resolve().parents[3] / "shared" / "oracle"


def snapshot(competition: Competition) -> dict:
    """Everything a competition holds, by start numbers (no database ids)."""
    competition.refresh_from_db()
    return {
        "competition": [competition.system, competition.settings, competition.rounds, competition.status,
                        competition.tiebreaks, str(competition.late_entry_points), competition.seed,
                        competition.gladiator, competition.time_control],
        "participants": [
            (p.start_number, p.member_id, p.rating, p.title, p.joined_round, p.withdrawn_after, p.lost_evenings)
            for p in competition.participants.order_by("start_number")
        ],
        "rounds": [(r.number, r.status, r.is_paired) for r in competition.round_set.order_by("number")],
        "games": [
            (g.round.number, g.board, g.match, g.stage, g.white.start_number, g.black.start_number, g.result)
            for g in Game.objects.filter(round__competition=competition)
            .select_related("round", "white", "black").order_by("round__number", "board")
        ],
        "forbidden": sorted(
            (f.first.start_number, f.second.start_number, f.first_round, f.last_round)
            for f in ForbiddenPair.objects.filter(competition=competition).select_related("first", "second")
        ),
        "byes": sorted(
            (b.round.number, b.participant.start_number, b.kind, str(b.points))
            for b in Bye.objects.filter(round__competition=competition).select_related("round", "participant")
        ),
    }  # fmt: skip


def round_trip(competition: Competition, club: Club | None = None) -> tuple[str, str, Competition]:
    first = trf_export.export_trf(competition)
    copy = import_trf(
        club or competition.club, first, name=competition.name, slug=competition.slug + "-copy",
        system=competition.system,
    )  # fmt: skip
    return first, trf_export.export_trf(copy), copy


def test_every_demo_competition_comes_back_identical_and_no_member_is_added():
    call_command("demo", stdout=io.StringIO())
    club = Club.objects.get(slug="de-pion")
    members = Member.objects.count()
    competitions = list(club.competitions.all())
    assert len(competitions) >= 10
    for competition in competitions:
        first, second, copy = round_trip(competition)
        assert first == second, competition.slug
        assert snapshot(copy) == snapshot(competition), competition.slug
    assert Member.objects.count() == members
    cup = club.competitions.get(slug="beker")
    assert len(snapshot(cup)["games"]) > cup.participants.count() // 2 * 2  # every game of every match, not one
    assert {g[3] for g in snapshot(cup)["games"]} >= {"classical", "rapid"}


def test_the_keizer_export_is_read_back_with_its_club_match_evenings():
    call_command("demo", stdout=io.StringIO())
    keizer = Competition.objects.get(slug="interne")
    _first, _second, copy = round_trip(keizer)
    kinds = {b[2] for b in snapshot(copy)["byes"]}
    assert {"club-match", "absent", "absent-notice"} <= kinds


def test_names_are_written_last_comma_first_and_read_back_split(club, td):
    members = make_members(club, 4)
    Member.objects.filter(pk=members[0].pk).update(first_name="Jan Willem", last_name="van der Berg")
    competition = make_competition(club, td, Member.objects.all(), system="dutch", rounds=3)
    play_round(competition, td)
    text = trf_export.export_trf(competition)
    names = {p.name for p in trf.parse(text).players}
    assert "van der Berg, Jan Willem" in names
    other = Club.objects.create(name="Other", slug="other")
    copy = import_trf(other, text, name="x", slug="x", system="dutch")
    member = copy.participants.get(member__last_name="van der Berg").member
    assert (member.first_name, member.last_name) == ("Jan Willem", "van der Berg")
    assert member.club == other and member.is_guest  # a guest of the club that imports the file


def gladiator_with_replays(club, td) -> Competition:
    """A Gladiator round robin of four: round 1's encounters drawn once (replayed) and decided in the replay."""
    competition = Competition.objects.create(club=club, name="G", slug="glad", system="roundrobin", gladiator=True)
    services.add_participants(competition, make_members(club, 4), td)
    rnd = pairing_services.pair_next_round(competition, td)
    services.publish(rnd, td)
    for game in list(rnd.games.all()):
        gladiator_writes.set_game_result(game, "½-½", td)
        replay = gladiator_writes.add_next_game(rnd, game.match, td)
        gladiator_writes.set_game_result(replay, "1-0", td)
    return competition


def test_a_gladiator_encounter_keeps_its_replay(club, td):
    competition = gladiator_with_replays(club, td)
    before = snapshot(competition)
    assert sorted(g[3] for g in before["games"]) == ["classical", "classical", "rapid", "rapid"]
    first, second, copy = round_trip(competition)
    assert first == second
    assert snapshot(copy) == before
    assert copy.gladiator


def test_a_draft_round_a_withdrawal_and_requested_byes_come_back(club, td):
    members = make_members(club, 7)
    competition = make_competition(club, td, members, system="dutch", rounds=5)
    play_round(competition, td)
    withdrawn = competition.participants.get(start_number=7)
    services.withdraw(withdrawn, td)
    services.set_absence(competition, 2, competition.participants.get(start_number=3), Bye.Kind.HALF_BYE, td)
    services.set_absence(competition, 4, competition.participants.get(start_number=2), Bye.Kind.ABSENT_NOTICE, td)
    participant = competition.participants.get
    ForbiddenPair.objects.create(competition=competition, first=participant(start_number=1),
                                 second=participant(start_number=4), first_round=2, last_round=3)  # fmt: skip
    draft = pairing_services.pair_next_round(competition, td)
    assert draft.status == Round.Status.DRAFT
    before = snapshot(competition)
    first, second, copy = round_trip(competition)
    assert first == second
    after = snapshot(copy)
    assert after == before
    assert after["rounds"][1] == (2, "draft", True)
    assert next((p[0], p[5]) for p in after["participants"] if p[0] == 7) == (7, 1)
    assert (4, 2, "absent-notice", "0.0") in after["byes"] and (2, 3, "half-bye", "0.5") in after["byes"]
    assert not copy.round_set.get(number=2).is_public
    assert after["forbidden"] == [(1, 4, 2, 3)]


def test_players_are_matched_by_fide_id_then_national_id_then_exact_name(club, td):
    source = Club.objects.create(name="Source", slug="source")
    people = make_members(source, 4)
    Member.objects.filter(pk=people[0].pk).update(fide_id="1234567", last_name="Renamed")
    Member.objects.filter(pk=people[1].pk).update(national_id="8001234", first_name="Other")
    competition = make_competition(source, td, Member.objects.filter(club=source), system="dutch", rounds=3)
    play_round(competition, td)
    text = trf_export.export_trf(competition)
    by_fide = Member.objects.create(club=club, first_name="Fide", last_name="Match", fide_id="1234567")
    by_national = Member.objects.create(club=club, first_name="Nat", last_name="Match", national_id="8001234")
    by_name = Member.objects.create(club=club, first_name="Player003", last_name="Surname003")
    copy = import_trf(club, text, name="x", slug="x", system="dutch")
    matched = {p.start_number: p.member for p in copy.participants.select_related("member")}
    start_of = {p.member.pk: p.start_number for p in competition.participants.select_related("member")}
    assert matched[start_of[people[0].pk]] == by_fide
    assert matched[start_of[people[1].pk]] == by_national
    assert matched[start_of[people[2].pk]] == by_name
    assert Member.objects.filter(club=club).count() == 4  # one guest for the fourth player, nobody twice
    again = import_trf(club, text, name="y", slug="y", system="dutch")
    assert Member.objects.filter(club=club).count() == 4
    assert {p.member_id for p in again.participants.all()} == {m.pk for m in matched.values()}


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        ("XXG 1 1 - classical 1 1 1-0", "cannot play himself"),
        ("XXG 1 1 - bullet 1 2 1-0", "unknown stage"),
        ("XXG 9 1 - classical 1 2 1-0", "round 9 has no XXT line"),
        ("XXY 1 1 holiday 1.0", "unknown bye kind"),
        ("XXY 1 1 half-bye nan", "points"),
        ("XXE 99 {}", "player 99 does not exist"),
        ("XXE 1 [1]", "expected a JSON object"),
        ("XXT 1 public paired", "XXT needs"),
        ('XXE 2 {"withdrawn_after": 99999}', "withdrawn after round"),
    ],
)
def test_bad_clubavond_lines_are_refused_with_their_line(club, td, line, reason):
    competition = make_competition(club, td, make_members(club, 4), system="dutch", rounds=3)
    play_round(competition, td)
    text = trf_export.export_trf(competition) + line + "\n"
    before = (Competition.objects.count(), Member.objects.count())
    with pytest.raises(TrfError, match=reason):
        import_trf(club, text, name="x", slug="x", system="dutch")
    assert (Competition.objects.count(), Member.objects.count()) == before


def oracle_files() -> list[Path]:
    files = sorted(ORACLE.glob("*/*.trf"))
    assert files, f"the oracle corpus is missing: {ORACLE}"
    return files


def records(text: str) -> list[tuple]:
    """Every player's rounds as the engines read them, and the round to pair's byes."""
    doc = trf.parse(text)
    state = trf.state_from_document(doc, doc.last_paired_round + 1, total_rounds=max(
        trf.total_rounds_of(doc) or 0, doc.last_paired_round + 1))
    return [(p.id, p.rating, p.history) for p in state.players] + [state.requested_byes]


def check_corpus_file(path: Path, club) -> None:
    text = path.read_text()
    imported = import_trf(club, text, name="c", slug="c" + str(Competition.objects.count()), system="dutch")
    first, second, copy = round_trip(imported)
    assert first == second, path.name
    assert records(first) == records(text), path.name
    assert snapshot(copy) == snapshot(imported), path.name


@pytest.mark.parametrize("name", ["dutch/t001_n007_r05_messy.trf", "tiebreaks/t016_n012_r07_messy.input.trf"])
def test_oracle_files_come_back_identical(club, name):
    path = ORACLE / name
    assert path.exists(), f"missing conformance file {path}"
    check_corpus_file(path, club)


@pytest.mark.corpus
def test_every_oracle_file_comes_back_identical(club):
    for path in oracle_files():
        check_corpus_file(path, club)


def test_a_cup_imported_as_another_system_is_read_from_the_player_columns():
    call_command("demo", stdout=io.StringIO())
    cup = Competition.objects.get(slug="beker")
    copy = import_trf(cup.club, trf_export.export_trf(cup), name="Swiss", slug="swiss", system="dutch")
    games = snapshot(copy)["games"]
    assert all(g[2] is None and g[3] == "classical" for g in games)  # one game per pair and round, no matches
    for number in {g[0] for g in games}:
        players = [p for g in games if g[0] == number for p in g[4:6]]
        assert len(players) == len(set(players))
    assert copy.status == Competition.Status.RUNNING


def test_values_only_the_database_would_check_are_refused_before_saving(club, td):
    from django.core.exceptions import ValidationError

    competition = make_competition(club, td, make_members(club, 4), system="dutch", rounds=3)
    play_round(competition, td)
    text = trf_export.export_trf(competition)
    before = (Competition.objects.count(), Member.objects.count())
    with pytest.raises(ValidationError, match="120"):
        import_trf(club, text.replace("012 Test dutch", "012 " + "x" * 300), name="", slug="x", system="dutch")
    first = next(line for line in text.splitlines() if line.startswith("001"))
    other = Club.objects.create(name="Other", slug="other")
    with pytest.raises(TrfError, match="NUL"):
        import_trf(other, text.replace(first, first[:20] + "\x00" + first[21:]).split("XXM")[0], name="n",
                          slug="x", system="dutch")  # fmt: skip
    assert (Competition.objects.count(), Member.objects.count()) == before
