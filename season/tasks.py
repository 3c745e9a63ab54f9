"""Mail to members who asked for it when a round's pairings are published (run by the job worker)."""

from __future__ import annotations

from django.conf import settings
from django.core.mail import EmailMessage, get_connection
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django_tasks import task

from clubs.languages import language_of
from tournaments.models import Round

from .agenda import pairing_line
from .models import PairingMail


def recipients(rnd: Round) -> list:
    """The round's players who asked for mail and have an address (withdrawn players are not told)."""
    return [
        p
        for p in rnd.competition.participants.select_related("member__user", "member__calendar").filter(
            withdrawn_after__isnull=True, member__calendar__mail_pairings=True, member__user__isnull=False
        )
        if p.member.user.email
    ]


@task()
def send_pairing_mail(round_id: int) -> int:
    """One mail per opted-in player with his own board and a link to the round, in his language (his own,
    else his club's); sent once per round."""
    mail = PairingMail.objects.select_related("round__competition__club").filter(round_id=round_id).first()
    if mail is None or mail.sent_at is not None:
        return 0
    rnd = mail.round
    competition = rnd.competition
    link = settings.SITE_URL + reverse("pairings", args=[competition.club.slug, competition.slug, rnd.number])
    messages = []
    for participant in recipients(rnd):
        user = participant.member.user
        with translation.override(language_of(user, competition.club)):
            context = {
                "participant": participant,
                "round": rnd,
                "competition": competition,
                "link": link,
                "pairing": pairing_line(rnd, participant),
                "me": settings.SITE_URL + reverse("my_page"),
            }
            subject = _("%(competition)s: pairings of round %(n)s") % {"competition": competition.name, "n": rnd.number}
            body = render_to_string("season/pairing_mail.txt", context)
        messages.append(EmailMessage(subject, body, to=[user.email]))
    if messages:
        get_connection().send_messages(messages)
    mail.sent_at = timezone.now()
    mail.recipients = len(messages)
    mail.save(update_fields=["sent_at", "recipients"])
    return len(messages)
