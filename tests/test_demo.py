"""`python -m bot demo` plays a whole game offline with the bot's own rendering."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.__main__ import main


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_demo_plays_a_complete_game(players: int, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "--players", str(players), "--seed", "3", "--level", "normal"]) == 0
    out = capsys.readouterr().out
    assert "Game over" in out
    assert "[#channel]" in out and "[DM to " in out


def test_without_a_token_the_bot_explains_what_to_do(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    monkeypatch.chdir(tmp_path)  # no .env here
    assert main([]) == 2
    err = capsys.readouterr().err
    assert "DISCORD_TOKEN" in err and "applications.commands" in err and "demo" in err


@pytest.mark.parametrize(
    ("players", "extra"),
    [(3, ["--series", "2"]), (4, ["--variant", "one-against-all"]), (5, [])],
    ids=["3-series", "4-one-against-all", "5-standard"],
)
def test_mansion_demo_plays_a_complete_game(
    players: int, extra: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["demo", "--game", "mansion", "--players", str(players), "--seed", "5", *extra]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "Game over" in out and "Clue: Mystery Beyond the Mansion" in out
    assert "[#channel]" in out and "[DM to " in out


def test_the_demo_refuses_a_player_count_the_game_does_not_take(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit):
        main(["demo", "--game", "mansion", "--players", "2"])
    assert "3–5 players" in capsys.readouterr().err


def test_the_demo_takes_the_chosen_games_own_options(capsys: pytest.CaptureFixture[str]) -> None:
    """The flags come from the game's settings model: 13 Clues' are taken and shown, and
    refused for a game without them."""
    argv = ["demo", "--players", "3", "--seed", "2", "--quiet-dms", "--edition", "2016",
            "--top-secret", "--level", "easy"]
    assert main(argv) == 0
    assert "13 Clues demo — 3 AI players (easy), edition 2016, top_secret True" in (
        capsys.readouterr().out)
    with pytest.raises(SystemExit):
        main(["demo", "--game", "mansion", "--players", "3", "--edition", "2016"])
    assert "unrecognized arguments: --edition" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["demo", "--game", "mansion", "--players", "3", "--series", "4"])
    assert "invalid choice: '4'" in capsys.readouterr().err


@pytest.mark.parametrize(("lang", "over", "dm"), [("fr", "Partie terminée", "[MP à "),
                                                 ("de", "Partie vorbei", "[DM an "),
                                                 ("es", "Fin de la partida", "[MD a ")])
def test_the_demo_speaks_the_language_asked_for(lang: str, over: str, dm: str,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "--players", "3", "--seed", "3", "--language", lang]) == 0
    out = capsys.readouterr().out
    assert over in out and dm in out
    assert "Game over" not in out and "[DM to " not in out
