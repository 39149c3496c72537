"""The OpenAPI document's enums are the rules core's vocabularies (issue 29 item 4): every list of
words the API documents that shares two or more words with one of the core's ``Enum``s (or its
tuples of words: creatures, damage types, conditions...) is that vocabulary, whole, or one of the
subsets the core declares (the basic throws without the Bomb, the two sides, the three Attribute
categories), with at most "", "random" and null added. A member added to the core and not to the
API (or the reverse) fails here."""

from __future__ import annotations

import enum
import importlib

import pytest

from larp.rules.blood import BLOOD_CALLS
from larp.rules.challenge.types import BASIC_THROWS, SIDES
from larp.rules.health.track import CONDITIONS, DAMAGE_TYPES
from larp.rules.rulings.healing import GAMES, HEAL_KINDS
from larp.rules.torpor import TORPOR_CAUSES
from larp.sheet_entries import CATEGORIES, CREATURES

#: The rules modules whose ``Enum``s are vocabularies of the API.
ENUM_MODULES = ("larp.rules.challenge.types", "larp.rules.darkness", "larp.rules.scene",
                "larp.rules.firing_into_groups.types", "larp.rules.frenzy", "larp.rules.mass_challenge.types")
#: The core's vocabularies that are tuples of words (or a dict's keys).
TUPLES = {"CREATURES": CREATURES, "DAMAGE_TYPES": DAMAGE_TYPES, "CONDITIONS": CONDITIONS, "HEAL_KINDS": HEAL_KINDS,
          "GAMES": GAMES, "BLOOD_CALLS": tuple(BLOOD_CALLS), "TORPOR_CAUSES": TORPOR_CAUSES}
#: The subsets the core declares, that an input may take instead of the whole.
SUBSETS = [frozenset(w.value for w in BASIC_THROWS), frozenset(w.value for w in SIDES), frozenset(CATEGORIES)]
#: What an input may take beside its vocabulary: not said, drawn by the app, null.
EXTRAS = {"", "random", None}


def vocabularies() -> dict[str, frozenset[str]]:
    """Every vocabulary of the core, by name."""
    found = {name: frozenset(words) for name, words in TUPLES.items()}
    for module_name in ENUM_MODULES:
        module = importlib.import_module(module_name)
        for name, value in vars(module).items():
            if isinstance(value, type) and issubclass(value, enum.Enum) and value.__module__ == module_name:
                found[f"{module_name}.{name}"] = frozenset(str(m.value) for m in value)
    return found


def enums_in(node, path: str = ""):
    """Each ``enum`` of the document (not inside examples), with where it is."""
    if isinstance(node, dict):
        if isinstance(node.get("enum"), list):
            yield path, node["enum"]
        for key, value in node.items():
            if key not in ("example", "examples"):
                yield from enums_in(value, f"{path}/{key}")
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from enums_in(value, f"{path}[{i}]")


def stale(document) -> tuple[list[str], int]:
    """The enums that differ from the core's vocabulary they share words with, and how many were compared."""
    vocab = vocabularies()
    wrong, compared = [], 0
    for path, values in enums_in(document):
        words = frozenset(values) - EXTRAS
        # The vocabularies it is about: two words or more in common, and most of its words.
        near = {name: whole for name, whole in vocab.items()
                if len(words & whole) >= 2 and 2 * len(words & whole) > len(words)}
        if not near:
            continue
        compared += 1
        if not any(words == whole or (words in SUBSETS and words <= whole) for whole in near.values()):
            wrong.append(f"{path}: {sorted(map(str, values))} is not {' nor '.join(f'{n} {sorted(w)}' for n, w in near.items())}")
    return wrong, compared


@pytest.fixture(scope="module")
def document(tmp_path_factory):
    from tests.support import make_test_app

    app = make_test_app(tmp_path_factory.mktemp("enums"))
    return app.test_client().get("/api/v1/openapi.json").get_json()


def test_every_enum_of_the_document_is_the_cores_vocabulary(document):
    """Issue 29 item 4: the OpenAPI enums come from the core's Enums (and its tuples of words)."""
    wrong, compared = stale(document)
    assert not wrong, "\n".join(wrong)
    assert compared > 100  # darkness, range, throws, categories, creatures... on every endpoint


def test_the_check_finds_a_stale_enum(document):
    """A list that lost a member (a range band, the Bomb of a full throw) or gained one is found."""
    schema = document["components"]["schemas"]["Challenge"]["properties"]
    changed = {"components": {"a": {"enum": [w for w in schema["kind"]["enum"] if w != "simple"]},
                              "b": {"enum": ["rock", "paper", "scissors", "bomb", "dynamite"]},
                              "c": {"enum": ["hand_to_hand", "close", "near", "mid"]}}}
    wrong, compared = stale(changed)
    assert compared == 3 and len(wrong) == 3
