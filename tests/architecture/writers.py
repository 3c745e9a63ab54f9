"""Writes found in the source (read with `ast`, nothing run): every call that writes a model (`model_writes_in`),
and those that write a competition's own rows: a round, a game, a bye, a player, a forbidden pair, a prize table
or the competition itself, or a team league's: the league, a team, a roster's place, a match, a line-up or a
board (`writes_in`)."""

from __future__ import annotations

import ast
from pathlib import Path

# The rows only `pairing.services` writes, and the names under which the code reaches them.
MODELS = {"Competition", "Participant", "Round", "Game", "Bye", "ForbiddenPair", "PrizeTable",
          "League", "Team", "TeamPlayer", "Match", "Lineup", "BoardResult"}  # fmt: skip
RELATED = {"round_set", "games", "byes", "participants", "forbidden_pairs", "games_as_white", "games_as_black",
           "leagues", "teams", "league_teams", "players", "team_places", "matches", "home_matches", "away_matches",
           "lineups", "boards"}  # fmt: skip
# Names the code gives such rows when it does not annotate them.
NAMES = {"competition", "rnd", "round_", "game", "bye", "participant", "pair", "table", "player", "cup",
         "league", "team", "lineup"}  # fmt: skip
WRITES = {"save", "delete", "create", "update", "bulk_create", "bulk_update", "get_or_create", "update_or_create"}
# The fields of a competition that are no part of its state: its cached pages' key (`tournaments.versioning`).
VERSION_FIELDS = {"version", "changed_at", "shape_version"}
# A queryset's steps that keep it a queryset of the same rows.
STEPS = {"objects", "all", "filter", "exclude", "select_related", "prefetch_related", "order_by", "select_for_update",
         "only", "defer", "annotate", "distinct", "paired", "published", "in_play", "unfinished", "finished",
         "over_the_board", "using"}  # fmt: skip


def _annotated(annotation: ast.expr | None, models: set[str]) -> bool:
    if annotation is None:
        return False
    return any(isinstance(n, ast.Name) and n.id in models for n in ast.walk(annotation))


def _rows_of(node: ast.expr, rows: set[str], models: set[str] = MODELS) -> bool:
    """Whether `node` is a row or a queryset of the guarded models (`models`: their names in the module)."""
    while isinstance(node, ast.Call | ast.Attribute | ast.Subscript):
        if isinstance(node, ast.Call):
            if isinstance(node.func, ast.Name) and node.func.id in models:
                return True  # Model(...)
            node = node.func
        elif isinstance(node, ast.Subscript):
            node = node.value
        else:
            if node.attr in RELATED:
                return True
            if node.attr not in STEPS and node.attr not in {"get", "first", "last", "latest", "earliest"}:
                return node.attr in NAMES or node.attr in rows
            node = node.value
    return isinstance(node, ast.Name) and (node.id in models or node.id in rows or node.id in NAMES)


def _bound_rows(function: ast.AST, models: set[str] = MODELS) -> set[str]:
    """Names bound in `function` to a guarded row: annotated parameters and assignments from such rows."""
    rows: set[str] = set()
    if isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
        arguments = function.args
        for argument in [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs]:
            if _annotated(argument.annotation, models):
                rows.add(argument.arg)
    for node in ast.walk(function):
        if isinstance(node, ast.Assign) and _rows_of(node.value, rows, models):
            rows.update(t.id for t in node.targets if isinstance(t, ast.Name))
        elif (
            isinstance(node, ast.AnnAssign)
            and isinstance(node.target, ast.Name)
            and _annotated(node.annotation, models)
        ):
            rows.add(node.target.id)
        elif isinstance(node, ast.For) and isinstance(node.target, ast.Name) and _rows_of(node.iter, rows, models):
            rows.add(node.target.id)  # noqa: SIM114 (two kinds of binding, kept apart to be read)
    return rows


def _unsaved(call: ast.Call) -> bool:
    """`form.save(commit=False)` builds an unsaved instance and writes nothing."""
    return any(k.arg == "commit" and isinstance(k.value, ast.Constant) and not k.value.value for k in call.keywords)


def model_writes_in(source: str) -> list[str]:
    """Every call in `source` that writes any model: `.objects.create(...)`, `x.save()`, `qs.delete()`, ..."""
    found = []
    for node in ast.walk(ast.parse(source)):
        is_call = isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
        if is_call and node.func.attr in WRITES and not _unsaved(node):
            found.append(f"line {node.lineno}: {ast.unparse(node)[:80]}")
    return found


def _version_only(call: ast.Call) -> bool:
    """`Competition.objects.filter(...).update(version=..., changed_at=...)`: the version, not the state."""
    names = {k.arg for k in call.keywords}
    return call.func.attr == "update" and not call.args and bool(names) and names <= VERSION_FIELDS


def writes_in(source: str) -> list[str]:
    """Every call in `source` that writes a guarded row: `Round.objects.create(...)`, `rnd.games.all().delete()`,
    `game.save()`, `Bye(...).save()`, `Participant.objects.bulk_create(...)`, `competition.round_set.update(...)`."""
    tree = ast.parse(source)
    # A class of the module's own that has a guarded model's name (a rating list's `Match`) is not that model.
    models = MODELS - {node.name for node in ast.walk(tree) if isinstance(node, ast.ClassDef)}
    found: set[tuple[int, str]] = set()
    scopes = [tree, *(n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef))]
    for scope in scopes:
        rows = _bound_rows(scope, models)
        for node in ast.walk(scope):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
                continue
            if node.func.attr not in WRITES or _unsaved(node) or _version_only(node):
                continue
            if _rows_of(node.func.value, rows, models):
                found.add((node.lineno, ast.unparse(node)[:80]))
    return [f"line {line}: {text}" for line, text in sorted(found)]


# Where a competition's and a league's rows are written: the one writer, and restoring a backup (every row as
# the file has it).
WRITER = "pairing.services"
EXCEPTIONS = {"tournaments.backup"}


def outside_the_writer(module: str) -> bool:
    inside = module == WRITER or module.startswith(WRITER + ".")
    return not inside and module not in EXCEPTIONS and ".migrations" not in module


def offenders(files: dict[str, Path]) -> dict[str, list[str]]:
    """Module -> its writes of a competition's rows, for every module in `files` outside the writer."""
    found = {name: writes_in(path.read_text(encoding="utf-8")) for name, path in files.items()}
    return {name: lines for name, lines in found.items() if lines and outside_the_writer(name)}
