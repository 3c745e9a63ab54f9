"""The audit log: every write to a club's data, who did it, when, and the values before and after.

An entry is data, not text: the action's code, its parameters and the values before and after, rendered
in the reader's language when the log is read (`audit.history`). It is the one record of every action.

Append-only. Rows hold the ids and names of what they are about, not foreign keys, so nothing that
happens to a competition, a round, a club or a user (undo, deletion) removes or changes them. The
ORM refuses to update or delete a row, and so does the database (triggers, migrations 0002 and 0003),
which also refuses to empty the table (TRUNCATE, `manage.py flush`).
"""

from __future__ import annotations

from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class AppendOnly(Exception):
    """An attempt to change or remove an audit row."""


class AuditQuerySet(models.QuerySet):
    def update(self, **kwargs):
        raise AppendOnly("audit rows cannot be changed")

    def delete(self):
        raise AppendOnly("audit rows cannot be deleted")

    def bulk_update(self, *args, **kwargs):
        raise AppendOnly("audit rows cannot be changed")


class AuditEntry(models.Model):
    at = models.DateTimeField(_("when"), default=timezone.now, db_index=True)
    user_id = models.BigIntegerField(_("user id"), null=True, blank=True)
    username = models.CharField(_("who"), max_length=150, blank=True)
    action = models.CharField(_("action"), max_length=40, db_index=True)
    club_id = models.BigIntegerField(_("club id"), null=True, blank=True)
    club_name = models.CharField(_("club"), max_length=120, blank=True)
    competition_id = models.BigIntegerField(_("competition id"), null=True, blank=True)
    competition_name = models.CharField(_("competition"), max_length=120, blank=True)
    round_number = models.PositiveSmallIntegerField(_("round"), null=True, blank=True)
    object_type = models.CharField(_("object type"), max_length=60, blank=True)
    object_id = models.CharField(_("object id"), max_length=40, blank=True)
    object_label = models.CharField(_("object"), max_length=250, blank=True)
    before = models.JSONField(_("before"), null=True, blank=True)
    after = models.JSONField(_("after"), null=True, blank=True)
    # What the action's code needs besides before and after (start numbers, a board, the rules an override
    # set aside): values and codes, never words, so the entry renders in the reader's language.
    params = models.JSONField(_("parameters"), null=True, blank=True)

    objects = AuditQuerySet.as_manager()

    class Meta:
        ordering = ["-at", "-id"]
        # The history pages: a club's or a competition's rows, newest first, a page at a time.
        indexes = [
            models.Index(fields=["club_id", "-at", "-id"], name="audit_club_newest"),
            models.Index(fields=["competition_id", "-at", "-id"], name="audit_competition_newest"),
        ]
        verbose_name = _("audit entry")
        verbose_name_plural = _("audit log")

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M:%S} {self.username or '-'} {self.action} {self.object_label}"

    def save(self, *args, **kwargs) -> None:
        if self.pk is not None or kwargs.get("force_update"):
            raise AppendOnly("audit rows cannot be changed")
        kwargs["force_insert"] = True
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise AppendOnly("audit rows cannot be deleted")
