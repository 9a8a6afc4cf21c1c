"""DATABASE_URL picks PostgreSQL; without it, the SQLite file as always; a URL of another kind
is refused with a message, before anything starts."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from bot.__main__ import _flags, main
from bot.config import Config, ConfigError
from bot.storage import PostgresStorage, SqliteStorage, storage_for


def test_without_database_url_the_bot_keeps_its_sqlite_file(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("DATABASE_URL", raising=False)
    monkeypatch.setenv("DATABASE_PATH", "/srv/bot.sqlite3")
    config = Config.from_env(env_file=None)
    assert config.database_url is None and config.database == "/srv/bot.sqlite3"
    store = storage_for(config.database_url, config.database_path)
    assert isinstance(store, SqliteStorage) and store.path == Path("/srv/bot.sqlite3")


def test_database_url_picks_postgresql_and_hides_its_password(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("DATABASE_URL", "postgresql://bot:s3cret@db:5432/deduction")
    config = Config.from_env(env_file=None)
    store = storage_for(config.database_url, config.database_path)
    assert isinstance(store, PostgresStorage)
    assert store.url == "postgresql://bot:s3cret@db:5432/deduction"
    assert config.database == "postgresql://bot@db:5432/deduction"  # for messages and logs


def test_a_database_url_of_another_kind_is_refused(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("DATABASE_URL", "mysql://bot@db/deduction")
    with pytest.raises(ConfigError, match="PostgreSQL URL"):
        Config.from_env(env_file=None)
    monkeypatch.chdir(Path(__file__).parent)  # no developer's .env here
    assert main([]) == 2
    assert "DATABASE_URL must be a PostgreSQL URL" in capsys.readouterr().err


def test_a_shard_cluster_is_set_by_environment_or_flags(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for name in ("SHARD_COUNT", "SHARD_IDS", "CLUSTER_SIZE", "REST_PER_SECOND"):
        monkeypatch.delenv(name, raising=False)
    alone = Config.from_env(env_file=None)
    assert (alone.shard_count, alone.shard_ids, alone.cluster_size) == (None, None, 1)
    assert alone.rest_per_second == 45.0  # one process: all of the bot's budget
    monkeypatch.setenv("DATABASE_URL", "postgresql://bot@db/deduction")
    monkeypatch.setenv("SHARD_COUNT", "4")
    monkeypatch.setenv("SHARD_IDS", "3,2")
    config = Config.from_env(env_file=None)
    assert (config.shard_count, config.shard_ids, config.cluster_size) == (4, (2, 3), 2)
    assert config.rest_per_second == 21.0  # its share: two processes of two shards each
    flagged = Config.from_env(env_file=None, flags={"SHARD_IDS": "0", "CLUSTER_SIZE": "3"})
    assert flagged.shard_ids == (0,) and flagged.rest_per_second == 13.0
    monkeypatch.setenv("REST_PER_SECOND", "10")
    assert Config.from_env(env_file=None).rest_per_second == 10.0  # said outright, it wins
    store = storage_for(config.database_url, config.database_path, config.shard_ids)
    assert isinstance(store, PostgresStorage) and store.lease_name == "bot shards 2,3"


@pytest.mark.parametrize(("env", "message"), [
    ({"SHARD_IDS": "0"}, "SHARD_IDS needs SHARD_COUNT"),
    ({"SHARD_COUNT": "2", "SHARD_IDS": "0,2"}, "different shards from 0 to 1"),
    ({"SHARD_COUNT": "two"}, "whole number"),
    ({"SHARD_COUNT": "2", "SHARD_IDS": "1"}, "only PostgreSQL can be shared"),
    ({"CLUSTER_SIZE": "0"}, "CLUSTER_SIZE"),
])
def test_a_cluster_that_cannot_work_is_refused_before_it_starts(
    monkeypatch: pytest.MonkeyPatch, env: dict[str, str], message: str
) -> None:
    for name in ("SHARD_COUNT", "SHARD_IDS", "CLUSTER_SIZE", "DATABASE_URL"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    with pytest.raises(ConfigError, match=message):
        Config.from_env(env_file=None)


def test_the_cluster_flags_reach_the_config(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    for name in ("SHARD_COUNT", "SHARD_IDS", "DATABASE_URL"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(Path(__file__).parent)  # no developer's .env here
    assert main(["--shard-count", "2", "--shard-ids", "1"]) == 2
    assert "only PostgreSQL can be shared" in capsys.readouterr().err


@pytest.mark.skipif(not hasattr(os, "sched_getaffinity"), reason="CPU affinity is Linux's")
def test_the_loop_cpu_is_one_this_process_may_run_on(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("LOOP_CPU", raising=False)
    assert Config.from_env(env_file=None).loop_cpu is None  # any CPU, unless asked
    usable = sorted(os.sched_getaffinity(0))
    monkeypatch.setenv("LOOP_CPU", str(usable[-1]))
    assert Config.from_env(env_file=None).loop_cpu == usable[-1]
    assert Config.from_env(env_file=None, flags={"LOOP_CPU": str(usable[0])}).loop_cpu \
        == usable[0]
    for wrong in ("x", "-1", str(max(usable) + 1)):
        monkeypatch.setenv("LOOP_CPU", wrong)
        with pytest.raises(ConfigError, match="LOOP_CPU must be one of the CPUs"):
            Config.from_env(env_file=None)
    assert _flags(["--loop-cpu", "1"]) == {"LOOP_CPU": "1"}
