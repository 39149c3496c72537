"""The webhooks section of the chronicle settings page (issue 35; organisers only).

Plain forms (they work without JavaScript): make a webhook, change or delete it on its own page,
send a test, give it a new signing secret. A new secret is shown once, on the page that answers
the form (never redirected, so it never travels in the session cookie).
"""

from __future__ import annotations

from flask import Blueprint, abort, current_app, flash, g, redirect, render_template, request, url_for
from flask_babel import gettext

from larp.i18n import summary_text
from larp.services import ServiceError
from larp.services.chronicles import get_chronicle
from larp.services.records import AlreadyRecorded
from larp.services.webhooks import (change_secret, create_webhook, delete_webhook, get_webhook, send_test,
                                    update_webhook, webhook_views)
from larp.web.auth import role_required
from larp.web.settings import allow_local_webhooks, page, webhooks_section_context
from larp.webhooks.messages import stopped_reason_parts
from larp.webhooks.outbox import Policy

bp = Blueprint("webhooks", __name__)


def site_root() -> str:
    """This app's address as the organiser reached it, without the chronicle's prefix (where the
    links in a webhook's messages point when the chronicle setting ``card_base_url`` is empty)."""
    root = request.environ.get("SCRIPT_NAME", "")
    mount = request.environ.get("larp.mount")
    if mount and root.endswith(mount):
        root = root[: -len(mount)]
    return request.host_url.rstrip("/") + root


@bp.app_template_filter("stopped_words")
def stopped_words(reason: str) -> str:
    """Why a webhook was stopped (``Webhook.stopped_reason``, kept in English) in the reader's language;
    a reason the app words otherwise (an earlier version's) as it is. The status line and what the
    receiver said are its own words."""
    parts = stopped_reason_parts(reason or "")
    return reason if parts is None else " ".join(gettext(message, **params) for message, params in parts)


def _form_data() -> dict:
    form = request.form
    data = {key: form.get(key) for key in ("name", "url", "privacy", "format") if key in form}
    data["events"] = form.getlist("events")
    data["local_network"] = form.getlist("local_network")[-1] if "local_network" in form else "off"
    if "enabled" in form:
        data["enabled"] = form.getlist("enabled")[-1]
    return data


def _found(chronicle, webhook_id: int):
    """The chronicle's webhook ``webhook_id``, or a 404 page."""
    try:
        return get_webhook(chronicle, webhook_id)
    except ServiceError as exc:
        abort(exc.status, description=exc.message)


@bp.route("/settings/webhooks", methods=["POST"])
@role_required("organiser")
def create():
    """Make a webhook from the settings page's form; the answer shows its signing secret once."""
    chronicle = get_chronicle()
    try:
        hook, secret = create_webhook(chronicle, g.user, _form_data(), site_url=site_root(),
                                      allow_local=allow_local_webhooks())
    except AlreadyRecorded as exc:
        return page(chronicle, status=409, hook_error=ServiceError(
            gettext("This webhook was already made (ruling #%(id)s: %(summary)s); its secret is not shown again "
                    "(give it a new one if you need it).", id=exc.ruling.id, summary=exc.ruling.summary), status=409))
    except ServiceError as exc:
        return page(chronicle, status=exc.status, hook_error=exc, hook_form=request.form)
    return page(chronicle, issued={"hook": hook, "secret": secret, "made": True})


@bp.route("/settings/webhooks/<int:webhook_id>", methods=["GET", "POST"])
@role_required("organiser")
def edit(webhook_id: int):
    """A webhook's own page: change it (an empty address keeps the one it has), pause or resume it."""
    chronicle = get_chronicle()
    hook = _found(chronicle, webhook_id)
    error = None
    if request.method == "POST":
        try:
            hook = update_webhook(chronicle, g.user, webhook_id, _form_data(), allow_local=allow_local_webhooks())
        except ServiceError as exc:
            error = exc
        else:
            flash(gettext("Webhook “%(name)s” saved.", name=hook.name))
            return redirect(url_for("settings.edit", _anchor=f"webhook-{hook.id}"), code=303)
    view = webhook_views(chronicle, only=hook)[0]
    return render_template("settings/webhook.html", chronicle=chronicle, view=view, error=error,
                           form=request.form if error else None, **webhooks_section_context()), (error.status if error else 200)


@bp.route("/settings/webhooks/<int:webhook_id>/test", methods=["POST"])
@role_required("organiser")
def test(webhook_id: int):
    """Send the webhook a sample event now and show its answer beside it."""
    chronicle = get_chronicle()
    _found(chronicle, webhook_id)
    result = send_test(chronicle, webhook_id, Policy.from_config(current_app.config))
    return page(chronicle, tested={"id": webhook_id, "result": result})


@bp.route("/settings/webhooks/<int:webhook_id>/secret", methods=["POST"])
@role_required("organiser")
def secret(webhook_id: int):
    """Give the webhook a new signing secret and show it once."""
    chronicle = get_chronicle()
    _found(chronicle, webhook_id)
    try:
        hook, raw = change_secret(chronicle, g.user, webhook_id)
    except AlreadyRecorded as exc:
        return page(chronicle, status=409, hook_error=ServiceError(
            gettext("This secret was already changed (ruling #%(id)s); it is not shown again.", id=exc.ruling.id),
            status=409))
    return page(chronicle, issued={"hook": hook, "secret": raw, "made": False})


@bp.route("/settings/webhooks/<int:webhook_id>/delete", methods=["POST"])
@role_required("organiser")
def delete(webhook_id: int):
    """Delete the webhook (and its events not yet sent)."""
    chronicle = get_chronicle()
    try:
        record = delete_webhook(chronicle, g.user, webhook_id)
    except AlreadyRecorded as exc:
        flash(gettext("Already deleted (ruling #%(id)s).", id=exc.ruling.id))
    except ServiceError as exc:
        abort(exc.status, description=exc.message)
    else:
        flash(summary_text(record) + ".")
    return redirect(url_for("settings.edit", _anchor="webhooks"), code=303)
