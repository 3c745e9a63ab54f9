"""Start a club on this site and give it its first TD.

    manage.py startclub "SV De Pion" --td-email anna@example.org      # invites her: a link by e-mail
    manage.py startclub "SV De Pion" --td-user anna [--td-email ...]  # her account (made if new) directs it

The invitation is the one a TD sends from the club's "Tournament directors" page: a link valid for
INVITATION_DAYS days, usable once, to make an account or log in. The command also prints the link, for a
site without EMAIL_HOST (its mails go to the log). Everything is refused, and nothing saved, when the club's
short name is taken or reserved, or a value does not fit.
"""

from __future__ import annotations

import getpass
import sys

from django.conf import settings
from django.contrib.auth import get_user_model, password_validation
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError
from django.core.validators import validate_email
from django.db import transaction

from accounts.services import create_invitation, make_director, send_invitation
from clubs.models import Club
from clubs.services import start_club
from clubs.validation import InputError


class Command(BaseCommand):
    help = "Start a club and invite (--td-email) or appoint (--td-user) its first tournament director."

    def add_arguments(self, parser):
        parser.add_argument("name", help='the club\'s name, e.g. "SV De Pion"')
        parser.add_argument("--slug", default="", help="short name in its addresses (default: made from the name)")
        parser.add_argument("--city", default="")
        parser.add_argument("--federation", default="", help="e.g. NED, DEN")
        parser.add_argument(
            "--language",
            default="",
            choices=[code for code, _name in settings.LANGUAGES],
            help="for visitors who chose none, printouts and e-mails to members without a language",
        )
        parser.add_argument("--td-email", default="", help="invite this address to direct the club")
        parser.add_argument("--td-user", default="", help="this account directs the club (new: asks its password)")

    def handle(self, *args, **options):
        email, username = options["td_email"].strip(), options["td_user"].strip()
        if not email and not username:
            raise CommandError("Name the first TD: --td-email (an invitation) or --td-user (an account).")
        if email:
            try:
                validate_email(email)
            except ValidationError:
                raise CommandError(f"--td-email: {email!r} is not an e-mail address.") from None
        user_model = get_user_model()
        user = user_model.objects.filter(username=username).first() if username else None
        password = self._new_password(username) if username and user is None else None
        club = Club(
            name=options["name"].strip(),
            slug=options["slug"].strip(),
            city=options["city"].strip(),
            federation=options["federation"].strip().upper(),
            language=options["language"],
        )
        invitation = None
        try:
            with transaction.atomic():
                club = start_club(club)
                if username:
                    if user is None:
                        user = user_model.objects.create_user(username, email=email, password=password)
                    make_director(club, user)
                else:
                    invitation = create_invitation(club, email, None)
        except InputError as error:
            raise CommandError(str(error)) from None
        self.stdout.write(f"Club {club.name!r} started: {settings.SITE_URL}{club.get_absolute_url()}")
        if invitation is not None:
            link = send_invitation(invitation, settings.SITE_URL)
            self.stdout.write(f"Invitation sent to {email}; its link, valid for {settings.INVITATION_DAYS} days:")
            self.stdout.write(link)
        else:
            self.stdout.write(f"{user.get_username()} directs it; log in at {settings.SITE_URL}/login/")

    def _new_password(self, username: str) -> str:
        """A first password for a new account, asked twice on the terminal and checked as the site checks it."""
        if not sys.stdin.isatty():
            raise CommandError(
                f"There is no account {username!r}: run the command in a terminal to give it a password, "
                "or invite the TD with --td-email."
            )
        while True:
            password = getpass.getpass(f"Password for the new account {username}: ")
            if password != getpass.getpass("The same password again: "):
                self.stderr.write("The passwords differ; try again.")
                continue
            try:
                password_validation.validate_password(password, get_user_model()(username=username))
            except ValidationError as error:
                self.stderr.write(" ".join(error.messages))
                continue
            return password
