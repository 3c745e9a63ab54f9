"""Accounts: the lockout page, inviting a TD and accepting an invitation.

Password reset and change are Django's own views (config/urls.py) with this site's templates.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import AuthenticationForm
from django.core.mail import send_mail
from django.db import transaction
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from audit.log import record
from clubs.access import directed_club
from clubs.models import ClubRole

from .forms import AcceptForm, InvitationForm
from .models import Invitation


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
        with transaction.atomic():
            invitation = Invitation.objects.create(club=club, email=form.cleaned_data["email"], invited_by=request.user)
            record(request.user, "invite-td", club, None, {"email": invitation.email})
        link = request.build_absolute_uri(reverse("accept_invitation", args=[invitation.token]))
        context = {"club": club, "inviter": request.user, "link": link, "days": settings.INVITATION_DAYS}
        send_mail(
            render_to_string("registration/invitation_subject.txt", context).strip(),
            render_to_string("registration/invitation_email.txt", context),
            None,
            [invitation.email],
        )
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
            old = ClubRole.objects.filter(club=invitation.club, user=user).values_list("role", flat=True).first()
            ClubRole.objects.update_or_create(
                club=invitation.club, user=user, defaults={"role": ClubRole.Role.DIRECTOR}
            )
            change = {"user": user.get_username(), "email": invitation.email}
            record(user, "td-added", invitation.club, change | {"role": old}, change | {"role": ClubRole.Role.DIRECTOR})
            invitation.accepted_at = timezone.now()
            invitation.accepted_by = user
            invitation.save(update_fields=["accepted_at", "accepted_by"])
        if form is not None:
            login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(request, _("You are now a TD of %(club)s.") % {"club": invitation.club.name})
        return redirect(invitation.club.get_absolute_url())
    return render(request, "registration/invitation.html", {"invitation": invitation, "form": form})
