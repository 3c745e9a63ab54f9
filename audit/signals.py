"""Edits made in Django's admin: each one the admin logs (add, change, delete) gets its audit row too.

The admin writes its LogEntry before it deletes an object, so the object, and through it its club and
competition, is still there to name.
"""

from __future__ import annotations

import json

from django.contrib.admin.models import ADDITION, CHANGE, DELETION, LogEntry
from django.core.exceptions import ObjectDoesNotExist
from django.db.models.signals import post_save
from django.dispatch import receiver

from .log import record

ADMIN_ACTIONS = {ADDITION: "admin-add", CHANGE: "admin-change", DELETION: "admin-delete"}


@receiver(post_save, sender=LogEntry, dispatch_uid="audit-admin-log-entry")
def admin_edit(sender, instance: LogEntry, created: bool, **kwargs) -> None:
    if not created or instance.content_type is None:
        return
    if instance.content_type.app_label == "audit":  # the log is read-only; nothing to record about it
        return
    try:
        target = instance.get_edited_object()
    except (ObjectDoesNotExist, AttributeError):  # gone already, or no longer a model: the admin's words suffice
        target = None
    try:
        message = json.loads(instance.change_message or "[]")
    except ValueError:
        message = []
    parts = [part for part in message if isinstance(part, dict)] if isinstance(message, list) else []
    fields = sorted({field for part in parts for field in part.get("changed", {}).get("fields", [])})
    after = {"changed": fields} if instance.action_flag == CHANGE else None
    label = f"{instance.content_type.name}: {instance.object_repr}"
    record(instance.user, ADMIN_ACTIONS.get(instance.action_flag, "admin"), target, None, after, label=label)
