"""The challenge screen's taps, traced (issue 29 item 1 evidence): for each tap, the SQL statements of the
whole request (SQLite; BEGIN, COMMIT, savepoints and PRAGMA not counted) and the calls into the service and
the rules core it makes, indented by depth. Not a test; it asserts nothing.

    .venv/bin/python tests/benchmarks/trace_challenge_taps.py     (DUMP="record tap" prints that tap's SQL)
"""
from __future__ import annotations

import html
import os
import random
import re
import sqlite3
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, ".")

from larp import create_app  # noqa: E402 - after the path, as the other benchmark scripts run
from larp.db import db, sqlite_url  # noqa: E402
from larp.models import Character  # noqa: E402
from larp.services.accounts import create_user  # noqa: E402

folder = Path(tempfile.mkdtemp(prefix="taps-"))
statements = [[]]
real_connect = sqlite3.connect
def counting_connect(*a, **k):
    conn = real_connect(*a, **k)
    conn.set_trace_callback(lambda sql: statements[0].append(sql))
    return conn
sqlite3.connect = counting_connect
app = create_app({"TESTING": False, "SECRET_KEY": "bench", "WTF_CSRF_ENABLED": False, "LOAD_DEMO": True,
                  "DATABASE_URL": sqlite_url(folder / "bench.db"), "INSTANCE_PATH": folder / "instance",
                  "CREATE_DATABASE": True, "RANDOM_SOURCE": lambda: random.Random(1)}, database_pool=8)
with app.app_context(), db.connection_context():
    create_user("bench", "Bench", "narrator", "benchmark-password")
    ids = {c.name: c.id for c in Character.select()}
client = app.test_client()
client.post("/login", data={"username": "bench", "password": "benchmark-password"})
client.get("/challenge")

def counted():
    return len([s for s in statements[0] if not s.strip().upper().startswith(("PRAGMA", "BEGIN", "COMMIT", "SAVEPOINT", "RELEASE", "ROLLBACK"))])

# call trace of larp's service and rules entry points during a tap
TRACED = ("larp.services.challenges", "larp.services.characters", "larp.services.records", "larp.rules.rulings.one_on_one")
NAMES = {"preview_challenge", "run_challenge", "adjudicate_challenge", "_build", "_apply", "load_characters",
         "rule_one_on_one", "rule_static", "record_ruling", "apply_consequences", "refuse_if_recorded",
         "chronicle_settings", "current_game_session", "open_game_session", "retrying"}
trace = []
depth = [0]
def prof(frame, event, arg):
    if event == "call":
        name = frame.f_code.co_name
        mod = frame.f_globals.get("__name__", "")
        if name in NAMES and mod.startswith("larp."):
            trace.append(("  " * depth[0]) + f"{mod}.{name}")
            depth[0] += 1
            return
    elif event == "return":
        name = frame.f_code.co_name
        mod = frame.f_globals.get("__name__", "")
        if name in NAMES and mod.startswith("larp."):
            depth[0] -= 1

def tap(label, data):
    statements[0] = []
    trace.clear(); depth[0] = 0
    sys.setprofile(prof)
    try:
        r = client.post("/challenge", data=data, headers={"HX-Request": "true"})
    finally:
        sys.setprofile(None)
    body = r.get_data(as_text=True)
    recorded = "Undo" in body or "undo" in body
    print(f"{label}: status {r.status_code}, {counted()} SQL statements, recorded={recorded}")
    if os.environ.get("DUMP") and label.startswith(os.environ["DUMP"]):
        for q in statements[0]: print("      SQL", q[:150])
    for line in trace:
        print("    " + line)
    return body

base = {"category": "physical", "action": "strike", "defender_action": "strike"}
# 1. a resolve tap that ends the challenge at once (the loser has nothing left to call)
form1 = {"kind": "static", "category": "mental", "action": "other", "difficulty": "2",
         "challenger": ids["Ruth Calder"], "challenger_bid": "Shrewd", "challenger_throw": "paper",
         "defender_throw": "rock", "request_token": "t1"}
body = tap("resolve tap that ends it (static, Ruth wins)", form1)
m = re.search(r"name=\"tests_json\" value='([^']*)'", body)
if m:
    print("  (left open: options shown)")
    for s in re.findall(r'name="next_source" value="([^"]+)"', body): print("   option", s)

# 2. a call tap that ends it: Konrad loses to Vivienne, retests with Brawl, loses again; Vivienne has nothing left.
form2 = {**base, "challenger": ids["Vivienne Ashcombe"], "defender": ids["Konrad Vale"], "challenger_bid": "Quick",
         "defender_bid": "Brawny", "challenger_throw": "rock", "defender_throw": "scissors", "request_token": "t2"}
body = tap("resolve tap (left open)", form2)
m = re.search(r"name=\"tests_json\" value='([^']*)'", body)
for s_ in re.findall(r'name="next_source" value="([^"]+)"', body): print("   option", s_)
tests = html.unescape(m.group(1))
body = tap("call tap (retest with Brawl, lost again)", {**form2, "step": "call", "tests_json": tests, "next_by": "defender",
            "next_source": "ability:Brawl", "next_challenger_throw": "paper", "next_defender_throw": "rock"})
m = re.search(r"name=\"tests_json\" value='([^']*)'", body)
if m:
    for s_ in re.findall(r'name="next_source" value="([^"]+)"', body): print("   option", s_)
    body = tap("record tap", {**form2, "step": "record", "tests_json": html.unescape(m.group(1)), "request_token": "t3"})

# 4. a call tap that ends it: Ruth loses the static test, retests with Investigation and wins.
form4 = {**form1, "challenger_throw": "paper", "defender_throw": "scissors", "request_token": "t4"}
body = tap("resolve tap (Ruth loses, left open)", form4)
m = re.search(r"name=\"tests_json\" value='([^']*)'", body)
for s_ in re.findall(r'name="next_source" value="([^"]+)"', body): print("   option", s_)
body = tap("call tap that ends it (retest with Investigation, won)", {**form4, "step": "call", "tests_json": html.unescape(m.group(1)),
            "next_by": "challenger", "next_source": "ability:Investigation", "next_challenger_throw": "rock",
            "next_defender_throw": "scissors"})
