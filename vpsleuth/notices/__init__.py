"""Notices beyond mail (issue 21): Web Push to a player's devices and a game's chat
webhook. Both are channels: they listen to the services' signals (services/events.py),
store a Notice in the transaction of what happened, and the scheduler sends it later
through the one durable queue (queue.py), with retries and back-off.
"""
