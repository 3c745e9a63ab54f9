"""Clubs, roles, members and seasons in the Django admin."""

from django.contrib import admin

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
    list_filter = ["club", "is_guest"]
    search_fields = ["last_name", "first_name", "fide_id", "national_id"]


admin.site.register(Season)
