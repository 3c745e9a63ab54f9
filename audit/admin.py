"""The audit log in the Django admin, read-only."""

from django.contrib import admin

from .history import ACTIONS
from .models import AuditEntry


class ActionFilter(admin.SimpleListFilter):
    """The actions the log knows (audit.history.ACTIONS), not a scan of every row for the codes it holds."""

    title = AuditEntry._meta.get_field("action").verbose_name
    parameter_name = "action"

    def lookups(self, request, model_admin):
        return sorted(ACTIONS.items(), key=lambda item: str(item[1]))

    def queryset(self, request, queryset):
        return queryset.filter(action=self.value()) if self.value() else queryset


@admin.register(AuditEntry)
class AuditEntryAdmin(admin.ModelAdmin):
    """Read-only: the audit log can be looked at, never added to, changed or deleted by hand."""

    list_display = ["at", "username", "action", "club_name", "competition_name", "round_number", "object_label"]
    # Fixed choices only: a filter listing the values found (the clubs' names, the years) reads every row.
    list_filter = [ActionFilter, ("at", admin.DateFieldListFilter)]
    search_fields = ["username", "object_label", "club_name", "competition_name"]

    def get_readonly_fields(self, request, obj=None):
        return [field.name for field in self.model._meta.fields]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
