"""The account pages' addresses: login, logout, the language switcher, password reset and change,
invitations, a member's login, a new club."""

from django.contrib.auth import views as auth_views
from django.urls import path

from . import views

urlpatterns = [
    path("login/", views.LoginView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("password/change/", views.PasswordChangeView.as_view(), name="password_change"),
    path("password/change/done/", auth_views.PasswordChangeDoneView.as_view(), name="password_change_done"),
    path("email/change/", views.email_change, name="email_change"),
    path("password/reset/", views.PasswordResetView.as_view(), name="password_reset"),
    path("password/reset/sent/", auth_views.PasswordResetDoneView.as_view(), name="password_reset_done"),
    path(
        "password/reset/<uidb64>/<token>/",
        views.PasswordResetConfirmView.as_view(),
        name="password_reset_confirm",
    ),
    path("password/reset/done/", auth_views.PasswordResetCompleteView.as_view(), name="password_reset_complete"),
    path("i18n/setlang/", views.set_language, name="set_language"),
    path("clubs/new/", views.new_club, name="new_club"),
    path("invitation/<str:token>/", views.accept_invitation, name="accept_invitation"),
    path("<slug:club>/directors/", views.directors, name="directors"),
    path("<slug:club>/directors/invitations/<int:pk>/revoke/", views.revoke_invitation, name="revoke_invitation"),
    path("<slug:club>/members/<int:pk>/account/", views.member_account, name="member_account"),
]
