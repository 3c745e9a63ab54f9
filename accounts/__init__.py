"""Accounts: login throttling, password reset and change, invitations of TDs."""
