"""What the services announce: one blinker signal per thing that happened in a game.

A service records what happened and sends one of these; it never calls a
channel. The channels (mail/listeners.py: the outbox) and the services' own
follow-ups (services/after_commit.py: bots, practice) subscribe in create_app,
so a new channel is one more subscriber, not an edit of every service.

Two moments, and each signal says which it is sent at:

* **In the transaction** (the plain names): sent after the service has added
  its rows and before it commits. A receiver may add rows of its own to the
  session (the outbox's mails) and must not commit: they are committed with
  what happened, or rolled back with it. A round's mails are queued in the
  round's transaction or not at all. A receiver that raises fails the service.
* **After the commit** (the ``after_`` names): sent once what happened is
  durable, for work that must follow it and may fail on its own (bots
  playing, a practice round settling). A receiver commits its own work.

Every signal's sender is the object it is about (a Game or a Player); the
payload is keyword arguments, named here. Receivers take ``(sender, **payload)``.
"""

from __future__ import annotations

from blinker import Namespace

_signals = Namespace()

# --- in the transaction ---------------------------------------------------------------

player_invited = _signals.signal("player-invited", doc="""\
A player was added with an invitation (services/games.add_player).

sender: the Player. ``token``: the raw sign-in token issued for the invitation.
In the transaction that adds the player.""")

round_opened = _signals.signal("round-opened", doc="""\
A round opened: round 1 as the game starts, the next as a round is resolved.

sender: the Game. ``round_``: the Round opened (flushed, with its deadline).
In the transaction that opens it.""")

round_resolved = _signals.signal("round-resolved", doc="""\
A round's results are stored (services/resolution.resolve_round).

sender: the Game. ``round_``: the Round resolved. ``ended``: the game ended with
it. ``report_waits``: its report waits for the game's story (the final report
tells the story; ``story_told`` is sent when it is stored), so it does not go
now. In the transaction that stores the results.""")

story_told = _signals.signal("story-told", doc="""\
A game's story is stored, or given up after its last try (services/stories.py).

sender: the Game. ``story``: the GameStory row (state ``ready`` or ``failed``;
``final_report``: the final report waits for it). ``round_``: the last resolved
Round (None if none is yet: a story asked for before round 1 is resolved). In the
transaction that stores it, flushed: a receiver reads the story.""")


story_overdue = _signals.signal("story-overdue", doc="""\
A final report waited STORY_REPORT_WAIT_MINUTES for its game's story, which is not
told yet (the engine can take minutes on a record): the report goes without it, and
the story, once told, is on the story page (services/stories.release_overdue).

sender: the Game. ``round_``: the last resolved Round. In the transaction that
releases the report (``final_report`` turned off, so it is never sent twice).""")


deadline_moved = _signals.signal("deadline-moved", doc="""\
The open round's deadline moved.

sender: the Game. ``round_``: the open Round, with its new deadline. ``why``:
``extended`` or ``advanced`` (by the GM), ``resumed`` (after a pause) or
``outage`` (the service was down as it passed). In the transaction that moves it.""")

turn_accepted = _signals.signal("turn-accepted", doc="""\
A turn was applied to the open round (services/turns.submit_turn).

sender: the Player. ``round_``: the Round. ``standing``: the Turn now standing.
``channel``: email, web, api, gm or bot. ``entered_by``: who entered it.
``signoff``: the lines of a mail set aside as a sign-off. In the transaction
that applies it.""")

address_change_requested = _signals.signal("address-change-requested", doc="""\
A player asked to play under a new address (services/address.request_change).

sender: the Player. ``new_email``: the address asked for. ``token``: the raw
token of the link that confirms it. In the transaction that records the request.""")

join_requested = _signals.signal("join-requested", doc="""\
Someone asked to join an open game (services/lobby.ask_to_join).

sender: the Game. ``request``: the JoinRequest (flushed). In the transaction that
stores it.""")

join_declined = _signals.signal("join-declined", doc="""\
The GM declined a request to join (services/lobby.decline).

sender: the Game. ``request``: the JoinRequest. In the transaction that declines it.""")

reminder_due = _signals.signal("reminder-due", doc="""\
A player owes a turn and a reminder is due (services/reminders.send_reminders).

sender: the Player. ``round_``: the open Round. ``hours``: the hours left, as
the reminder says them. In the transaction that records the ReminderSent row,
whose unique constraint lets one scheduler of many send it.""")

absence_announced = _signals.signal("absence-announced", doc="""\
A player is to be away (services/absence.announce), by their word or the GM's.

sender: the Player. ``absence``: the Absence (flushed; its note is for the GM
alone). ``channel``: web, api, email or gm. ``entered_by``: who entered it. In
the transaction that stores it.""")

absence_cancelled = _signals.signal("absence-cancelled", doc="""\
An absence was withdrawn (services/absence.cancel): kept, no longer counting.

sender: the Player. ``absence``: the Absence. ``actor``: who withdrew it. In the
transaction that withdraws it.""")

board_posted = _signals.signal("board-posted", doc="""\
A post is on a game's board (services/board.post, board.announce).

sender: the Game. ``post``: the BoardPost (flushed: its id is set; ``player_id``
None for the GM). ``announcement``: a pinned GM announcement, mailed to every
player whatever their board mail setting. In the transaction that stores it.""")

board_digest_due = _signals.signal("board-digest-due", doc="""\
A player's daily digest of the game's board is due (services/board_digest.py).

sender: the Player. ``posts``: the BoardPosts to tell of, oldest first (visible,
not their own, no announcements). ``more``: how many older ones the digest leaves
out (on the web). ``now``: the time of the run. In the transaction that moves the
player's ``board_told_post_id`` on, which lets one scheduler of many send it.""")

seat_handed_over = _signals.signal("seat-handed-over", doc="""\
The GM handed a seat to a substitute (services/seats.replace_player).

sender: the Player (the seat, already under the newcomer's name and address).
``change``: the SeatChange (from_round, old_name, old_email, new_name).
``old_language``: the old holder's language. ``token``: the raw sign-in token of
the newcomer's invitation. In the transaction that hands
the seat on; the old address has lost the game by then.""")

person_leaving = _signals.signal("person-leaving", doc="""\
A person deletes their account (services/leaving.py): every row about them goes.

sender: the address (lower case). ``seats``: the Player rows it held (about to
become "former player N": name and address still readable). ``whole``: always
True (the account, every seat). In the transaction that deletes the rest; a
receiver deletes or anonymises its own rows about the person and must not commit.
Receivers: absences, seat changes, board posts (services/board.forget: text and
name go). HOOK for issue 21 (push subscriptions).""")

personal_data_asked = _signals.signal("personal-data-asked", doc="""\
Somebody asked for everything stored about them (services/personal_data.export).

sender: the address. ``seats``: the Player rows the export covers. ``whole``: the
whole account (False: one seat, for an invitation's session or a player token).
A receiver returns ``{table name: [JSON-able rows]}`` of its own rows about them.
In the transaction of the request that reads them; a receiver writes nothing.
Receivers: absences, seat changes, board posts (services/board.export). HOOK for
issue 21 (push subscriptions).""")

# --- after the commit -----------------------------------------------------------------

after_round_opened = _signals.signal("after-round-opened", doc="""\
A round opened and is committed (game start, resolution): bots play now.

sender: the Game. ``round_``: the Round opened. ``now``: the time it opened.
After the commit, so the round stands whatever a receiver does.""")

after_turn_accepted = _signals.signal("after-turn-accepted", doc="""\
An accepted turn is committed: a practice round settles now.

sender: the Player. ``game``: the player's Game. ``channel``: as for
``turn_accepted``. ``practice``: the game is a practice game (read before the
commit, so a receiver need not load the game again to know). ``now``: the time
the turn was received. After the commit.""")
