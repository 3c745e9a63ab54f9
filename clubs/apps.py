"""The clubs app's configuration."""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ClubsConfig(AppConfig):
    name = "clubs"
    verbose_name = _("Clubs")

    def ready(self) -> None:
        from audit.history import describe_codes

        from .models import ClubRole

        describe_codes("role", ClubRole.Role.choices)  # the audit log names a role in the reader's language
        from . import languages  # noqa: F401  (its receivers keep the cached club languages up to date)
