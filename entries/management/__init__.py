"""The entries app's management commands."""
