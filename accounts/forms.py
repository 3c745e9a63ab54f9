"""Forms of the account pages: inviting a TD, accepting an invitation, a member's new account, asking for a
password reset, a new club with its first TD."""

from django import forms
from django.contrib.auth import forms as auth_forms
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import UserCreationForm
from django.core.exceptions import ValidationError
from django.utils import translation
from django.utils.text import slugify
from django.utils.translation import gettext_lazy as _

from clubs.languages import language_of
from clubs.models import Club
from clubs.services import club_slug_problem


class InvitationForm(forms.Form):
    email = forms.EmailField(label=_("E-mail address of the new TD"), max_length=254)


class MemberInvitationForm(forms.Form):
    """The member's own e-mail address, to send the link that links (or makes) their account."""

    email = forms.EmailField(label=_("E-mail address of the member"), max_length=254)


class AcceptForm(UserCreationForm):
    """A new account for the invitee: a user name and a password; the e-mail address is the invitation's."""

    class Meta(UserCreationForm.Meta):
        model = get_user_model()
        fields = ["username"]


class NewAccountForm(UserCreationForm):
    """A new account a club's TD makes for a member: a user name nobody has, an e-mail address, a first
    password. Only new accounts: an account that exists is linked by its owner, through an invitation."""

    class Meta(UserCreationForm.Meta):
        model = get_user_model()
        fields = ["username", "email"]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["email"].required = False
        self.fields["password1"].label = _("First password")

    def clean_username(self):
        """A name no account has, in any case: the page never reaches an account that exists."""
        username = self.cleaned_data.get("username")
        if username and self._meta.model.objects.filter(username__iexact=username).exists():
            raise ValidationError(
                _(
                    "The user name %(name)s is taken: choose another. If it is the member's own account, "
                    "invite the member by e-mail to link it."
                ),
                params={"name": username},
            )
        return username


class EmailChangeForm(forms.Form):
    """The account's own e-mail address, changed by its owner, who confirms with the password."""

    email = forms.EmailField(label=_("E-mail address"), max_length=254, required=False)
    password = forms.CharField(label=_("Your password"), strip=False, widget=forms.PasswordInput)

    def __init__(self, user, *args, **kwargs):
        self.user = user
        super().__init__(*args, **kwargs)

    def clean_password(self):
        password = self.cleaned_data["password"]
        if not self.user.check_password(password):
            raise ValidationError(_("Your password was entered incorrectly."))
        return password


class PasswordResetForm(auth_forms.PasswordResetForm):
    """Django's password reset; the mail is written in the language of the account it is for (the page's
    when neither the account nor its club has one)."""

    def send_mail(self, subject_template_name, email_template_name, context, *args, **kwargs):
        with translation.override(language_of(context["user"], default=translation.get_language())):
            super().send_mail(subject_template_name, email_template_name, context, *args, **kwargs)


class NewClubForm(forms.ModelForm):
    """A new club on this site and the e-mail address of its first TD (who gets an invitation)."""

    td_email = forms.EmailField(label=_("E-mail address of its first TD"), max_length=254)

    class Meta:
        model = Club
        fields = ["name", "slug", "city", "federation", "language"]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["slug"].required = False
        self.fields["slug"].help_text = _(
            "in the club's addresses: letters, digits and hyphens; empty: made from the name"
        )

    def clean(self):
        data = super().clean()
        slug = data.get("slug") or slugify(data.get("name", ""))[:50]
        if data.get("name") is not None:
            problem = club_slug_problem(slug)
            if problem:
                self.add_error("slug", problem)
            data["slug"] = slug
            self.instance.slug = slug
        return data
