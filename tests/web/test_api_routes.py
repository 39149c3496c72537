"""The API's one route decorator (:mod:`larp.web.api_routes`): a path's parameters are documented from the
path it serves, and a request body by one helper."""

from __future__ import annotations

import re

from larp.web.api import openapi_document
from larp.web.api_routes import json_request, path_parameters


def test_path_parameters_come_from_flask_s_path():
    """``<int:name>`` is a required integer in the path, any other ``<name>`` a required string, in order."""
    assert path_parameters("/rulings/<int:ruling_id>/x/<token>") == [
        {"name": "ruling_id", "in": "path", "required": True, "schema": {"type": "integer"}},
        {"name": "token", "in": "path", "required": True, "schema": {"type": "string"}}]
    assert json_request({"$ref": "#/components/schemas/X"}, example={}, required=False) == {
        "required": False, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/X"}, "example": {}}}}


def test_every_path_parameter_is_documented_once(app):
    """Every operation documents each ``{name}`` of its path once, in the path's order; one that documents its
    own (a narrower schema: a character's id at most the database's largest) keeps it."""
    paths = openapi_document()["paths"]
    for path, operations in paths.items():
        for method, operation in operations.items():
            in_path = [p for p in operation.get("parameters", []) if p.get("in") == "path"]
            assert [p["name"] for p in in_path] == re.findall(r"{(\w+)}", path), (method, path)
    own = [p for p in paths["/characters/{character_id}"]["get"]["parameters"] if p.get("in") == "path"]
    assert own[0]["schema"]["maximum"] > 1
    token = paths["/rulings/by-token/{token}"]["get"]["parameters"][0]
    assert token["schema"]["pattern"] == "^[!-~]+$"
