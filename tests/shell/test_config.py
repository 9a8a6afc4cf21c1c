"""DATABASE_URL picks PostgreSQL; without it, the SQLite file as always; a URL of another kind
is refused with a message, before anything starts."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.__main__ import main
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
