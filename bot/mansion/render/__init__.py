"""Mansion rendering: pure functions from engine events and views to Discord text and embeds.

Channel renderers take only a PublicView or public events, a seat's renderers only that
seat's PlayerView; the engine's views are the secrecy boundary, so a GameState never enters.
"""
