"""Accounts' records in the Django admin: invitations, and the users, whose every change (made, user name,
e-mail address, password) leaves its row in the audit log with the values before and after, besides the
admin's own row."""

from django.contrib import admin
from django.contrib.admin.utils import unquote
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin

from .changes import account_values, record_account
from .models import Invitation


@admin.register(Invitation)
class InvitationAdmin(admin.ModelAdmin):
    list_display = ["email", "club", "kind", "member", "invited_by", "created", "accepted_at", "revoked_at"]
    list_filter = ["kind"]  # the club by search: a filter would list every club
    search_fields = ["email", "club__name"]
    list_select_related = ["club", "member", "invited_by"]
    readonly_fields = ["created", "accepted_at", "accepted_by", "revoked_at", "revoked_by"]


User = get_user_model()
admin.site.unregister(User)


@admin.register(User)
class AuditedUserAdmin(UserAdmin):
    def save_model(self, request, obj, form, change):
        before = account_values(User.objects.get(pk=obj.pk)) if change else None
        super().save_model(request, obj, form, change)
        if before != account_values(obj):
            record_account(request.user, "account-change" if change else "account-created", obj, before)

    def user_change_password(self, request, id, form_url=""):
        user = self.get_object(request, unquote(id))
        before = account_values(user) if user is not None else None
        response = super().user_change_password(request, id, form_url)
        if user is not None and request.method == "POST":
            user.refresh_from_db()
            if account_values(user) != before:
                record_account(request.user, "password-change", user, before)
        return response
