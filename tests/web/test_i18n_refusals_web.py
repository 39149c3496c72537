"""The services' and views' refusals and flashes in the reader's language (issue 36 item 1: "every flash and
inline message ... and refusal").

A service refuses with a phrase (``Phrase.message(N_(...), ...)``, larp.rules.explain: its English, its message id
and parameters), since it may run outside a request; the edge says it (larp.i18n.said_if_phrase): the templates'
``finalize`` hook, the API's error answer (English unless ``Accept-Language`` asks, its field names unchanged), and a
view that copies a refusal into a flash says it as it flashes (a flash is stored in the session as a plain string,
and read on the next page by the same reader). Each sample here is one module's refusal or flash as its reader meets
it, in the pseudo-locale (no English word left bare but names and the API's own field names), and a few in Portuguese
and Spanish."""

from __future__ import annotations

import html
import re

import pytest

from larp.i18n import pseudo
from larp.models import Character, User
from larp.rules.explain import Phrase
from tests.i18n_support import PSEUDO_HEADERS, bare_english

PT = {"Accept-Language": "pt-BR"}
ES = {"Accept-Language": "es"}


def flashes(page: str) -> list[str]:
    """The texts of a page's flashed messages (``<p class="flash">``), unescaped."""
    return [html.unescape(re.sub(r"<[^>]+>", "", text)).strip()
            for text in re.findall(r'<p class="flash"[^>]*>(.*?)</p>', page, re.S)]


def alerts(page: str) -> list[str]:
    """The texts of a page's inline refusals (``role="alert"``), unescaped."""
    return [html.unescape(re.sub(r"<[^>]+>", "", text)).strip()
            for text in re.findall(r'role="alert"[^>]*>(.*?)</(?:p|div|span)>', page, re.S)]


def bare(text: str, *allow: str) -> list[str]:
    """The English words left bare in ``text`` (a pseudo-locale message), but ``allow``."""
    return bare_english(f"<p>{html.escape(text)}</p>", allow=allow)


@pytest.fixture
def pseudo_client(app, client, auth):
    """An organiser's client of the test app, made to know the pseudo-locale (tests only)."""
    app.config["PSEUDO_LOCALE"] = True
    auth.login("boss", "organiser")
    return client


def konrad() -> Character:
    return Character.get(Character.name == "Konrad Vale")


# --- check-in ---------------------------------------------------------------------------------------------

def test_a_check_in_refused_by_the_api_is_english_by_default_and_spanish_when_asked(client, auth, dbconn):
    auth.login("boss", "organiser")
    default = client.post("/api/v1/check-ins", json={})
    assert default.status_code == 422
    assert default.get_json() == {"error": "Name the character by `character_id` or by `card` (one of the two).",
                                  "field": "character_id"}
    spanish = client.post("/api/v1/check-ins", json={}, headers=ES)
    assert spanish.get_json() == {"error": "Indica el personaje por `character_id` o por `card` (uno de los dos).",
                                  "field": "character_id"}
    unknown = client.post("/api/v1/check-ins", json={"card": "https://elsewhere.example/c/nothing"}, headers=PT)
    assert unknown.status_code == 404
    assert unknown.get_json()["error"] == "Nenhum cartão tem esse endereço, token ou código."


def test_a_check_in_refusal_leaves_no_english_bare_in_the_pseudo_locale(pseudo_client):
    answer = pseudo_client.post("/api/v1/check-ins", json={"card": 7}, headers=PSEUDO_HEADERS)
    assert answer.status_code == 422 and answer.get_json()["field"] == "card"
    assert not bare(answer.get_json()["error"], "card"), answer.get_json()["error"]


# --- sheets and the sheet editor -------------------------------------------------------------------------

def test_a_refusal_copied_into_a_flash_is_in_the_readers_language(pseudo_client):
    """sheets.py: "No copy was made: <the service's refusal>", the refusal said as it is flashed."""
    character_id = konrad().id
    page = pseudo_client.post(f"/characters/{character_id}/copy", data={"count": "40", "name": "Thug"},
                              headers=PSEUDO_HEADERS)
    shown = flashes(page.get_data(as_text=True))
    assert shown and all(not bare(text) for text in shown), shown


def test_a_refusal_flashed_alone_reads_in_portuguese_and_spanish(client, auth, dbconn):
    auth.login("boss", "organiser")
    character_id = konrad().id
    client.post(f"/characters/{character_id}/retire", data={"restore": "1"}, headers=PT)
    page = client.get(f"/characters/{character_id}/edit", headers=PT).get_data(as_text=True)
    assert "Konrad Vale não está aposentado." in flashes(page)
    client.post(f"/characters/{character_id}/retire", data={"restore": "1"}, headers=ES)
    page = client.get(f"/characters/{character_id}/edit", headers=ES).get_data(as_text=True)
    assert "Konrad Vale no está retirado." in flashes(page)


def test_the_sheet_editors_refusal_leaves_no_english_bare_in_the_pseudo_locale(pseudo_client):
    character_id = konrad().id
    answer = pseudo_client.post(f"/characters/{character_id}/sheet/identity",
                                data={"name": "Konrad Vale", "xp_spent": "lots"},
                                headers={**PSEUDO_HEADERS, "HX-Request": "true"})
    assert answer.status_code == 422
    page = answer.get_data(as_text=True)
    assert "⟦Éẋƥéŕíéñçé šƥéñţ ɱúšţ ƀé á ñúɱƀéŕ ƒŕóɱ 0 ţó 1000 (šúçĥ áš 2 óŕ 0.5).⟧" in page


# --- players and accounts ------------------------------------------------------------------------------

def test_the_users_pages_refusals_and_flashes_leave_no_english_bare_in_the_pseudo_locale(pseudo_client):
    """accounts.py's flashes (said when flashed) and the accounts service's refusal (a phrase, said on the page)."""
    created = pseudo_client.post("/users", data={"username": "mira", "display_name": "Mira", "role": "narrator",
                                                 "password": "correct horse battery"}, headers=PSEUDO_HEADERS)
    assert created.status_code == 303
    shown = flashes(pseudo_client.get("/users", headers=PSEUDO_HEADERS).get_data(as_text=True))
    assert shown and all(not bare(text, "mira") for text in shown), shown
    taken = pseudo_client.post("/users", data={"username": "mira", "role": "narrator"}, headers=PSEUDO_HEADERS)
    assert taken.status_code == 409
    said = pseudo("The user name %(name)s is taken.").replace("%(name)s", "mira")
    assert said in html.unescape(taken.get_data(as_text=True))


def test_a_role_change_is_flashed_in_portuguese(client, auth, dbconn):
    auth.login("boss", "organiser")
    client.post("/users", data={"username": "mira", "display_name": "Mira", "role": "narrator",
                                "password": "correct horse battery"}, headers=PT)
    mira = User.get(User.username == "mira")
    client.post(f"/users/{mira.id}/role", data={"role": "organiser"}, headers=PT)
    assert "mira agora é organizador desta crônica." in flashes(client.get("/users", headers=PT).get_data(as_text=True))
    refused = client.post(f"/users/{mira.id}/remove", data={}, headers=ES)
    assert refused.status_code == 422
    assert "Marca “Sí, sacar a Mira” para confirmar." in html.unescape(refused.get_data(as_text=True))


# --- spends and between-game actions ---------------------------------------------------------------------

def test_a_spend_refusal_is_english_without_accept_language_and_spanish_with_it(client, auth, dbconn):
    """The API's refusal (api_spends.py) in English unless asked; the spend service's, a phrase holding the
    input's label (itself a message), in the reader's language."""
    auth.login("boss", "organiser")
    english = client.get("/api/v1/spend-requests?state=lost")
    assert english.status_code == 422
    assert english.get_json()["field"] == "state"
    assert english.get_json()["error"].startswith("`state` is one of asked, ")
    spanish = client.get("/api/v1/spend-requests?state=lost", headers=ES)
    assert spanish.get_json()["error"].startswith("`state` es uno de estos: asked, ")
    note = client.post("/api/v1/spend-requests", json={"character_id": konrad().id, "kind": "willpower", "note": 5},
                       headers=PT)
    assert note.status_code == 422
    assert note.get_json() == {"error": "A nota deve ser texto.", "field": "note"}


def test_a_between_game_action_refusal_leaves_no_english_bare_in_the_pseudo_locale(pseudo_client):
    answer = pseudo_client.post("/api/v1/between-game-actions", json={"character_id": konrad().id, "text": 7},
                                headers=PSEUDO_HEADERS)
    assert answer.status_code == 422
    assert not bare(answer.get_json()["error"]), answer.get_json()["error"]
    too_long = pseudo_client.post("/api/v1/between-game-actions",
                                  json={"character_id": konrad().id, "text": "x" * 5000}, headers=PSEUDO_HEADERS)
    assert too_long.status_code == 422
    assert not bare(too_long.get_json()["error"]), too_long.get_json()["error"]


# --- the API ---------------------------------------------------------------------------------------------

def test_the_apis_own_refusals_are_english_by_default_and_in_the_asked_language(client, auth, dbconn):
    auth.login("boss", "organiser")
    body = client.post("/api/v1/check-ins", json=[1])
    assert body.status_code == 400
    assert body.get_json() == {"error": "The body must be a JSON object.", "field": None}
    assert client.post("/api/v1/check-ins", json=[1], headers=ES).get_json() == {
        "error": "El cuerpo debe ser un objeto JSON.", "field": None}
    unknown_key = client.get("/api/v1/rulings/by-token/never-sent", headers=PT)
    assert unknown_key.status_code == 404 and unknown_key.get_json()["field"] == "token"
    assert unknown_key.get_json()["error"] == "Nada foi registrado com esta chave: é seguro enviar a chamada de novo."


@pytest.mark.parametrize("path, body, field", [
    ("/api/v1/tabletop/initiative", {"combatants": "two"}, "combatants"),
    ("/api/v1/tabletop/roll", {"pool": None}, "pool"),
    ("/api/v1/rulings/1/undo", {"why": "x"}, "why"),
])
def test_the_apis_refusals_leave_no_english_bare_in_the_pseudo_locale(pseudo_client, path, body, field):
    answer = pseudo_client.post(path, json=body, headers=PSEUDO_HEADERS)
    assert answer.status_code == 422, answer.get_json()
    assert answer.get_json()["field"] == field
    assert not bare(answer.get_json()["error"], field), answer.get_json()["error"]


# --- the rest: challenges, scenes, the record, torpor, health -----------------------------------------------

def test_a_challenge_refused_by_its_service_reads_in_portuguese_and_leaves_no_english_in_the_pseudo_locale(
        client, auth, dbconn, tmp_path):
    """challenges.py: the same character on both sides, said beside the form."""
    auth.login()
    konrad_id = konrad().id
    data = {"challenger": konrad_id, "defender": konrad_id, "category": "social", "challenger_bid": "Intimidating",
            "defender_bid": "Intimidating", "challenger_throw": "rock", "defender_throw": "rock"}
    refused = client.post("/challenge", data=data, headers=PT)
    assert refused.status_code in (409, 422)
    assert "Konrad Vale não pode desafiar a si mesmo: escolha outro defensor." in html.unescape(
        refused.get_data(as_text=True))


def test_the_scenes_refusal_reads_in_spanish(client, auth, dbconn):
    auth.login()
    refused = client.post("/scenes", data={"name": "  "}, headers=ES)
    assert refused.status_code == 422
    assert "Ponle un nombre a la escena (dónde ocurre: “Salón principal”)." in html.unescape(
        refused.get_data(as_text=True))


@pytest.mark.parametrize("path, body", [
    ("/api/v1/scenes", {"name": "x" * 500}),
    ("/api/v1/rulings/999999/undo", {}),
    ("/api/v1/rulings/999999/undo", "not JSON"),
])
def test_more_refusals_leave_no_english_bare_in_the_pseudo_locale(pseudo_client, path, body):
    answer = pseudo_client.post(path, json=body, headers=PSEUDO_HEADERS) if isinstance(body, dict) \
        else pseudo_client.post(path, data=body, headers={**PSEUDO_HEADERS, "Content-Type": "text/plain"})
    assert answer.status_code in (404, 409, 415, 422), answer.get_json()
    assert not bare(answer.get_json()["error"]), answer.get_json()["error"]


def test_the_print_lists_refusal_reads_in_portuguese(client, auth, dbconn):
    """printing.py: no character ticked."""
    auth.login("boss", "organiser")
    refused = client.get("/sheets/print", headers=PT)
    assert refused.status_code == 422
    assert ("Nenhum personagem está marcado: marque as fichas a imprimir, ou imprima todas as fichas que mudaram desde "
            "a última impressão.") in html.unescape(refused.get_data(as_text=True))


def test_a_tabletop_combat_refusal_reads_in_spanish(client, auth, dbconn):
    """tabletop.py: a form that lost its combat."""
    auth.login()
    refused = client.post("/tabletop/999999/initiative", data={}, headers=ES)
    assert refused.status_code == 422
    assert "Recarga la pantalla de mesa: el formulario perdió el hilo del combate." in html.unescape(
        refused.get_data(as_text=True))


def test_a_webhook_refusal_leaves_no_english_bare_in_the_pseudo_locale(pseudo_client):
    """webhooks.py: the event labels named inside the refusal are said as their own messages."""
    answer = pseudo_client.post("/api/v1/webhooks", json={"name": "Table", "url": "https://example.org/hook",
                                                          "privacy": "public", "events": ["ruling_recorded"]},
                                headers=PSEUDO_HEADERS)
    assert answer.status_code == 422, answer.get_json()
    assert not bare(answer.get_json()["error"]), answer.get_json()["error"]
    privacy = pseudo_client.post("/api/v1/webhooks", json={"name": "Table", "url": "https://example.org/hook",
                                                           "privacy": "everyone"}, headers=PSEUDO_HEADERS)
    assert privacy.status_code == 422
    assert not bare(privacy.get_json()["error"], "staff", "public"), privacy.get_json()["error"]


def test_a_chronicle_import_refusal_reads_in_portuguese(client, auth, dbconn):
    """transfer.py: a JSON file that is no chronicle export."""
    from io import BytesIO

    auth.login("boss", "organiser")
    refused = client.post("/organise/import", data={"file": (BytesIO(b"[1, 2]"), "x.json")},
                          content_type="multipart/form-data", headers=PT)
    assert refused.status_code == 422
    assert "Este arquivo não é uma exportação de crônica do larp." in html.unescape(refused.get_data(as_text=True))


def test_the_scenes_flashes_leave_no_english_bare_in_the_pseudo_locale(pseudo_client):
    """stored_scenes.py: opening, leaving a scene (said as flashed)."""
    opened = pseudo_client.post("/scenes", data={"name": "Main hall"}, headers=PSEUDO_HEADERS)
    assert opened.status_code == 303
    shown = flashes(pseudo_client.get("/scenes", headers=PSEUDO_HEADERS).get_data(as_text=True))
    assert shown and all(not bare(text, "Main hall") for text in shown), shown


def test_a_new_game_session_is_flashed_in_portuguese(client, auth, dbconn):
    """between_sessions.py: the board's flash when a game session opens."""
    auth.login("boss", "organiser")
    opened = client.post("/board/next-session", data={"date": "2031-01-10"}, headers=PT)
    assert opened.status_code == 303, opened.get_data(as_text=True)[:500]
    page = client.get("/board", headers=PT).get_data(as_text=True)
    assert any(re.match(r"Sessão de jogo \d+ \(10/01/2031\) está aberta\. \d+ personage", text)
               for text in flashes(page)), flashes(page)


# --- one refusal of each service, said in the pseudo-locale where the edge says it -----------------------

def _refusals():
    """(module, the call that refuses, words of the data or of the API the message may name)."""
    from datetime import date
    from pathlib import Path
    from types import SimpleNamespace

    from larp.i18n import N_
    from larp.services import accounts, api_tokens, backup, between_game_actions, cards, characters, checkins, \
        chronicles, downtime, experience, firing_into_groups, frenzy_state, grapevine_export, health, history, \
        import_checks, mass_challenge, memberships, printing, records, sessions, spend_requests, stored_scenes, \
        tabletop_fighters, torpor, transfer, webhooks
    from larp.web import combat_requests

    return [
        ("checkins", lambda ch, u: checkins.check_in(ch, u, konrad().id, how="shout"), ("card", "code", "name", "api", "self")),
        ("characters", lambda ch, u: characters.get_character(ch, None), ()),
        ("cards", lambda ch, u: cards.cards_to_print(ch, ["x"], "https://example.org"), ()),
        ("records", lambda ch, u: (_ for _ in ()).throw(records.AlreadyRecorded(SimpleNamespace(id=3, summary="Konrad", summary_said=None))),
         ("Konrad",)),
        ("accounts", lambda ch, u: accounts.create_user("no spaces!", "X", "narrator"), ()),
        ("memberships", lambda ch, u: memberships.staff_role("player"), ()),
        ("api_tokens", lambda ch, u: api_tokens.create_token(u, "", "narrator"), ()),
        ("spend_requests", lambda ch, u: spend_requests._note(5, "note", N_("The note")), ()),
        ("experience", lambda ch, u: experience.record_experience(ch, u, konrad().id, "found", 1, "x"), ()),
        ("between_game_actions", lambda ch, u: between_game_actions.clean_text("x" * 5000, what=N_("the answer")), ()),
        ("stored_scenes", lambda ch, u: stored_scenes.create_scene(ch, "  "), ()),
        ("history", lambda ch, u: history.undo_ruling(ch, u, None), ()),
        ("chronicles", lambda ch, u: chronicles.set_setting(ch, "nope", "x"), ("nope",)),
        ("printing", lambda ch, u: printing.batch_characters(ch, "nope", None), ("nope",)),
        ("transfer", lambda ch, u: transfer.import_chronicle([1, 2]), ()),
        ("backup", lambda ch, u: backup.backup_sqlite("postgresql://x", Path("x")), ("pg_dump",)),
        ("grapevine_export", lambda ch, u: grapevine_export.characters_named(ch, ["Nobody"]), ("Nobody",)),
        ("tabletop_fighters", lambda ch, u: tabletop_fighters.check_gear({"weapon": "laser"}, "a"), ("laser",)),
        ("frenzy_state", lambda ch, u: frenzy_state.virtue_test_of(konrad(), {"virtue": "greed"}, None),
         ("self_control", "instinct", "courage")),
        ("torpor", lambda ch, u: torpor.record_torpor(ch, u, konrad().id, "boredom", date.today()), ()),
        ("health", lambda ch, u: health.heal_character(ch, u, konrad().id, "fire", 1), ()),
        ("sessions", lambda ch, u: sessions.close_and_open(ch, u, date(2000, 1, 1)), ()),
        ("webhooks", lambda ch, u: webhooks._choice("x", webhooks.LEVELS, "privacy", "privacy level"),
         tuple(webhooks.LEVELS)),
        ("mass_challenge", lambda ch, u: mass_challenge.preview_mass_challenge(ch, combat_requests.mass_request_from_json(
            {"target": {"character_id": konrad().id}, "attackers": [{"character_id": konrad().id}]}), None),
         ("Konrad", "Vale")),
        ("firing_into_groups", lambda ch, u: firing_into_groups.preview_firing_into_groups(
            ch, combat_requests.firing_into_groups_request_from_json(
                {"firer": {"character_id": konrad().id, "weapon": "pistol"}, "bystanders": [{"character_id": 1}]}),
            None), ()),
        ("downtime", lambda ch, u: downtime.apply_aggravated_healing(ch, u, konrad().id, 1), ("Konrad", "Vale")),
        ("adjudicate", lambda ch, u: health.feed_on_victim(ch, u, konrad().id, konrad().id, 1), ()),
        ("import_checks", lambda ch, u: (_ for _ in ()).throw(
            import_checks._fail(0, "Konrad", "name", Phrase.message(N_("Choose a character.")))), ("Konrad",)),
    ]


@pytest.mark.parametrize("module, call, allow", _refusals(), ids=[case[0] for case in _refusals()])
def test_each_services_refusal_leaves_no_english_bare_in_the_pseudo_locale(app, dbconn, module, call, allow):
    from larp.i18n import said_if_phrase
    from larp.services import ServiceError
    from larp.services.accounts import create_user

    app.config["PSEUDO_LOCALE"] = True
    with app.test_request_context("/", headers=PSEUDO_HEADERS):
        organiser = create_user("boss", "Boss", "organiser", "correct horse battery")
        with pytest.raises(ServiceError) as refused:
            call(konrad().chronicle, organiser)
        said = str(said_if_phrase(refused.value.message))
    assert said.startswith("⟦"), said
    assert not bare(said, *allow), said
