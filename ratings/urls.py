"""The rating pages' addresses: lists, history, a competition's rating report."""

from django.urls import path

from . import views

# Three-part paths, so that they never collide with a competition's "<club>/<competition>/".
urlpatterns = [
    path("<slug:club>/ratings/lists/", views.rating_lists, name="rating_lists"),
    path("<slug:club>/ratings/lists/<int:pk>/", views.rating_list, name="rating_list"),
    path("<slug:club>/ratings/history/", views.rating_history, name="rating_history"),
    path("<slug:club>/<slug:competition>/rating-report/", views.rating_report, name="rating_report"),
]
