"""Light on the wire: compressed responses and versioned static files (issue 18).

- Every text response (pages, htmx partials, CSS, JavaScript, JSON, SVG) of at
  least 500 bytes is compressed by flask-compress (zstd, brotli, gzip or deflate,
  whichever the browser accepts; over plain http Chromium offers gzip and deflate).
- ``url_for('static', filename=...)`` adds ``?v=<content hash>``. A request
  carrying the file's current hash is answered ``Cache-Control: public,
  max-age=31536000, immutable``, so a tablet keeps the file between page loads
  and asks for it again only when it changes (the hash changes with the file).
  A static URL without the hash, or with a stale one, keeps Flask's default
  ``no-cache`` with an ETag: the browser revalidates it every time, so a changed
  file is never served from a stale cache (stack-notes 7.2).
- Our own stylesheets and scripts are sent without their comments and spare
  white space (rcssmin, rjsmin), so the sources keep their explanations and the
  first page is lighter (issue 18: at most 30 KB cold). ``static/vendor/`` is
  sent as it is (already minified).
"""

from __future__ import annotations

import copy
import hashlib
import mimetypes
import os
import threading
import time
from typing import Any
from urllib.parse import quote

from flask import Flask, current_app, request
from flask.sessions import SecureCookieSessionInterface
from itsdangerous import BadSignature
from flask_compress import Compress
from rcssmin import cssmin
from rjsmin import jsmin
from werkzeug.security import safe_join

class RefusalsCompressed(Compress):
    """flask-compress, which also compresses a refusal's page (a 4xx answer with a body). flask-compress
    leaves every answer outside 200-299 as it is, but htmx swaps this app's 4xx answers (the message where
    the narrator looks), and a refused combat board is as large as the board (58.9 KB raw, measured with
    10 attackers; issue 18: a combat-board swap at most 8 KB)."""

    def after_request(self, response):
        """Compress as flask-compress does, counting a 4xx answer as a 2xx one. An answer shorter than
        ``COMPRESS_MIN_SIZE`` (a redirect, a short refusal) only gets flask-compress's ``Vary`` header,
        without its reading of ``Accept-Encoding``, and an answer with no content (a poll's 204) not even
        that (issue 29: every request's work counts)."""
        if response.status_code in (204, 304):  # no content: nothing is encoded, nothing varies with it
            return response
        if (not response.is_streamed and response.content_length is not None
                and response.content_length < current_app.config["COMPRESS_MIN_SIZE"]):
            vary = response.headers.get("Vary")
            if not vary:
                response.headers["Vary"] = "Accept-Encoding"
            elif "accept-encoding" not in vary.lower():
                response.headers["Vary"] = f"{vary}, Accept-Encoding"
            return response
        status = response.status_code
        if not 400 <= status < 500:
            return super().after_request(response)
        response.status_code = 200
        try:
            return super().after_request(response)
        finally:
            response.status_code = status


compress = RefusalsCompressed()

#: One year: the longest lifetime caches honour; "immutable" stops revalidation on reload.
IMMUTABLE_SECONDS = 31_536_000


#: flask-compress settings. Brotli first, at quality 6 (measured on htmx.min.js, app.css and the
#: challenge screen: 5-10 % smaller than quality 4 for the same 0.2-2 ms); zstd at level 9 (level 3,
#: flask-compress's default, is larger than gzip). Over plain http Chromium offers only gzip and deflate.
COMPRESSION: dict[str, Any] = {
    "COMPRESS_ALGORITHM": ["br", "zstd", "gzip", "deflate"],
    "COMPRESS_BR_LEVEL": 6,
    "COMPRESS_ZSTD_LEVEL": 9,
    "COMPRESS_LEVEL": 6,
}


class StaticVersions:
    """Content hashes of the files under the static folder, recomputed when a file changes.

    Args:
        folder: the app's static folder.
    """

    def __init__(self, folder: str):
        self.folder = folder
        self._known: dict[str, tuple[float, int, str]] = {}
        self._uris: dict[str, tuple[str, str]] = {}
        self._lock = threading.Lock()

    def version(self, filename: str) -> str | None:
        """The first 12 hex digits of the SHA-256 of ``filename``'s bytes, or ``None`` if there is no such file.

        The file's modification time and size are checked on every call, so an
        edited file gets a new version without a restart.
        """
        path = safe_join(self.folder, filename)
        if path is None:
            return None
        try:
            stat = os.stat(path)
        except OSError:
            return None
        with self._lock:
            known = self._known.get(filename)
        if known and known[0] == stat.st_mtime and known[1] == stat.st_size:
            return known[2]
        digest = hashlib.sha256()
        with open(path, "rb") as handle:
            for block in iter(lambda: handle.read(65536), b""):
                digest.update(block)
        version = digest.hexdigest()[:12]
        with self._lock:
            self._known[filename] = (stat.st_mtime, stat.st_size, version)
        return version

    def data_uri(self, filename: str) -> str:
        """``filename`` as a ``data:`` URI (for the favicon: Chromium fetches a linked icon again on
        every navigation, cache or not, and a 200-byte icon costs more in headers than in bytes).

        Raises:
            FileNotFoundError: there is no such static file.
        """
        version = self.version(filename)
        if version is None:
            raise FileNotFoundError(filename)
        with self._lock:
            cached = self._uris.get(filename)
        if cached and cached[0] == version:
            return cached[1]
        path = safe_join(self.folder, filename)
        with open(path, "rb") as handle:  # type: ignore[arg-type]
            data = handle.read()
        kind = mimetypes.guess_type(filename)[0] or "application/octet-stream"
        uri = f"data:{kind},{quote(data.decode('utf-8'), safe=' /=:;,.#-')}"
        with self._lock:
            self._uris[filename] = (version, uri)
        return uri


#: How each kind of our own static file is minified before it is sent (by its name's ending).
MINIFIERS = {".css": cssmin, ".js": jsmin}


class Minified:
    """Our own CSS and JavaScript, minified once per version of the file (a :class:`StaticVersions` hash).

    Args:
        folder: the app's static folder.
        versions: its content hashes.
    """

    def __init__(self, folder: str, versions: StaticVersions):
        self.folder = folder
        self.versions = versions
        self._cache: dict[str, tuple[str, bytes]] = {}
        self._lock = threading.Lock()

    def body(self, filename: str) -> bytes | None:
        """``filename``'s minified bytes, or ``None`` for a file that is sent as it is (vendor files,
        anything but ``.css`` and ``.js``, a file that is gone)."""
        minify = MINIFIERS.get(os.path.splitext(filename)[1])
        if minify is None or filename.startswith("vendor/"):
            return None
        version = self.versions.version(filename)
        if version is None:
            return None
        with self._lock:
            cached = self._cache.get(filename)
        if cached and cached[0] == version:
            return cached[1]
        with open(safe_join(self.folder, filename), encoding="utf-8") as handle:  # type: ignore[arg-type]
            data = minify(handle.read()).encode("utf-8")
        with self._lock:
            self._cache[filename] = (version, data)
        return data


class StaticQuietSessionInterface(SecureCookieSessionInterface):
    """Flask's signed-cookie sessions, except that a static file never re-sends the cookie, an
    unchanged session's cookie is re-sent at most once every :data:`SESSION_REFRESH_SECONDS`, and a
    cookie already checked is not checked again (issue 29: checking and re-signing the cookie was
    about a third of an authenticated request's own work).

    Flask refreshes a permanent session's cookie on every response and marks it
    ``Vary: Cookie``; on a shared file that is 200 bytes of header and a cache
    entry tied to one cookie value. On every other answer a cookie re-sent each request only
    moves its 4-day expiry on by seconds: once a minute keeps it sliding all the same.

    What the cookie says is trusted only after its signature was checked once by this process,
    and only while it is younger than the session lifetime; whether its user may still work
    (logged out, deactivated, a new password...) is decided by :mod:`larp.services.session_user`
    (read again after any commit to the database), never remembered here.
    """

    def __init__(self):
        super().__init__()
        self._serializer: tuple[tuple, object] | None = None
        self._checked: dict[str, tuple[object, int]] = {}
        self._lock = threading.Lock()

    def get_signing_serializer(self, app: Flask):
        """Flask's serializer, made once for the app's keys rather than on every request (new keys:
        a new serializer, and no cookie is taken as checked any more)."""
        keys = (app.secret_key, tuple(app.config.get("SECRET_KEY_FALLBACKS") or ()))
        made = self._serializer
        if made is None or made[0] != keys:
            made = (keys, super().get_signing_serializer(app))
            with self._lock:
                self._checked.clear()
                self._serializer = made
        return made[1]

    def open_session(self, app: Flask, request):
        """The session the cookie holds; a cookie this process checked before is not checked again
        (a copy of what it held is returned while it is younger than the session lifetime)."""
        value = request.cookies.get(self.get_cookie_name(app))
        if not app.secret_key:
            return None
        if not value:
            return self.session_class()
        max_age = int(app.permanent_session_lifetime.total_seconds())
        serializer = self.get_signing_serializer(app)
        known = self._checked.get(value)
        if known is None:
            try:
                data, issued = serializer.loads(value, max_age=max_age, return_timestamp=True)
            except BadSignature:
                return self.session_class()
            known = (data, int(issued.timestamp()))
            with self._lock:
                if len(self._checked) >= CHECKED_COOKIES:
                    self._checked.clear()
                self._checked[value] = known
        data, issued = known
        if not 0 <= time.time() - issued <= max_age:
            return self.session_class()
        # A copy: the request may change its session (a flash, a scene's memory) and the next must
        # start from what the cookie says. Texts and numbers are shared as they are.
        session = self.session_class({key: item if isinstance(item, _IMMUTABLE) else copy.deepcopy(item)
                                      for key, item in data.items()})
        session.issued_at = issued  # type: ignore[attr-defined]
        return session

    def save_session(self, app: Flask, session, response) -> None:
        """Flask's, without its work when nothing is to be written (the common answer)."""
        if not session.modified and (not session or not self.should_set_cookie(app, session)):
            if session.accessed:  # as Flask's "Vary: Cookie", without parsing the header into a set
                vary = response.headers.get("Vary")
                if not vary:
                    response.headers["Vary"] = "Cookie"
                elif "cookie" not in {part.strip().lower() for part in vary.split(",")}:
                    response.headers["Vary"] = f"{vary}, Cookie"
            return
        super().save_session(app, session, response)

    def should_set_cookie(self, app: Flask, session) -> bool:
        """False for static files; else when the session changed, or (a permanent session, refreshed
        on use) when its cookie is older than :data:`SESSION_REFRESH_SECONDS`."""
        if request.endpoint == "static":
            return False
        if session.modified:
            return True
        if not (session.permanent and app.config["SESSION_REFRESH_EACH_REQUEST"]):
            return False
        issued = getattr(session, "issued_at", None)
        return issued is None or time.time() - issued >= SESSION_REFRESH_SECONDS


#: Values a session copy may share with the cookie's checked contents.
_IMMUTABLE = (str, int, float, bool, type(None))
#: How often an unchanged permanent session's cookie is re-sent to move its expiry on (seconds).
SESSION_REFRESH_SECONDS = 60
#: How many checked session cookies a process remembers (then it starts again).
CHECKED_COOKIES = 4096


def init_wire(app: Flask) -> None:
    """Install compression and versioned static URLs on ``app``.

    Compression settings (``COMPRESS_*``, flask-compress) may be overridden in
    the app's config; :data:`COMPRESSION` gives the defaults.
    """
    for key, value in COMPRESSION.items():
        app.config.setdefault(key, value)
    compress.init_app(app)
    if type(app.session_interface) is SecureCookieSessionInterface:
        app.session_interface = StaticQuietSessionInterface()
    versions = StaticVersions(app.static_folder or "static")
    app.extensions["larp.static_versions"] = versions
    app.add_template_global(versions.data_uri, "static_data_uri")
    minified = Minified(app.static_folder or "static", versions)

    @app.url_defaults
    def _static_version(endpoint: str, values: dict[str, Any]) -> None:
        if endpoint == "static" and "filename" in values and "v" not in values:
            version = versions.version(values["filename"])
            if version:
                values["v"] = version

    @app.after_request
    def _static_cache(response):
        if request.endpoint != "static" or response.status_code != 200:
            return response
        filename = (request.view_args or {}).get("filename", "")
        body = minified.body(filename)
        if body is not None and request.method == "GET":
            # Registered after flask-compress, so it runs before it: the minified body is what gets compressed.
            response.direct_passthrough = False
            response.set_data(body)
        given = request.args.get("v")
        if given and given == versions.version(filename):
            response.cache_control.no_cache = None
            response.cache_control.public = True
            response.cache_control.max_age = IMMUTABLE_SECONDS
            response.cache_control.immutable = True
        return response
