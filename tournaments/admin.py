"""Competitions, participants, result changes and TD actions in the Django admin."""

from django.contrib import admin

from .models import Competition, Participant, ResultChange, TDAction


class ParticipantInline(admin.TabularInline):
    model = Participant
    extra = 0
    raw_id_fields = ["member"]


@admin.register(Competition)
class CompetitionAdmin(admin.ModelAdmin):
    list_display = ["name", "club", "system", "status"]
    list_filter = ["club", "system", "status"]
    inlines = [ParticipantInline]


@admin.register(ResultChange)
class ResultChangeAdmin(admin.ModelAdmin):
    """Every result change with who and when: written by the result's own change, never added by hand."""

    list_display = ["game", "old_result", "new_result", "changed_by", "changed_at"]
    readonly_fields = ["game", "old_result", "new_result", "changed_by", "changed_at"]

    def has_add_permission(self, request):
        return False


@admin.register(TDAction)
class TDActionAdmin(admin.ModelAdmin):
    """The TD's actions on a competition: written by the action itself, never added by hand."""

    list_display = ["competition", "round_number", "action", "detail", "user", "at"]
    readonly_fields = ["competition", "round_number", "action", "detail", "user", "at"]

    def has_add_permission(self, request):
        return False
