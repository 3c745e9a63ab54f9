"""The pairing app's management commands."""
