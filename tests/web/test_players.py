"""Players in the app (issue 33 item 1): the player's role, his link to his characters, his pages."""

from __future__ import annotations

import pytest

from larp.db import db
from larp.models import Character, Chronicle, Membership, User
from larp.models.players import CharacterPlayer
from larp.services import ServiceError
from larp.services.memberships import ROLE_RANK
from larp.services.players import characters_of_player, own_character
from tests.support import AuthActions, make_player


def _two_characters():
    with db.connection_context():
        chronicle = Chronicle.get(Chronicle.is_demo == True)  # noqa: E712
        first, second = list(Character.select().where(Character.chronicle == chronicle).order_by(Character.id).limit(2))
        return first, second


def test_the_player_role_ranks_below_a_narrator():
    assert "player" in User.ROLES and "player" not in User.STAFF_ROLES
    assert ROLE_RANK["player"] < ROLE_RANK["narrator"] < ROLE_RANK["organiser"]


def test_a_player_is_linked_once_and_is_a_member_with_the_player_role(app):
    mine, _ = _two_characters()
    user = make_player(app, mine)
    again = make_player(app, mine)
    with db.connection_context():
        assert again.id == user.id
        assert CharacterPlayer.select().where(CharacterPlayer.user == user.id).count() == 1
        assert Membership.get(Membership.user == user.id).role == "player"


def test_own_character_finds_only_his(app):
    mine, other = _two_characters()
    user = make_player(app, mine)
    with app.test_request_context(), db.connection_context():
        assert own_character(user, mine.id).id == mine.id
        assert [c.id for c in characters_of_player(user)] == [mine.id]
        for wanted in (other.id, 999999, "x", None):
            with pytest.raises(ServiceError) as refused:
                own_character(user, wanted)
            assert refused.value.status == 404
            assert refused.value.message == "There is no such character among yours."


def test_the_player_logs_in_and_reads_his_own_character_only(app, client):
    mine, other = _two_characters()
    make_player(app, mine)
    assert AuthActions(client).login("player1", "player").status_code == 303
    home = client.get("/")
    assert home.status_code == 303 and home.headers["Location"].endswith("/my")
    listing = client.get("/my").get_data(as_text=True)
    assert mine.name in listing and other.name not in listing
    page = client.get(f"/my/characters/{mine.id}")
    body = page.get_data(as_text=True)
    assert page.status_code == 200 and mine.name in body and "Experience" in body and "Health" in body
    assert "My characters" in body and "Organise" not in body and "Challenge</a>" not in body
    refused = client.get(f"/my/characters/{other.id}")
    assert refused.status_code == 404 and other.name not in refused.get_data(as_text=True)


@pytest.mark.parametrize("path", ["/challenge", "/characters", "/users", "/settings", "/rulings", "/cards",
                                  "/account/tokens"])
def test_organisers_and_narrators_pages_refuse_a_player(app, client, path):
    mine, _ = _two_characters()
    make_player(app, mine)
    AuthActions(client).login("player1", "player")
    response = client.get(path) if path != "/account/tokens" else client.post(path, data={"name": "x", "role": "narrator"})
    assert response.status_code in (403, 404, 405), f"{path}: {response.status_code}"


def test_a_player_scanning_his_card_sees_the_players_view_not_the_narrators(app, client):
    mine, _ = _two_characters()
    make_player(app, mine)
    AuthActions(client).login("player1", "player")
    page = client.get(f"/c/{mine.card_token}")
    body = page.get_data(as_text=True)
    assert page.status_code == 200 and mine.name in body
    assert "Start a challenge" not in body and "Damage and healing" not in body and "/challenge" not in body


def test_staff_role_lists_and_appointments_refuse_the_player_role(app, client):
    AuthActions(client).login("org", "organiser")
    made = client.post("/users", data={"username": "pp", "display_name": "P", "role": "player", "password": "correct horse"})
    assert made.status_code == 422
    with db.connection_context():
        assert not User.select().where(User.username == "pp").exists()


def test_pending_counts_and_notices_read_the_request_services_when_they_exist(app, monkeypatch):
    import sys
    import types

    from larp.services import players

    mine, _ = _two_characters()
    fake = types.ModuleType("larp.services.fake_requests")
    fake.pending_count = lambda chronicle: 3
    fake.player_notices = lambda character: [("Raise Dominate: waiting", "waiting"), ("Odd", "weird")]
    monkeypatch.setitem(sys.modules, "larp.services.fake_requests", fake)
    monkeypatch.setattr(players, "REQUEST_SERVICES", {"fake": "larp.services.fake_requests",
                                                      "absent": "larp.services.no_such_requests"})
    with db.connection_context():
        assert players.pending_counts(mine.chronicle) == {"fake": 3}
        assert players.player_notices(mine) == [("Raise Dominate: waiting", "waiting"), ("Odd", "answered")]


# ---------------------------------------------------------------- item 1: linking, inviting, claiming


def _organiser(client):
    AuthActions(client).login("org", "organiser")


def test_an_organiser_links_and_unlinks_an_account_from_the_characters_page(app, client):
    from larp.services.accounts import create_user

    mine, other = _two_characters()
    with db.connection_context():
        create_user("anna", "Anna", "narrator", "correct horse", chronicle=None)  # an account of no chronicle yet
    _organiser(client)
    page = client.get(f"/characters/{mine.id}").get_data(as_text=True)
    assert 'id="players"' in page and f"/characters/{mine.id}/players" in page
    unknown = client.post(f"/characters/{mine.id}/players/link", data={"username": "nobody"})
    assert unknown.status_code == 404 and "There is no account called" in unknown.get_data(as_text=True)
    done = client.post(f"/characters/{mine.id}/players/link", data={"username": "Anna"})
    assert done.status_code == 303
    with db.connection_context():
        anna = User.get(User.username == "anna")
        assert Membership.get(Membership.user == anna.id).role == "player"
    listed = client.get(f"/characters/{mine.id}/players").get_data(as_text=True)
    assert "Anna" in listed and "Unlink anna" in listed
    assert client.post(f"/characters/{other.id}/players/{anna.id}/unlink").status_code == 404  # not his player
    assert client.post(f"/characters/{mine.id}/players/{anna.id}/unlink").status_code == 303
    with db.connection_context():
        assert not CharacterPlayer.select().where(CharacterPlayer.user == anna.id).exists()
        assert not Membership.select().where(Membership.user == anna.id).exists()  # no character: out of the chronicle


def test_a_narrator_sees_no_players_panel_and_may_not_link(app, client):
    mine, _ = _two_characters()
    AuthActions(client).login("narr", "narrator")
    assert 'id="players"' not in client.get(f"/characters/{mine.id}").get_data(as_text=True)
    assert client.get(f"/characters/{mine.id}/players").status_code == 403
    assert client.post(f"/characters/{mine.id}/players/link", data={"username": "narr"}).status_code == 403


def test_an_invitation_link_makes_the_account_and_logs_the_player_in_once(app, client):
    import re

    mine, other = _two_characters()
    _organiser(client)
    invited = client.post(f"/characters/{mine.id}/players/invite", data={"username": "bruno", "display_name": "Bruno"})
    body = invited.get_data(as_text=True)
    assert invited.status_code == 200 and "is invited to play" in body
    link = re.search(r"https?://[^<\s]+/login/link/[A-Za-z0-9_\-]+", body).group(0)
    from tests.web.test_cards_web import decode_svg
    assert decode_svg(re.search(r'class="card-qr issued-qr".*?(<svg.*?</svg>)', body, re.S).group(1)) == link
    taken = client.post(f"/characters/{other.id}/players/invite", data={"username": "bruno"})
    assert taken.status_code == 409
    AuthActions(client).logout()
    path = link.split("localhost", 1)[1]
    entered = client.get(path)
    assert entered.status_code == 303 and entered.headers["Location"].endswith("/account")
    assert client.get("/account").status_code == 200
    assert client.post("/account", data={"password": "a long secret", "repeat": "a long secret"}).status_code == 303
    listing = client.get("/my").get_data(as_text=True)
    assert mine.name in listing and other.name not in listing
    AuthActions(client).logout()
    assert client.get(path).status_code == 404  # once only


def _claim_code(client, character) -> str:
    import re

    _organiser(client)
    shown = client.post(f"/characters/{character.id}/players/claim-code").get_data(as_text=True)
    AuthActions(client).logout()
    return re.search(r"<code>([A-Z0-9]{5}-[A-Z0-9]{5})</code>", shown).group(1)


def test_a_logged_in_player_claims_a_character_from_its_card_once(app, client):
    mine, other = _two_characters()
    code = _claim_code(client, other)
    make_player(app, mine)
    AuthActions(client).login("player1", "player")
    card = client.get(f"/c/{other.card_token}").get_data(as_text=True)
    assert f"/c/{other.card_token}/claim" in card and "Claim this character" in card
    wrong = client.post(f"/c/{other.card_token}/claim", data={"code": "AAAAA-AAAAA"})
    assert wrong.status_code == 422 and "does not work" in wrong.get_data(as_text=True)
    elsewhere = client.post(f"/c/{mine.card_token}/claim", data={"code": code})  # another character's code
    assert elsewhere.status_code == 422
    claimed = client.post(f"/c/{other.card_token}/claim", data={"code": code.lower().replace("-", " ")})
    assert claimed.status_code == 303 and claimed.headers["Location"].endswith(f"/my/characters/{other.id}")
    assert client.get(f"/my/characters/{other.id}").status_code == 200
    own_card = client.get(f"/c/{other.card_token}").get_data(as_text=True)
    assert "Your whole sheet" in own_card and "Claim this character" not in own_card
    with db.connection_context():
        assert CharacterPlayer.get(CharacterPlayer.character == other.id).how == "claim"
    # The same code again (another account): used.
    AuthActions(client).logout()
    again = client.post(f"/c/{other.card_token}/claim", data={"code": code, "username": "thief",
                                                               "password": "correct horse"})
    assert again.status_code == 422
    with db.connection_context():
        assert not User.select().where(User.username == "thief").exists()


def test_a_claim_without_an_account_makes_one_and_an_expired_code_fails(app, client):
    from larp.models.players import ClaimCode

    mine, other = _two_characters()
    code = _claim_code(client, mine)
    short = client.post(f"/c/{mine.card_token}/claim", data={"code": code, "username": "carla", "password": "short"})
    assert short.status_code == 422  # nothing made, and the code still works
    made = client.post(f"/c/{mine.card_token}/claim", data={"code": code, "username": "carla", "display_name": "Carla",
                                                             "password": "correct horse"})
    assert made.status_code == 303
    assert mine.name in client.get("/my").get_data(as_text=True)
    AuthActions(client).logout()
    late = _claim_code(client, other)
    with db.connection_context():
        ClaimCode.update(expires_at=ClaimCode.created_at).where(ClaimCode.used_at.is_null()).execute()
    expired = client.post(f"/c/{other.card_token}/claim", data={"code": late, "username": "dora", "password": "correct horse"})
    assert expired.status_code == 422
    assert client.get("/c/NOTACARD/claim").status_code == 404


def test_the_anonymous_card_page_is_the_players_view_with_a_claim_link_only(app, client):
    mine, _ = _two_characters()
    page = client.get(f"/c/{mine.card_token}")
    body = page.get_data(as_text=True)
    assert page.status_code == 200 and mine.name in body and "Claim this character" in body
    assert "Your whole sheet" not in body and "/my/" not in body


# ---------------------------------------------------------------- item 1: what the player reads


def test_the_player_reads_his_whole_sheet_log_rulings_and_card_but_never_narrator_notes(app, client):
    from larp.services import health
    from larp.services.experience import record_experience
    from larp.services.sheets import edit_character

    mine, other = _two_characters()
    with app.test_request_context(), db.connection_context():
        chronicle = Chronicle.get_by_id(mine.chronicle_id)
        from larp.services.history import undo_ruling
        from larp.services.sheets import sheet_of

        edit_character(chronicle, None, mine.id, {"narrator_notes": "SECRET-PLOT; he is a spy"})
        _, second = edit_character(chronicle, None, mine.id, {"notes": "Hums", "narrator_notes": "MORE-SECRET"})
        undo_ruling(chronicle, None, second.id)
        edit_character(chronicle, None, mine.id, {"notes": "Likes opera"})
        record_experience(chronicle, None, mine.id, "earned", "2.5", "Attended the Elysium")
        health.apply_damage_to(chronicle, None, mine.id, health.DamageRequest(damage_type="lethal", levels=1), None)
        health.apply_damage_to(chronicle, None, other.id, health.DamageRequest(damage_type="bashing", levels=1), None)
        sheet = sheet_of(Character.get_by_id(mine.id))
    make_player(app, mine)
    AuthActions(client).login("player1", "player")
    body = client.get(f"/my/characters/{mine.id}").get_data(as_text=True)
    assert "SECRET" not in body and "spy" not in body and "Narrator notes" not in body
    first_trait = next(t.name for c in ("physical", "social", "mental") for t in sheet.traits[c])
    assert 'id="whole-sheet"' in body and first_trait in body and "Likes opera" in body
    assert "+2.5" in body and "Attended the Elysium" in body
    assert "1 lethal" in body  # his health track tonight
    assert 'id="player-rulings"' in body and "Damage" in body and f"Undo of #{second.id}" in body
    assert "→ Likes opera" in body and "takes 1 lethal" in body
    assert mine.card_token in body and "<svg" in body
    assert other.name not in body


# ---------------------------------------------------------------- item 4: self check-in


def test_self_check_in_is_off_by_default_then_checks_in_once_with_the_doors_record(app, client):
    from larp.models import CheckIn, GameSession, Ruling
    from larp.services.chronicles import set_setting

    mine, other = _two_characters()
    make_player(app, mine)
    AuthActions(client).login("player1", "player")
    page = client.get(f"/my/characters/{mine.id}").get_data(as_text=True)
    assert "Check in for" not in page
    off = client.post(f"/my/characters/{mine.id}/check-in")
    assert off.status_code == 303
    assert "checks characters in at the door" in client.get(off.headers["Location"]).get_data(as_text=True)
    with app.test_request_context(), db.connection_context():
        set_setting(Chronicle.get_by_id(mine.chronicle_id), "players_check_in_themselves", True)
        assert CheckIn.select().count() == 0
    page = client.get(f"/my/characters/{mine.id}").get_data(as_text=True)
    assert "Check in for Game session" in page
    assert client.post(f"/my/characters/{other.id}/check-in").status_code == 404  # not his
    done = client.post(f"/my/characters/{mine.id}/check-in", data={"session": "1"})
    assert done.status_code == 303
    after = client.get(f"/my/characters/{mine.id}").get_data(as_text=True)
    assert "is checked in for Game session 1" in after and 'class="checked-in"' in after
    assert "Check in for Game session" not in after
    again = client.post(f"/my/characters/{mine.id}/check-in", data={"session": "1"})
    assert "was checked in already" in client.get(again.headers["Location"]).get_data(as_text=True)
    with db.connection_context():
        row = CheckIn.get(CheckIn.character == mine.id)
        assert row.how == "self" and row.user_name == "Player1"
        assert Ruling.select().where(Ruling.kind == "check_in").count() == 1
        assert not CheckIn.select().where(CheckIn.character == other.id).exists()
        GameSession.update(closed_at=GameSession.opened_at).execute()
    closed = client.get(f"/my/characters/{mine.id}").get_data(as_text=True)
    assert "Check in for" not in closed
    refused = client.post(f"/my/characters/{mine.id}/check-in")
    assert "No game session is open" in client.get(refused.headers["Location"]).get_data(as_text=True)


def test_self_check_in_opens_only_on_the_game_sessions_day(app, client):
    """A new user's report: closing a game session opens the next at once, two weeks ahead; a player may check
    himself in only on its day (the chronicle's time zone), and his page says when the door opens."""
    from datetime import timedelta

    from larp.models import CheckIn, GameSession
    from larp.services.chronicles import set_setting

    mine, _ = _two_characters()
    make_player(app, mine)
    AuthActions(client).login("player1", "player")
    with app.test_request_context(), db.connection_context():
        set_setting(Chronicle.get_by_id(mine.chronicle_id), "players_check_in_themselves", True)
        session = GameSession.get(GameSession.number == 1)
        ahead = session.date + timedelta(days=14)
        GameSession.update(date=ahead).where(GameSession.id == session.id).execute()
    page = client.get(f"/my/characters/{mine.id}").get_data(as_text=True)
    assert "Check in for Game session" not in page
    assert f"opens on {ahead:%A %d %B}, the day of game session 1." in page
    early = client.post(f"/my/characters/{mine.id}/check-in", data={"session": "1"})
    assert f"opens on {ahead:%A %d %B}, the day of game session 1." in client.get(
        early.headers["Location"]).get_data(as_text=True)
    with db.connection_context():
        assert not CheckIn.select().exists()


# ---------------------------------------------------------------- item 5: notices


def test_the_players_page_and_card_show_his_requests_and_organisers_see_the_queue_count(app, client, monkeypatch):
    import sys
    import types

    from larp.services import players

    mine, other = _two_characters()
    fake = types.ModuleType("larp.services.fake_queue")
    fake.pending_count = lambda chronicle: 2
    fake.player_notices = lambda character: ([("Raise Dominate to 3: waiting for an organiser", "waiting")]
                                             if character.id == mine.id else [("Other's request", "refused")])
    monkeypatch.setitem(sys.modules, "larp.services.fake_queue", fake)
    monkeypatch.setattr(players, "REQUEST_SERVICES", {"fake": "larp.services.fake_queue"})
    make_player(app, mine)
    AuthActions(client).login("player1", "player")
    page = client.get(f"/my/characters/{mine.id}").get_data(as_text=True)
    assert 'id="notices"' in page and "Raise Dominate to 3" in page and "Other's request" not in page
    assert "2 waiting" not in page  # the organisers' count is not the player's
    card = client.get(f"/c/{mine.card_token}").get_data(as_text=True)
    assert "Raise Dominate to 3" in card and 'class="badge"' in card
    # The count is of every notice, and the text the newest (a new user read "2 requests" beside one).
    assert "1 request or answer on your sheet; the newest: Raise Dominate to 3" in card
    AuthActions(client).logout()
    anonymous = client.get(f"/c/{mine.card_token}").get_data(as_text=True)
    assert "Raise Dominate" not in anonymous  # the card page without login stays as it is
    AuthActions(client).login("org", "organiser")
    top = client.get("/characters").get_data(as_text=True)
    assert 'class="badge queue-count"' in top and "2 waiting" in top
    AuthActions(client).logout()
    AuthActions(client).login("narr", "narrator")
    assert "queue-count" not in client.get("/characters").get_data(as_text=True)


def test_an_administrator_appoints_organisers_and_narrators_never_players(app, client):
    from larp.services.accounts import create_user

    with db.connection_context():
        create_user("boss", "Boss", "organiser", "correct horse", admin=True)
        chronicle = Chronicle.get(Chronicle.is_demo == True)  # noqa: E712
    AuthActions(client).login("boss", "organiser")
    page = client.get("/admin/chronicles").get_data(as_text=True)
    assert '<option value="player"' not in page
    refused = client.post(f"/admin/chronicles/{chronicle.id}/appoint", data={"username": "newbie", "role": "player"})
    assert refused.status_code == 422 and "The role is organiser or narrator." in refused.get_data(as_text=True)
    with db.connection_context():
        assert not User.select().where(User.username == "newbie").exists()
