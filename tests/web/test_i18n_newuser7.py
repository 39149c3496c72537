"""New-user test 7's English on Portuguese and Spanish pages (issue 36): the player's rulings' summaries,
the pickers' "not checked in", the self-challenge refusal, the sheets page's setting name, the dates of a
check-in's summary and of the closed between-game actions, and the boards' hidden Enter button."""

from __future__ import annotations

import html
import re

from larp.db import db
from larp.models import Character, Ruling
from tests.support import AuthActions, make_player
from tests.web.test_i18n_screens import record_a_challenge

PT = {"Accept-Language": "pt-BR"}
ES = {"Accept-Language": "es"}


def _text(page: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", page))


def test_the_players_rulings_say_their_summaries_in_his_language(app, client, auth):
    auth.login("boss", "organiser")
    with app.app_context(), db.connection_context():
        konrad, teodor = Character.get(Character.name == "Konrad Vale"), Character.get(Character.name == "Teodor Brandt")
        kid, tid = konrad.id, teodor.id
    record_a_challenge(client, kid, tid)
    with app.app_context(), db.connection_context():
        ruling = Ruling.select().where(Ruling.kind == "challenge").order_by(Ruling.id.desc()).get()
        english, rid = ruling.summary, ruling.id
        assert ruling.summary_said
    said = re.search(r'<h2 class="ruling-summary">(.*?)(?:<span|</h2>)',
                     client.get(f"/rulings/{rid}", headers=PT).get_data(as_text=True), re.S).group(1).strip()
    assert said and said != english
    make_player(app, konrad, "pat", display_name="Pat")
    player = app.test_client()
    AuthActions(player).login("pat", "player")
    page = player.get(f"/my/characters/{kid}", headers=PT).get_data(as_text=True)
    assert _text(said) in _text(page)
    assert english not in _text(page)
    assert english in _text(player.get(f"/my/characters/{kid}").get_data(as_text=True))


def test_the_pickers_not_checked_in_mark_is_translated(app):
    from types import SimpleNamespace

    from larp.web.checkin import tonight_mark

    away = SimpleNamespace(here_tonight=0)
    with app.test_request_context("/combat", headers=PT):
        assert "não credenciado" in tonight_mark(away)
    with app.test_request_context("/combat", headers=ES):
        assert "sin acreditar" in tonight_mark(away)
    with app.test_request_context("/combat"):
        assert tonight_mark(away) == ' <span class="not-here">not checked in</span>'
        assert tonight_mark(SimpleNamespace(here_tonight=1)) == ""


def test_a_character_challenging_himself_is_told_so_in_his_language(app, client, auth):
    auth.login("boss", "organiser")
    with app.app_context(), db.connection_context():
        kid = Character.get(Character.name == "Konrad Vale").id
    page = _text(client.get(f"/challenge?challenger={kid}&defender={kid}", headers=PT).get_data(as_text=True))
    assert ("Konrad Vale já é o desafiante: um personagem não pode desafiar a si mesmo. Escolha outro defensor."
            in page)
    assert "cannot challenge themself" not in page
    english = _text(client.get(f"/challenge?challenger={kid}&defender={kid}").get_data(as_text=True))
    assert ("Konrad Vale is already the challenger: a character cannot challenge themself. Choose another defender."
            in english)


def test_the_sheets_page_names_the_paper_setting_in_spanish(client, auth):
    auth.login("boss", "organiser")
    page = _text(client.get("/sheets", headers=ES).get_data(as_text=True))
    assert "el ajuste de la crónica “Papel de las hojas de personaje impresas”" in page
    assert "Paper of printed character sheets" not in page
    english = _text(client.get("/sheets").get_data(as_text=True))
    assert "the chronicle setting “Paper of printed character sheets”" in english


def test_a_check_ins_summary_dates_its_game_session_in_the_readers_way(app, client, auth):
    from larp.services.chronicles import get_chronicle, open_game_session

    auth.login("boss", "organiser")
    with app.app_context(), db.connection_context():
        session = open_game_session(get_chronicle())
        viv = Character.get(Character.name == "Vivienne Ashcombe")
        day = session.date
    client.post("/checkin", data={"character": viv.id, "session": session.number, "how": "name"})
    with app.app_context(), db.connection_context():
        ruling = Ruling.select().where(Ruling.kind == "check_in").order_by(Ruling.id.desc()).get()
        assert ruling.summary == f"Vivienne Ashcombe checked in for Game session {session.number} ({day.isoformat()})"
    page = _text(client.get("/rulings", headers=PT).get_data(as_text=True))
    assert f"Sessão de jogo {session.number} ({day.strftime('%d/%m/%Y')})" in page
    assert day.isoformat() not in page
    assert f"Game session {session.number} ({day.isoformat()})" in _text(client.get("/rulings").get_data(as_text=True))


def test_closed_between_game_actions_say_when_in_the_readers_way(app):
    from datetime import date, timedelta

    from larp.models import GameSession
    from larp.services.between_game_actions import action_window, closes_at
    from larp.services.chronicles import chronicle_settings, get_chronicle

    with app.app_context(), db.connection_context():
        GameSession.update(date=date.today() + timedelta(days=7)).execute()
        chronicle = get_chronicle()
        settings = chronicle_settings(chronicle)
        session = GameSession.select().order_by(GameSession.number.desc()).get()
        late = closes_at(session, int(settings["between_game_actions_cutoff_hours"]), settings["time_zone"]) \
            + timedelta(minutes=5)
    with app.test_request_context("/", headers=PT), db.connection_context():
        reason = action_window(get_chronicle(), late).reason
    assert "fecharam em" in reason and re.search(r"\d\d/\d\d/\d{4} \d\d:\d\d", reason), reason
    assert not re.search(r"\d{4}-\d\d-\d\d", reason), reason
    with app.test_request_context("/"), db.connection_context():
        assert re.search(r"closed at \d{4}-\d\d-\d\d \d\d:\d\d;", action_window(get_chronicle(), late).reason)


def test_the_boards_enter_button_has_no_words_to_read(client, auth):
    auth.login("boss", "organiser")
    for path in ("/combat", "/combat/bystanders"):
        page = client.get(path, headers=PT).get_data(as_text=True)
        buttons = re.findall(r'<button[^>]*class="default-submit[^"]*"[^>]*>(.*?)</button>', page, re.S)
        assert buttons and all(not b.strip() for b in buttons), (path, buttons)
        assert all('aria-hidden="true"' in b for b in re.findall(r'<button[^>]*class="default-submit[^>]*>', page))
