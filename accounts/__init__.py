"""Accounts: login throttling (django-axes), password reset and change, TDs inviting TDs."""
