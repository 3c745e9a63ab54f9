"""The season calendar's addresses: club nights, planning, iCalendar feeds, a member's own page."""

from django.urls import path

from . import views

c = "<slug:club>/<slug:competition>/"
urlpatterns = [
    path("me/", views.my_page, name="my_page"),
    path("me/answer/<int:participant>/", views.sign_off, name="sign_off"),
    path("me/answers/", views.sign_off_rounds, name="sign_off_rounds"),
    path("me/settings/", views.my_settings, name="my_settings"),
    path("calendar/<str:token>.ics", views.member_feed, name="member_feed"),
    path("<slug:club>/calendar/", views.club_calendar, name="club_calendar"),
    path("<slug:club>/calendar.ics", views.club_feed, name="club_feed"),
    path("<slug:club>/leagues/<slug:league>/team/<int:team>.ics", views.team_feed, name="league_team_feed"),
    path("<slug:club>/calendar/plan/", views.plan_season, name="plan_season"),
    path("<slug:club>/calendar/night/<int:pk>/", views.edit_night, name="edit_night"),
    path(c + "notice/", views.competition_sign_off, name="notice"),
    path(c + "calendar/", views.competition_calendar, name="competition_calendar"),
    path(c + "manage/calendar/", views.plan_rounds, name="plan_rounds"),
    path(c + "manage/present/", views.present_list, name="present_list"),
]
