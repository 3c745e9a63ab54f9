"""`makemessages` that also extracts the engines' note templates (`note_text(code, template)`).

The code is the message context, the English template the message id (pairing/engines/notes.py), so
the web app renders a note with `pgettext(code, template)`.
"""

from django.core.management.commands import makemessages


class Command(makemessages.Command):
    xgettext_options = [*makemessages.Command.xgettext_options, "--keyword=note_text:1c,2"]
