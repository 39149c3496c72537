"""The organiser's chronicle settings page: every disputed rule, its default and its source."""

from __future__ import annotations

from itertools import groupby

from flask import Blueprint, current_app, flash, g, redirect, render_template, request, url_for
from flask_babel import gettext

from larp.i18n import N_, summary_text

from larp.rules.settings import setting_definitions
from larp.services import ServiceError
from larp.services.chronicles import chronicle_settings, get_chronicle
from larp.services.settings import update_settings
from larp.settings_messages import darkness_row_name
from larp.services.webhooks import FORMAT_WORDS, PRIVACY_WORDS, webhook_views
from larp.web.auth import role_required
from larp.webhooks.kinds import EVENTS, field_table, public_kinds

bp = Blueprint("settings", __name__)


#: The families of settings (``data/settings/<family>.toml``) as the page heads them.
FAMILY_NAMES = {
    "between_game_actions": N_("Between-game actions"), "cards": N_("Cards"), "challenge": N_("Challenge"),
    "check_in": N_("Check in"), "damage": N_("Damage"), "darkness_lists": N_("Darkness lists"),
    "experience_costs": N_("Experience costs"), "healing": N_("Healing"), "health": N_("Health"),
    "language": N_("Language"), "mass_combat": N_("Mass combat"), "players": N_("Players"), "record": N_("Record"),
    "sessions": N_("Sessions"), "sheets": N_("Sheets"), "tabletop": N_("Tabletop"), "torpor": N_("Torpor"),
}


@bp.app_template_filter("setting_family")
def family_name(family: str) -> str:
    """A family of settings as the page heads it, in the reader's language ("mass_combat" → "Mass combat");
    a family not named above as its file's name reads."""
    name = FAMILY_NAMES.get(family)
    return gettext(name) if name else family.replace("_", " ").capitalize()


@bp.app_template_filter("step_rule")
def step_rule(step) -> str:
    """The ``step_rule`` filter: a ruling's step's rule (a stored dict or a :class:`larp.rules.explain.Step`)
    as written, but a chronicle setting's source (a settings change cites it) in the reader's language."""
    get = step.get if isinstance(step, dict) else lambda name: getattr(step, name, None)
    rule, key = get("rule") or "", get("setting")
    definition = setting_definitions().get(key) if key else None
    return gettext(rule) if definition is not None and rule and rule == definition.source else rule


def _families():
    definitions = sorted(setting_definitions().values(), key=lambda d: d.family)
    return [(family, list(items)) for family, items in groupby(definitions, key=lambda d: d.family)]


def darkness_rows(definitions) -> list[dict]:
    """The darkness lists (family ``darkness_lists``, issue 37 item 13) as one table: a row per power,
    Merit or Ability, with its setting in natural darkness and in someone else's Shroud of Night
    (``None`` where the list has none: Heightened Senses in natural darkness is ``hs_dark_reduction``)."""
    rows: dict[str, dict] = {}
    for d in definitions:
        where = "natural" if d.key.endswith("_natural") else "shroud"
        stem = d.key.removesuffix(f"_{where}")
        rows.setdefault(stem, {"name": darkness_row_name(d.label), "natural": None, "shroud": None})[where] = d
    return list(rows.values())


@bp.route("/settings", methods=["GET", "POST"])
@role_required("organiser")
def edit():
    """Show every chronicle setting with its value, default and source; save changes (organisers only).

    A checkbox is preceded by a hidden "off" field of the same name, so an
    unticked box arrives as "off" and a setting missing from the form is left
    as it is. An invalid value is shown next to its field and nothing is saved.
    """
    chronicle = get_chronicle()
    error = None
    if request.method == "POST":
        submitted = {}
        for key in setting_definitions():
            values = request.form.getlist(key)
            if values:
                submitted[key] = values[-1]
        try:
            record = update_settings(chronicle, g.user, submitted)
        except ServiceError as exc:
            error = exc
        else:
            flash(summary_text(record) if record else gettext("No setting changed."))
            return redirect(url_for("settings.edit"), code=303)
    return page(chronicle, error=error, status=error.status if error else 200)


def allow_local_webhooks() -> bool:
    """Whether a webhook may point into the local network (app setting ``WEBHOOKS_LOCAL_NETWORK``, default on:
    an event's laptop often has its Discord bridge beside it; issue 35)."""
    return bool(current_app.config.get("WEBHOOKS_LOCAL_NETWORK", True))


def webhooks_section_context() -> dict:
    """What the webhooks section of the settings page (:mod:`larp.web.webhooks`) needs besides the
    webhooks themselves: the event kinds, the words for formats and privacy, the event fields."""
    return dict(event_kinds=EVENTS, public_kinds=public_kinds(), format_words=FORMAT_WORDS,
                privacy_words=PRIVACY_WORDS, allow_local=allow_local_webhooks(), event_fields=field_table())


def page(chronicle, *, error: ServiceError | None = None, status: int = 200, **extra):
    """The settings page of ``chronicle`` (with its webhooks section, issue 35: ``extra`` is what the
    webhook views show there) and its status."""
    return render_template("settings/page.html", chronicle=chronicle, families=_families(),
                           settings=chronicle_settings(chronicle), error=error, form=request.form,
                           darkness_rows=darkness_rows,
                           webhooks=webhook_views(chronicle), **{**webhooks_section_context(), **extra}), status
