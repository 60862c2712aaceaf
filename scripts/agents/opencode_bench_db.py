#!/usr/bin/env python3
"""A large OpenCode database for timing agtrace's OpenCode indexing: the bundled real database
with its first top-level session copied N times (each copy's exchange repeated R times).

    opencode_bench_db.py OUT_DB [N=2000] [R=10]

With the defaults: 2,003 sessions, 60,009 messages, 160,024 parts, about 100 MB.
"""
import shutil
import sqlite3
import sys
from pathlib import Path

root = Path(__file__).resolve().parents[2]
out = Path(sys.argv[1])
n = int(sys.argv[2]) if len(sys.argv) > 2 else 2000
reps = int(sys.argv[3]) if len(sys.argv) > 3 else 10
out.parent.mkdir(parents=True, exist_ok=True)
shutil.copy(root / "agtrace-tools/tests/real_logs/opencode/opencode.db", out)
c = sqlite3.connect(out)
c.execute("PRAGMA journal_mode=wal")
srow = c.execute("SELECT * FROM session WHERE parent_id IS NULL ORDER BY id LIMIT 1").fetchone()
sid0 = srow[0]
msgs = c.execute("SELECT id, time_created, time_updated, data FROM message WHERE session_id = ?", (sid0,)).fetchall()
parts = c.execute("SELECT id, message_id, time_created, time_updated, data FROM part WHERE session_id = ?", (sid0,)).fetchall()
marks = ",".join("?" * len(srow))
for i in range(n):
    sid = f"ses_bench{i:06d}"
    c.execute(f"INSERT INTO session VALUES ({marks})", [sid, *srow[1:]])
    for r in range(reps):
        for mid, tc, tu, data in msgs:
            c.execute("INSERT INTO message VALUES (?,?,?,?,?)", (f"{mid}_{i}_{r}", sid, tc + r * 10000, tu + r * 10000, data))
        for pid, mid, tc, tu, data in parts:
            c.execute("INSERT INTO part VALUES (?,?,?,?,?,?)",
                      (f"{pid}_{i}_{r}", f"{mid}_{i}_{r}", sid, tc + r * 10000, tu + r * 10000, data))
c.commit()
c.execute("PRAGMA wal_checkpoint(TRUNCATE)")
print(*(c.execute(f"SELECT count(*) FROM {t}").fetchone()[0] for t in ("session", "message", "part")))
