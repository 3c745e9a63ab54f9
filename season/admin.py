"""Club nights and the season calendar in the Django admin."""

from django.contrib import admin

from .models import ClubNight, PlannedRound, SignOff, SignOffRules

admin.site.register(ClubNight)
admin.site.register(PlannedRound)
admin.site.register(SignOffRules)


@admin.register(SignOff)
class SignOffAdmin(admin.ModelAdmin):
    list_display = ["participant", "round_number", "answer", "answered_by", "answered_at"]
    readonly_fields = ["answered_at"]
    list_select_related = ["participant__member", "answered_by"]
