"""The team leagues app's configuration."""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TeamsConfig(AppConfig):
    name = "teams"
    verbose_name = _("Team leagues")

    def ready(self) -> None:
        from . import signals  # noqa: F401 (the receivers that raise a league's version)
