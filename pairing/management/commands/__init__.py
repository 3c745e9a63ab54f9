"""The pairing app's management commands (`makemessages` with the engines' notes)."""
