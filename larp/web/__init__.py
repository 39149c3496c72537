"""Thin Flask views, one blueprint per area: parse, call a service, render."""

from __future__ import annotations

from flask import Flask


def register_blueprints(app: Flask) -> None:
    """Register every blueprint and the error handlers on ``app``."""
    from larp.web import accounts, auth, cards, challenges, characters, errors, rulings

    app.register_blueprint(auth.bp)
    app.register_blueprint(accounts.bp)
    app.register_blueprint(cards.bp)
    app.register_blueprint(challenges.bp)
    app.register_blueprint(characters.bp)
    app.register_blueprint(rulings.bp)
    errors.register(app)
    app.add_template_filter(reject_key, "reject_key")
    app.add_url_rule("/", endpoint="index", view_func=challenges.index)


def reject_key(mapping: dict, key: str) -> dict:
    """Jinja filter: ``mapping`` without ``key`` (links that clear one choice)."""
    return {k: v for k, v in mapping.items() if k != key}
