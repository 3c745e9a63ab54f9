from django.urls import path

from . import views

urlpatterns = [
    path("<slug:club>/history/", views.club_history, name="club_history"),
]
