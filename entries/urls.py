"""The entries' addresses: the public form and list, the player's own link, the TD's inbox and check-in."""

from django.urls import path

from . import views

c = "<slug:club>/<slug:competition>/"
urlpatterns = [
    path("entry/<str:token>/", views.my_entry, name="my_entry"),
    path(c + "enter/", views.entry_form, name="entry_form"),
    path(c + "entries/", views.entry_list, name="entry_list"),
    path(c + "manage/entries/", views.entry_inbox, name="entry_inbox"),
    path(c + "manage/entries/<int:pk>/", views.entry_decide, name="entry_decide"),
    path(c + "manage/check-in/", views.check_in, name="check_in"),
]
