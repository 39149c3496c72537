"""Swaps that return only what changed (issue 18, "Light on the wire"): a pick on the challenge screen answers
that side and its dependants, a challenge still in progress answers its result alone, and the combat board's
Resolve and Record answer the result and the parts of the board the fight changed, never the whole form.
The plain full-page answers, without JavaScript, stay as they were."""

from __future__ import annotations

import re

from larp.models import Character
from tests.web.test_combat_board_web import board_fields, cast, in_progress  # noqa: F401 (cast: a fixture)
from tests.web.test_screen_flow import cid

HX = {"HX-Request": "true"}


def oob_ids(body: str) -> set[str]:
    """The ids of the elements an answer swaps out of band."""
    return set(re.findall(r'<[a-z]+\b[^>]*?\bid="([^"]+)"[^>]*hx-swap-oob', body))


def test_a_pick_swaps_only_that_side_and_what_depends_on_it(client, auth, dbconn):
    """Issue 18: picking the defender answers #side-defender, plus out of band the challenger's form (now
    carrying Konrad), the other side's scene chips only if it is still empty, the stale-data poller watching
    both, Resolve (enabled now that both can act) and the result area emptied; never the challenge form,
    the scene chips or the challenger's side, so his throw and typed call are not redrawn. The answer is
    under half of the whole screen's swap for the same state (it fails if the pick grows back to the form)."""
    auth.login()
    viv, kon = cid("Vivienne Ashcombe"), cid("Konrad Vale")
    query = f"/challenge?category=physical&kind=contested&challenger={viv}&defender={kon}"
    pick = client.get(query, headers={**HX, "HX-Target": "side-defender"})
    body = pick.get_data(as_text=True)
    assert pick.status_code == 200
    assert 'id="side-defender"' in body and "Konrad Vale" in body
    assert 'id="side-challenger"' not in body
    assert 'id="challenge-form"' not in body and "kind-chips" not in body and 'id="sides"' not in body
    assert oob_ids(body) == {"pick-challenger", "pick-defender", "stale-watch", "resolve-default", "resolve-button",
                             "ruling", "stale-warning"}
    assert re.search(rf'<form id="pick-challenger".*?name="defender" value="{kon}"', body, re.S)
    assert re.search(r'<button id="resolve-button"[^>]*>', body).group(0).count("disabled") == 0
    assert f"defender={kon}" in body[body.index('id="stale-watch"'):].split(">", 1)[0]
    assert '<div id="ruling" hx-swap-oob="innerHTML"></div>' in body
    assert pick.headers["HX-Push-Url"] == f"/challenge?category=physical&kind=contested&challenger={viv}&defender={kon}"
    whole = client.get(query, headers={**HX, "HX-Target": "main"})
    assert len(body) * 2 < len(whole.get_data(as_text=True))

    # The challenger first, with the defender still empty: the defender's "Already in this scene" chips
    # come along (without the one just picked), and Resolve stays disabled.
    client.get(f"/c/{Character.get_by_id(kon).card_token}")  # Konrad's card scanned: he is in the scene
    client.get(f"/c/{Character.get_by_id(viv).card_token}")
    first = client.get(f"/challenge?category=physical&kind=contested&challenger={viv}",
                       headers={**HX, "HX-Target": "side-challenger"}).get_data(as_text=True)
    assert "in-scene-defender" in oob_ids(first) and "action-pick" in oob_ids(first)
    chips = first[first.index('id="in-scene-defender"'):].split("</div>\n</div>", 1)[0]
    assert "Konrad Vale" in chips and "Vivienne Ashcombe" not in chips
    assert 'hx-target="#side-defender"' in chips and 'hx-include="#pick-defender"' in chips
    assert re.search(r'<button id="resolve-button"[^>]*disabled', first)


def test_without_javascript_a_pick_is_the_whole_page(client, auth, dbconn):
    """The plain fallback: the same pick without htmx is the whole screen, both sides and the form."""
    auth.login()
    body = client.get(f"/challenge?challenger={cid('Vivienne Ashcombe')}&defender={cid('Konrad Vale')}"
                      ).get_data(as_text=True)
    assert "<!doctype html>" in body and 'id="challenge-form"' in body
    assert 'id="side-challenger"' in body and 'id="side-defender"' in body and "hx-swap-oob" not in body


def test_a_challenge_in_progress_answers_its_result_alone(client, auth, dbconn):
    """Issue 18: Resolve with a retest still possible changed nothing on the sides (the choices stay in the
    form, drawn throws in the tests so far), so the answer holds the result and not the sides; Record, which
    changes the sides' Traits and health, still redraws them."""
    auth.login()
    fields = {"kind": "contested", "category": "physical", "action": "other", "defender_action": "defend",
              "challenger": cid("Vivienne Ashcombe"), "defender": cid("Konrad Vale"),
              "challenger_bid": "Quick", "defender_bid": "Brawny", "challenger_throw": "rock",
              "defender_throw": "rock"}
    resolve = client.post("/challenge", data=fields, headers=HX).get_data(as_text=True)
    assert "So far:" in resolve and 'id="sides"' not in resolve
    tests = re.search(r"name=\"tests_json\" value='([^']*)'", resolve).group(1).replace("&#34;", '"')
    record = client.post("/challenge", data={**fields, "step": "record", "tests_json": tests},
                         headers=HX).get_data(as_text=True)
    assert "Recorded as ruling" in record and '<div id="sides"' in record


def test_the_combat_board_answers_its_result_and_the_changed_parts_only(client, auth, cast, dbconn):
    """Issue 18 (a combat-board swap at most 8 KB): Resolve and Record answer #combat-result, retargeted, and
    out of band each attacker's health, sign, "relents" and pair result, the target's health and sign, the
    token and the tests so far; no board form, no weapon list. Record clears the signs for the next round."""
    auth.login()
    target, attackers = cast["Teodor"][0], [cast[n][0] for n in ("Konrad", "Lys", "Aldous")]
    data = board_fields(target, attackers, target_throw="rock",
                        throws={attackers[0]: "rock", attackers[1]: "paper", attackers[2]: "scissors"})
    resolve = client.post("/combat", data={**data, "step": "resolve"}, headers=HX)
    body = resolve.get_data(as_text=True)
    assert resolve.headers["HX-Retarget"] == "#combat-result"
    assert body.lstrip().startswith('<section id="combat-result"')
    assert 'id="board"' not in body and "_weapon" not in body and "Bare hands" not in body
    expected = {"board-token", "board-tests", "target-now", "target-signs"} | {
        f"{part}-{a}" for a in attackers for part in ("now", "signs", "relent", "pair")}
    assert oob_ids(body) == expected
    tests = in_progress(body)
    assert tests is not None and "So far:" in body  # Konrad's tie (Rock against Rock) may still be retested
    record = client.post("/combat", data={**data, "step": "record", "tests_json": __import__("json").dumps(tests)},
                         headers=HX).get_data(as_text=True)
    assert "Recorded as ruling" in record and 'id="board"' not in record and oob_ids(record) == expected
    signs = record[record.index(f'id="signs-{attackers[0]}"'):].split("</div>", 1)[0]
    assert "checked" not in signs  # the next round starts with no sign chosen
    full = client.post("/combat", data={**data, "step": "resolve"})  # no JavaScript: the whole page
    assert "<!doctype html>" in full.get_data(as_text=True) and 'id="board"' in full.get_data(as_text=True)


def test_undo_puts_the_narrators_choices_back(client, auth, dbconn):
    """Issue 18 (undo, so re-ruling needs no re-entry): Ruth's static Mental win (LotNR Static Challenges) is
    recorded by Resolve; its Undo button carries the choices, and the undo's answer shows Ruth still picked with
    Shrewd bid and Rock thrown (the difficulty, outside the sides, is never redrawn), and says the choices are back. A forged ``undo_form`` that is not
    a mapping of strings is ignored (the screen asks to choose again) and still undoes."""
    from larp.models import Ruling

    auth.login()
    fields = {"kind": "static", "category": "mental", "action": "other", "challenger": cid("Ruth Calder"),
              "challenger_bid": "Shrewd", "challenger_throw": "rock", "defender_throw": "scissors", "difficulty": "2"}
    recorded = client.post("/challenge", data=fields, headers=HX).get_data(as_text=True)
    ruling = Ruling.get(Ruling.kind == "challenge")
    carried = re.search(r"name=\"undo_form\" value='([^']*)'", recorded).group(1)
    undo = client.post("/challenge/undo", data={"undo": ruling.id, "undo_form": carried, "kind": "static",
                                                "category": "mental"}, headers=HX).get_data(as_text=True)
    assert "The choices are back" in undo and "autofocus" not in undo  # htmx scrolls the swap itself
    assert f'name="challenger" value="{cid("Ruth Calder")}"' in undo
    assert re.search(r'name="challenger_bid" value="Shrewd"[^>]*checked', undo)
    assert re.search(r'name="challenger_throw" value="rock"[^>]*checked', undo)
    assert Ruling.get_by_id(ruling.id).undone_at is not None

    client.post("/challenge", data=fields, headers=HX)
    again = Ruling.select().where(Ruling.kind == "challenge").order_by(Ruling.id.desc()).first()
    forged = client.post("/challenge/undo", data={"undo": again.id, "undo_form": '["challenger", 1]'}, headers=HX)
    assert forged.status_code == 200 and "Choose again and resolve" in forged.get_data(as_text=True)
    assert Ruling.get_by_id(again.id).undone_at is not None


def test_undo_without_javascript_puts_the_choices_back_too(client, auth, dbconn):
    """The same undo by plain forms: Resolve's 303 leads to the screen whose Undo button carries the choices
    (kept in the narrator's session for that ruling only), and the undo's whole page has Ruth, Shrewd and Rock."""
    from larp.models import Ruling

    auth.login()
    fields = {"kind": "static", "category": "mental", "action": "other", "challenger": cid("Ruth Calder"),
              "challenger_bid": "Shrewd", "challenger_throw": "rock", "defender_throw": "scissors", "difficulty": "2"}
    resolved = client.post("/challenge", data=fields)
    assert resolved.status_code == 303
    page = client.get(resolved.headers["Location"]).get_data(as_text=True)
    ruling = Ruling.get(Ruling.kind == "challenge")
    carried = re.search(r"name=\"undo_form\" value='([^']*)'", page).group(1)
    undo = client.post("/challenge/undo", data={"undo": ruling.id, "undo_form": carried, "kind": "static",
                                                "category": "mental"})
    body = undo.get_data(as_text=True)
    assert undo.status_code == 200 and "<!doctype html>" in body and "The choices are back" in body
    # The whole page lands on that line: the browser focuses it on load, so it is in view without a script.
    assert 'id="ruling-now" tabindex="-1" autofocus' in body
    assert re.search(r'name="challenger_bid" value="Shrewd"[^>]*checked', body)
    assert re.search(r'name="challenger_throw" value="rock"[^>]*checked', body)


def test_the_chips_of_characters_recently_in_play_do_not_claim_a_scene_when_none_is_open(client, auth, dbconn):
    """A new user read "In no scene: rulings are recorded without a turn" above "Already in this scene:": with no
    scene open the chips say "Recently in play:"; once the narrator opens a scene, "Already in this scene:"."""
    auth.login()
    kon = Character.get(Character.name == "Konrad Vale")
    viv = Character.get(Character.name == "Vivienne Ashcombe")
    client.get(f"/c/{kon.card_token}")  # Konrad's card scanned: one tap away in the pickers
    page = client.get(f"/challenge?challenger={viv.id}").get_data(as_text=True)
    assert "Recently in play:" in page and "Already in this scene:" not in page
    board = client.get("/combat").get_data(as_text=True)
    assert "Recently in play:" in board and "Already in this scene:" not in board
    assert client.post("/scenes", data={"name": "The Elysium"}).status_code == 303
    page = client.get(f"/challenge?challenger={viv.id}").get_data(as_text=True)
    assert "Already in this scene:" in page and "Recently in play:" not in page
    assert "Already in this scene:" in client.get("/combat").get_data(as_text=True)
