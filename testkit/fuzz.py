"""Bad input through the stand-in: random commands and options (over-long strings too), forged,
truncated and replayed custom_ids (other tables, other guilds, finished games, DMs), random
members, components clicked after the game ended. Shared by the suite's fuzz test and
`python -m bench.fuzz`; the values come from hypothesis (`draw`).

Every interaction must be answered (the stand-in raises otherwise, and records any answer past
3 s or any other broken Discord rule as a violation); the bot must log no error; and a refused
interaction must change nothing in the database. A change that did happen must be one step of
one table (or a new table, or settings) and not be answered as a refusal.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from hypothesis import strategies as st

from bot.client import DeductionBot
from bot.config import Config
from bot.interactions import UNCHANGED
from bot.spectators import WATCHERS
from engine.thirteen_clues.cards import CARDS
from testkit.drive import Snapshot, query
from testkit.play import first_of_each, pass_prompt
from testkit.standin import DiscordStandIn, Message, StandInError, User
from testkit.world import World

T = TypeVar("T")
Draw = Callable[[st.SearchStrategy[T]], T]
PARTS = st.one_of(
    st.sampled_from(["", "-", "0", "1", "2", "3", "99999999999999999999", "x", "_._._",
                     "ask", "askgo", "acc", "pass", "join", "start", "hand", "mark"]),
    st.text(alphabet="abc013:._-", max_size=12),
)
"""What replaces one part of a real custom_id in a forged one."""

REFUSED = (
    "⚠️", UNCHANGED, "Only the host", "Pick exactly", "Pick a ", "Pick one of", "Pick the ",
    "belongs to a table on another server",
    "not seated", "no longer exists", "has not started", "changed at the same moment",
    "older version", "already closed", "already seated", "is full", "Use this command in",
    "You are the host", "not something you can ask about", "AI level must be", "seats are left",
    "seat is left",
    "plays in <#", "no card called", "There is no", "do not fit", "out of date", "not yours",
    "already", "is over", "not in play", "is not a ", "not among your", "Ask another player",
    "two-player", "Top Secret variant", "Top Secret token", "only take a glass", "no magnifying",
    "holds no magnifying", "Secret Informant", "no informant", "cannot accuse", "paused",
    "Nothing is revealed", "set for", "choose the cards to pass", "restarting",
    "You cannot use this command", "Manage Server", "need View Channel", "not a member",
    "Take the glass from another", "does not need", "do not need", "before the game",
    "not one I can use", "tables play in channels", "needs 2",
)
"""Fragments of the bot's refusals (UserError, RuleError and the engine's legal queries).
Not "Pick " alone: the pass menu's placeholder ("Pick 1 Person, 1 Location, 1 Weapon to pass
left") is in the text of a case file whose select made a legal pass, and the fuzz called that
change a refusal that changed the database (bench.fuzz, 2 of 10 worlds in one run)."""

TEXT = st.one_of(
    st.sampled_from(["", "A", "Z", "red", "duke", "Duke", "park", "knife", "male", "indoor",
                     "blue", "the butler", "  ", "Ω", "13c:ask:1:1", "<@1>", "@everyone"]),
    st.text(max_size=60),
    st.text(min_size=100, max_size=4000),
)


@dataclass
class Counts:
    interactions: int = 0
    kinds: Counter[str] = field(default_factory=Counter)
    refused: int = 0
    changed: int = 0
    looked: int = 0
    looks: Counter[str] = field(default_factory=Counter)
    """The first line of what the looks showed (a picker, the hand, the status…)."""
    unsendable: int = 0
    """Drawn requests the stand-in would not let a Discord client send (e.g. a string longer
    than the option's max_length): Discord refuses them before the bot sees them."""

    def report(self) -> str:
        kinds = ", ".join(f"{k} {v}" for k, v in sorted(self.kinds.items()))
        return (f"{self.interactions} interactions ({kinds}): refused {self.refused}, changed "
                f"the game {self.changed}, looked {self.looked}; not sendable {self.unsendable}")


def describe(before: Snapshot, after: Snapshot) -> str:
    """What changed between two snapshots (for a failure's message)."""
    old = {row[0]: row for row in before.tables}
    lines = [f"actions {before.actions} → {after.actions}, timers {before.timers} → "
             f"{after.timers}"]
    for row in after.tables:
        was = old.get(row[0])
        if was != row:
            lines.append(f"table {row[0]}: status {was[1] if was else None} → {row[1]}, "
                         f"version {was[2] if was else None} → {row[2]}")
    return "\n".join(lines)


class Fuzzer:
    """A small world of tables in every state, then random input into it."""

    def __init__(self, dc: DiscordStandIn, db: Path, draw: Draw[Any]) -> None:
        self.dc = dc
        self.world = World(dc, db)
        self.rng = draw(st.randoms(use_true_random=True))
        """Every choice of the run: drawn once, so a run is replayed from its seed."""
        self.texts = draw(st.lists(TEXT, min_size=30, max_size=30))
        self.parts = draw(st.lists(PARTS, min_size=20, max_size=20))
        self.counts = Counts()
        dc_ = dc
        self.other = dc_.add_guild("Other Guild")
        self.channels = [self.world.channel] + [
            dc_.add_channel(self.world.guild.id, name) for name in ("finished", "lobby", "empty")
        ]
        self.users: list[User] = [*self.world.users]
        self.users += [dc_.add_user(n, guild_id=self.world.guild.id) for n in ("Eve", "Hal")]
        self.mod = dc_.add_user("Mod", guild_id=self.world.guild.id, manage_guild=True)
        self.far = [dc_.add_user(n, guild_id=self.other.id) for n in ("Fay", "Gus")]
        dc_.join_guild(self.users[-1], self.other.id)  # Hal is in both guilds
        self.everyone = [*self.users, self.mod, *self.far]

    def bot(self) -> DeductionBot:
        # AI seats never move by themselves here (each change must come from an interaction)
        config = Config(token="standin-token", database_path=self.world.db, ai_delay=10_000.0,
                        ai_workers=0)
        return DeductionBot(config)

    # -- the scene -------------------------------------------------------------------------

    async def scene(self) -> None:
        """A game in play (#general), a finished game, a lobby, an empty channel, and a game
        in play in another guild."""
        dc = self.dc
        ann, bea, cid, dee = self.world.users
        eve = self.users[4]
        fay, gus = self.far
        general, finished, lobby, _ = self.channels
        await self.setup(ann, general, "new")
        for user in (bea, cid):
            await self.setup(user, general, "join")
        await self.setup(ann, general, "start")
        await self.setup(dee, finished, "new")
        await self.setup(ann, finished, "join")
        await self.setup(dee, finished, "start")
        await dc.settle()
        prompt = pass_prompt(self.world, ann)
        select = next(c for c in prompt.custom_ids if c.startswith("13c:pass:"))
        await dc.select(ann, prompt, select,
                        first_of_each([o["value"] for o in prompt.options(select)]))
        await self.setup(dee, finished, "end")
        await self.setup(eve, lobby, "new", top_secret=True)
        await self.setup(fay, self.other.channel_id, "new")
        await self.setup(gus, self.other.channel_id, "join")
        await self.setup(fay, self.other.channel_id, "start")
        for user in (fay, gus, ann, bea, cid):
            await dc.settle()
            prompt = pass_prompt(self.world, user)
            select = next(c for c in prompt.custom_ids if c.startswith("13c:pass:"))
            await dc.select(user, prompt, select,
                            first_of_each([o["value"] for o in prompt.options(select)]))
        await dc.settle()

    async def setup(self, user: User, channel: int, name: str, **options: Any) -> None:
        await self.dc.slash(user, channel, "13clues", name, **options)

    # -- one random interaction ------------------------------------------------------------

    async def one(self) -> None:
        kind = self.rng.choice(
            ["slash", "slash", "autocomplete", "click", "select", "forge", "replay", "truncate"])
        user = self.rng.choice(self.everyone)
        before = Snapshot.take(self.world)
        settings_before = self.settings()
        try:
            if kind == "autocomplete":
                await self.autocomplete(user)
                assert Snapshot.take(self.world) == before, "autocomplete changed the database"
                self.counts.interactions += 1
                self.counts.kinds[kind] += 1
                self.counts.looked += 1
                return
            rec = await self.fire(kind, user)
        except StandInError:
            self.counts.unsendable += 1
            return
        if rec is None:
            return
        self.counts.interactions += 1
        self.counts.kinds[kind] += 1
        result = await self.dc.complete(rec, timeout=10.0)
        assert result.callback_type is not None, f"unanswered: {result!r}"
        text = "\n".join(m.text for m in result.messages if m.text) + "\n".join(
            str(c.get("name")) for c in result.choices or [])
        after = Snapshot.take(self.world)
        changed = after != before or self.settings() != settings_before
        refused = any(marker in text for marker in REFUSED)
        if refused:
            self.counts.refused += 1
            assert not changed, (f"a refusal changed the database ({kind}): {text[:300]}\n"
                                  f"{describe(before, after)}")
        elif changed:
            self.counts.changed += 1
            self.explainable(before, after, text)
        else:
            self.counts.looked += 1
            self.counts.looks[text.split("\n")[0][:60]] += 1

    def settings(self) -> list[Any]:
        return [tuple(r) for r in query(self.world, "SELECT * FROM guild_settings")]  # type: ignore[arg-type]

    def explainable(self, before: Snapshot, after: Snapshot, text: str) -> None:
        """A change is one table one version further (or a new table, or settings)."""
        old = {row[0]: row for row in before.tables}
        moved = [row for row in after.tables if row not in before.tables]
        assert len(moved) <= 1, f"several tables changed at once: {text[:300]}"
        for row in moved:
            if row[0] in old and not _watchers_only(old[row[0]], row):
                assert row[2] == old[row[0]][2] + 1, f"version jumped: {text[:300]}"
        assert after.actions - before.actions <= 1

    async def fire(self, kind: str, user: User) -> Any:
        if kind == "slash":
            return await self.slash(user)
        message = self.visible(user)
        if message is None:
            return None
        ids = [c for c in message.custom_ids]
        if kind in ("click", "select") and ids:
            custom_id = self.rng.choice(ids)
            comp = message.component(custom_id)
            if comp.get("type") == 2:
                if comp.get("disabled"):
                    return None
                return await self.dc.click(user, message, custom_id, wait=False)
            options = [o["value"] for o in comp.get("options", [])]
            lo, hi = comp.get("min_values", 1), comp.get("max_values", 1)
            if not options or hi < lo:
                return None
            n = self.rng.randint(lo, min(hi, len(options)))
            values = self.rng.sample(options, n)
            return await self.dc.select(user, message, custom_id, values, wait=False)
        custom_id = self.forged(kind)
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": 2}
        if self.rng.random() < 0.5:
            data["component_type"] = 3
            pool = [*sorted(CARDS), *self.texts, "0", "1", "9"]
            data["values"] = [self.rng.choice(pool) for _ in range(self.rng.randint(0, 4))]
        return await self.dc.forge(user, message, data, wait=False)

    def forged(self, kind: str) -> str:
        """A custom_id from any message anywhere (another table, guild, a finished game, a DM),
        cut short, or changed in one of its parts."""
        every = sorted({c for m in self.dc.messages for c in m.custom_ids}) or ["13c:ask:1:1"]
        real: str = self.rng.choice(every)
        if kind == "replay":
            return real
        if kind == "truncate":
            return real[: self.rng.randint(0, max(0, len(real) - 1))]
        parts = real.split(":")
        i = self.rng.randint(0, len(parts) - 1)
        parts[i] = self.rng.choice(self.parts)
        return ":".join(parts)[:100]

    def visible(self, user: User) -> Message | None:
        """A message this member can see and act on: in a channel of their guilds, their DMs,
        their own ephemeral answers."""
        dc = self.dc
        seen = [m for m in dc.messages if not m.deleted and (
            (m.dm_recipient_id == user.id)
            or (m.ephemeral and m.visible_to == user.id)
            or (m.guild_id is not None and not m.ephemeral and m.dm_recipient_id is None
                and user.id in dc.guilds[m.guild_id].member_ids
                and not dc.channels[m.channel_id].deleted)
        )]
        with_parts = [m for m in seen if m.custom_ids]
        pool = with_parts if with_parts and self.rng.randint(0, 9) > 0 else seen
        chosen: Message | None = self.rng.choice(pool) if pool else None
        return chosen

    def place(self, user: User) -> int | None:
        """A channel of one of the member's guilds, or their DM with the bot (None)."""
        dc = self.dc
        places: list[int | None] = [None]
        places += [c for c in dc.channels if dc.channels[c].guild_id is not None
                   and not dc.channels[c].is_dm
                   and user.id in dc.guilds[dc.channels[c].guild_id].member_ids]  # type: ignore[index]
        chosen: int | None = self.rng.choice(places)
        return chosen

    def command(self, autocomplete: bool = False) -> tuple[list[str], dict[str, Any], list[str]]:
        """A command path, random options for it, and its autocomplete options."""
        paths: list[tuple[list[str], list[dict[str, Any]]]] = []
        for cmd in self.dc.global_commands:
            subs = [o for o in cmd.get("options", []) if o.get("type") == 1]
            if subs:
                paths += [([cmd["name"], s["name"]], s.get("options", [])) for s in subs]
            else:
                paths.append(([cmd["name"]], cmd.get("options", [])))
        if autocomplete:
            paths = [p for p in paths if any(o.get("autocomplete") for o in p[1])]
        path, defs = self.rng.choice(sorted(paths, key=lambda p: p[0]))
        options: dict[str, Any] = {}
        for odef in defs:
            if not odef.get("required") and self.rng.random() < 0.5:
                continue
            options[odef["name"]] = self.value(odef)
        return path, options, [o["name"] for o in defs if o.get("autocomplete")]

    async def slash(self, user: User) -> Any:
        path, options, _ = self.command()
        return await self.dc.slash(user, self.place(user), *path, options=options, wait=False)

    async def autocomplete(self, user: User) -> None:
        path, options, focus = self.command(autocomplete=True)
        name = self.rng.choice(focus)
        options[name] = str(options.get(name, ""))[:100]
        await self.dc.autocomplete(user, self.place(user), *path, focused=name,
                                   options=options, timeout=10.0)

    def value(self, odef: dict[str, Any]) -> Any:
        kind = odef["type"]
        if odef.get("choices"):
            return self.rng.choice([c["value"] for c in odef["choices"]])
        if kind == 3:
            text = self.rng.choice(self.texts)
            hi = odef.get("max_length")
            if hi is not None and self.rng.randint(0, 9) > 0:
                text = text[:hi]
            lo = odef.get("min_length") or 0
            return text if len(text) >= lo else text + "x" * lo
        if kind == 4:
            lo, hi = odef.get("min_value", -10), odef.get("max_value", 10_000)
            return self.rng.randint(int(lo), int(hi))
        if kind == 5:
            return self.rng.random() < 0.5
        if kind in (6, 9):
            return self.rng.choice(self.everyone).id
        return self.rng.choice(self.texts)


async def fuzz(db: Path, draw: Draw[Any], cases: int, seed: int = 0) -> Counts:
    """Run `cases` random interactions against a fresh world; fail on the first problem."""
    from testkit.standin import running_standin

    random.seed(seed)
    async with running_standin() as dc:
        fuzzer = Fuzzer(dc, db, draw)
        async with dc.run_bot(fuzzer.bot()):
            await fuzzer.scene()
            for _ in range(cases):
                await fuzzer.one()
            await dc.settle()
        errors = fuzzer.world.unexpected_errors()
        assert not errors, "the bot logged errors:\n" + "\n".join(errors)
    return fuzzer.counts


def _watchers_only(before: tuple[Any, ...], after: tuple[Any, ...]) -> bool:
    """`/… watch` changes who watches (kept in the options) at the same version, so that the
    players' open buttons stay valid; anything else changed must move the version on."""
    options = 5  # Snapshot.tables: id, status, version, state, seats, options, host
    if before[:options] != after[:options] or before[options + 1:] != after[options + 1:]:
        return False
    old, new = json.loads(before[options]), json.loads(after[options])
    old.pop(WATCHERS, None)
    new.pop(WATCHERS, None)
    return bool(old == new)
