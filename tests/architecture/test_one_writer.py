"""One writer: only `pairing.services` creates, changes or deletes a competition's rounds, games, byes, results,
players, absences, forbidden pairs, prize table and state (restoring a backup aside), and a team league's
league, teams, rosters, matches, line-ups and boards; no view writes any model itself. Read from the source
with `ast` (tests/architecture/writers.py)."""

from __future__ import annotations

import tomllib

from .imports import PACKAGES, ROOT, modules
from .writers import model_writes_in, offenders, writes_in

# The pages: they call the services of their app and write nothing themselves.
VIEWS = sorted((ROOT / "tournaments" / "views").glob("*.py")) + [
    ROOT / app / "views.py" for app in ("pairing", "clubs", "ratings", "jobs", "entries", "teams")
]
PLANTED = """
from tournaments.models import Bye, Competition, Game, Round


def pair(competition: Competition, rnd, player):
    Round.objects.create(competition=competition, number=2)
    competition.round_set.filter(number=3).delete()
    rnd.games.all().update(result="")
    Bye(round=rnd, participant=player).save()
    Game.objects.bulk_create([])
    competition.status = "finished"
    competition.save(update_fields=["status"])
    for game in rnd.games.all():
        game.save()
    Round.objects.select_for_update().get_or_create(number=4)
    competition.participants.get(pk=1).delete()
    form.save(commit=False)
    Competition.objects.filter(pk=1).update(version=2)
    member.save()
    cache.delete("key")
    League.objects.filter(pk=1).update(name="x")
    team.players.all().delete()
    BoardResult.objects.filter(match=match).update(result="1-0")
    match.lineups.create(team=team)
    Team(league=league, name="y").save()
"""


def project_files() -> dict:
    files = {name: path for name, (path, _package) in modules(ROOT, PACKAGES).items()}
    files["tests.conftest"] = ROOT / "tests" / "conftest.py"  # the fixtures play rounds as a TD does
    return files


def test_nothing_outside_pairing_services_writes_a_competitions_rows():
    files = project_files()
    assert "demo.management.commands.demo" in files and "tournaments.views.manage" in files
    assert offenders(files) == {}


def test_the_scan_sees_the_leagues_writes_inside_the_writer():
    """The league's writes are in `pairing.services.leagues`, where they are allowed, and the scan sees them."""
    path = ROOT / "pairing" / "services" / "leagues.py"
    assert offenders({"pairing.services.leagues": path}) == {}
    found = writes_in(path.read_text(encoding="utf-8"))
    assert any("League.objects.create(" in line for line in found)
    assert any("Match.objects.bulk_create(" in line for line in found)
    assert any("BoardResult.objects.filter(pk=row.pk).update(" in line for line in found)
    assert list(offenders({"teams.views": path})) == ["teams.views"]


def test_the_scan_sees_the_writers_own_writes():
    """The scan finds the writes where they are, so an empty answer above means something."""
    found = offenders({"pairing.services.records": ROOT / "pairing" / "services" / "records.py"})
    assert found == {}  # inside the writer: allowed
    records = writes_in((ROOT / "pairing" / "services" / "records.py").read_text(encoding="utf-8"))
    assert any("Participant.objects.create(" in line for line in records)
    assert any("rnd.games.all().delete()" in line for line in records)
    assert any("game.save(update_fields=['result', 'result_version'])" in line for line in records)
    cups = writes_in((ROOT / "pairing" / "services" / "cups.py").read_text(encoding="utf-8"))
    assert any("Game.objects.create(" in line for line in cups)


def test_the_scan_finds_a_planted_write():
    assert writes_in(PLANTED) == [
        "line 6: Round.objects.create(competition=competition, number=2)",
        "line 7: competition.round_set.filter(number=3).delete()",
        "line 8: rnd.games.all().update(result='')",
        "line 9: Bye(round=rnd, participant=player).save()",
        "line 10: Game.objects.bulk_create([])",
        "line 12: competition.save(update_fields=['status'])",
        "line 14: game.save()",
        "line 15: Round.objects.select_for_update().get_or_create(number=4)",
        "line 16: competition.participants.get(pk=1).delete()",
        "line 21: League.objects.filter(pk=1).update(name='x')",
        "line 22: team.players.all().delete()",
        "line 23: BoardResult.objects.filter(match=match).update(result='1-0')",
        "line 24: match.lineups.create(team=team)",
        "line 25: Team(league=league, name='y').save()",
    ]


def test_a_planted_write_in_a_module_outside_the_writer_fails(tmp_path):
    planted = tmp_path / "planted.py"
    planted.write_text(PLANTED)
    allowed = {"pairing.services.planted": planted, "tournaments.backup": planted, "x.migrations.0001": planted}
    assert offenders(allowed) == {}
    assert list(offenders({"season.planted": planted})) == ["season.planted"]


def test_the_views_write_no_model_themselves():
    """A view reads its form and calls a service; `form.save(commit=False)` writes nothing."""
    assert len(VIEWS) >= 13
    found = {path.name: model_writes_in(path.read_text(encoding="utf-8")) for path in VIEWS}
    assert {name: lines for name, lines in found.items() if lines} == {}


def test_a_class_of_the_modules_own_is_not_a_guarded_model():
    """A rating list's `Match` (a dataclass of ratings.imports) is no team match: its rows are no league's."""
    own = "class Match:\n    pass\n\n\ndef f(m: Match):\n    m.save()\n"
    assert writes_in(own) == []
    assert writes_in(own.replace("class Match", "class Other")) == ["line 6: m.save()"]


def test_the_view_scan_finds_a_write():
    source = "def view(request, c):\n    form.save(commit=False)\n    TDAction.objects.create(x=1)\n    c.save()\n"
    assert model_writes_in(source) == ["line 3: TDAction.objects.create(x=1)", "line 4: c.save()"]


def test_every_module_of_tournaments_and_teams_is_in_a_layer():
    """The competitions and the leagues apps are split around the writer (their pages above, the rest below),
    module by module: a new module left out of the layers would escape them."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]["contracts"]
    layers = next(c["layers"] for c in config if c["type"] == "layers")
    named = {name.strip() for layer in layers for name in layer.replace(":", "|").split("|")}
    for app in ("tournaments", "teams"):
        children = {name.split(".")[1] for name in modules(ROOT, [app]) if name.count(".") >= 1}
        assert {f"{app}.{child}" for child in children} - named == set()
        assert app not in named
    assert "pairing.services" in named
    assert layers.index("pairing.urls | tournaments.urls | teams.urls") < layers.index("pairing.services")
    assert next(i for i, layer in enumerate(layers) if "teams.models" in layer) > layers.index("pairing.services")
