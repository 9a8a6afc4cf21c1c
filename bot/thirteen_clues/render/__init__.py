"""13 Clues rendering: pure functions from engine events and views to Discord text and embeds.

Channel renderers take only a PublicView or public events, a seat's renderers only that
seat's PlayerView; the engine's views are the secrecy boundary, so a GameState never enters.
"""

from bot.thirteen_clues.render.embeds import hand_embed, lobby_embed, reveal_embed, table_embed
from bot.thirteen_clues.render.labels import NUMBER_EMOJI, SUIT_EMOJI
from bot.thirteen_clues.render.lines import (
    case_file_text,
    channel_text,
    dm_text,
    event_text,
    pass_hint,
)
from bot.thirteen_clues.render.texts import question_log_text, rules_text
from bot.thirteen_clues.words import card_label, subject_label

__all__ = [
    "NUMBER_EMOJI",
    "SUIT_EMOJI",
    "card_label",
    "case_file_text",
    "channel_text",
    "dm_text",
    "event_text",
    "hand_embed",
    "lobby_embed",
    "pass_hint",
    "question_log_text",
    "reveal_embed",
    "rules_text",
    "subject_label",
    "table_embed",
]
