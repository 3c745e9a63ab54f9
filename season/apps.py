"""The season calendar app's configuration."""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class SeasonConfig(AppConfig):
    name = "season"
    verbose_name = _("season calendar")

    def ready(self) -> None:
        from audit.history import describe_codes

        from . import signals  # noqa: F401  (mail on publication)
        from .models import ClubNight

        describe_codes("kind", ClubNight.Kind.choices)  # the audit log names a night's kind in the reader's language
