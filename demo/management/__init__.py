"""The demo club's management command."""
