"""The competitions app's configuration."""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = _("Competitions")

    def ready(self) -> None:
        from . import signals  # noqa: F401 (the receivers that raise a competition's version)
