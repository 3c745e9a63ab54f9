"""The database itself refuses to change or delete an audit row (PostgreSQL: updates and deletes; SQLite:
updates, since its test database is emptied with DELETE)."""

from django.db import migrations

# One statement per string: the drivers run them one by one.
POSTGRES = [
    """CREATE OR REPLACE FUNCTION audit_append_only() RETURNS trigger AS $$
    BEGIN
        RAISE EXCEPTION 'audit rows are append-only';
    END;
    $$ LANGUAGE plpgsql""",
    """CREATE TRIGGER audit_append_only BEFORE UPDATE OR DELETE ON audit_auditentry
    FOR EACH ROW EXECUTE FUNCTION audit_append_only()""",
]
POSTGRES_REVERSE = [
    "DROP TRIGGER IF EXISTS audit_append_only ON audit_auditentry",
    "DROP FUNCTION IF EXISTS audit_append_only()",
]
SQLITE = [
    """CREATE TRIGGER audit_append_only BEFORE UPDATE ON audit_auditentry
    BEGIN
        SELECT RAISE(ABORT, 'audit rows are append-only');
    END""",
]
SQLITE_REVERSE = ["DROP TRIGGER IF EXISTS audit_append_only"]


def forward(apps, schema_editor):
    for statement in {"postgresql": POSTGRES, "sqlite": SQLITE}.get(schema_editor.connection.vendor, []):
        schema_editor.execute(statement, params=None)


def backward(apps, schema_editor):
    for statement in {"postgresql": POSTGRES_REVERSE, "sqlite": SQLITE_REVERSE}.get(schema_editor.connection.vendor, []):
        schema_editor.execute(statement, params=None)


class Migration(migrations.Migration):
    dependencies = [("audit", "0001_initial")]

    operations = [migrations.RunPython(forward, backward)]
