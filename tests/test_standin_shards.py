"""The stand-in as a shard cluster meets Discord: each shard's connection is sent its own
guilds' events (`(guild_id >> 22) % shard count`), DMs and DM interactions go to shard 0, and
an IDENTIFY sooner than its `max_concurrency` bucket allows is answered INVALID_SESSION."""

from __future__ import annotations

import json
from typing import Any

import aiohttp

from testkit.standin import running_standin
from testkit.standin.server import DiscordStandIn


async def identify(session: aiohttp.ClientSession, dc: DiscordStandIn, shard: list[int]
                   ) -> tuple[aiohttp.ClientWebSocketResponse, dict[str, Any]]:
    """A raw gateway connection IDENTIFYing as `shard`; its first answer (READY or op 9)."""
    ws = await session.ws_connect(dc.gateway_url)
    hello = json.loads((await ws.receive()).data)
    assert hello["op"] == 10
    await ws.send_str(json.dumps({"op": 2, "d": {
        "token": "standin-token", "intents": 1, "shard": shard, "properties": {}}}))
    return ws, json.loads((await ws.receive()).data)


async def test_each_shard_hears_its_own_guilds_and_dms_go_to_shard_0() -> None:
    async with running_standin(check=False) as dc:
        dc.max_concurrency = 2
        zero, one = dc.add_guild("zero", shard=(0, 2)), dc.add_guild("one", shard=(1, 2))
        assert ((zero.id >> 22) % 2, (one.id >> 22) % 2) == (0, 1)
        async with aiohttp.ClientSession() as session:
            ws0, ready0 = await identify(session, dc, [0, 2])
            ws1, ready1 = await identify(session, dc, [1, 2])
            assert [g["id"] for g in ready0["d"]["guilds"]] == [str(zero.id)]
            assert [g["id"] for g in ready1["d"]["guilds"]] == [str(one.id)]
            shard_of = {id(conn.ws): conn.session.shard[0] for conn in dc._connections
                        if conn.session is not None}
            assert shard_of[id(dc._connection_for(one.id).ws)] == 1
            assert shard_of[id(dc._connection_for(zero.id).ws)] == 0
            assert shard_of[id(dc._connection_for(None).ws)] == 0  # a DM
            await ws0.close()
            await ws1.close()


async def test_a_bucket_identifying_too_soon_is_refused() -> None:
    async with running_standin(check=False) as dc:
        dc.max_concurrency = 1  # shards 0 and 1 share the one bucket
        async with aiohttp.ClientSession() as session:
            ws0, ready = await identify(session, dc, [0, 2])
            assert ready["t"] == "READY"
            ws1, refused = await identify(session, dc, [1, 2])
            assert refused == {"op": 9, "d": False, "s": None, "t": None}
            assert dc.invalid_sessions == 1
            dc.advance_time(5.0)
            ws2, ready = await identify(session, dc, [1, 2])
            assert ready["t"] == "READY"
            for ws in (ws0, ws1, ws2):
                await ws.close()
