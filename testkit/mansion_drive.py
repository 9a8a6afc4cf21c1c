"""Helpers to drive Mansion tables through the stand-in as real members would: open a table,
read the stored truth, and perform an engine action through the bot's own panels, DM
buttons, `/mansion hand` and slash commands."""

from __future__ import annotations

import asyncio
import contextlib
import re
import time
from collections.abc import Callable
from typing import Any, Literal

from engine.mansion import GameState
from engine.mansion import actions as act
from engine.mansion.cards import ACTIONS, CLUES
from engine.mansion.prompts import TipPrompt
from testkit.drive import Cut, cut, query, table_row, wait_until
from testkit.standin import InteractionResult, Message, User
from testkit.world import World

SLACK = 60.0
"""How long a wait may last before it fails: a guard against a hang, not a speed check
(the waits return as soon as what they wait for is there; machines are busy)."""

Via = Literal["panel", "slash", "dm", "hand", "dmturn"]
"""How a member acts: the My turn button on the table message, `/mansion turn` or
`/mansion accuse`, a DM's buttons, `/mansion hand`, or the My turn button of a DM."""


def mstate(world: World) -> GameState:
    """The channel's latest Mansion game, from the bot's database."""
    row = table_row(world)
    assert row["state"] is not None, "the game has not started"
    return GameState.model_validate_json(row["state"])


def user_at(world: World, state: GameState, seat: int) -> User | None:
    sid = state.seats[seat].id
    if not sid.startswith("u"):
        return None
    return world.dc.users[int(sid.removeprefix("u"))]


def seat_of(state: GameState, user: User) -> int:
    return next(i for i, s in enumerate(state.seats) if s.id == f"u{user.id}")


async def slash(world: World, user: User, command: str, **options: Any) -> InteractionResult:
    result = await world.dc.slash(user, world.channel, "mansion", command, **options)
    await world.dc.settle()
    return result


async def open_mansion(world: World, players: list[User], *, seed: int | None = None,
                       ai: tuple[int, str] | None = None, **options: Any) -> None:
    """`new` by the first member, `join` by the others, optional AI seats, then `start`
    (with the deal drawn from `seed` when given)."""
    host, *others = players
    opened = await slash(world, host, "new", **options)
    assert "Table open" in opened.text, opened.text
    for user in others:
        joined = await slash(world, user, "join")
        assert "You have a seat" in joined.text, joined.text
    if ai is not None:
        seated = await slash(world, host, "add-ai", count=ai[0], level=ai[1])
        assert "Seated" in seated.text, seated.text
    if seed is not None:
        assert world.bot is not None
        world.bot.tables.seed = lambda: seed
    started = await slash(world, host, "start")
    assert "The game starts" in started.text, started.text


def living(world: World) -> Message:
    """The living table message: the newest channel message with the My turn button."""
    for msg in reversed(world.dc.channel_messages(world.channel)):
        if any(c.startswith("mbm:turn:") for c in msg.custom_ids):
            return msg
    raise AssertionError("no table message with buttons in the channel")


def find(msg: Message, verb: str, draft: str | None = None) -> str:
    """The custom_id of the component with this verb (and draft suffix) on `msg`."""
    for c in msg.custom_ids:
        parts = c.split(":")
        if parts[1] == verb and (draft is None or parts[-1] == draft):
            return c
    raise AssertionError(f"no {verb!r} ({draft}) component on {msg!r}: {msg.custom_ids}")


def prompt_dm(world: World, user: User, prompt_id: int) -> Message:
    """The newest DM carrying buttons for this prompt."""
    pattern = re.compile(rf"^mbm:[a-z]+:\d+:{prompt_id}(:|$)")
    for msg in reversed(world.dc.dms(user)):
        if any(pattern.match(c) for c in msg.custom_ids):
            return msg
    raise AssertionError(f"no DM to {user.name} for prompt {prompt_id}")


def _has_living(world: World) -> bool:
    try:
        living(world)
    except AssertionError:
        return False
    return True


def _has_prompt_dm(world: World, user: User, prompt_id: int) -> bool:
    try:
        prompt_dm(world, user, prompt_id)
    except AssertionError:
        return False
    return True


class Driver:
    """Performs engine actions as the members at one table."""

    def __init__(self, world: World) -> None:
        self.world = world
        self.dc = world.dc
        self.panels: dict[int, Message] = {}
        """user id → the turn panel they have open (it moves on after each action)."""

    def fresh(self, msg: Message) -> Message:
        return self.dc.message(msg.id)

    async def open_panel(self, user: User, how: Literal["button", "slash", "dm"] = "button"
                         ) -> Message:
        if how == "slash":
            opened = await self.dc.slash(user, self.world.channel, "mansion", "turn")
        elif how == "dm":
            await wait_until(lambda: any(c.startswith("mbm:turn:") for m in self.dc.dms(user)
                                         for c in m.custom_ids), SLACK, "a DM with My turn")
            dm = next(m for m in reversed(self.dc.dms(user))
                      if any(c.startswith("mbm:turn:") for c in m.custom_ids))
            opened = await self.dc.click(user, dm, find(dm, "turn"))
        else:
            await wait_until(lambda: _has_living(self.world), SLACK, "the table message")
            table = living(self.world)
            opened = await self.dc.click(user, table, find(table, "turn"))
        assert opened.ephemeral and opened.message is not None, opened.text
        self.panels[user.id] = opened.message
        return opened.message

    async def click(self, user: User, msg: Message, verb: str, draft: str | None = None
                    ) -> InteractionResult:
        """A click returns once the bot answered it; one deferred as an update returns once
        the bot is quiet, which under load may come before its change is stored (`applied`
        waits for that). Nothing waits for the other messages it owes (settling after every
        click would run into discord.py's own gateway rate limit in long games)."""
        return await self.dc.click(user, msg, await self.offered(msg, verb, draft))

    async def select(self, user: User, msg: Message, verb: str, value: str
                     ) -> InteractionResult:
        return await self.dc.select(user, msg, await self.offered(msg, verb), [value])

    async def offered(self, msg: Message, verb: str, draft: str | None = None) -> str:
        """The component's custom_id once `msg` offers it: the stored state may be ahead of
        the message, whose edit the paced outbox may not have sent yet (a panel still saying
        "waiting for …" when the answer it waited for is already stored)."""
        def has() -> bool:
            return any(c.split(":")[1] == verb and (draft is None or c.split(":")[-1] == draft)
                       for c in self.fresh(msg).custom_ids)

        with contextlib.suppress(AssertionError):
            await wait_until(has, SLACK / 4, f"{verb!r} on the message")
        return find(self.fresh(msg), verb, draft)

    async def panel_for(self, user: User, prompt_id: int,
                        how: Literal["button", "slash", "dm"]) -> Message:
        """The member's open panel if it shows this prompt, else a newly opened one."""
        msg = self.panels.get(user.id)
        if msg is not None:
            msg = self.fresh(msg)
            if any(c.split(":")[3] == str(prompt_id) for c in msg.custom_ids):
                return msg
        return await self.open_panel(user, how)

    async def perform(self, state: GameState, action: act.Action, via: Via = "panel"
                      ) -> InteractionResult:
        """Do `action` as its seat's member would, through `via`."""
        seat = action.seat  # type: ignore[union-attr]
        user = user_at(self.world, state, seat)
        assert user is not None, f"seat {seat} is not a member"
        prompt = state.prompt_for(seat)
        assert prompt is not None, f"nothing waits for seat {seat}"
        pid = prompt.id
        if isinstance(action, act.Accuse) and via == "slash":
            return await self.dc.slash(user, self.world.channel, "mansion", "accuse",
                                       suspect=action.suspect, vehicle=action.vehicle,
                                       destination=action.destination)
        if prompt.kind == "pick" and seat == state.turn and via == "dm":
            via = "panel"  # their own card's pick: the panel they played it from shows it
        if prompt.kind in ("show", "pick", "answer_tip", "choose_solution") and via != "panel":
            msg = await self.answer_message(user, pid, via)
            return await self.answer(user, msg, state, action)
        if prompt.kind in ("show", "pick", "answer_tip", "choose_solution"):
            msg = await self.panel_for(user, pid, "button")
            return await self.answer(user, msg, state, action)
        how = {"slash": "slash", "dmturn": "dm"}.get(via, "button")
        msg = await self.panel_for(user, pid, how)  # type: ignore[arg-type]
        return await self.turn(user, msg, action)

    async def answer_message(self, user: User, pid: int, via: Via) -> Message:
        if via == "dm":
            await wait_until(lambda: _has_prompt_dm(self.world, user, pid), SLACK,
                             f"the DM for prompt {pid}")
            return prompt_dm(self.world, user, pid)
        hand = await self.dc.slash(user, self.world.channel, "mansion", "hand")
        assert hand.ephemeral and hand.message is not None, hand.text
        return hand.message

    async def answer(self, user: User, msg: Message, state: GameState, action: act.Action
                     ) -> InteractionResult:
        match action:
            case act.ShowCard():
                return await self.click(user, msg, "show", action.card)
            case act.PickCard():
                return await self.click(user, msg, "pick", str(action.position))
            case act.AnswerTip():
                prompt = state.prompt_for(action.seat)
                assert isinstance(prompt, TipPrompt)
                index = next(i for i, o in enumerate(prompt.options)
                             if sorted(o) == sorted(action.cards))
                return await self.click(user, msg, "tip", str(index))
            case act.ChooseSolution():
                await self.select(user, msg, "sols", action.suspect)
                await self.select(user, msg, "solv", action.vehicle)
                await self.select(user, msg, "sold", action.destination)
                return await self.click(user, msg, "solgo")
        raise AssertionError(f"not an answer: {action}")

    async def turn(self, user: User, msg: Message, action: act.Action) -> InteractionResult:
        """From the panel: the card's button, its choices, then go (or Accuse / End turn)."""
        match action:
            case act.EndTurn():
                return await self.click(user, msg, "end")
            case act.Accuse():
                await self.click(user, msg, "acopen")
                await self.select(user, msg, "acs", action.suspect)
                await self.select(user, msg, "acv", action.vehicle)
                await self.select(user, msg, "acd", action.destination)
                return await self.click(user, msg, "acgo")
            case act.SuggestAny():
                await self.click(user, msg, "card", "suggest_any")
                await self.select(user, msg, "sad", action.destination)
                await self.select(user, msg, "sas", action.suspect)
                await self.select(user, msg, "sav", action.vehicle)
                return await self.click(user, msg, "sago")
            case act.SuggestPresent():
                await self.click(user, msg, "card", "suggest_present")
                await self.select(user, msg, "sps", action.suspect)
                await self.select(user, msg, "spv", action.vehicle)
                return await self.click(user, msg, "spgo")
            case act.Move():
                await self.click(user, msg, "card", "suggest_present")
                await self.select(user, msg, "spm", action.destination)
                return await self.click(user, msg, "spmgo")
            case act.Snoop():
                await self.click(user, msg, "card", "snoop")
                return await self.click(user, msg, "sn", str(action.target))
            case act.AllSnoop():
                await self.click(user, msg, "card", action.card)
                return await self.click(user, msg, "as", action.card)
            case act.SuperSleuth():
                await self.click(user, msg, "card", action.card)
                return await self.click(user, msg, "ss", action.card)
            case act.PrivateTip():
                await self.click(user, msg, "card", action.card)
                return await self.click(user, msg, "pt", f"{action.card}.{action.target}")
        raise AssertionError(f"not a turn action: {action}")


def timers(world: World) -> list[str]:
    return [r["kind"] for r in query(world, "SELECT kind FROM timers")]


CARD_NAMES = {c: re.compile(rf"\b{re.escape(info.name)}\b") for c, info in CLUES.items()}
TIP_ASKS = {c: info.ask for c, info in ACTIONS.items() if info.effect == "private_tip"}


def named(text: str) -> set[str]:
    return {c for c, pattern in CARD_NAMES.items() if pattern.search(text)}


REFUSALS = ("⚠️", "out of date", "Something went wrong", "not your turn")


async def applied(world: World, before: GameState, result: InteractionResult) -> None:
    """Wait until the action is stored (a click deferred as an update returns before its
    change is); fail with the bot's answer if it was refused."""
    try:
        await wait_until(lambda: mstate(world).step > before.step
                         or any(r in result.text for r in REFUSALS), SLACK, "the action")
    except AssertionError:
        raise AssertionError(f"not applied: {result.text}") from None
    assert not any(r in result.text for r in REFUSALS), result.text


async def play_script(world: World, driver: Driver,
                      choose_via: Callable[[GameState, act.Action, int], Via] | None = None, *,
                      limit: int = 200, goals: tuple[str, ...] | None = None,
                      until: Callable[[GameState], bool] | None = None
                      ) -> tuple[GameState, Any]:
    """Play the scripted moves (`mansion_plan.next_move`) until the table is over (or
    `until` holds: a game of a series over, say), each through the way
    `choose_via(state, action, i)` names (default: the panel). Returns the final state and
    the moment just before the game-ending action (for the secrecy scan). Every move must
    be accepted and applied exactly once."""
    from testkit.drive import cut
    from testkit.mansion_plan import STANDARD, next_move

    moment = cut(world)
    for i in range(limit):
        state = mstate(world)
        if state.phase == "over" or (until is not None and until(state)):
            return state, moment
        moment = cut(world)
        action = next_move(state, goals or STANDARD)
        via: Via = choose_via(state, action, i) if choose_via is not None else "panel"
        result = await driver.perform(state, action, via)
        await applied(world, state, result)
        after = mstate(world)
        assert after.step == state.step + 1, (action, via, result.text)
        if after.phase == "over" or (until is not None and until(after)):
            await world.dc.settle()
    raise AssertionError("the scripted game did not end")


def ever_custom_ids(msg: Message) -> list[str]:
    """Every custom_id a message ever carried (answered prompts lose their buttons)."""
    states = [*msg.history, msg.snapshot()]
    out: list[str] = []
    for snap in states:
        shown = Message(id=msg.id, channel_id=msg.channel_id, guild_id=msg.guild_id,
                        author_id=msg.author_id, components=snap.get("components") or [])
        out += [c for c in shown.custom_ids if c not in out]
    return out


def ever_text(msg: Message) -> str:
    states = [*msg.history, msg.snapshot()]
    return "\n".join(
        Message(id=msg.id, channel_id=msg.channel_id, guild_id=msg.guild_id,
                author_id=msg.author_id, content=s.get("content") or "",
                embeds=s.get("embeds") or [], components=s.get("components") or []).text
        for s in states)


async def in_step(world: World) -> None:
    """Wait until the bot's own copy of the table holds what its database holds. The driver
    reads the database from the bot's event loop, so it sees a commit in the loop turns before
    the bot's commit resumes and updates its cache (a probe: database at version 96, cache at
    95, caught up 2-3 loop turns later); a panel opened then shows the step before. A player
    cannot be that quick: the alert leaves after the cache is updated."""
    assert world.bot is not None
    row = table_row(world)
    end = time.monotonic() + SLACK
    while (held := await world.bot.storage.table(row["id"])) is None \
            or held.version < row["version"]:
        assert time.monotonic() < end, "the bot never applied the stored table"
        await asyncio.sleep(0)


async def play_members(world: World, driver: Driver, limit: float = 240.0
                       ) -> tuple[GameState, Cut]:
    """Play every member's waits with the scripted moves (AI seats play on their timers) until
    the table is over: prompts to answer by DM, turns from the panel. Returns the end and the
    last moment known to precede it (taken before a read that still saw the game in play)."""
    from engine.mansion import legal
    from testkit.mansion_plan import next_move

    def moved(seat: int, prompt_id: int) -> bool:
        state = mstate(world)
        prompt = state.prompt_for(seat)
        return state.phase == "over" or prompt is None or prompt.id != prompt_id

    moment = cut(world)
    end = time.monotonic() + limit
    while True:
        assert time.monotonic() < end, "the game did not end"
        candidate = cut(world)
        state = mstate(world)
        if state.phase == "over":
            return state, moment
        moment = candidate
        members = [s for s in legal.waiting_on(state) if user_at(world, state, s) is not None]
        if not members:
            await asyncio.sleep(0.02)
            continue
        seat = members[0]
        prompt = state.prompt_for(seat)
        assert prompt is not None
        via = "dm" if prompt.kind in ("show", "pick", "answer_tip") else "panel"
        await in_step(world)
        await driver.perform(state, next_move(state, (), seat=seat), via)  # type: ignore[arg-type]
        await wait_until(lambda p=prompt.id, s=seat: moved(s, p), SLACK, "the move")
