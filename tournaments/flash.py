"""Messages for the next page: a refused action's reasons, one error message each."""

from django.contrib import messages
from django.core.exceptions import ValidationError


def flash_errors(request, error: ValidationError) -> None:
    for message in error.messages:
        messages.error(request, message)
