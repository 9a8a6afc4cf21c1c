"""Members of one table in French, German and Spanish, through the real bot and the stand-in:
each sees the commands in their client's language and reads their own answers in it (or in
the one they chose with `/language`); the server's language is its `/settings` choice, else
its Discord language."""

from __future__ import annotations

from bot.thirteen_clues.words import card_name
from engine.thirteen_clues.cards import CARDS
from testkit.drive import query, seat_of, state_of
from testkit.standin.server import shown_name
from testkit.world import World


async def test_a_table_of_three_languages(world: World) -> None:
    dc = world.dc
    amelie = dc.add_user("Amélie", guild_id=world.guild.id, locale="fr")
    bernd = dc.add_user("Bernd", guild_id=world.guild.id, locale="de")
    carmen = dc.add_user("Carmen", guild_id=world.guild.id, locale="es-ES")
    ch = world.channel
    async with world.running():
        group = next(c for c in dc.commands() if c["name"] == "13clues")
        shown = {o["name"]: {loc: shown_name(o, loc) for loc in ("fr", "de", "es-ES")}
                 for o in group["options"]}
        assert shown["join"] == {"fr": "rejoindre", "de": "beitreten", "es-ES": "unirse"}
        assert shown["add-ai"] == {"fr": "ajouter-ia", "de": "ki-hinzufügen",
                                   "es-ES": "añadir-ia"}

        # each types the command as their client shows it; the bot answers in their language
        help_fr = await dc.slash(amelie, ch, "aide")
        assert help_fr.ephemeral and "**Jeux de déduction sur Discord**" in help_fr.text
        assert "`/13clues nouvelle`" in help_fr.text and "`/langue`" in help_fr.text
        help_de = await dc.slash(bernd, ch, "hilfe")
        assert "**Deduktionsspiele auf Discord**" in help_de.text
        help_en = await dc.slash(world.users[0], ch, "help")
        assert "**Deduction games on Discord**" in help_en.text

        opened = await dc.slash(amelie, ch, "13clues", "nouvelle")
        assert opened.text.startswith("Table ouverte."), opened.text
        forged = await dc.forge(bernd, dc.last_message(ch),
                                {"custom_id": "nothing-like-ours", "component_type": 2})
        # a click on the table message is answered as a deferred update, its refusal follows
        assert forged.messages[-1].text.startswith(
            "Diesen Knopf oder dieses Menü kann ich nicht mehr"), forged.text
        joined = await dc.slash(bernd, ch, "13clues", "beitreten")
        assert joined.text == "Du hast einen Platz. Der Gastgeber startet die Partie."
        again = await dc.slash(bernd, ch, "13clues", "beitreten")  # a refusal, in German
        assert again.text == "Du sitzt schon an diesem Tisch."
        seated = await dc.slash(carmen, ch, "13clues", "unirse")
        assert seated.text == "Tienes sitio. El anfitrión empieza la partida."
        not_host = await dc.slash(carmen, ch, "13clues", "empezar")
        assert not_host.text.startswith("Solo el anfitrión puede hacer eso"), not_host.text
        full = await dc.slash(amelie, ch, "13clues", "ajouter-ia", nombre=5)
        assert full.text == "Il ne reste que 3 places à cette table."

        # her own language wins over her client's, until she forgets it
        chose = await dc.slash(carmen, ch, "idioma", idioma="fr")
        assert chose.text.startswith("🌍 Je vous écris en **Français**"), chose.text
        left = await dc.slash(carmen, ch, "13clues", "salir")
        assert left.text == "Vous avez quitté la table."
        forgot = await dc.slash(carmen, ch, "idioma", idioma="server default")
        assert "**Español**" in forgot.text and "app de Discord" in forgot.text
        back = await dc.slash(carmen, ch, "13clues", "unirse")
        assert back.text.startswith("Tienes sitio.")

        started = await dc.slash(amelie, ch, "13clues", "lancer")
        assert started.text.startswith("Cartes distribuées : regardez vos MP"), started.text
        await dc.settle()

        # cards in autocomplete: named in the member's language, found in it or in English
        state = state_of(world)
        dealt = state.seats[seat_of(state, amelie)].dealt
        weapon = next(c for c in dealt if CARDS[c].category == "weapon")
        french = card_name("fr", weapon)
        offered = await dc.autocomplete(amelie, ch, "13clues", "pass", focused="weapon")
        assert {c["value"]: c["name"].split(" ", 1)[1] for c in offered}[weapon] == french
        for typed in (french[1:4], CARDS[weapon].name[:3].lower()):
            found = await dc.autocomplete(amelie, ch, "13clues", "pass", focused="weapon",
                                          weapon=typed)
            assert weapon in [c["value"] for c in found], (typed, found)
        refused = await dc.slash(amelie, ch, "13clues", "accuser", personnage="banane",
                                 lieu="park", arme="sword")
        assert refused.text == "Aucune carte ne s'appelle « banane ». Choisissez-en une dans " \
            "la liste.", refused.text
        rules_de = await dc.slash(bernd, ch, "13clues", "regeln")
        assert rules_de.text.startswith("📘 **13 Clues — Regeln 2020**, 3 Spieler"), rules_de.text
        rules_es = await dc.slash(carmen, ch, "mansion", "reglas")
        assert "El Doctor Lemon ha sido asesinado" in rules_es.text, rules_es.text
        suspects = await dc.autocomplete(bernd, ch, "mansion", "accuse", focused="suspect",
                                         suspect="gloria")
        assert [(c["name"], c["value"]) for c in suspects] == [("👤 Fräulein Gloria", "scarlet")]
        english = await dc.autocomplete(carmen, ch, "mansion", "accuse", focused="suspect",
                                        suspect="scarlet")
        assert [c["name"] for c in english] == ["👤 Señorita Amapola"]

    rows = query(world, "SELECT user_id, seen, chosen FROM member_languages ORDER BY user_id")
    stored = {r["user_id"]: (r["seen"], r["chosen"]) for r in rows}
    assert stored[amelie.id] == ("fr", None)
    assert stored[bernd.id] == ("de", None)
    assert stored[carmen.id] == ("es-ES", None)


async def test_the_servers_language_is_its_setting_else_its_discord_language(
    world: World,
) -> None:
    dc = world.dc
    world.guild.locale = "de"
    manager = dc.add_user("Margot", guild_id=world.guild.id, manage_guild=True, locale="fr")
    async with world.running():
        shown = await dc.slash(manager, world.channel, "réglages")
        assert "⚙️ Réglages par défaut des nouvelles tables ici :" in shown.text
        assert "en **Deutsch** (la langue Discord du serveur" in shown.text, shown.text
        chosen = await dc.slash(manager, world.channel, "réglages", langue="es")
        assert "🌍 Les tables écrivent dans le salon en **Español** ;" in chosen.text
        assert "`/langue`" in chosen.text
        reset = await dc.slash(manager, world.channel, "réglages", langue="discord")
        assert "en **Deutsch** (la langue Discord du serveur" in reset.text
        history = await dc.slash(manager, world.channel, "historique")
        assert history.text == "📜 Aucune partie terminée dans l'historique de ce serveur pour " \
            "l'instant."
        mine = await dc.slash(manager, world.channel, "historique", moi=True)
        assert mine.text == "📜 Aucune partie terminée dans votre historique pour l'instant."
