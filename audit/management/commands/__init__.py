"""The audit app's management commands."""
