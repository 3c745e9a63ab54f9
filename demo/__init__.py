"""The demo club (`manage.py demo`): members, seasons and a competition of every kind, for `make run` and tests."""
