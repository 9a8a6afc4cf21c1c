"""The schema: one numbered list of migrations for both backends, written once.

The scripts are SQLite's; PostgreSQL runs the same scripts with SQLite's few words of its own
put in its terms (`postgres`): 64-bit integers (Discord's snowflakes need them), DOUBLE
PRECISION for REAL, BIGSERIAL for an autoincrement key (so table ids come from the
`tables_id_seq` sequence), and its own random salt. `tests/shell/test_postgres.py` checks that
both build the same tables, columns and indexes. SQLite keeps the schema's number in
`PRAGMA user_version`, PostgreSQL in its `schema_version` table.
"""

from __future__ import annotations

import re

LEASE = "bot"
"""The lease's row (its name)."""
NOT_HELD = "NOT (t.paused IS NOT NULL AND o.dest = 'c:' || t.channel_id)"
"""A paused table's channel letters are held until it carries on (`o`: the outbox, `t`: the
letter's table, joined LEFT)."""
URGENT_FIRST = ("CASE WHEN o.dest LIKE 'i:%' THEN 0 WHEN o.dest LIKE 'u:%' THEN 1 ELSE 2 END,"
                " o.id")
"""The order pending letters are read in: answers to interactions, then DMs, then channel
letters, each oldest first (a destination's letters keep their order: they are all of one
kind). Under a backlog longer than one read the sender sees only the head of it: read in id
order, an answer waited behind minutes of table edits (`bench.load`, issue 21)."""
KEEP_DONE_LETTERS = 3 * 24 * 3600.0
"""Sent and failed letters are kept a few days (for inspection), then pruned at start-up."""


MIGRATIONS: tuple[str, ...] = (
    # 1: tables, action log with outbox, guild settings, timers, finished-game results
    """
    CREATE TABLE tables (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        guild_id INTEGER NOT NULL,
        channel_id INTEGER NOT NULL,
        game TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('lobby', 'playing', 'over')),
        host_id INTEGER NOT NULL,
        options TEXT NOT NULL,
        seats TEXT NOT NULL,
        state TEXT,
        version INTEGER NOT NULL DEFAULT 0,
        message_id INTEGER,
        created_at REAL NOT NULL,
        updated_at REAL NOT NULL
    );
    CREATE UNIQUE INDEX one_open_table_per_channel ON tables (channel_id) WHERE status != 'over';
    CREATE INDEX tables_by_guild ON tables (guild_id, status);
    CREATE TABLE actions (
        table_id INTEGER NOT NULL REFERENCES tables (id),
        version INTEGER NOT NULL,
        actor TEXT NOT NULL,
        action TEXT NOT NULL,
        events TEXT NOT NULL,
        delivered INTEGER NOT NULL DEFAULT 0,
        at REAL NOT NULL,
        PRIMARY KEY (table_id, version)
    );
    CREATE INDEX undelivered ON actions (delivered) WHERE delivered = 0;
    CREATE TABLE guild_settings (
        guild_id INTEGER PRIMARY KEY,
        settings TEXT NOT NULL
    );
    CREATE TABLE timers (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        guild_id INTEGER NOT NULL,
        table_id INTEGER NOT NULL REFERENCES tables (id),
        kind TEXT NOT NULL,
        due REAL NOT NULL,
        payload TEXT NOT NULL DEFAULT '{}'
    );
    CREATE INDEX timers_by_due ON timers (due);
    CREATE TABLE results (
        guild_id INTEGER NOT NULL,
        game TEXT NOT NULL,
        table_id INTEGER NOT NULL REFERENCES tables (id),
        user_id INTEGER NOT NULL,
        won INTEGER NOT NULL,
        finished_at REAL NOT NULL,
        PRIMARY KEY (table_id, user_id)
    );
    CREATE TABLE seat_notes (
        table_id INTEGER NOT NULL REFERENCES tables (id),
        seat INTEGER NOT NULL,
        notes TEXT NOT NULL,
        PRIMARY KEY (table_id, seat)
    );
    """,
    # 2: the outbox (one row per message and recipient), timers retried with back-off, paused
    # tables, the one-process lease, AI results, per-member settings. Letters of version-1
    # databases were events, not rendered messages: any left undelivered are dropped.
    """
    CREATE TABLE outbox (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        table_id INTEGER REFERENCES tables (id),
        dest TEXT NOT NULL,
        letter TEXT NOT NULL,
        once TEXT,
        state TEXT NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'sent', 'failed')),
        tries INTEGER NOT NULL DEFAULT 0,
        next_at REAL NOT NULL DEFAULT 0,
        message_id INTEGER,
        reason TEXT,
        created_at REAL NOT NULL,
        done_at REAL
    );
    CREATE INDEX outbox_pending ON outbox (id) WHERE state = 'pending';
    CREATE INDEX outbox_heads ON outbox (dest, id) WHERE state = 'pending';
    CREATE INDEX outbox_done ON outbox (done_at) WHERE state != 'pending';
    CREATE UNIQUE INDEX outbox_once ON outbox (table_id, once) WHERE once IS NOT NULL;
    ALTER TABLE timers ADD COLUMN attempts INTEGER NOT NULL DEFAULT 0;
    CREATE INDEX timers_by_table ON timers (table_id);
    ALTER TABLE tables ADD COLUMN paused TEXT;
    ALTER TABLE tables ADD COLUMN place TEXT NOT NULL DEFAULT '';
    ALTER TABLE tables ADD COLUMN feed TEXT NOT NULL DEFAULT '[]';
    ALTER TABLE tables ADD COLUMN deadline REAL;
    CREATE TABLE slots (
        table_id INTEGER NOT NULL REFERENCES tables (id),
        dest TEXT NOT NULL,
        slot TEXT NOT NULL,
        message_id INTEGER NOT NULL,
        PRIMARY KEY (table_id, dest, slot)
    );
    ALTER TABLE results ADD COLUMN ai_level TEXT;
    DROP INDEX undelivered;
    UPDATE actions SET delivered = 1;
    CREATE TABLE lease (
        name TEXT PRIMARY KEY,
        holder TEXT NOT NULL,
        expires REAL NOT NULL
    );
    CREATE TABLE meta (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL
    );
    INSERT INTO meta (key, value) VALUES ('nonce_salt', lower(hex(randomblob(4))));
    CREATE TABLE user_settings (
        user_id INTEGER PRIMARY KEY,
        settings TEXT NOT NULL
    );
    """,
    # 3: several processes on one database (PostgreSQL): a destination's letters are sent by
    # the one process that claims it until `expires`, a timer is fired by the one that claims
    # it until `claimed_until`, and a DM found closed is remembered for every process until
    # `expires`. One process on SQLite leaves the claims unused.
    """
    CREATE TABLE claims (
        dest TEXT PRIMARY KEY,
        holder TEXT NOT NULL DEFAULT '',
        expires REAL NOT NULL DEFAULT 0
    );
    ALTER TABLE timers ADD COLUMN claimed_until REAL NOT NULL DEFAULT 0;
    ALTER TABLE timers ADD COLUMN claimed_by TEXT NOT NULL DEFAULT '';
    CREATE TABLE closed_dms (
        user_id INTEGER PRIMARY KEY,
        expires REAL NOT NULL
    );
    """,
    # 4: each member's language: the locale of their latest interaction (`seen`), and the
    # one they chose with /language (`chosen`, NULL: follow `seen`)
    """
    CREATE TABLE member_languages (
        user_id INTEGER PRIMARY KEY,
        seen TEXT,
        chosen TEXT
    );
    """,
    # 5: each member's DM channel: opening one is a request under the global rate limit, and
    # the channel never changes, so a restart (or another process) does not open it again
    """
    CREATE TABLE dm_channels (
        user_id INTEGER PRIMARY KEY,
        channel_id INTEGER NOT NULL
    );
    """,
    # 6: the process that stored a letter (its claims' `holder`): in a shard cluster it
    # sends the letter first (it holds the interaction's token); NULL on one process
    """
    ALTER TABLE outbox ADD COLUMN made_by TEXT;
    """,
)

POSTGRES_TERMS = (
    (r"\bINTEGER PRIMARY KEY AUTOINCREMENT\b", "BIGSERIAL PRIMARY KEY"),
    (r"\bINTEGER\b", "BIGINT"),
    (r"\bREAL\b", "DOUBLE PRECISION"),
    (r"lower\(hex\(randomblob\(4\)\)\)",
     "substr(md5(random()::text || clock_timestamp()::text), 1, 8)"),
)


def postgres(script: str) -> str:
    """A migration script as PostgreSQL runs it."""
    for sqlite_words, postgres_words in POSTGRES_TERMS:
        script = re.sub(sqlite_words, postgres_words, script)
    return script
