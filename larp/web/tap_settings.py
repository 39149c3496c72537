"""What a screen tap already read of its chronicle's settings, kept for the rest of its request."""

from __future__ import annotations

from flask import g


def remember_settings(chronicle, settings) -> None:
    """Keep, for the rest of this request, what the time filter (``time_zone``) and the page's language
    (``language``, :func:`larp.i18n.chronicle_language`; the time filter is ``larp.web.local_time_filter``) read of ``chronicle``'s settings, from the settings
    a tap of this request has just loaded (issue 29 item 6: the redraw reads them no second time).
    Nothing outlives the request: the next one reads the settings again."""
    g.setdefault("_larp_time_zones", {})[chronicle.id] = settings["time_zone"]
    g.setdefault("_larp_languages", {})[chronicle.id] = settings["language"]
