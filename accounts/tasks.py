"""Mail sent by the job worker for the account pages: the password reset link."""

from __future__ import annotations

from django.utils import translation
from django_tasks import task

from .forms import PasswordResetForm


@task()
def send_password_reset(email: str, domain: str, use_https: bool, language: str) -> int:
    """The reset link to each active account with the address `email` (none: nothing is sent), in the
    account's language (`language`, the page's, when it has none). Run by the worker, so the page that asks
    for it answers in the same time whether the address is known or not."""
    form = PasswordResetForm({"email": email})
    if not form.is_valid():
        return 0
    with translation.override(language):
        form.save(domain_override=domain, use_https=use_https)
    return sum(1 for _ in form.get_users(form.cleaned_data["email"]))
