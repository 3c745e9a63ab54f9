"""Accounts: logging in (and where one lands), the language switcher, the lockout page, inviting a TD or a
member, accepting and revoking an invitation, a member's login, starting a club, and Django's password
views with throttling and audit rows. Every invitation and password mail is written in its recipient's
language.

A club's page never reaches an account that exists: it makes a new one for a member, or sends the member
a link by e-mail with which the owner of an account links it (or makes one). Every change to an account
(made, e-mail address, password, the member it is the login of) leaves its row in the audit log.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login, update_session_auth_hash
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import AuthenticationForm
from django.contrib.auth.views import INTERNAL_RESET_SESSION_TOKEN
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction
from django.http import HttpResponseRedirect
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.views import i18n
from django.views.decorators.http import require_http_methods, require_POST

from audit.log import record, values
from clubs.access import directed_club
from clubs.languages import is_language, own_language, remember_language
from clubs.models import ClubRole, Member
from clubs.services import start_club
from clubs.validation import InputError

from . import throttle
from .changes import account_values, record_account, record_member_login, save_new_password
from .client_ip import client_ip
from .forms import AcceptForm, EmailChangeForm, InvitationForm, MemberInvitationForm, NewAccountForm, NewClubForm
from .models import Invitation
from .services import create_invitation, make_director, send_invitation
from .tasks import send_password_reset

# Logging in and languages -----------------------------------------------------------------------


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


# Invitations ------------------------------------------------------------------------------------


def _send_invitation(request, invitation: Invitation) -> None:
    """The invitation's mail, in the invitee's language, with a link to this site."""
    send_invitation(invitation, request.build_absolute_uri("/"))


@login_required
@require_http_methods(["GET", "POST"])
def directors(request, club):
    """The club's TDs, and a form to invite another one (TDs of the club only)."""
    club = directed_club(request, club)
    form = InvitationForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        invitation = create_invitation(club, form.cleaned_data["email"], request.user)
        _send_invitation(request, invitation)
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
            "invitations": club.invitations.filter(kind=Invitation.Kind.DIRECTOR).select_related("invited_by"),
            "days": settings.INVITATION_DAYS,
        },
    )


@login_required
@require_POST
def revoke_invitation(request, club, pk):
    """A TD of the club withdraws one of its invitations that is still pending: its link no longer works."""
    club = directed_club(request, club)
    with transaction.atomic():
        invitation = get_object_or_404(Invitation.objects.select_for_update(), club=club, pk=pk)
        if invitation.pending:
            invitation.revoked_at = timezone.now()
            invitation.revoked_by = request.user
            invitation.save(update_fields=["revoked_at", "revoked_by"])
            target = invitation.member or club
            record(request.user, "invitation-revoked", target, {"email": invitation.email}, None)
            messages.success(request, _("The invitation to %(email)s is revoked.") % {"email": invitation.email})
        else:
            messages.error(request, _("This invitation was used, revoked or has expired already."))
    if invitation.member_id:
        return redirect("member_account", club.slug, invitation.member_id)
    return redirect("directors", club.slug)


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
            _send_invitation(request, invitation)
            messages.success(
                request,
                _("%(club)s is started; an invitation to direct it was sent to %(email)s.")
                % {"club": club.name, "email": invitation.email},
            )
            return redirect(club.get_absolute_url())
    return render(request, "registration/new_club.html", {"form": form})


def _invitation_page(request, invitation, form=None, problem="", status=200):
    context = {"invitation": invitation, "form": form, "problem": problem}
    return render(request, "registration/invitation.html", context, status=status)


def _make_director(user, invitation: Invitation) -> None:
    """Invitation to direct the club: `user` becomes one of its TDs."""
    make_director(invitation.club, user, by=user, email=invitation.email)


def _link_member(user, invitation: Invitation) -> None:
    """Invitation to a member's login: `user`, who holds the link, becomes the login of the member."""
    member = Member.objects.select_for_update().get(pk=invitation.member_id)
    other = Member.objects.filter(user=user).exclude(pk=member.pk).select_related("club").first()
    if other is not None:
        raise ValidationError(
            _("Your account is already the login of %(member)s (%(club)s).")
            % {"member": other.full_name, "club": other.club.name}
        )
    before = values(member, "user")
    member.user = user
    member.save(update_fields=["user"])
    record_member_login(user, member, before)


@require_http_methods(["GET", "POST"])
def accept_invitation(request, token):
    """Accept an invitation: logged in, with one click; otherwise by making an account (or logging in first).
    An invitation to direct the club makes the user a TD of it; one to a member's login links the account
    to that member."""
    invitation = Invitation.from_token(token)
    if invitation is None:
        problem = _("This invitation link is not valid or has expired. Ask the club's TD for a new one.")
        return _invitation_page(request, None, problem=problem, status=400)
    if problem := invitation.problem():
        return _invitation_page(request, invitation, problem=problem, status=400)
    form = None if request.user.is_authenticated else AcceptForm(request.POST or None)
    if request.method != "POST" or (form is not None and not form.is_valid()):
        return _invitation_page(request, invitation, form)
    # A new account's password is hashed (slow on purpose) before the transaction, which holds the writes.
    user = form.save(commit=False) if form is not None else request.user
    try:
        with transaction.atomic():
            locked = Invitation.objects.select_for_update(of=("self",)).select_related("club", "member")
            invitation = locked.get(pk=invitation.pk)
            if problem := invitation.problem():
                raise ValidationError(problem)
            if form is not None:
                user.email = invitation.email
                user.save()
                record_account(user, "account-created", user, None)
            if invitation.kind == Invitation.Kind.MEMBER:
                _link_member(user, invitation)
            else:
                _make_director(user, invitation)
            invitation.accepted_at = timezone.now()
            invitation.accepted_by = user
            invitation.save(update_fields=["accepted_at", "accepted_by"])
    except ValidationError as error:
        return _invitation_page(request, invitation, problem=" ".join(error.messages), status=400)
    except IntegrityError:  # the user name taken, or the account made another member's login, meanwhile
        if form is None:
            problem = _("Your account changed meanwhile: open the link again.")
            return _invitation_page(request, invitation, problem=problem, status=409)
        form.add_error("username", _("This user name was taken meanwhile: choose another."))
        return _invitation_page(request, invitation, form)
    if form is not None:
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
    if invitation.kind == Invitation.Kind.MEMBER:
        messages.success(
            request,
            _("Your account is now the login of %(member)s at %(club)s.")
            % {"member": invitation.member.full_name, "club": invitation.club.name},
        )
        return redirect("my_page")
    messages.success(request, _("You are now a TD of %(club)s.") % {"club": invitation.club.name})
    return redirect(invitation.club.get_absolute_url())


# A member's login -------------------------------------------------------------------------------


def _new_account(request, member: Member, form: NewAccountForm) -> bool:
    """Make the member a new account and link it; False (with the reason on the form) if it cannot be."""
    user = form.save(commit=False)  # the password hashed before the transaction, which holds the writes
    try:
        with transaction.atomic():
            member = Member.objects.select_for_update().get(pk=member.pk)
            if member.user_id is not None:
                raise ValidationError(_("The member has a login already: remove it first."))
            user.save()
            record_account(request.user, "account-created", user, None)
            before = values(member, "user")
            member.user = user
            member.save(update_fields=["user"])
            record_member_login(request.user, member, before)
    except ValidationError as error:
        form.add_error(None, error)
        return False
    except IntegrityError:  # the user name was taken meanwhile
        form.add_error("username", _("This user name was taken meanwhile: choose another."))
        return False
    return True


def _invite_member(request, member: Member, form: MemberInvitationForm) -> None:
    with transaction.atomic():
        invitation = Invitation.objects.create(
            club=member.club,
            kind=Invitation.Kind.MEMBER,
            member=member,
            email=form.cleaned_data["email"],
            invited_by=request.user,
        )
        record(request.user, "invite-member", member, None, {"email": invitation.email})
    _send_invitation(request, invitation)


def _remove_login(request, member: Member) -> None:
    """The member has no login any more; the account itself stays as it is."""
    with transaction.atomic():
        member = Member.objects.select_for_update().get(pk=member.pk)
        if member.user_id is not None:
            before = values(member, "user")
            member.user = None
            member.save(update_fields=["user"])
            record_member_login(request.user, member, before)


@login_required
@require_http_methods(["GET", "POST"])
def member_account(request, club, pk):
    """A member's login, for a club's TD: make the member a new account, or invite the member by e-mail to
    link the account they have (or make one); remove the login. An existing account is never changed,
    linked or shown here but through its owner's acceptance: the page shows the login's user name only."""
    club = directed_club(request, club)
    member = get_object_or_404(Member.objects.select_related("user"), club=club, pk=pk)
    action = request.POST.get("action", "") if request.method == "POST" else ""
    if action in ("account", "invite") and member.user_id is not None:
        messages.error(request, _("The member has a login already: remove it first."))
        return redirect("member_account", club.slug, member.pk)
    account_form = NewAccountForm(request.POST if action == "account" else None)
    invite_form = MemberInvitationForm(request.POST if action == "invite" else None, auto_id="id_invite_%s")
    if action == "account" and account_form.is_valid() and _new_account(request, member, account_form):
        messages.success(request, _("Login of %(name)s saved.") % {"name": member.full_name})
        return redirect("members", club.slug)
    if action == "invite" and invite_form.is_valid():
        _invite_member(request, member, invite_form)
        email = invite_form.cleaned_data["email"]
        messages.success(request, _("An invitation was sent to %(email)s.") % {"email": email})
        return redirect("member_account", club.slug, member.pk)
    if action == "remove":
        _remove_login(request, member)
        messages.success(request, _("%(name)s has no login any more.") % {"name": member.full_name})
        return redirect("member_account", club.slug, member.pk)
    return render(
        request,
        "registration/member_account.html",
        {
            "club": club,
            "member": member,
            "account_form": account_form,
            "invite_form": invite_form,
            "invitations": member.invitations.select_related("invited_by"),
            "days": settings.INVITATION_DAYS,
        },
    )


# Password reset and change ----------------------------------------------------------------------


class PasswordResetView(auth_views.PasswordResetView):
    """Django's page, with a limit per e-mail address and per client address (PASSWORD_RESET_LIMITS an
    hour), and the mail sent by the job worker: the answer is the same, in the same time, for any address."""

    def form_valid(self, form):
        email = form.cleaned_data["email"]
        asked = {"address": email, "client": client_ip(self.request)}
        limits = settings.PASSWORD_RESET_LIMITS
        if not throttle.allow("password-reset", asked, limits, settings.PASSWORD_RESET_WINDOW_SECONDS):
            form.add_error(None, _("Too many password reset mails were asked for: try again in an hour."))
            return self.render_to_response(self.get_context_data(form=form), status=429)
        request = self.request
        send_password_reset.enqueue(email, request.get_host(), request.is_secure(), translation.get_language())
        return HttpResponseRedirect(self.get_success_url())


class PasswordResetConfirmView(auth_views.PasswordResetConfirmView):
    """Django's page; the new password is recorded in the audit log (as a mark, never the password)."""

    def form_valid(self, form):
        save_new_password(form, "password-reset")
        del self.request.session[INTERNAL_RESET_SESSION_TOKEN]
        return HttpResponseRedirect(self.get_success_url())


class PasswordChangeView(auth_views.PasswordChangeView):
    """Django's page; the change is recorded in the audit log (as a mark, never the password)."""

    def form_valid(self, form):
        user = save_new_password(form, "password-change")
        update_session_auth_hash(self.request, user)  # other sessions of the user end; this one stays
        return HttpResponseRedirect(self.get_success_url())


@login_required
@require_http_methods(["GET", "POST"])
def email_change(request):
    """The user's own e-mail address (for password reset and pairing mail), confirmed with the password."""
    user = request.user
    form = EmailChangeForm(user, request.POST or None, initial={"email": user.email})
    if request.method == "POST" and form.is_valid():
        before = account_values(user)
        with transaction.atomic():
            user.email = form.cleaned_data["email"]
            user.save(update_fields=["email"])
            record_account(user, "email-change", user, before)
        messages.success(request, _("Your e-mail address is saved."))
        return redirect("email_change")
    return render(request, "registration/email_change_form.html", {"form": form})
