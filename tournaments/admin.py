"""Competitions and participants in the Django admin (the TD's actions are in the audit log's).

An edit here is an action like any other: it raises the competition's version once, in its transaction
(tournaments.versioning), so the cached public pages show it.
"""

from django.contrib import admin

from . import versioning
from .models import Competition, Participant


class ParticipantInline(admin.TabularInline):
    model = Participant
    extra = 0
    raw_id_fields = ["member"]


@admin.register(Competition)
class CompetitionAdmin(admin.ModelAdmin):
    list_display = ["name", "club", "system", "status"]
    list_filter = ["system", "status"]  # the club by search: a filter would list every club
    search_fields = ["name", "club__name"]
    list_select_related = ["club"]
    inlines = [ParticipantInline]

    def save_related(self, request, form, formsets, change):
        """After the competition and its entries are saved: one version bump for the whole edit."""
        super().save_related(request, form, formsets, change)
        versioning.bump(form.instance)
