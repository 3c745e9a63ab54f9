"""An account's rows in the audit log: every change to a login (made, e-mail address, password, the member
it is linked to) is recorded with its values before and after.

The password itself, and its hash, never reach the log: `account_values` keeps a mark of 8 characters
taken from a digest of the stored hash. Each new password has a new random salt, so the mark changes
with it, and nothing can be learnt from it about the password.
"""

from __future__ import annotations

import hashlib
from typing import Any

from django.db import transaction

from audit.log import record, values


def password_mark(user) -> str:
    """A mark that changes whenever the password does (empty without a usable password)."""
    if not user.has_usable_password():
        return ""
    return "#" + hashlib.sha256(user.password.encode()).hexdigest()[:8]


def account_values(user) -> dict[str, Any]:
    """A login as the log keeps it: its user name, e-mail address and password mark."""
    return {"username": user.get_username(), "email": user.email, "password": password_mark(user)}


def record_account(actor, action: str, user, before: dict[str, Any] | None) -> None:
    """One row about the account `user`, changed by `actor`, from `before` to its values now."""
    record(actor, action, user, before, account_values(user))


def record_member_login(actor, member, before: dict[str, Any]) -> None:
    """One row on the club's log: the member's login from `before` to the one it has now."""
    record(actor, "member-login", member, before, values(member, "user"))


def save_new_password(form, action: str):
    """Save the password a `SetPasswordForm`-like form holds, recorded as `action` in the audit log. The
    password is hashed before the transaction, which holds the database's writes (SQLite's lock)."""
    user = form.user
    before = account_values(user)
    form.save(commit=False)
    with transaction.atomic():
        user.save()
        record_account(user, action, user, before)
    return user
