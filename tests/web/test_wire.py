"""Light on the wire (issue 18): compressed pages and partials, versioned static files kept by the browser."""

from __future__ import annotations

import gzip
import hashlib
import re
from pathlib import Path

import brotli

from larp.wire import MINIFIERS

STATIC = Path(__file__).resolve().parents[2] / "static"


def static_version(name: str) -> str:
    return hashlib.sha256((STATIC / name).read_bytes()).hexdigest()[:12]


def test_pages_and_htmx_partials_are_compressed(client, auth):
    """Issue 18 "Light on the wire": a page and an htmx partial come gzip-compressed to a browser that accepts
    it, and decompress to the same body the uncompressed answer has."""
    auth.login()
    plain = client.get("/challenge", headers={"Accept-Encoding": "identity"})
    assert "Content-Encoding" not in plain.headers
    packed = client.get("/challenge", headers={"Accept-Encoding": "gzip, deflate"})
    assert packed.headers["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in packed.headers["Vary"]
    page = gzip.decompress(packed.data).decode()
    assert "<h1>Challenge</h1>" in page
    assert len(packed.data) * 3 < len(page.encode()), (len(packed.data), len(page))

    partial = client.get("/challenge/search?side=challenger&challenger_q=a&category=physical&kind=contested",
                         headers={"Accept-Encoding": "gzip", "HX-Request": "true"})
    assert partial.status_code == 200
    assert partial.headers["Content-Encoding"] == "gzip"
    fragment = gzip.decompress(partial.data).decode()
    assert "Vivienne Ashcombe" in fragment and "<html" not in fragment


def test_static_urls_carry_the_content_hash_and_are_kept_for_a_year(client, auth):
    """Issue 18: every static URL a page links carries its file's content hash; that URL is cached for a year
    and never revalidated (``immutable``), so a page load re-fetches nothing unchanged."""
    auth.login()
    page = client.get("/challenge").get_data(as_text=True)
    for name in ("css/app.css", "vendor/htmx-2.0.11.min.js", "js/app.js"):
        url = f"/static/{name}?v={static_version(name)}"
        assert url in page, name
        response = client.get(url)
        assert response.status_code == 200
        cache = response.headers["Cache-Control"]
        assert {"public", "max-age=31536000", "immutable"} <= {p.strip() for p in cache.split(",")}, cache
        source = (STATIC / name).read_bytes()
        if name.startswith("vendor/"):
            assert response.data == source  # already minified: sent as it is
        else:  # ours: sent without comments (larp/wire.py MINIFIERS)
            minify = MINIFIERS[Path(name).suffix]
            assert response.data == minify(source.decode()).encode() and b"/*" not in response.data
            assert len(response.data) < 0.9 * len(source)
        response.close()


def test_a_refusal_is_compressed_too(client, auth):
    """Issue 18 (a combat-board swap at most 8 KB): flask-compress leaves 4xx answers as they are, but htmx
    swaps this app's refusals, and a refused board is the whole board; ``RefusalsCompressed`` compresses them
    and keeps their status."""
    auth.login()
    refused = client.post("/combat", data={"step": "resolve"}, headers={"HX-Request": "true", "Accept-Encoding": "gzip"})
    assert refused.status_code == 422 and refused.headers["Content-Encoding"] == "gzip"
    assert "Choose the target first." in gzip.decompress(refused.data).decode()


def test_static_urls_without_the_current_hash_are_revalidated(client):
    """Issue 18 "keep unversioned ones safe": a static URL without a version, or with an old one, is sent
    ``no-cache`` with an ETag, so the browser asks again and gets a changed file at once (a 304 otherwise)."""
    for url in ("/static/css/app.css", "/static/css/app.css?v=000000000000"):
        response = client.get(url)
        assert response.headers["Cache-Control"] == "no-cache"
        etag = response.headers["ETag"]
        response.close()
        again = client.get(url, headers={"If-None-Match": etag})
        assert again.status_code == 304


def test_static_files_are_compressed_and_leave_the_session_alone(client, auth):
    """Issue 18: a static file comes compressed (brotli here), and it neither reads nor re-sends the session
    cookie, so it is the same response for every user and the browser's cache keeps it across logins."""
    auth.login()
    name = "vendor/htmx-2.0.11.min.js"
    response = client.get(f"/static/{name}?v={static_version(name)}", headers={"Accept-Encoding": "br"})
    assert response.headers["Content-Encoding"] == "br"
    body = brotli.decompress(response.get_data())
    assert body == (STATIC / name).read_bytes()
    assert len(response.get_data()) < len(body) / 2
    assert "Set-Cookie" not in response.headers
    assert "cookie" not in response.headers.get("Vary", "").lower()


def test_the_favicon_is_part_of_the_page(client, auth):
    """Issue 18: the 200-byte icon is a data: URI in the page (Chromium fetches a linked icon on every
    navigation, cache or not), for narrators and on the player's card page alike."""
    auth.login()
    page = client.get("/challenge").get_data(as_text=True)
    icon = re.search(r'<link rel="icon" href="([^"]+)"', page).group(1)
    assert icon.startswith("data:image/svg+xml,")
    assert "/static/favicon.svg" not in page
