"""The import layers hold (import-linter's contracts in pyproject.toml) and no import circle exists."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from .imports import PACKAGES, ROOT, app_graph, circles, import_graph


def test_the_import_linter_contracts_hold():
    """Pure engines without Django, the layers of docs/architecture.md, no circle among siblings."""
    linter = Path(sys.executable).with_name("lint-imports")
    assert linter.exists(), "import-linter is not installed (requirements-dev.txt)"
    run = subprocess.run(
        [str(linter), "--no-cache", "--config", "pyproject.toml"], cwd=ROOT, capture_output=True, text=True
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert "0 broken" in run.stdout


def test_no_module_imports_itself_through_a_circle():
    graph = import_graph(ROOT, PACKAGES)
    assert "pairing.services.rounds" in graph and "pairing.engines.keizer.settings" in graph
    assert circles(graph) == []


def test_no_app_imports_itself_through_a_circle():
    apps = app_graph(import_graph(ROOT, PACKAGES))
    assert {"clubs", "tournaments", "ratings", "pairing", "pairing.engines"} <= set(apps)
    assert circles(apps) == []


def test_the_scan_sees_a_circle_made_by_a_function_level_import(tmp_path):
    package = tmp_path / "shop"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "orders.py").write_text("from .stock import reserve\n")
    (package / "stock.py").write_text("def reserve():\n    from shop import orders\n    return orders\n")
    (package / "prices.py").write_text("import shop.stock\n")
    graph = import_graph(tmp_path, ["shop"])
    assert graph["shop.stock"] == {"shop.orders"}
    assert circles(graph) == [["shop.orders", "shop.stock"]]


def test_every_app_is_in_the_layers():
    """An app left out of import-linter's packages would escape every contract."""
    from django.apps import apps

    ours = {config.name.split(".")[0] for config in apps.get_app_configs() if (ROOT / config.name).is_dir()}
    assert ours <= set(PACKAGES)
