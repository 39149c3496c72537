"""A user's own language (issue 36 item 2): the one he reads the app in, whatever his chronicle's default."""

from __future__ import annotations

from flask_babel import gettext

from larp.i18n import LANGUAGE_NAMES, available_languages
from larp.models import User
from larp.services import ServiceError


def set_language(user: User, language: str) -> str:
    """Make ``language`` (a locale such as ``pt_BR``; "" for none of his own) the language ``user``
    reads the app in, and return it. One UPDATE of his row: two at once leave the later one.

    Raises:
        ServiceError: 422 naming the field ``language`` when it is not one the app speaks.
    """
    language = (language or "").strip()
    if language and language not in available_languages():
        spoken = ", ".join(f"{code} ({name})" for code, name in LANGUAGE_NAMES.items())
        raise ServiceError(gettext("There is no language “%(language)s” here: choose one of %(spoken)s, "
                                   "or the chronicle's.", language=language[:20], spoken=spoken), field="language")
    User.update(language=language).where(User.id == user.id).execute()
    return language


__all__ = ["set_language"]
