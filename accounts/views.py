"""Accounts: logging in (and where one lands), the language switcher, the lockout page, inviting a TD and
accepting an invitation.

Password change is Django's own view with this site's templates; password reset is Django's, with the
mail in the recipient's language.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import AuthenticationForm
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views import i18n
from django.views.decorators.http import require_http_methods

from clubs.access import directed_club
from clubs.languages import is_language, own_language, remember_language
from clubs.models import ClubRole, Member
from clubs.services import start_club
from clubs.validation import InputError

from .forms import AcceptForm, InvitationForm, NewClubForm, PasswordResetForm
from .models import Invitation
from .services import create_invitation, invite_td, make_director, send_invitation


def landing_page(user) -> str:
    """Where a login without a page to go back to lands: a TD on the club he directs, a member on his own
    page, someone who may view a club on that club, anyone else on the list of clubs."""
    roles = ClubRole.objects.filter(user=user).select_related("club").order_by("role", "club__name")
    directed = next((role.club for role in roles if role.role == ClubRole.Role.DIRECTOR), None)
    if directed is not None:
        return directed.get_absolute_url()
    if Member.objects.filter(user=user).exists():
        return reverse("my_page")
    if roles:
        return roles[0].club.get_absolute_url()
    return reverse("home")


class LoginView(auth_views.LoginView):
    """Django's login; without a page to go back to (or from the home page) it lands where the user works
    (`landing_page`). A language chosen in this browser before logging in is the one last chosen, and is
    kept as the user's; in a browser where none was chosen, the user's own language comes back."""

    def get_success_url(self) -> str:
        target = self.get_redirect_url()
        if target and target != reverse("home"):
            return target
        return landing_page(self.request.user)

    def form_valid(self, form):
        response = super().form_valid(form)
        chosen = self.request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME)
        if is_language(chosen):
            remember_language(form.get_user(), chosen)
        elif language := own_language(form.get_user()):
            _set_language_cookie(response, language)
        return response


def _set_language_cookie(response, language: str) -> None:
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME,
        language,
        max_age=settings.LANGUAGE_COOKIE_AGE,
        path=settings.LANGUAGE_COOKIE_PATH,
        domain=settings.LANGUAGE_COOKIE_DOMAIN,
        secure=settings.LANGUAGE_COOKIE_SECURE,
        httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
        samesite=settings.LANGUAGE_COOKIE_SAMESITE,
    )


def set_language(request):
    """Django's language switcher; a logged-in user's choice is also kept as his language (his e-mails, his
    pages after the next login)."""
    response = i18n.set_language(request)
    language = request.POST.get("language")
    if request.method == "POST" and is_language(language):
        remember_language(request.user, language)
    return response


class PasswordResetView(auth_views.PasswordResetView):
    form_class = PasswordResetForm


def locked_out(request, original_response=None, credentials=None):
    """The login page with the reason the login is refused (django-axes' AXES_LOCKOUT_CALLABLE), status 429."""
    minutes = int(settings.AXES_COOLOFF_TIME.total_seconds() // 60)
    form = AuthenticationForm(request, initial={"username": (credentials or {}).get("username", "")})
    return render(
        request,
        "registration/login.html",
        {"form": form, "locked_out": True, "cooloff_minutes": minutes, "next": request.POST.get("next", "")},
        status=settings.AXES_HTTP_RESPONSE_CODE,
    )


@login_required
@require_http_methods(["GET", "POST"])
def directors(request, club):
    """The club's TDs, and a form to invite another one (TDs of the club only)."""
    club = directed_club(request, club)
    form = InvitationForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        invitation = invite_td(club, form.cleaned_data["email"], request.user, request.build_absolute_uri("/"))
        messages.success(request, _("An invitation was sent to %(email)s.") % {"email": invitation.email})
        return redirect("directors", club.slug)
    roles = club.roles.filter(role=ClubRole.Role.DIRECTOR).select_related("user").order_by("user__username")
    return render(
        request,
        "registration/directors.html",
        {
            "club": club,
            "form": form,
            "roles": roles,
            "invitations": club.invitations.select_related("invited_by"),
            "days": settings.INVITATION_DAYS,
        },
    )


@login_required
@require_http_methods(["GET", "POST"])
def new_club(request):
    """A site administrator (staff) starts a club on this site and invites its first TD by e-mail."""
    if not (request.user.is_staff or request.user.is_superuser):
        raise PermissionDenied
    form = NewClubForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            with transaction.atomic():
                club = start_club(form.save(commit=False), request.user)
                invitation = create_invitation(club, form.cleaned_data["td_email"], request.user)
        except InputError as error:
            form.add_error(None, str(error))
        else:
            send_invitation(invitation, request.build_absolute_uri("/"))
            messages.success(
                request,
                _("%(club)s is started; an invitation to direct it was sent to %(email)s.")
                % {"club": club.name, "email": invitation.email},
            )
            return redirect(club.get_absolute_url())
    return render(request, "registration/new_club.html", {"form": form})


@require_http_methods(["GET", "POST"])
def accept_invitation(request, token):
    """Become a TD of the inviting club: logged in, with one click; otherwise by making an account."""
    invitation = Invitation.from_token(token)
    problem = None
    if invitation is None:
        problem = _("This invitation link is not valid or has expired. Ask the club's TD for a new one.")
    elif invitation.accepted_at:
        problem = _("This invitation has already been used.")
    if problem:
        return render(request, "registration/invitation.html", {"problem": problem}, status=400)
    form = None if request.user.is_authenticated else AcceptForm(request.POST or None)
    if request.method == "POST" and (form is None or form.is_valid()):
        with transaction.atomic():
            invitation = Invitation.objects.select_for_update().get(pk=invitation.pk)
            if invitation.accepted_at:
                problem = _("This invitation has already been used.")
                return render(request, "registration/invitation.html", {"problem": problem}, status=400)
            if form is not None:
                user = form.save(commit=False)
                user.email = invitation.email
                user.save()
            else:
                user = request.user
            make_director(invitation.club, user, by=user, email=invitation.email)
            invitation.accepted_at = timezone.now()
            invitation.accepted_by = user
            invitation.save(update_fields=["accepted_at", "accepted_by"])
        if form is not None:
            login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(request, _("You are now a TD of %(club)s.") % {"club": invitation.club.name})
        return redirect(invitation.club.get_absolute_url())
    return render(request, "registration/invitation.html", {"invitation": invitation, "form": form})
