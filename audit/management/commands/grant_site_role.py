"""Grant a PostgreSQL role what the web processes and job workers need, and no more (README, "Deploying").

    manage.py grant_site_role clubavond_site          # as the tables' owner, after `manage.py migrate`
    manage.py grant_site_role clubavond_site --sql    # print the statements instead, e.g. for psql

The site's role reads and writes the rows of every table, but of the audit log it may only read and
add rows, and of the migrations' table only read. It owns no table, so it can alter or drop none, and
it may truncate none. The owner (the role that runs `migrate`) keeps everything else. Tables that later
migrations create get the same rights (default privileges of the owner); run the command again after
each release's `migrate` all the same: it is idempotent.
"""

from __future__ import annotations

import re

from django.core.management.base import BaseCommand, CommandError
from django.db import connection, transaction

from audit.models import AuditEntry

ROLE_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_$]{0,62}")
ROWS = "SELECT, INSERT, UPDATE, DELETE"
SEQUENCES = "USAGE, SELECT, UPDATE"


def statements(role: str, owner: str, database: str, schema: str, append_only: str, read_only: str) -> list[str]:
    """The grants, in order: rows of every table (and of those `owner` creates later), then the audit log
    (`append_only`) and the migrations' table (`read_only`) narrowed; quoted names in, SQL out."""
    return [
        f"GRANT CONNECT, TEMPORARY ON DATABASE {database} TO {role}",
        f"GRANT USAGE ON SCHEMA {schema} TO {role}",
        f"REVOKE TRUNCATE, REFERENCES, TRIGGER ON ALL TABLES IN SCHEMA {schema} FROM {role}",
        f"GRANT {ROWS} ON ALL TABLES IN SCHEMA {schema} TO {role}",
        f"GRANT {SEQUENCES} ON ALL SEQUENCES IN SCHEMA {schema} TO {role}",
        f"ALTER DEFAULT PRIVILEGES FOR ROLE {owner} IN SCHEMA {schema} GRANT {ROWS} ON TABLES TO {role}",
        f"ALTER DEFAULT PRIVILEGES FOR ROLE {owner} IN SCHEMA {schema} GRANT {SEQUENCES} ON SEQUENCES TO {role}",
        f"REVOKE ALL ON TABLE {append_only} FROM {role}",
        f"GRANT SELECT, INSERT ON TABLE {append_only} TO {role}",
        f"REVOKE ALL ON TABLE {read_only} FROM {role}",
        f"GRANT SELECT ON TABLE {read_only} TO {role}",
    ]


class Command(BaseCommand):
    help = (
        "Grant a PostgreSQL role the rights the web processes and job workers need: rows of every table, only "
        "reading and adding rows of the audit log; no TRUNCATE, ALTER or DROP. Run as the owner of the tables."
    )

    def add_arguments(self, parser):
        parser.add_argument("role", help="the role the web processes and workers log in as (it must exist)")
        parser.add_argument("--sql", action="store_true", help="print the statements instead of running them")

    def handle(self, *args, role: str, sql: bool = False, **options):
        if connection.vendor != "postgresql":
            raise CommandError("Database roles need PostgreSQL; SQLite has no roles (README, Deploying).")
        if not ROLE_NAME.fullmatch(role):
            raise CommandError(f"{role!r} is not a plain role name (letters, digits and _; 63 at most).")
        quote = connection.ops.quote_name
        with connection.cursor() as cursor:
            cursor.execute("SELECT current_database(), current_schema()")
            database, schema = cursor.fetchone()
            owner = self.owner(cursor, role, check=not sql)
        table = AuditEntry._meta.db_table
        names = [quote(name) for name in (role, owner, database, schema, table, "django_migrations")]
        found = statements(*names)
        if sql:
            self.stdout.write(";\n".join(found) + ";")
            return
        with transaction.atomic(), connection.cursor() as cursor:
            for statement in found:
                cursor.execute(statement)
        self.stdout.write(
            self.style.SUCCESS(f"{role} may read and write the rows of {database}; of the audit log only read and add.")
        )

    def owner(self, cursor, role: str, check: bool) -> str:
        """The owner of the tables; with `check`, CommandError unless `role` can be limited and this
        command runs as that owner (or a superuser)."""
        cursor.execute("SELECT tableowner FROM pg_tables WHERE tablename = %s", [AuditEntry._meta.db_table])
        owner = (cursor.fetchone() or [None])[0]
        if owner is None:
            raise CommandError("The audit log's table is missing: run `manage.py migrate` first.")
        if not check:
            return owner
        cursor.execute("SELECT rolsuper OR rolbypassrls FROM pg_roles WHERE rolname = %s", [role])
        found = cursor.fetchone()
        if found is None:
            raise CommandError(f"There is no role {role}: create it first (CREATE ROLE {role} LOGIN PASSWORD '...').")
        if found[0]:
            raise CommandError(f"{role} is a superuser or bypasses row security: no grant can limit it.")
        if role == owner:
            raise CommandError(f"{role} owns the tables: the site must run as a role that does not.")
        cursor.execute("SELECT current_user, rolsuper FROM pg_roles WHERE rolname = current_user")
        user, superuser = cursor.fetchone()
        if user != owner and not superuser:
            raise CommandError(f"Run this as {owner}, the owner of the tables (the role that migrates).")
        return owner
