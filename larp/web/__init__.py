"""Thin Flask views, one blueprint per area: parse, call a service, render."""

from __future__ import annotations

from flask import Flask


def register_blueprints(app: Flask) -> None:
    """Register every blueprint and the error handlers on ``app``."""
    from larp.app import csrf
    from larp.web import api, auth, challenges, characters, combat, errors, imports, rulings, settings
    from larp.web import api_challenges, api_health  # noqa: F401 - they add their routes to the API blueprint
    from larp.web import api_combat  # noqa: F401 - adds its routes to the API blueprint

    app.register_blueprint(auth.bp)
    csrf.exempt(api.bp)
    app.register_blueprint(api.bp)
    app.register_blueprint(challenges.bp)
    app.register_blueprint(combat.bp)
    app.register_blueprint(characters.bp)
    app.register_blueprint(rulings.bp)
    app.register_blueprint(settings.bp)
    app.register_blueprint(imports.bp)
    errors.register(app)
    app.add_template_filter(reject_key, "reject_key")
    app.add_url_rule("/", endpoint="index", view_func=challenges.index)


def reject_key(mapping: dict, key: str) -> dict:
    """Jinja filter: ``mapping`` without ``key`` (links that clear one choice)."""
    return {k: v for k, v in mapping.items() if k != key}
