"""Competitions and participants in the Django admin (the TD's actions are in the audit log's)."""

from django.contrib import admin

from .models import Competition, Participant


class ParticipantInline(admin.TabularInline):
    model = Participant
    extra = 0
    raw_id_fields = ["member"]


@admin.register(Competition)
class CompetitionAdmin(admin.ModelAdmin):
    list_display = ["name", "club", "system", "status"]
    list_filter = ["club", "system", "status"]
    inlines = [ParticipantInline]
