"""Forms of the account pages: inviting a TD, accepting an invitation."""

from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import UserCreationForm
from django.utils.translation import gettext_lazy as _


class InvitationForm(forms.Form):
    email = forms.EmailField(label=_("E-mail address of the new TD"), max_length=254)


class AcceptForm(UserCreationForm):
    """A new account for the invitee: a user name and a password; the e-mail address is the invitation's."""

    class Meta(UserCreationForm.Meta):
        model = get_user_model()
        fields = ["username"]
