"""Thin Flask views, one blueprint per area: parse, call a service, render."""

from __future__ import annotations

from datetime import datetime

from flask import Flask, g
from jinja2 import pass_context
from markupsafe import Markup


def register_blueprints(app: Flask) -> None:
    """Register every blueprint and the error handlers on ``app``."""
    from larp.csrf import csrf
    from larp.rules.explain import article
    from larp.services.history import kind_label
    from larp.rules.healing import first_to_heal
    from larp.sheet_checks import TEXT_LIMITS
    from larp.web import (accounts, admin, api, auth, between_sessions, cards, challenges, characters, combat_board,
                          errors, imports, organise, prints, rulings, settings, sheets, stray_shot, submissions,
                          webhooks)
    from larp.web import api_between, api_challenges, api_characters, api_combat, api_health, api_record, api_tabletop, tabletop  # noqa: F401 - api_* add routes
    from larp.web import api_webhooks  # noqa: F401 - adds routes (issue 35)
    from larp.web import api_checkin, checkin  # noqa: F401 - game night at the door (issue 32); api_checkin adds routes
    from larp.web import api_scenes  # noqa: F401 - adds routes (issue 30 item 4)
    from larp.web import api_frenzy  # noqa: F401 - adds routes (issue 30 item 8)
    from larp.web import api_players  # noqa: F401 - adds routes (issue 33: a player's own characters)
    from larp.web import api_spends  # noqa: F401 - adds routes (issue 33 item 2)
    from larp.web import api_between_game_actions  # noqa: F401 - adds routes (issue 33 item 3)

    app.register_blueprint(auth.bp)
    app.register_blueprint(accounts.bp)
    app.register_blueprint(admin.bp)
    app.register_blueprint(cards.bp)
    app.register_blueprint(organise.bp)
    csrf.exempt(api.bp)
    app.register_blueprint(api.bp)
    app.register_blueprint(challenges.bp)
    app.register_blueprint(combat_board.bp)
    app.register_blueprint(stray_shot.bp)
    app.register_blueprint(characters.bp)
    app.register_blueprint(sheets.bp)
    app.register_blueprint(rulings.bp)
    app.register_blueprint(settings.bp)
    app.register_blueprint(webhooks.bp)
    app.register_blueprint(imports.bp)
    app.register_blueprint(tabletop.bp)
    app.register_blueprint(between_sessions.bp)
    app.register_blueprint(prints.bp)
    app.register_blueprint(checkin.bp)
    from larp.web import stored_scenes  # issue 30 item 4
    app.register_blueprint(stored_scenes.bp)
    from larp.web import turn_order  # issue 30 item 5
    app.register_blueprint(turn_order.bp)
    from larp.web import tabletop_conversion  # issue 30 item 7
    app.register_blueprint(tabletop_conversion.bp)
    from larp.web import virtue_tests  # issue 30 item 8
    app.register_blueprint(virtue_tests.bp)
    from larp.web import players  # issue 33: the player's own pages
    app.register_blueprint(players.bp)
    from larp.web import spend_requests  # issue 33 item 2
    spend_requests.register(app)
    from larp.web import between_game_actions  # issue 33 item 3
    app.register_blueprint(between_game_actions.bp)
    errors.register(app)
    submissions.register(app)
    app.add_template_filter(reject_key, "reject_key")
    app.add_template_filter(isolated_name, "bdi")  # a name inside a line of other text
    app.add_template_filter(local_time_filter, "local_time")
    app.add_template_filter(kind_label, "kind_label")
    app.add_template_filter(article, "with_article")  # "an organiser", "a narrator"
    app.add_template_global(TEXT_LIMITS, "text_limits")
    app.add_template_global(first_to_heal, "first_to_heal")
    app.add_url_rule("/", endpoint="index", view_func=challenges.index)


def isolated_name(name: object) -> Markup:
    """Jinja filter ``bdi``: a character's, player's or user's name (any text a person typed) isolated for
    bidirectional text, ``<bdi>name</bdi>`` (HTML, "the bdi element"; escaped), so that a name in Arabic or
    Hebrew shown inside a line of other words ("ليلى العمري 16:48, Organiser") neither pulls the words after
    it to its side nor takes its direction from them (new-user test 12, finding 4). The character list
    gets the same from each name standing in an element of its own; a name inside a sentence needs this.
    Only a name that could reorder the line is wrapped (:func:`larp.bidi.needs_isolation`: right-to-left
    letters or a direction control); others are only escaped. Empty stays empty."""
    from larp.bidi import needs_isolation

    if name is None or name == "":
        return Markup("")
    if not needs_isolation(str(name)):  # left-to-right letters cannot move the line around them (larp.bidi)
        return Markup("%s") % (name,)
    return Markup("<bdi>%s</bdi>") % (name,)


def reject_key(mapping: dict, key: str) -> dict:
    """Jinja filter: ``mapping`` without ``key`` (links that clear one choice)."""
    return {k: v for k, v in mapping.items() if k != key}


@pass_context
def local_time_filter(context, moment: datetime | None, fmt: str = "%Y-%m-%d %H:%M") -> str:
    """Jinja filter: a stored (UTC) time in the chronicle's time zone (setting ``time_zone``), as ``fmt``
    in English and in the reader's own shape in another language (:func:`larp.i18n.format_moment`).

    The chronicle is the template's ``chronicle``, else the request's; its zone is read once a request.
    For someone in no chronicle, the server's own time zone.
    """
    from larp.i18n import format_moment
    from larp.services.chronicles import chronicle_settings, get_chronicle, local_time

    if moment is None:
        return ""
    from larp.services import ServiceError

    try:
        chronicle = context.get("chronicle") or get_chronicle()
    except ServiceError:  # someone in no chronicle (an administrator only): the server's own zone
        return format_moment(local_time(moment, ""), fmt)
    zones = g.setdefault("_larp_time_zones", {})
    if chronicle.id not in zones:
        zones[chronicle.id] = chronicle_settings(chronicle)["time_zone"]
    return format_moment(local_time(moment, zones[chronicle.id]), fmt)
