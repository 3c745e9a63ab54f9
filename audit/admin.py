"""The audit log in the Django admin, read-only."""

from django.contrib import admin

from .models import AuditEntry


@admin.register(AuditEntry)
class AuditEntryAdmin(admin.ModelAdmin):
    """Read-only: the audit log can be looked at, never added to, changed or deleted by hand."""

    list_display = ["at", "username", "action", "club_name", "competition_name", "round_number", "object_label"]
    list_filter = ["action", "club_name"]
    search_fields = ["username", "object_label", "competition_name"]
    date_hierarchy = "at"

    def get_readonly_fields(self, request, obj=None):
        return [field.name for field in self.model._meta.fields]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
