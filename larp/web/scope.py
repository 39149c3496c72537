"""The chronicle a request works in (issue 22), and the URLs that name it.

Every page, form and API call of a chronicle also answers under ``/chronicles/<id>/...``
(and ``/api/v1/chronicles/<id>/...``). :class:`ChronicleMount` takes that prefix off the path
before routing, so every view is written once, and puts it in the request's script root, so
every URL the page makes (``url_for``: links, forms, htmx targets, redirects) names the
chronicle too. A bookmark or a shared link opens the same chronicle on any tablet.

A path that names no chronicle (the old paths) works in the user's current chronicle: the
one he last worked in. On a server with several chronicles, a page asked for that way is
sent to its URL with the chronicle named; a one-chronicle install keeps its short paths.

Who may work in the chronicle is decided here, once for every route: a logged-in user who
is not a member gets 404 on every page, form and API path of it, as if it did not exist.
His role there (:class:`larp.models.Membership`) is the role every route's check reads
(``g.user.role``); an API token's role is capped by it.
"""

from __future__ import annotations

import re
from typing import Any, Callable

from flask import Flask, abort, g, has_request_context, redirect, request

#: ``/chronicles/<id>`` at the start of a page's path, or after ``/api/v1`` for the API.
_MOUNTED = re.compile(r"^(?P<api>/api/v1)?/chronicles/(?P<id>[1-9][0-9]{0,9})(?P<rest>/.*)?$")

#: The WSGI environ key holding the chronicle id the path named.
ENVIRON_KEY = "larp.chronicle_id"

#: Endpoints (or whole blueprints, ending in ".") that belong to no chronicle: their URLs never
#: carry one. The player's card pages find their chronicle from the card's token.
UNSCOPED = ("static", "auth.", "admin.", "accounts.account", "accounts.change_password",
            "accounts.logout_everywhere", "accounts.create_api_token", "accounts.revoke_api_token",
            "cards.card_view", "cards.card_live", "api.openapi", "api.list_chronicles_api",
            "players.claim")  # issue 33: a claim finds its chronicle from the card, as the card page


_UNSCOPED_NAMES = frozenset(name for name in UNSCOPED if not name.endswith("."))
_UNSCOPED_BLUEPRINTS = tuple(name for name in UNSCOPED if name.endswith("."))


def unscoped(endpoint: str | None) -> bool:
    """Whether ``endpoint`` belongs to no chronicle (see :data:`UNSCOPED`)."""
    if not endpoint:
        return True
    return endpoint in _UNSCOPED_NAMES or endpoint.startswith(_UNSCOPED_BLUEPRINTS)


class ChronicleMount:
    """WSGI middleware: ``/chronicles/7/characters/5`` is routed as ``/characters/5`` in chronicle 7.

    The prefix moves to ``SCRIPT_NAME`` (so ``url_for`` repeats it), and the id to
    ``environ["larp.chronicle_id"]``. For the API, ``/api/v1/chronicles/7/characters`` is routed
    as ``/api/v1/characters`` in chronicle 7 (the API's own paths name no other URL).
    """

    def __init__(self, app: Callable):
        self.app = app

    def __call__(self, environ: dict[str, Any], start_response: Callable):
        """Route the request with the chronicle taken off its path."""
        match = _MOUNTED.match(environ.get("PATH_INFO", "") or "")
        if match:
            environ[ENVIRON_KEY] = int(match["id"])
            rest = match["rest"] or "/"
            if match["api"]:
                environ["PATH_INFO"] = "/api/v1" + rest
            else:
                mount = f"/chronicles/{match['id']}"
                environ["larp.mount"] = mount
                environ["SCRIPT_NAME"] = environ.get("SCRIPT_NAME", "") + mount
                environ["PATH_INFO"] = rest
        return self.app(environ, start_response)


def mount(app: Flask) -> None:
    """Route ``/chronicles/<id>/...`` as the chronicle's pages (:class:`ChronicleMount`); call
    before wrapping in ProxyFix, which sets the forwarded prefix first."""
    app.wsgi_app = ChronicleMount(app.wsgi_app)  # type: ignore[method-assign]


def install(app: Flask) -> None:
    """Decide each request's chronicle and the user's role in it. Call after registering the
    blueprints: it runs after the hook that finds the logged-in user."""
    app.before_request(_scope_request)
    app.add_template_global(chronicle_home, "chronicle_home")
    app.teardown_request(_end_scope)
    app.context_processor(_switcher)


def chronicle_url_for(app: Flask, endpoint: str, **values: Any) -> str:
    """``url_for`` as the app builds it, without the chronicle's prefix for an endpoint that
    belongs to none (so static files are cached once, not once per chronicle)."""
    url = Flask.url_for(app, endpoint, **values)
    if not values.get("_external") and unscoped(endpoint) and has_request_context():
        mount = request.environ.get("larp.mount")
        root = request.environ.get("SCRIPT_NAME", "")
        if mount and root.endswith(mount):
            base = root[: -len(mount)]
            if url.startswith(root + "/") or url == root:
                url = base + url[len(root):]
    return url


def _scope_request():
    """Choose the chronicle of this request and the user's role in it (before every view).

    The user's chronicles with his roles come with his session (:mod:`larp.services.session_user`,
    one query for both) or, for an API token's user, from ``chronicles_of``; the rest is decided
    from them, and the switcher shows the same list. The chronicle row read there is the one the
    request's services get (:func:`larp.services.chronicles.current_chronicle`), not read again.
    """
    from larp.services.chronicles import NO_CHRONICLE, set_scope
    from larp.services.memberships import ROLE_RANK, chronicles_of, default_chronicle, remember_chronicle

    endpoint = request.endpoint
    named = request.environ.get(ENVIRON_KEY)
    g.chronicle_id = None
    if endpoint == "static":
        return None
    user = g.get("user")
    if user is None:
        # Not logged in: a page's login check sends him to the login page, and nothing of any
        # chronicle is read for him meanwhile (a card page finds its chronicle from the card).
        set_scope(named if named is not None and unscoped(endpoint) else NO_CHRONICLE)
        return None
    mine = g._my_chronicles if "_my_chronicles" in g else chronicles_of(user)
    g._my_chronicles = mine
    roles = {chronicle.id: role for chronicle, role in mine}
    by_id = {chronicle.id: chronicle for chronicle, _ in mine}
    home = default_chronicle(user, mine)
    if named is not None and named not in roles:
        abort(404, description="There is no such page in your chronicles.")
    if unscoped(endpoint):
        # Nothing of one chronicle is asked for: the title and the switcher show his current one.
        chosen = named if named is not None else (home.id if home else None)
        role = roles[named] if named is not None else max(roles.values() or [user.role], key=ROLE_RANK.get)
        set_scope(chosen if chosen is not None else NO_CHRONICLE, by_id.get(chosen))
        g.chronicle_id = chosen
        g.user = _acting(user, role)
        return None
    if named is not None:
        chronicle = by_id[named]
    else:
        if g.get("api_token") is not None and len(mine) > 1:
            listed = "; ".join(f"{chronicle.id}: {chronicle.name}" for chronicle, _ in mine)
            abort(400, description="This token's user works in several chronicles: name one in the path, "
                                   f"/api/v1/chronicles/{{id}}/... (his chronicles, by id: {listed}; "
                                   "GET /api/v1/chronicles lists them).")
        chronicle = home
        if chronicle is None:
            set_scope(NO_CHRONICLE)
            if user.is_admin and request.method == "GET" and not request.path.startswith("/api/"):
                return redirect(Flask.url_for(_app(), "admin.chronicles"))
            abort(404, description="You are not in any chronicle yet: ask an administrator to add you to one.")
        if (request.method == "GET" and not request.headers.get("HX-Request") and not request.path.startswith("/api/")
                and (len(mine) > 1 or _several_chronicles())):
            # A page of a chronicle is bookmarked and shared with its chronicle named.
            return redirect(member_url(chronicle.id))
    set_scope(chronicle.id, chronicle)
    g.chronicle_id = chronicle.id
    g.user = _acting(user, roles[chronicle.id])
    if named is not None and request.method == "GET" and not request.path.startswith("/api/"):
        remember_chronicle(user, chronicle)
    return None


def _several_chronicles() -> bool:
    """Whether the server holds more than one chronicle in use (then every page's URL names its
    chronicle, so a link shared with someone in another chronicle opens the same page). Read once a
    request: an API list of rulings asks it for each ruling's address."""
    from larp.models import Chronicle

    if "_several_chronicles" not in g:
        g._several_chronicles = Chronicle.select().where(Chronicle.archived_at.is_null()).limit(2).count() > 1
    return g._several_chronicles


def chronicle_or_none():
    """The request's chronicle, or ``None`` when the person is in none (an administrator only)."""
    from larp.services import ServiceError
    from larp.services.chronicles import current_chronicle

    try:
        return current_chronicle()
    except ServiceError:
        return None


def chronicle_home(chronicle_id: int) -> str:
    """The first page of chronicle ``chronicle_id`` (``/chronicles/<id>/``), under the server's own prefix."""
    root = request.environ.get("SCRIPT_NAME", "")
    mount = request.environ.get("larp.mount")
    if mount and root.endswith(mount):
        root = root[: -len(mount)]
    return f"{root}/chronicles/{chronicle_id}/"


def chronicle_page(chronicle_id: int, endpoint: str, **values: Any) -> str:
    """The address of a page of chronicle ``chronicle_id`` (a ruling's page, say) for an API
    answer: the API's own paths name the chronicle apart from the pages', so ``url_for`` alone
    would give the short path, which opens another chronicle's page for someone in several.
    Short when the request named no chronicle and the server holds only one."""
    url = Flask.url_for(_app(), endpoint, **values)
    if request.environ.get("larp.mount") or (request.environ.get(ENVIRON_KEY) is None and not _several_chronicles()):
        return url
    root = request.environ.get("SCRIPT_NAME", "")
    return f"{root}/chronicles/{chronicle_id}{url[len(root):] if url.startswith(root) else url}"


def member_url(chronicle_id: int) -> str:
    """This request's URL with chronicle ``chronicle_id`` named in it (``/chronicles/<id>/...``)."""
    root = request.environ.get("SCRIPT_NAME", "")
    mount = request.environ.get("larp.mount")
    if mount and root.endswith(mount):
        root = root[: -len(mount)]
    query = request.query_string.decode("latin-1")
    return f"{root}/chronicles/{chronicle_id}{request.path}" + (f"?{query}" if query else "")


def _app() -> Flask:
    from flask import current_app

    return current_app._get_current_object()  # type: ignore[attr-defined]


def _acting(user, role: str):
    """The user as this request sees him: a copy with his role in the chronicle (an API token's
    role capped by it). Never saved: his account's own fields are changed by their services."""
    from larp.models import User
    from larp.services.memberships import ROLE_RANK

    token = g.get("api_token")
    if token is not None and ROLE_RANK.get(user.role, 0) < ROLE_RANK[role]:
        role = user.role  # the token's own role (token_user put it on the copy): never above it
    if user.role == role:
        return user
    acting = User(**dict(user.__data__))
    acting.role = role
    acting._dirty.clear()
    acting.save = _not_saved  # type: ignore[method-assign]
    return acting


def _not_saved(*args, **kwargs):
    raise RuntimeError("The request's user is a copy with his role in this chronicle: it is never saved.")


def _end_scope(exc: BaseException | None) -> None:
    from larp.services.chronicles import set_scope

    set_scope(None)


def _switcher() -> dict[str, Any]:
    """Template context: ``my_chronicles`` (the switcher's list, shown when there are two or more)
    and ``current_chronicle_id``."""
    user = g.get("user")
    if user is None or request.endpoint == "static":
        return {"my_chronicles": [], "current_chronicle_id": None}
    from larp.services.memberships import chronicles_of

    if "_my_chronicles" not in g:
        g._my_chronicles = chronicles_of(user)
    return {"my_chronicles": g._my_chronicles, "current_chronicle_id": g.get("chronicle_id")}
