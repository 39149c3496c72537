"""Game night at the door (issue 32): scan → check-in → tonight's roster → close the game session →
attendance experience written once; every refusal; what a narrator's card scan opens; two desks.

Runs on the demo chronicle: game session 1 open, ten characters with a player, none retired."""

from __future__ import annotations

import re
import threading
from datetime import date, timedelta
from decimal import Decimal

import pytest

from larp.db import db
from larp.models import AttendanceAward, Character, CheckIn, ExperienceEntry, GameSession, Ruling
from larp.services import ServiceError
from larp.services.chronicles import get_chronicle

EXPECTED = 10  # the demo's characters with a player, in play


def char(name: str) -> Character:
    """The stored character called ``name``, read now."""
    with db.connection_context():
        return Character.get(Character.name == name)


def desk_post(client, **form):
    """A tap on the desk, as htmx sends it (the work area answers)."""
    return client.post("/checkin", data={"session": "1", **form},
                       headers={"HX-Request": "true", "HX-Target": "desk-work"})


def by_name(client, text: str):
    """A name typed at the desk and Enter: the one character it names is SHOWN with his Check-in button, not
    checked in (new-user test 12); the tap on that button checks him in (how "name")."""
    shown = desk_post(client, q=text)
    ids = re.findall(r'name="character" value="(\d+)"', shown.get_data(as_text=True))
    assert len(ids) == 1 and not said(shown), (ids, said(shown))
    return desk_post(client, character=ids[0], how="name")


def said(response) -> str:
    """The desk's answer line, without its markup."""
    page = response.get_data(as_text=True)
    match = re.search(r'id="desk-result"[^>]*>\s*<p>(.*?)</p>', page, re.S)
    return re.sub(r"<[^>]+>", "", match.group(1)).strip() if match else ""


def attendance_lines(session_number: int = 1) -> list[ExperienceEntry]:
    with db.connection_context():
        return list(ExperienceEntry.select().where(ExperienceEntry.what == f"attending game session {session_number}"))


@pytest.fixture
def desk(client, auth):
    """An organiser at the desk."""
    auth.login("boss", "organiser")
    return client


def test_scan_check_in_roster_close_and_attendance_once(desk, app):
    """Issue 32 items 1, 3, 4: a scanned card's address checks in at once and says so in view; the roster
    lists him; closing the game session writes his attendance experience once, and "award now"
    afterwards gives nothing twice."""
    konrad = char("Konrad Vale")
    answer = desk_post(desk, q=f"http://laptop.local:5000/C/{konrad.card_token}")
    assert answer.status_code == 200
    assert re.fullmatch(rf"Konrad Vale checked in, \d\d:\d\d \(1 of {EXPECTED} tonight\)", said(answer)), said(answer)
    assert answer.headers.get("HX-Trigger") == "larp-door"  # this desk's roster refreshes at once
    second = by_name(desk, "Ines")  # the only name with "Ines": checked in by name
    assert said(second).startswith("Ines Castellano checked in") and f"(2 of {EXPECTED} tonight)" in said(second)
    again = desk_post(desk, character=str(konrad.id))
    assert "Konrad Vale is already checked in" in said(again) and "nothing changed" in said(again)
    first = answer.get_data(as_text=True)
    assert "is not here</span></button>" in first  # a fresh check-in can be undone from its answer...
    assert "is not here</span></button>" not in again.get_data(as_text=True)  # ...a second scan offers no Undo of it
    with db.connection_context():
        assert CheckIn.select().count() == 2
        rows = {c.character.name: c for c in CheckIn.select()}
        assert rows["Konrad Vale"].how == "card" and rows["Ines Castellano"].how == "name"
        assert rows["Konrad Vale"].user_name == "Boss"
        assert Ruling.select().where(Ruling.kind == "check_in").count() == 2
    roster = desk.get("/checkin/roster").get_data(as_text=True)
    assert f"2 of {EXPECTED}" in roster and "Konrad Vale" in roster.split('id="roster-missing"')[0]
    assert "Brujah antitribu 1" in roster and "Lasombra 1" in roster
    assert "Lys Moreau" in roster.split('id="roster-missing"')[1]  # expected, not here yet
    closed = desk.post("/board/next-session", data={"date": (date.today() + timedelta(days=14)).isoformat(),
                                                   "closing": "1", "confirm": "yes"})
    assert closed.status_code in (200, 303)
    lines = attendance_lines()
    assert sorted(line.character.name for line in lines) == ["Ines Castellano", "Konrad Vale"]
    assert all(line.amount == Decimal(1) and line.kind == "earned" for line in lines)
    with db.connection_context():
        assert ExperienceEntry.get(ExperienceEntry.what == "attending game session 1").game_session.number == 1
        session_ruling = Ruling.select().where(Ruling.kind == "session").order_by(Ruling.id.desc()).first()
        assert any("Attendance experience given to 2 characters" in step["text"] for step in session_ruling.steps)
    given = desk.post("/checkin/award", data={"session": "1"})
    assert given.status_code == 303
    assert len(attendance_lines()) == 2  # never twice for the same character and game session


def test_attendance_setting_zero_gives_nothing_and_half_points_are_exact(desk, app):
    """Issue 32 item 4: the setting ``attendance_experience`` (0 switches it off; 0.5 is half a point)."""
    from larp.services.chronicles import set_setting

    by_name(desk, "Konrad")
    with app.test_request_context(), db.connection_context():
        set_setting(get_chronicle(), "attendance_experience", "0.5")
    desk.post("/checkin/award", data={})
    assert [line.amount for line in attendance_lines()] == [Decimal("0.5")]
    by_name(desk, "Ines")
    with app.test_request_context(), db.connection_context():
        set_setting(get_chronicle(), "attendance_experience", "0")
    desk.post("/board/next-session", data={"date": (date.today() + timedelta(days=14)).isoformat(),
                                          "closing": "1", "confirm": "yes"})
    assert [line.character.name for line in attendance_lines()] == ["Konrad Vale"]


def test_every_refusal_says_why(desk, app):
    """Issue 32 item 1: retired characters, scene extras and Final Death cannot be checked in, and the desk
    says why (409, nothing recorded); a character in torpor is checked in, marked "in torpor"."""
    with db.connection_context():
        Character.update(retired_at=date(2026, 1, 1)).where(Character.name == "Lys Moreau").execute()
        Character.update(scene_extra=True).where(Character.name == "Ruth Calder").execute()
        Character.update(condition="final_death").where(Character.name == "Teodor Brandt").execute()
        Character.update(condition="torpor").where(Character.name == "Pim Halloran").execute()
    for name, words in (("Lys Moreau", "is retired"), ("Ruth Calder", "is a scene extra"),
                        ("Teodor Brandt", "has met Final Death")):
        refused = desk_post(desk, character=str(char(name).id))
        assert refused.status_code == 409
        assert words in refused.get_data(as_text=True), name
    # In the reader's language, and of no one's gender (new user 12: "he cannot play tonight", in English only).
    portuguese = desk.post("/checkin", data={"session": "1", "character": str(char("Teodor Brandt").id)},
                           headers={"HX-Request": "true", "HX-Target": "desk-work", "Accept-Language": "pt-BR"})
    assert portuguese.status_code == 409
    assert ("Teodor Brandt encontrou a Morte Final e não pode jogar esta noite: credencie o novo personagem do "
            "jogador.") in portuguese.get_data(as_text=True)
    with db.connection_context():
        assert CheckIn.select().count() == 0
    torpid = desk_post(desk, character=str(char("Pim Halloran").id))
    assert torpid.status_code == 200 and "in torpor" in said(torpid)
    assert "in torpor" in desk.get("/checkin/roster").get_data(as_text=True)


def test_undo_a_mistaken_check_in(desk, app):
    """Issue 32 item 1: a mistaken check-in is undone (the count goes down, the record says so); undoing
    twice, or after the attendance experience was given, is refused with the reason."""
    konrad = char("Konrad Vale")
    desk_post(desk, character=str(konrad.id))
    undone = desk.post(f"/checkin/{konrad.id}/undo", data={"session": "1"},
                       headers={"HX-Request": "true", "HX-Target": "desk-work"})
    assert undone.status_code == 200 and f"check-in undone (0 of {EXPECTED} tonight)" in said(undone)
    with db.connection_context():
        assert CheckIn.select().count() == 0
        assert Ruling.get(Ruling.kind == "check_in").undone_at is not None
        assert Ruling.select().where(Ruling.kind == "check_in_undone").count() == 1
    desk_post(desk, character=str(konrad.id))
    roster = desk.get("/checkin/roster").get_data(as_text=True)  # a later mistake: undone from the roster
    assert f'action="/checkin/{konrad.id}/undo"' in roster.split('id="roster-missing"')[0]
    desk.post(f"/checkin/{konrad.id}/undo", data={"session": "1"})
    twice = desk.post(f"/checkin/{konrad.id}/undo", data={"session": "1"})
    assert twice.status_code == 409 and "is not checked in" in twice.get_data(as_text=True)
    desk_post(desk, character=str(konrad.id))
    desk.post("/checkin/award", data={})
    late = desk.post(f"/checkin/{konrad.id}/undo", data={"session": "1"})
    assert late.status_code == 409 and "attendance experience" in late.get_data(as_text=True)


def test_no_game_session_open_and_a_stale_desk(desk, app):
    """Issue 32 item 1: with no game session open the desk says how to open one; a desk showing a game
    session closed since records nothing."""
    with db.connection_context():
        GameSession.update(closed_at=GameSession.opened_at).execute()
    refused = desk_post(desk, character=str(char("Konrad Vale").id))
    assert refused.status_code == 409 and "No game session is open" in refused.get_data(as_text=True)
    with db.connection_context():
        GameSession.update(closed_at=None).execute()
    stale = desk_post(desk, character=str(char("Konrad Vale").id), session="7")
    assert stale.status_code == 409 and "no longer open" in stale.get_data(as_text=True)
    with db.connection_context():
        assert CheckIn.select().count() == 0


def test_names_offer_candidates_and_an_unknown_card_is_refused(desk):
    """Issue 32 item 1: letters several names hold offer them, one tap each; a card code typed whole
    checks in; a card that opens nobody says so."""
    several = desk_post(desk, q="al")
    page = several.get_data(as_text=True)
    assert "Check in Konrad Vale" in page and "Check in Pim Halloran" in page
    assert "Check in Sister Agathe" not in page and 'id="desk-result"' not in page
    with db.connection_context():
        assert CheckIn.select().count() == 0
    found = desk.get("/checkin/find?q=ALD", headers={"HX-Request": "true"}).get_data(as_text=True)
    assert "Check in Ruth Calder" in found and "Check in Konrad Vale" not in found
    by_code = desk_post(desk, q=char("Lys Moreau").short_code.lower())
    assert said(by_code).startswith("Lys Moreau checked in")
    unknown = desk_post(desk, q="http://x/C/" + "A" * 32)
    assert unknown.status_code == 404
    nobody = desk_post(desk, q="Zebulon")
    assert nobody.status_code == 404 and "No character matches" in nobody.get_data(as_text=True)


def test_the_desk_is_for_staff_and_works_without_javascript(client, auth):
    """Issue 32 item 1: narrators and organisers keep the door; a plain post answers with the whole desk,
    its result in view."""
    assert client.get("/checkin").status_code in (302, 401)
    auth.login("nara", "narrator")
    page = client.get("/checkin").get_data(as_text=True)
    assert 'id="desk-q"' in page and "Game session 1" in page
    shown = client.post("/checkin", data={"q": "Konrad"}).get_data(as_text=True)  # a name: shown, not checked in
    assert "Check in Konrad Vale" in shown and "checked in," not in shown
    konrad = re.search(r'name="character" value="(\d+)"', shown).group(1)
    plain = client.post("/checkin", data={"character": konrad, "how": "name", "session": "1"})
    text = plain.get_data(as_text=True)
    assert plain.status_code == 200 and "<html" in text and "Konrad Vale</strong> checked in" in text
    assert 'id="desk-result"' in text and "autofocus" in text.split('id="desk-result"')[1][:200]
    assert client.post("/checkin/award", data={}).status_code == 403  # "award now" is the organisers'


def test_a_form_sent_twice_records_once(desk):
    """Issue 32 item 7 (forms): the same form again (a double tap) says he is checked in, nothing twice."""
    konrad = char("Konrad Vale")
    first = desk_post(desk, character=str(konrad.id), request_token="tap-once-0001")
    again = desk_post(desk, character=str(konrad.id), request_token="tap-once-0001")
    assert first.status_code == 200 and again.status_code == 200
    assert "already checked in" in said(again)
    with db.connection_context():
        assert Ruling.select().where(Ruling.kind == "check_in").count() == 1


def test_what_a_narrators_scan_opens(desk):
    """Issue 32 item 2: a card not checked in tonight offers "Check in" first; once he is, the card keeps
    today's order (the challenge buttons first) and says he is checked in."""
    konrad = char("Konrad Vale")
    page = desk.get(f"/C/{konrad.card_token}").get_data(as_text=True)
    assert page.index("Check in Konrad Vale") < page.index("Start a challenge")
    tapped = desk.post("/checkin", data={"character": str(konrad.id), "how": "card", "from": "card", "session": "1"},
                       headers={"HX-Request": "true", "HX-Target": "card-door"})
    assert tapped.status_code == 200 and "Checked in just now" in tapped.get_data(as_text=True)
    after = desk.get(f"/C/{konrad.card_token}").get_data(as_text=True)
    assert "Check in Konrad Vale" not in after and after.index("Start a challenge") < after.index("Checked in,")
    with db.connection_context():
        assert CheckIn.get().how == "card"


def test_two_desks_see_each_other(app, auth, client):
    """Issue 32 item 3: a desk polls the roster's fingerprint; another desk's check-in changes it (the
    poll then answers with the roster), and nothing changed answers 204."""
    auth.login("boss", "organiser")
    other = app.test_client()
    from tests.support import AuthActions

    AuthActions(other).login("nara", "narrator")
    first = client.get("/checkin").get_data(as_text=True)
    seen = re.search(r'/checkin/roster\?v=([^"&]+)', first).group(1)
    poll = {"HX-Request": "true"}
    assert client.get(f"/checkin/roster?v={seen}", headers=poll).status_code == 204
    by_name(other, "Konrad")
    changed = client.get(f"/checkin/roster?v={seen}", headers=poll)
    assert changed.status_code == 200 and "Konrad Vale" in changed.get_data(as_text=True)
    assert f"1 of {EXPECTED}" in changed.get_data(as_text=True)


def test_two_concurrent_closes_give_attendance_once(app):
    """Issue 32 item 4: two organisers close game session 1 while two others press "award now" at the
    same moment (four threads, each its own connection): every character checked in gets one line."""
    from larp.services.checkins import award_now, check_in
    from larp.services.sessions import close_and_open

    names = ("Konrad Vale", "Ines Castellano", "Lys Moreau", "Pim Halloran")
    with app.test_request_context(), db.connection_context():
        chronicle = get_chronicle()
        for name in names:
            check_in(chronicle, None, char(name).id)
    start = threading.Barrier(4)
    errors: list[BaseException] = []

    def run(action):
        try:
            with app.test_request_context(), db.connection_context():
                start.wait(timeout=10)
                action(get_chronicle())
        except ServiceError as exc:  # the second close finds game session 1 closed: 409
            if exc.status != 409:
                errors.append(exc)
        except BaseException as exc:  # noqa: BLE001 - any other failure fails the test
            errors.append(exc)

    later = date.today() + timedelta(days=14)
    actions = [lambda c: close_and_open(c, None, later, closing=1), lambda c: close_and_open(c, None, later, closing=1),
               lambda c: award_now(c, None, 1), lambda c: award_now(c, None, 1)]
    threads = [threading.Thread(target=run, args=(action,)) for action in actions]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not errors, errors
    with db.connection_context():
        assert sorted(line.character.name for line in attendance_lines()) == sorted(names)
        assert AttendanceAward.select().count() == len(names)
        assert GameSession.select().count() == 2


def test_two_desks_check_in_the_same_character_at_once(app):
    """Issue 32 item 1: two desks tap the same player at the same moment (two threads, two connections):
    one check-in and one ruling; the other desk is told he is checked in already, not an error."""
    from larp.services.checkins import check_in

    konrad = char("Konrad Vale")
    start = threading.Barrier(3)
    answers, errors = [], []

    def tap():
        try:
            with app.test_request_context(), db.connection_context():
                start.wait(timeout=10)
                answers.append(check_in(get_chronicle(), None, konrad.id).already)
        except BaseException as exc:  # noqa: BLE001 - any failure fails the test
            errors.append(exc)

    threads = [threading.Thread(target=tap) for _ in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not errors, errors
    assert sorted(answers) == [False, True, True]
    with db.connection_context():
        assert CheckIn.select().count() == 1
        assert Ruling.select().where(Ruling.kind == "check_in").count() == 1


def test_a_check_in_committed_while_ours_waits_is_the_no_op(app):
    """Issue 32 item 1, the exact check: another desk's check-in of the same character is written but not
    yet committed when ours reads (PostgreSQL: ours finds nobody, inserts and waits on the unique index,
    then fails; SQLite: ours waits to begin); either way ours answers "already checked in", one row,
    one ruling."""
    from larp.models import utcnow
    from larp.services.checkins import check_in

    konrad = char("Konrad Vale")
    written, release = threading.Event(), threading.Event()

    def other_desk():
        with app.test_request_context(), db.connection_context(), db.atomic():
            session = GameSession.get(GameSession.closed_at.is_null())
            CheckIn.create(chronicle=konrad.chronicle_id, game_session=session, character=konrad.id,
                           checked_in_at=utcnow(), how="name")
            written.set()
            release.wait(timeout=10)

    thread = threading.Thread(target=other_desk)
    thread.start()
    assert written.wait(timeout=10)
    threading.Timer(0.5, release.set).start()
    with app.test_request_context(), db.connection_context():
        result = check_in(get_chronicle(), None, konrad.id)
    thread.join(timeout=30)
    assert result.already and result.ruling is None
    with db.connection_context():
        assert CheckIn.select().count() == 1
        assert Ruling.select().where(Ruling.kind == "check_in").count() == 0


def test_the_board_and_the_character_page_say_who_attended(desk):
    """Issue 32 item 6: the board's attendance panel lists who attended each game session and gives the
    attendance experience at once ("award now"); a character's page lists the sessions he attended."""
    by_name(desk, "Konrad")
    by_name(desk, "Ines")
    board = desk.get("/board").get_data(as_text=True)
    panel = board.split('id="attendance"')[1]
    assert "2 attended" in panel and "Ines Castellano, Konrad Vale" in panel and "Award now" in panel
    done = desk.post("/checkin/award", data={"session": "1"}, follow_redirects=True).get_data(as_text=True)
    assert "Attendance experience given to 2 characters." in done
    assert "Konrad Vale <small class=\"hint\">(1 XP)</small>" in done.split('id="attendance"')[1]
    page = desk.get(f"/characters/{char('Konrad Vale').id}").get_data(as_text=True)
    attended = page.split('id="attended"')[1].split("</section>")[0]
    assert "Game session 1" in attended and "1 XP for attending" in attended
    lys = desk.get(f"/characters/{char('Lys Moreau').id}").get_data(as_text=True)
    assert "Not checked in for any game session yet." in lys


def picked(page: str) -> list[tuple[str, bool]]:
    """The pickers' matches in order: (name, marked "not checked in")."""
    rows = re.findall(r'class="pick"[^>]*>\s*<strong>([^<]+)</strong>(.*?)</(?:a|button)>', page, re.S)
    return [(name, "not checked in" in rest) for name, rest in rows]


def test_pickers_prefer_tonight(desk, app):
    """Issue 32 item 5: once the door has checked anyone in, the challenge screen's, the combat board's and the
    stray-shot screen's pickers list tonight's characters first and mark the others "not checked in"; the
    setting pickers_tonight_only lists only tonight's; before any check-in nothing changes."""
    from larp.services.chronicles import set_setting

    before = picked(desk.get("/challenge/search?side=challenger&challenger_q=a",
                             headers={"HX-Request": "true"}).get_data(as_text=True))
    begins_first = sorted((n for n, _ in before), key=lambda n: (
        0 if n.lower().startswith("a") else 1 if " a" in n.lower() else 2, n))
    assert [n for n, _ in before] == begins_first and not any(m for _, m in before)
    by_name(desk, "Teodor")
    by_name(desk, "Ruth")
    challenge = picked(desk.get("/challenge/search?side=challenger&challenger_q=a",
                                headers={"HX-Request": "true"}).get_data(as_text=True))
    assert challenge[:2] == [("Ruth Calder", False), ("Teodor Brandt", False)]
    assert len(challenge) > 2 and all(marked for _, marked in challenge[2:])
    board = picked(desk.post("/combat", data={"step": "add:hand_to_hand", "target": str(char("Konrad Vale").id),
                                               "add_q": "a"}, headers={"HX-Request": "true"}).get_data(as_text=True))
    assert [n for n, _ in board[:2]] == ["Ruth Calder", "Teodor Brandt"] and all(m for _, m in board[2:])
    stray = picked(desk.post("/combat/bystanders", data={"step": "add:near", "firer": str(char("Ruth Calder").id),
                                                         "target": str(char("Konrad Vale").id), "add_q": "a"},
                             headers={"HX-Request": "true"}).get_data(as_text=True))
    assert [n for n, _ in stray[:2]] == ["Ruth Calder", "Teodor Brandt"] and all(m for _, m in stray[2:])
    with app.test_request_context(), db.connection_context():
        set_setting(get_chronicle(), "pickers_tonight_only", "true")
    only = picked(desk.get("/challenge/search?side=challenger&challenger_q=a",
                           headers={"HX-Request": "true"}).get_data(as_text=True))
    assert only == [("Ruth Calder", False), ("Teodor Brandt", False)]


def test_a_check_in_is_sent_to_the_webhooks_that_want_it(desk, app):
    """Issue 32 with issue 35: a check-in puts one "check_in" event in the outbox of a webhook that asks for
    it (in the check-in's transaction); a second check-in, a no-op, sends nothing."""
    from larp.models import WebhookEvent
    from larp.services.webhooks import create_webhook

    with app.test_request_context(), db.connection_context():
        create_webhook(get_chronicle(), None, {"name": "Door", "url": "https://discord.com/api/webhooks/1/abc",
                                               "events": ["check_in"]})
    by_name(desk, "Konrad")
    desk_post(desk, character=str(char("Konrad Vale").id))
    with db.connection_context():
        events = list(WebhookEvent.select().where(WebhookEvent.kind == "check_in"))
        assert len(events) == 1 and events[0].payload["character"]["name"] == "Konrad Vale"
        assert events[0].payload["game_session"] == 1


def test_a_character_in_final_death_is_not_offered_and_his_card_is_not_contradicted(desk):
    """A new user's findings: a scanned card code of a character in Final Death is refused with the reason and
    nothing contradicts it ("No character matches" was shown under it); typed as a name, he is listed with the
    reason, not as a "Check in" button that is then refused."""
    with db.connection_context():
        Character.update(condition="final_death").where(Character.name == "Teodor Brandt").execute()
    scanned = desk_post(desk, q=char("Teodor Brandt").short_code)
    page = scanned.get_data(as_text=True)
    assert scanned.status_code == 409 and "has met Final Death" in page and "No character matches" not in page
    typed = desk.get("/checkin/find?q=Teodor", headers={"HX-Request": "true"}).get_data(as_text=True)
    assert "Check in Teodor Brandt" not in typed and "has met Final Death" in typed
    with db.connection_context():
        assert CheckIn.select().count() == 0


def test_the_desk_lists_names_that_begin_first_says_who_is_in_and_when_more_match(desk):
    """The desk's label asks for "the first letters of a name": names that begin with the letters come
    first, then names with a word that does, then the rest; a character checked in already is said so,
    with no button; past eight, the desk says more match."""
    page = desk.get("/checkin/find?q=a", headers={"HX-Request": "true"}).get_data(as_text=True)
    buttons = re.findall(r"Check in ([^<]+?)</span> <small>", page)
    assert buttons[:3] == ["Aldous Whitmore", "Sister Agathe", "Vivienne Ashcombe"]
    assert buttons[3:] == sorted(buttons[3:]) and "Ines Castellano" in buttons[3:]
    assert page.count('<li>') == 8 and "More characters match “a”: type more of the name." in page
    assert said(desk_post(desk, character=str(char("Aldous Whitmore").id))).startswith("Aldous Whitmore checked in")
    again = desk.get("/checkin/find?q=al", headers={"HX-Request": "true"}).get_data(as_text=True)
    assert "Aldous Whitmore is checked in already." in again and "Check in Aldous Whitmore" not in again
    assert "Check in Konrad Vale" in again and "More characters match" not in again


def test_an_empty_desk_field_says_what_was_missing(desk):
    """A tap on "Check in" with nothing in the field says that nothing came, not the field's own label again."""
    answer = desk_post(desk, q="  ")
    assert "Nothing was scanned or typed: scan a card" in answer.get_data(as_text=True)
    with db.connection_context():
        assert CheckIn.select().count() == 0


def test_the_desk_finds_a_name_accents_and_case_aside_and_by_the_players_name(desk):
    """New-user test 12, finding 10: "avila" and "ÁVILA" find "Beatriz d́Ávila" (a combining accent on the d
    too), and her player's name "Ana Lúcia" (typed "ana lucia") finds her; none of them checks her in."""
    with db.connection_context():
        Character.update(name="Beatriz d\u0301\u00c1vila", player_name="Ana L\u00facia").where(
            Character.name == "Lys Moreau").execute()
        beatriz = Character.get(Character.player_name == "Ana L\u00facia")
    for typed in ("avila", "\u00c1VILA", "d\u00e1vila", "ana lucia", "Ana L\u00facia"):
        shown = desk_post(desk, q=typed)
        page = shown.get_data(as_text=True)
        assert f'name="character" value="{beatriz.id}"' in page, typed
        assert not said(shown), typed  # shown with his button, not checked in
    with db.connection_context():
        assert CheckIn.select().count() == 0


def test_a_unique_name_prefix_and_enter_shows_him_but_a_code_checks_in_at_once(desk):
    """New-user test 12, finding 10: "gunthar w" (here "konrad v") names one character: Enter SHOWS him with his
    Check-in button and records nothing; his card code typed whole checks him in at once (the scanner's path)."""
    konrad = char("Konrad Vale")
    shown = desk_post(desk, q="konrad v")
    page = shown.get_data(as_text=True)
    assert shown.status_code == 200 and "Check in Konrad Vale" in page and not said(shown)
    with db.connection_context():
        assert CheckIn.select().count() == 0
    coded = desk_post(desk, q=konrad.short_code.lower())
    assert said(coded).startswith("Konrad Vale checked in")
    with db.connection_context():
        assert CheckIn.get().how == "code"
