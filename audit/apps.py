"""The audit log app's configuration."""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class AuditConfig(AppConfig):
    name = "audit"
    verbose_name = _("audit log")

    def ready(self) -> None:
        from . import signals  # noqa: F401  (connects the admin's edits)
