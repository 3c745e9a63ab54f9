"""A job's page address."""

from django.urls import path

from . import views

urlpatterns = [
    path("<slug:club>/jobs/<int:pk>/", views.job_page, name="job"),
]
