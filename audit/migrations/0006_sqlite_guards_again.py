"""SQLite remakes a table to alter a column (0005), and the copy loses the table's triggers: the guards of
0002 (no update) and 0003 (no delete) are made again there. PostgreSQL keeps its triggers through an
ALTER TABLE and needs nothing."""

import importlib

from django.db import migrations

APPEND_ONLY = importlib.import_module("audit.migrations.0002_append_only")
CANNOT_BE_EMPTIED = importlib.import_module("audit.migrations.0003_cannot_be_emptied")


def forward(apps, schema_editor):
    if schema_editor.connection.vendor != "sqlite":
        return
    for module in (APPEND_ONLY, CANNOT_BE_EMPTIED):
        for statement in module.SQLITE:
            schema_editor.execute(statement.replace("CREATE TRIGGER", "CREATE TRIGGER IF NOT EXISTS", 1), params=None)


class Migration(migrations.Migration):
    dependencies = [("audit", "0005_list_indexes")]

    operations = [migrations.RunPython(forward, migrations.RunPython.noop)]
