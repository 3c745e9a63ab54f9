"""The database refuses to empty the audit log: TRUNCATE on PostgreSQL (a statement trigger; row triggers
do not see it), DELETE on SQLite (which empties tables with DELETE; it has no TRUNCATE). So `manage.py
flush` is refused as a whole and leaves every table as it was."""

from django.db import migrations

# One statement per string: the drivers run them one by one. The function is 0002's.
POSTGRES = [
    """CREATE TRIGGER audit_cannot_be_emptied BEFORE TRUNCATE ON audit_auditentry
    FOR EACH STATEMENT EXECUTE FUNCTION audit_append_only()""",
]
POSTGRES_REVERSE = ["DROP TRIGGER IF EXISTS audit_cannot_be_emptied ON audit_auditentry"]
SQLITE = [
    """CREATE TRIGGER audit_cannot_be_emptied BEFORE DELETE ON audit_auditentry
    BEGIN
        SELECT RAISE(ABORT, 'audit rows are append-only');
    END""",
]
SQLITE_REVERSE = ["DROP TRIGGER IF EXISTS audit_cannot_be_emptied"]


def forward(apps, schema_editor):
    for statement in {"postgresql": POSTGRES, "sqlite": SQLITE}.get(schema_editor.connection.vendor, []):
        schema_editor.execute(statement, params=None)


def backward(apps, schema_editor):
    for statement in {"postgresql": POSTGRES_REVERSE, "sqlite": SQLITE_REVERSE}.get(schema_editor.connection.vendor, []):
        schema_editor.execute(statement, params=None)


class Migration(migrations.Migration):
    dependencies = [("audit", "0002_append_only")]

    operations = [migrations.RunPython(forward, backward)]
