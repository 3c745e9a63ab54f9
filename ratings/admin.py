"""Rating list imports and rating changes in the Django admin."""

from django.contrib import admin

from .models import RatingChange, RatingListImport


@admin.register(RatingListImport)
class RatingListImportAdmin(admin.ModelAdmin):
    list_display = ["club", "source", "list_date", "file_name", "status", "players_read", "updated"]
    list_filter = ["source", "status"]
    list_select_related = ["club"]
    exclude = ["proposals"]


@admin.register(RatingChange)
class RatingChangeAdmin(admin.ModelAdmin):
    list_display = ["member", "system", "date", "old", "new", "source"]
    list_filter = ["system"]
    search_fields = ["member__first_name", "member__last_name"]
    raw_id_fields = ["member", "source"]
    list_select_related = ["member", "source"]
