"""The entries app's configuration."""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class EntriesConfig(AppConfig):
    name = "entries"
    verbose_name = _("entries")
