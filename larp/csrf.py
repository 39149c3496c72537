"""The app's CSRF protection (Flask-WTF's ``CSRFProtect``): one object, installed by the app factory
(:func:`larp.app.create_app`) and told by :func:`larp.web.register_blueprints` which blueprint (the JSON
API, whose bodies must be JSON) it exempts. A module of its own so that neither imports the other.
"""

from __future__ import annotations

from flask_wtf.csrf import CSRFProtect

csrf = CSRFProtect()
