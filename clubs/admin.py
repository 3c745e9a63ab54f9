"""Clubs, roles, members and seasons in the Django admin."""

from django.contrib import admin

from audit.log import record, values

from .models import Club, ClubRole, Member, Season


class ClubRoleInline(admin.TabularInline):
    model = ClubRole
    extra = 1


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ["name", "city", "federation", "language"]
    prepopulated_fields = {"slug": ["name"]}
    inlines = [ClubRoleInline]


@admin.register(Member)
class MemberAdmin(admin.ModelAdmin):
    list_display = ["last_name", "first_name", "club", "title", "national_rating", "fide_rating", "is_guest"]
    list_filter = ["is_guest"]  # the club by search: a filter would list every club
    search_fields = ["last_name", "first_name", "fide_id", "national_id", "club__name"]
    list_select_related = ["club"]

    def save_model(self, request, obj, form, change):
        """The member's login, when it changes here, gets its row like on the club's page (before and after)."""
        before = values(Member.objects.get(pk=obj.pk), "user") if change else {"user": None}
        super().save_model(request, obj, form, change)
        if values(obj, "user") != before:
            record(request.user, "member-login", obj, before, values(obj, "user"))


admin.site.register(Season)
