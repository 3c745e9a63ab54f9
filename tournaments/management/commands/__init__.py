"""Management commands of competitions: a club's backup (export_club) and restore (import_club)."""
