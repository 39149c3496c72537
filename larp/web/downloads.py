"""A file the browser downloads: its ``Content-Disposition`` said so that any name goes through.

An HTTP header is Latin-1 (the server writes it so: waitress fails on anything else), so a name outside it
(a chronicle called "Ночи Москвы" or "東京の夜") is sent as RFC 6266's ``filename*`` in UTF-8, with an
ASCII ``filename`` beside it for the browsers that read only that one (accents folded: "São" → "Sao").
"""

from __future__ import annotations

import unicodedata
from urllib.parse import quote

from flask import Response


def file_slug(text: str, fallback: str = "chronicle") -> str:
    """``text`` as a file name's stem: lower case, its letters and digits (any script) kept, every run of
    other characters one dash ("Noites de São Paulo 🦇" → "noites-de-são-paulo"); ``fallback`` if none is left."""
    text = unicodedata.normalize("NFC", text).lower()
    slug = "".join(ch if ch.isalnum() else "-" for ch in text)
    while "--" in slug:
        slug = slug.replace("--", "-")
    return slug.strip("-") or fallback


def _ascii(name: str) -> str:
    """``name`` in ASCII for the plain ``filename``: accents folded, any other letter a dash."""
    folded = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode("ascii")
    stem, dot, suffix = folded.rpartition(".")
    stem = "-".join(part for part in "".join(ch if ch.isalnum() else "-" for ch in stem).split("-") if part)
    return f"{stem or 'download'}{dot}{suffix}" if dot else (stem or "download")


def attachment(body: str | bytes, name: str, **response: object) -> Response:
    """A response the browser saves as the file ``name`` (any script), with ``response``'s other arguments
    (``mimetype``, ``content_type``) as :class:`flask.Response` takes them."""
    try:
        name.encode("ascii")
        disposition = {"filename": name}
    except UnicodeEncodeError:
        disposition = {"filename": _ascii(name), "filename*": "UTF-8''" + quote(name, safe="!#$&+^`|~")}
    answer = Response(body, **response)
    answer.headers.set("Content-Disposition", "attachment", **disposition)
    return answer
