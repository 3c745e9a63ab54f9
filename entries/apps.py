"""The entries app's configuration."""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class EntriesConfig(AppConfig):
    name = "entries"
    verbose_name = _("entries")

    def ready(self) -> None:
        from audit.history import describe_codes

        from .models import Entry

        describe_codes("status", Entry.Status.choices)  # the audit log names an entry's status in the reader's language
