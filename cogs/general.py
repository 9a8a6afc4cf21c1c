"""`/help`, `/settings`, `/notify`, `/language`, `/stats` and `/leaderboard`: the commands not
about one table. They ask the registry, so every game on the shell appears in them."""

from __future__ import annotations

from collections.abc import Collection
from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot import i18n
from bot.client import DeductionBot
from bot.history import HistoryButton, history_page
from bot.i18n import N_, tr, trn
from bot.interactions import Answer, language_of, run
from bot.languages import of_table
from bot.plug import AnyGame, commands_of
from bot.replay import Looker, ReplayButton

FAMILIES = (HistoryButton, ReplayButton)


class General(commands.Cog):
    def __init__(self, bot: DeductionBot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(*FAMILIES)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(*FAMILIES)

    def title(self, game: str) -> str:
        module = self.bot.games.get(game)
        return module.title if module is not None else game

    @app_commands.command(name="help", description="How to play with this bot")
    async def help(self, interaction: discord.Interaction) -> None:
        text = help_text(await language_of(interaction), self.bot.games.values())
        # an embed's description (4,096 characters): the help outgrows a message's 2,000 in
        # the longer languages
        await interaction.response.send_message(embed=discord.Embed(description=text),
                                                ephemeral=True)

    @app_commands.command(name="language", description="The language the bot writes to you in")
    @app_commands.describe(
        language="Your language; server default: forget it and follow your Discord app's",
    )
    @app_commands.choices(language=[
        *(app_commands.Choice(name=i18n.name_of(code), value=code)
          for code in i18n.languages()),
        app_commands.Choice(name="server default", value="server default"),
    ])
    async def language(self, interaction: discord.Interaction,
                       language: app_commands.Choice[str] | None = None) -> None:
        """Your own choice, at every table on every server; with no option it shows it."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        languages = self.bot.languages
        if language is not None:
            chosen = None if language.value == "server default" else language.value
            await languages.choose(interaction.user.id, chosen)
        lang = await language_of(interaction)
        if await languages.chosen(interaction.user.id) is not None:
            text = tr(lang, "🌍 I write to you in **{language}**, at every table.",
                      language=i18n.name_of(lang))
        else:
            text = tr(lang, "🌍 I write to you in your Discord app's language (here: "
                            "**{language}**).", language=i18n.name_of(lang))
        await interaction.followup.send(
            text + " " + tr(lang, "Change it with `/language language:`.")
        )

    @app_commands.command(name="settings", description="This server's defaults for new tables")
    @app_commands.describe(
        option="A game's own option (pick from the list), set with value",
        value="The option's value (pick from the list)",
        assist="Default notes help for new tables",
        turn_minutes="Default minutes per turn before an AI plays it (0 = no limit)",
        alert="How members hear it is their turn, unless they chose with /notify",
        language="The language tables write in the channel (discord: the server's own)",
    )
    @app_commands.choices(language=[
        *(app_commands.Choice(name=i18n.name_of(code), value=code)
          for code in i18n.languages()),
        app_commands.Choice(name="discord", value="discord"),
    ])
    @app_commands.guild_only()
    @app_commands.default_permissions(manage_guild=True)
    async def settings(
        self,
        interaction: discord.Interaction,
        option: app_commands.Range[str, 1, 50] | None = None,
        value: app_commands.Range[str, 1, 50] | None = None,
        assist: Literal["off", "bookkeeping", "full"] | None = None,
        turn_minutes: app_commands.Range[int, 0, 1440] | None = None,
        alert: Literal["ping", "dm", "silent"] | None = None,
        language: app_commands.Choice[str] | None = None,
    ) -> None:
        """Manage Server only; with no option it shows the current defaults."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        lang = await language_of(interaction)
        assert interaction.guild_id is not None
        if not interaction.permissions.manage_guild:
            await interaction.followup.send(
                tr(lang, "Only members with Manage Server can change this."))
            return
        changes: dict[str, object] = {"assist": assist, "turn_minutes": turn_minutes,
                                      "alert": alert}
        if option is not None or value is not None:
            chosen = self.game_option(lang, option, value)
            if isinstance(chosen, str):
                await interaction.followup.send(chosen)
                return
            changes.update(chosen)
        current = await self.bot.storage.guild_settings(interaction.guild_id)
        current.update({k: v for k, v in changes.items() if v is not None})
        if language is not None:
            current.pop("language", None)
            if language.value != "discord":
                current["language"] = language.value
        await self.bot.storage.set_guild_settings(interaction.guild_id, current)
        lines = []
        for game in self.bot.games.values():
            shown = game.settings.merged(current, {}).model_dump()
            parts = [_setting(lang, k, v) for k, v in shown.items()]
            lines.append(f"**{game.title}**: " + ", ".join(parts))
        mode = current.get("alert", "ping")
        lines.append(tr(lang, "🔔 Turn alerts: **{mode}** ({meaning}); members choose their own "
                              "with `/notify`.", mode=mode, meaning=tr(lang, ALERT_TEXT[mode])))
        table_lang = i18n.name_of(of_table(current, interaction.guild_locale))
        lines.append(tr(lang, "🌍 Tables write in the channel in **{language}** (the server's "
                              "Discord language unless set here); members read their own "
                              "messages in theirs (`/language`).", language=table_lang)
                     if "language" not in current else
                     tr(lang, "🌍 Tables write in the channel in **{language}**; members read "
                              "their own messages in theirs (`/language`).",
                        language=table_lang))
        await interaction.followup.send(
            tr(lang, "⚙️ Defaults for new tables here:") + "\n" + "\n".join(lines)
            + "\n" + tr(lang, "Options given to `new` still win.")
        )

    def game_options(self) -> dict[str, tuple[str, dict[str, object]]]:
        """`game.option` → (what the list shows, text → value), from each game's settings."""
        return {f"{game.key}.{name}": (f"{game.title}: {name.replace('_', ' ')}", values)
                for game in self.bot.games.values()
                for name, values in game.settings.own_options().items()}

    def game_option(self, lang: str, option: str | None, value: str | None
                    ) -> dict[str, object] | str:
        """The change `option` and `value` ask for, or why it is refused (nothing stored)."""
        known = self.game_options()
        if option is None or option not in known:
            return tr(lang, "Pick `option` from its list (a game's own option), then its "
                            "`value`.")
        shown, values = known[option]
        if value is None or value not in values:
            return tr(lang, "**{option}** takes one of: {values}.", option=shown,
                      values=", ".join(f"`{v}`" for v in values))
        return {option.split(".", 1)[1]: values[value]}

    @settings.autocomplete("option")
    async def _options(self, interaction: discord.Interaction, current: str
                       ) -> list[app_commands.Choice[str]]:
        """Autocomplete cannot defer: the games' settings models only, no reads."""
        typed = current.lower()
        return [app_commands.Choice(name=shown, value=key)
                for key, (shown, _) in self.game_options().items()
                if typed in shown.lower() or typed in key][:25]

    @settings.autocomplete("value")
    async def _values(self, interaction: discord.Interaction, current: str
                      ) -> list[app_commands.Choice[str]]:
        option = getattr(interaction.namespace, "option", None)
        known = self.game_options()
        values = known[option][1] if isinstance(option, str) and option in known else {}
        return [app_commands.Choice(name=text, value=text)
                for text in values if current.lower() in text.lower()][:25]

    @app_commands.command(name="notify", description="How you hear that it is your turn")
    @app_commands.describe(
        alert="ping: a mention in the channel · dm: a direct message · silent: nothing",
    )
    async def notify(
        self, interaction: discord.Interaction,
        alert: Literal["ping", "dm", "silent", "server default"] | None = None,
    ) -> None:
        """Your own choice, at every table on every server; with no option it shows it."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        lang = await language_of(interaction)
        mine = await self.bot.storage.user_settings(interaction.user.id)
        if alert == "server default":
            mine.pop("alert", None)
        elif alert is not None:
            mine["alert"] = alert
        if alert is not None:
            await self.bot.storage.set_user_settings(interaction.user.id, mine)
        if "alert" in mine:
            mode = mine["alert"]
            text = tr(lang, "🔔 Your turn alerts: **{mode}** ({meaning}), at every table.",
                      mode=mode, meaning=tr(lang, ALERT_TEXT[mode]))
        else:
            default = "ping"
            if interaction.guild_id is not None:
                guild = await self.bot.storage.guild_settings(interaction.guild_id)
                default = guild.get("alert", "ping")
            text = tr(lang, "🔔 Your turn alerts follow each server's default (here: "
                            "**{mode}**, {meaning}).",
                      mode=default, meaning=tr(lang, ALERT_TEXT[default]))
        await interaction.followup.send(text + " " + tr(lang, "Change it with `/notify alert:`."))

    @app_commands.command(name="stats", description="A player's record on this server")
    @app_commands.describe(player="Whose record (default: yours)")
    @app_commands.guild_only()
    async def stats(
        self, interaction: discord.Interaction, player: discord.User | None = None
    ) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        lang = await language_of(interaction)
        who = player or interaction.user
        assert interaction.guild_id is not None
        record = await self.bot.storage.player_stats(interaction.guild_id, who.id)
        if not record:
            await interaction.followup.send(
                tr(lang, "{name} has no finished games here yet.", name=who.display_name))
            return
        lines = [
            f"**{self.title(g)}**: " + _record(lang, won, played)
            for g, (played, won) in sorted(record.items())
        ]
        if len(record) > 1:  # every game counts towards the overall record
            played = sum(p for p, _ in record.values())
            won = sum(w for _, w in record.values())
            lines.append(f"**{tr(lang, 'Overall')}**: " + _record(lang, won, played))
        await interaction.followup.send(f"📊 **{who.display_name}**\n" + "\n".join(lines))

    @app_commands.command(name="history", description="This server's finished games")
    @app_commands.describe(me="Only the games you played")
    @app_commands.guild_only()
    async def history(self, interaction: discord.Interaction, me: bool = False) -> None:
        async def work() -> Answer:
            return await history_page(self.bot.tables, Looker.of(interaction),
                                      interaction.user.id if me else None, 0,
                                      await language_of(interaction))

        await run(interaction, work)

    @app_commands.command(name="leaderboard", description="This server's best detectives")
    @app_commands.guild_only()
    async def leaderboard(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        lang = await language_of(interaction)
        assert interaction.guild_id is not None
        rows = await self.bot.storage.leaderboard(interaction.guild_id)
        if not rows:
            await interaction.followup.send(tr(lang, "No finished games on this server yet."))
            return
        lines = [
            f"{rank}. {_who(lang, who)} — "
            + tr(lang, "{wins} in {games}", wins=trn(lang, "{n} win", "{n} wins", won),
                 games=trn(lang, "{n} game", "{n} games", played))
            + (f" ({round(100 * won / played)}%)" if played else "")
            for rank, (who, won, played) in enumerate(rows, 1)
        ]
        await interaction.followup.send(
            tr(lang, "🏆 **Leaderboard**") + "\n" + "\n".join(lines),
            allowed_mentions=discord.AllowedMentions.none(),
        )


def help_text(lang: str, games: Collection[AnyGame]) -> str:
    """`/help` in `lang`: every game's own help, then the general commands."""
    both = tr(lang, "and")  # outside the call below: Babel finds no call nested in another
    return tr(
        lang,
        "**Deduction games on Discord**\n{games}\n"
        "📊 `/stats` shows your record here, `/leaderboard` the server's best detectives.\n"
        "📜 `/history` lists this server's finished games (`me`: yours); "
        "{replay} step through one, with a ⬇️ Download of it as files.\n"
        "👀 {watch} follow a table without a seat, from one DM kept up to date (the same "
        "command stops it); {sit} take over an AI's seat mid-game once the host agrees (or "
        "your own seat back, at once, after you left).\n"
        "🔔 `/notify` chooses how you hear it is your turn: ping, dm or silent.\n"
        "🌍 `/language` chooses the language the bot writes to you in (else your Discord "
        "app's); a table writes in the channel in the server's language (`/settings "
        "language`, else the server's Discord language).\n"
        "Only the host (or a member with Manage Server) can `end` a table.",
        games="\n".join(tr(lang, g.help) for g in games),
        replay=commands_of(games, "replay", lang, both),
        watch=commands_of(games, "watch", lang, both),
        sit=commands_of(games, "sit", lang, both),
    )


ALERT_TEXT = {
    "ping": N_("a mention in the table's channel"),
    "dm": N_("a direct message"),
    "silent": N_("no alert"),
}


def _record(lang: str, won: int, played: int) -> str:
    return trn(lang, "{won} won of {n} played", "{won} won of {n} played", played, won=won)


def _who(lang: str, who: int | str) -> str:
    if isinstance(who, str) and who.startswith("ai:"):
        return tr(lang, "🤖 AI detective ({level})", level=who.removeprefix("ai:"))
    return f"<@{who}>"


def _setting(lang: str, key: str, value: object) -> str:
    if key == "turn_minutes":
        return (tr(lang, "turn timer **off**") if not value
                else tr(lang, "turn timer **{minutes} min**", minutes=value))
    return f"{key.replace('_', ' ')} **{value}**"


async def setup(bot: DeductionBot) -> None:
    await bot.add_cog(General(bot))
