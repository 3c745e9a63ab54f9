"""Accounts' records in the Django admin."""

from django.contrib import admin

from .models import Invitation


@admin.register(Invitation)
class InvitationAdmin(admin.ModelAdmin):
    list_display = ["email", "club", "invited_by", "created", "accepted_at"]
    list_filter = ["club"]
    readonly_fields = ["created", "accepted_at", "accepted_by"]
