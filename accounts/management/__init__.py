"""The accounts app's management commands: startclub."""
