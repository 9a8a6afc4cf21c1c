"""A whole 13 Clues game at one table of three languages, through the real bot and the
stand-in: Amélie's Discord is in French, Bernd's in German, Carmen's in Spanish, and the
server's in German. Each reads their DMs and their own answers in their language and never
in another member's; the channel reads German; no message breaks a Discord limit (the
stand-in checks every one, and the world fails on any violation)."""

from __future__ import annotations

from typing import Any

from engine.thirteen_clues import GameState, legal
from engine.thirteen_clues.cards import CARDS
from testkit.play import pass_by_dm, texts_before, true_state
from testkit.standin import InteractionResult, User
from testkit.world import World

MARKS = {
    "fr": ("porte-cartes", "paravent"),
    "de": ("Kartenhalter", "Sichtschirm"),
    "es": ("atril", "pantalla"),
    "en": ("card holder", "magnifying glass"),
}
"""Words only one language's 13 Clues texts use (the holder, the screen)."""
ASKED = {"fr": "Question posée.", "de": "Gefragt.", "es": "Pregunta hecha."}
ACCUSED = {"fr": "Accusation faite.", "de": "Anklage erhoben.", "es": "Acusación hecha."}
REVIEW = {"fr": "Votre mystère était", "de": "Deine Lösung war", "es": "Tu misterio era"}
NOT_YOURS = {"fr": "C'est le tour de ", "de": " ist am Zug, nicht du.",
             "es": "Es el turno de "}


def speaks(text: str, lang: str) -> bool:
    return any(mark in text for mark in MARKS[lang])


def foreign(text: str, lang: str) -> list[str]:
    """The marks of other languages found in `text`."""
    return [mark for other, marks in MARKS.items() if other != lang for mark in marks
            if mark in text]


async def test_a_whole_game_at_a_table_of_three_languages(world: World) -> None:
    dc, ch = world.dc, world.channel
    world.guild.locale = "de"  # the server's Discord language: the table writes in German
    members = {
        "fr": dc.add_user("Amélie", guild_id=world.guild.id, locale="fr"),
        "de": dc.add_user("Bernd", guild_id=world.guild.id, locale="de"),
        "es": dc.add_user("Carmen", guild_id=world.guild.id, locale="es-ES"),
    }
    lang_of = {user.id: lang for lang, user in members.items()}
    answers: dict[str, list[InteractionResult]] = {lang: [] for lang in members}
    async with world.running():
        opened = await dc.slash(members["fr"], ch, "13clues", "nouvelle", assist="full")
        assert opened.text.startswith("Table ouverte."), opened.text
        for lang in ("de", "es"):
            await dc.slash(members[lang], ch, "13clues", "join")
        await dc.slash(members["fr"], ch, "13clues", "start")
        await dc.settle()
        for user in members.values():
            answers[lang_of[user.id]].append(await pass_by_dm(world, user))

        state = await true_state(world)
        by_seat = {seat: _member(members, s.id) for seat, s in enumerate(state.seats)}
        idle = by_seat[(state.turn + 1) % 3]
        refused = await dc.slash(idle, ch, "13clues", "accuse", options=_holder(state, 0))
        assert NOT_YOURS[lang_of[idle.id]] in refused.text, refused.text
        asked, consulted = 0, False
        while state.phase != "over":
            seat = state.turn
            user = by_seat[seat]
            if sources := legal.take_sources(state, seat):
                result = await dc.slash(user, ch, "13clues", "take", player=by_seat[sources[0]])
            elif asked >= 6:
                result = await dc.slash(user, ch, "13clues", "accuse", options=_holder(state, seat))
                assert result.text == ACCUSED[lang_of[user.id]], result.text
            elif asked == 2 and not consulted:
                result = await dc.slash(user, ch, "13clues", "informant",
                                        card=legal.informant_letters(state)[0])
                consulted = True
            else:
                result = await dc.slash(user, ch, "13clues", "ask", witness=by_seat[(seat + 1) % 3],
                                        about=legal.question_subjects(state)[asked])
                assert result.text == ASKED[lang_of[user.id]], result.text
                asked += 1
            answers[lang_of[user.id]].append(result)
            await dc.settle()
            state = await true_state(world)
        casebook = await dc.slash(members["es"], ch, "13clues", "casebook")
        answers["es"].append(casebook)
        await dc.settle()

    assert state.winner is not None
    dc.assert_no_violations()
    for lang, user in members.items():
        dms = texts_before(dc.dms(user))
        assert speaks("\n".join(dms), lang), (lang, dms[:3])
        assert any(REVIEW[lang] in text for text in dms), lang  # the review at the end
        for text in dms:
            assert not foreign(text, lang), (lang, foreign(text, lang), text)
        for result in answers[lang]:
            assert not foreign(result.text, lang), (lang, result.text)
    assert "Tu cuaderno" in casebook.text
    channel = texts_before(dc.channel_messages(ch))
    assert speaks("\n".join(channel), "de")
    for text in channel:
        assert not foreign(text, "de"), (foreign(text, "de"), text)
    assert any("hat den Fall gelöst" in text for text in channel)


def _member(members: dict[str, User], seat_id: str) -> User:
    return next(u for u in members.values() if f"u{u.id}" == seat_id)


def _holder(state: GameState, seat: int) -> dict[str, Any]:
    person, location, weapon = state.seats[seat].holder
    assert {CARDS[c].category for c in (person, location, weapon)} == {"person", "location",
                                                                       "weapon"}
    return {"person": person, "location": location, "weapon": weapon}
