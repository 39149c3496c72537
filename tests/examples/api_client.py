"""A worked client of the larp API (README, "Using the API from a program").

It opens the next game session, rules a challenge between two stored characters, applies damage to
one of them, and reads a player's state, with a personal API token:

    LARP_URL=http://127.0.0.1:8080 LARP_TOKEN=... python tests/examples/api_client.py

Every call that changes something carries an ``Idempotency-Key``: if the reply is lost (event
Wi-Fi), the call is sent again with the same key, and a 409 naming a ruling means the first one
was recorded, so nothing is applied twice.
"""

from __future__ import annotations

import os
import sys
import uuid
from datetime import date

import requests

BASE = os.environ.get("LARP_URL", "http://127.0.0.1:8080").rstrip("/") + "/api/v1"
api = requests.Session()
api.headers["Authorization"] = "Bearer " + os.environ["LARP_TOKEN"]


def call(method: str, path: str, body: dict | None = None) -> dict:
    """One API call; a change is retried once, with the same key, when the connection fails."""
    key = {"Idempotency-Key": str(uuid.uuid4())} if method != "GET" else {}
    for attempt in (1, 2):
        try:
            reply = api.request(method, BASE + path, json=body, headers=key, timeout=15)
            break
        except requests.ConnectionError:
            if attempt == 2 or not key:
                raise
    data = reply.json()
    if reply.status_code == 409 and "ruling_id" in data:  # the first attempt was recorded after all
        return call("GET", f"/rulings/{data['ruling_id']}")
    if reply.status_code >= 400:
        sys.exit(f"{method} {path} refused ({reply.status_code}): {data['error']} [field: {data.get('field')}]")
    return data


def character_id(name: str) -> int:
    """The id of the stored character called ``name``."""
    found = [c for c in call("GET", "/characters?q=" + requests.utils.quote(name))["characters"] if c["name"] == name]
    if not found:
        sys.exit(f"No character called {name}.")
    return found[0]["id"]


# 1. Open the next game session (closing the open one, if any), dated today or after the last one.
sessions = call("GET", "/game-sessions")["game_sessions"]
open_now = next((s["number"] for s in sessions if s["open"]), None)
day = max([date.today().isoformat(), *(s["date"] for s in sessions)])
opened = call("POST", "/game-sessions", {"date": day, "closing": open_now})
print(f"Opened game session {opened['game_session']['number']} ({opened['game_session']['date']}).")

# 2. A challenge between two stored characters: Vivienne (Quick) against Konrad (Brawny), who
#    counter-attacks; the first test's throws are given, a retest could follow in "tests".
vivienne, konrad = character_id("Vivienne Ashcombe"), character_id("Konrad Vale")
challenge = call("POST", "/challenges", {
    "category": "physical", "defender_action": "strike",
    "challenger": {"character_id": vivienne, "bid": "Quick"},
    "defender": {"character_id": konrad, "bid": "Brawny"},
    "tests": [{"call": "test", "challenger_throw": "rock", "defender_throw": "paper"}],
})
print(f"Challenge: {challenge['ruling']['summary']} (ruling #{challenge['ruling_id']}).")

# 3. Damage by hand: a knife wound (two lethal) on Vivienne.
hurt = call("POST", f"/characters/{vivienne}/damage", {"damage_type": "lethal", "levels": 2})
print(f"Damage: {hurt['summary'].rstrip('.')}.")

# 4. The player's state, as her card shows it.
state = call("GET", f"/characters/{vivienne}")["state"]
print("Vivienne now: {condition}, {bashing} bashing, {lethal} lethal, {aggravated} aggravated, "
      "{blood} blood, {willpower} Willpower.".format(condition=state["condition"], blood=state["blood_current"],
                                                     willpower=state["willpower_current"], **state["damage"]))
