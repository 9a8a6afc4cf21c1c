"""`/help`, `/settings`, `/notify`, `/stats` and `/leaderboard`: the commands not about one
table. They ask the registry, so every game on the shell appears in them."""

from __future__ import annotations

from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import DeductionBot
from bot.history import HistoryButton, history_page
from bot.interactions import Answer, run
from bot.plug import commands_of
from bot.replay import ReplayButton

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
        games = "\n".join(g.help for g in self.bot.games.values())
        text = (
            f"**Deduction games on Discord**\n{games}\n"
            "📊 `/stats` shows your record here, `/leaderboard` the server's best detectives.\n"
            "📜 `/history` lists this server's finished games (`me`: yours); "
            f"{commands_of(self.bot.games.values(), 'replay')} step through one, with a "
            "⬇️ Download of it as files.\n"
            f"👀 {commands_of(self.bot.games.values(), 'watch')} follow a table without a seat, "
            "from one DM kept up to date (the same command stops it); "
            f"{commands_of(self.bot.games.values(), 'sit')} take over an AI's seat mid-game "
            "once the host agrees (or your own seat back, at once, after you left).\n"
            "🔔 `/notify` chooses how you hear it is your turn: ping, dm or silent.\n"
            "Only the host (or a member with Manage Server) can `end` a table."
        )
        await interaction.response.send_message(text[:2000], ephemeral=True)

    @app_commands.command(name="settings", description="This server's defaults for new tables")
    @app_commands.describe(
        option="A game's own option (pick from the list), set with value",
        value="The option's value (pick from the list)",
        assist="Default notes help for new tables",
        turn_minutes="Default minutes per turn before an AI plays it (0 = no limit)",
        alert="How members hear it is their turn, unless they chose with /notify",
    )
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
    ) -> None:
        """Manage Server only; with no option it shows the current defaults."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        assert interaction.guild_id is not None
        if not interaction.permissions.manage_guild:
            await interaction.followup.send("Only members with Manage Server can change this.")
            return
        changes: dict[str, object] = {"assist": assist, "turn_minutes": turn_minutes,
                                      "alert": alert}
        if option is not None or value is not None:
            chosen = self.game_option(option, value)
            if isinstance(chosen, str):
                await interaction.followup.send(chosen)
                return
            changes.update(chosen)
        current = await self.bot.storage.guild_settings(interaction.guild_id)
        current.update({k: v for k, v in changes.items() if v is not None})
        await self.bot.storage.set_guild_settings(interaction.guild_id, current)
        lines = []
        for game in self.bot.games.values():
            shown = game.settings.merged(current, {}).model_dump()
            parts = [_setting(k, v) for k, v in shown.items()]
            lines.append(f"**{game.title}**: " + ", ".join(parts))
        mode = current.get("alert", "ping")
        lines.append(f"🔔 Turn alerts: **{mode}** ({ALERT_TEXT[mode]}); "
                     "members choose their own with `/notify`.")
        await interaction.followup.send(
            "⚙️ Defaults for new tables here:\n" + "\n".join(lines)
            + "\nOptions given to `new` still win."
        )

    def game_options(self) -> dict[str, tuple[str, dict[str, object]]]:
        """`game.option` → (what the list shows, text → value), from each game's settings."""
        return {f"{game.key}.{name}": (f"{game.title}: {name.replace('_', ' ')}", values)
                for game in self.bot.games.values()
                for name, values in game.settings.own_options().items()}

    def game_option(self, option: str | None, value: str | None) -> dict[str, object] | str:
        """The change `option` and `value` ask for, or why it is refused (nothing stored)."""
        known = self.game_options()
        if option is None or option not in known:
            return "Pick `option` from its list (a game's own option), then its `value`."
        shown, values = known[option]
        if value is None or value not in values:
            return f"**{shown}** takes one of: " + ", ".join(f"`{v}`" for v in values) + "."
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
        mine = await self.bot.storage.user_settings(interaction.user.id)
        if alert == "server default":
            mine.pop("alert", None)
        elif alert is not None:
            mine["alert"] = alert
        if alert is not None:
            await self.bot.storage.set_user_settings(interaction.user.id, mine)
        if "alert" in mine:
            mode = mine["alert"]
            text = f"🔔 Your turn alerts: **{mode}** ({ALERT_TEXT[mode]}), at every table."
        else:
            default = "ping"
            if interaction.guild_id is not None:
                guild = await self.bot.storage.guild_settings(interaction.guild_id)
                default = guild.get("alert", "ping")
            text = (f"🔔 Your turn alerts follow each server's default (here: **{default}**, "
                    f"{ALERT_TEXT[default]}).")
        await interaction.followup.send(text + " Change it with `/notify alert:`.")

    @app_commands.command(name="stats", description="A player's record on this server")
    @app_commands.guild_only()
    async def stats(
        self, interaction: discord.Interaction, player: discord.User | None = None
    ) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        who = player or interaction.user
        assert interaction.guild_id is not None
        record = await self.bot.storage.player_stats(interaction.guild_id, who.id)
        if not record:
            await interaction.followup.send(f"{who.display_name} has no finished games here yet.")
            return
        lines = [
            f"**{self.title(g)}**: {won} won of {played} played"
            for g, (played, won) in sorted(record.items())
        ]
        if len(record) > 1:  # every game counts towards the overall record
            played = sum(p for p, _ in record.values())
            won = sum(w for _, w in record.values())
            lines.append(f"**Overall**: {won} won of {played} played")
        await interaction.followup.send(f"📊 **{who.display_name}**\n" + "\n".join(lines))

    @app_commands.command(name="history", description="This server's finished games")
    @app_commands.describe(me="Only the games you played")
    @app_commands.guild_only()
    async def history(self, interaction: discord.Interaction, me: bool = False) -> None:
        async def work() -> Answer:
            assert interaction.guild_id is not None
            return await history_page(self.bot.tables, interaction.guild_id,
                                      interaction.user.id if me else None, 0)

        await run(interaction, work)

    @app_commands.command(name="leaderboard", description="This server's best detectives")
    @app_commands.guild_only()
    async def leaderboard(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        assert interaction.guild_id is not None
        rows = await self.bot.storage.leaderboard(interaction.guild_id)
        if not rows:
            await interaction.followup.send("No finished games on this server yet.")
            return
        lines = [
            f"{rank}. {_who(who)} — {_count(won, 'win')} in {_count(played, 'game')}"
            + (f" ({round(100 * won / played)}%)" if played else "")
            for rank, (who, won, played) in enumerate(rows, 1)
        ]
        await interaction.followup.send(
            "🏆 **Leaderboard**\n" + "\n".join(lines),
            allowed_mentions=discord.AllowedMentions.none(),
        )


ALERT_TEXT = {
    "ping": "a mention in the table's channel",
    "dm": "a direct message",
    "silent": "no alert",
}


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def _who(who: int | str) -> str:
    if isinstance(who, str) and who.startswith("ai:"):
        return f"🤖 AI detective ({who.removeprefix('ai:')})"
    return f"<@{who}>"


def _setting(key: str, value: object) -> str:
    if key == "turn_minutes":
        return "turn timer **off**" if not value else f"turn timer **{value} min**"
    return f"{key.replace('_', ' ')} **{value}**"


async def setup(bot: DeductionBot) -> None:
    await bot.add_cog(General(bot))
