"""Management commands of the audit log: the database role the site runs as (grant_site_role)."""
