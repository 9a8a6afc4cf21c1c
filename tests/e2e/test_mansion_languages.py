"""A whole Mansion game through the real bot and the stand-in, at one table of members whose
Discord clients speak French, German and Spanish, on a server whose Discord language is
German: each reads their DMs and answers in their own language and never in another's, the
channel is in German, and no message breaks a Discord limit (the stand-in refuses any)."""

from __future__ import annotations

import re
from functools import cache

from bot import i18n
from bot.mansion.words import card_name
from engine.mansion import Action, GameState
from testkit.mansion_drive import Driver, Via, mstate, play_script, user_at
from testkit.mansion_plan import find_seed
from testkit.standin.records import Message, User
from testkit.standin.server import shown_name
from testkit.world import World

LANGUAGES = ("fr", "de", "es")
PLACEHOLDER = re.compile(r"\{[^{}]*\}")
LONG = 14


@cache
def own_words(lang: str) -> frozenset[str]:
    """Long pieces of `lang`'s translations that neither English nor the other languages
    write: one of them in a message means the message is in `lang`."""
    def pieces(code: str) -> set[str]:
        found = set()
        for message in i18n.language(code).catalog:
            if not message.id or message.context in ("command", "option", "choice"):
                continue
            texts = message.string if isinstance(message.string, tuple) else (message.string,)
            for text in texts:
                for piece in PLACEHOLDER.split(str(text or "")):
                    for line in piece.split("\n"):
                        line = line.strip(" :;,.!?¡¿*_`()—-")
                        if len(line) >= LONG:
                            found.add(line)
        return found

    others = set().union(*(pieces(o) for o in LANGUAGES if o != lang))
    english = {m.id if isinstance(m.id, str) else m.id[0]
               for m in i18n.language(lang).catalog if m.id}
    return frozenset(p for p in pieces(lang) - others
                     if not any(p in e for e in english))


def languages_in(text: str) -> set[str]:
    return {lang for lang in LANGUAGES if any(w in text for w in own_words(lang))}


def ways(state: GameState, action: Action, i: int) -> Via:
    """Answers from the prompts' DMs, turns from the panel (now and then `/mansion turn`)."""
    prompt = state.prompt_for(action.seat)  # type: ignore[union-attr]
    assert prompt is not None
    if prompt.kind in ("show", "answer_tip"):
        return "dm"
    return "slash" if i % 4 == 3 else "panel"


def texts(messages: list[Message]) -> list[str]:
    return [m.text for m in messages if m.text.strip()]


async def test_a_mansion_game_at_a_table_of_three_languages(world: World) -> None:
    dc = world.dc
    world.guild.locale = "de"
    amelie = dc.add_user("Amélie", guild_id=world.guild.id, locale="fr")
    bernd = dc.add_user("Bernd", guild_id=world.guild.id, locale="de")
    carmen = dc.add_user("Carmen", guild_id=world.guild.id, locale="es-ES")
    members: dict[str, User] = {"fr": amelie, "de": bernd, "es": carmen}
    seed = find_seed(3)
    async with world.running():
        group = next(c for c in dc.commands() if c["name"] == "mansion")
        local = {o["name"]: o for o in group["options"]}

        def typed(user: User, command: str) -> str:
            return shown_name(local[command], user.locale)

        opened = await dc.slash(amelie, world.channel, "mansion", typed(amelie, "new"))
        assert opened.text.startswith("Table ouverte"), opened.text
        for user in (bernd, carmen):
            joined = await dc.slash(user, world.channel, "mansion", typed(user, "join"))
            assert joined.ephemeral, joined.text
        assert world.bot is not None
        world.bot.tables.seed = lambda: seed
        started = await dc.slash(amelie, world.channel, "mansion", typed(amelie, "start"))
        assert started.text.startswith("🃏 La partie commence"), started.text
        await dc.settle()

        state = mstate(world)
        for lang, user in members.items():  # the deal, in each member's own words
            dealt = "\n".join(texts(dc.dms(user)))
            mine = state.seats[next(i for i, s in enumerate(state.seats)
                                    if s.id == f"u{user.id}")].clues
            assert all(card_name(lang, c) in dealt for c in mine), (lang, dealt)
        first = user_at(world, state, state.turn)
        assert first is not None
        turn = await dc.slash(first, world.channel, "mansion", "turn")
        lang_of_first = next(lang for lang, u in members.items() if u is first)
        assert languages_in(turn.text) == {lang_of_first}, turn.text

        final, _ = await play_script(world, Driver(world), ways)
        await dc.settle()
        assert final.phase == "over"

        # the review arrives at the end, in each member's language
        for lang, user in members.items():
            review = await dc.slash(user, world.channel, "mansion", typed(user, "review"))
            assert languages_in(review.text) == {lang}, (lang, review.text[:300])

    for lang, user in members.items():
        dms, answers = texts(dc.dms(user)), texts(dc.ephemerals(user))
        assert len(dms) > 3 and len(answers) > 5, (lang, len(dms), len(answers))
        for text in dms + answers:
            assert languages_in(text) <= {lang}, (lang, text)
        assert sum(1 for t in dms + answers if lang in languages_in(t)) > len(dms) // 2, lang
    channel = texts(dc.channel_messages(world.channel))
    for text in channel:
        assert languages_in(text) <= {"de"}, text
    assert sum(1 for t in channel if languages_in(t) == {"de"}) > 5
    dc.assert_no_violations()
