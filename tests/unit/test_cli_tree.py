"""The ``vpsleuth`` command tree stays as it is: every command path, its help, its
arguments and options (names, types, choices, defaults, flags, help), as data.

README.md, docs/ and the operators' scripts name these commands; a move of the
code behind them must leave every path and option exactly where it was. The
commands of Flask and Flask-Migrate (``db``, ``routes``, ``run``, ``shell``) are
only named: they are theirs.
"""

from __future__ import annotations

import re
import subprocess

import click
from process_support import command, environment

from vpsleuth import cli, create_app

FOREIGN = {"db", "routes", "run", "shell"}


def describe(param: click.Parameter) -> str:
    """One line for an argument or option: what a user can see of it in ``--help``
    and what it accepts."""
    if isinstance(param, click.Argument):
        words = [f"{param.name.upper()} {param.type.name}"]
    else:
        words = ["/".join(param.opts + param.secondary_opts) + f" ({param.name})",
                 param.type.name]
    kind = param.type
    if isinstance(kind, click.Choice):
        words.append("choices=" + ",".join(map(str, kind.choices)))
    if isinstance(kind, click.IntRange):
        words.append(f"range={kind.min}..{kind.max}")
    if isinstance(kind, click.File):
        words.append(f"mode={kind.mode}")
    if param.required:
        words.append("required")
    if param.default is not None and not repr(param.default).startswith("Sentinel"):
        words.append(f"default={param.default!r}")
    if param.nargs != 1:
        words.append(f"nargs={param.nargs}")
    if isinstance(param, click.Option):
        words += [word for word, on in (("flag", param.is_flag), ("hidden", param.hidden),
                                        ("show_default", param.show_default)) if on]
        if param.metavar:
            words.append(f"metavar={param.metavar}")
        if param.help:
            words.append(f"help={param.help}")
    return " ".join(words)


def walk(ctx: click.Context, group: click.Group, path: tuple[str, ...] = ()) -> dict:
    """Every command under ``group``: its path -> (kind, help, [parameters])."""
    found = {}
    for name in group.list_commands(ctx):
        cmd = group.get_command(ctx, name)
        key = " ".join((*path, name))
        if not path and name in FOREIGN:
            found[key] = ("theirs", None, [])
            continue
        kind = ("group" if isinstance(cmd, click.Group) else "command") + (
            " hidden" if cmd.hidden else "")
        found[key] = (kind, cmd.help, [describe(p) for p in cmd.params])
        if isinstance(cmd, click.Group):
            found.update(walk(ctx, cmd, (*path, name)))
    return found


def tree() -> dict:
    """The whole command tree of an app, the root's help under the empty path."""
    app = create_app({"SQLALCHEMY_DATABASE_URI": "sqlite://", "SECRET_KEY": "tree"})
    root = cli.root(lambda: app)
    ctx = root.make_context("vpsleuth", [], resilient_parsing=True)
    return {"": ("group", root.help, []), **walk(ctx, root)}


TREE = {'': ('group', 'Moderate play-by-mail games of VP-Sleuth.', []),
 'analyse': ('command',
             'What the public record of GAME proves: possible places, bits left, chances.',
             ['GAME text required',
              '--round (number) integer range range=0..None help=The state after this round '
              '(default: the last resolved).',
              "--format (form) choice choices=text,json default='text' show_default",
              '--samples (samples) integer range range=10..None default=100 show_default '
              'help=Probes of the estimate when exact counting is out of reach.']),
 'bot': ('group', 'Computer players.', []),
 'bot add': ('command',
             'Add a computer player NAME to GAME, before or during the game.',
             ['GAME text required',
              'NAME text required',
              "--level (level) choice choices=easy,medium,hard default='medium' show_default"]),
 'check': ('command', 'Read the configuration and tell what is wrong, in plain words.', []),
 'db': ('theirs', None, []),
 'demo': ('command',
          'Set up a sample game, play random legal turns and print real reports.',
          ['--players (players) integer range range=2..6 default=4 show_default',
           '--rounds (rounds) integer range range=1..12 default=12 show_default help=How many '
           'rounds to resolve now.',
           '--seed (seed) integer help=Make the demo reproducible.',
           "--all-reports (all_reports) boolean flag help=Print every round's report, not just "
           'the last.']),
 'game': ('group', 'Create, start, list and watch games.', []),
 'game announce': ('command',
                   "Pin an announcement on the game's board; it is mailed to every player.",
                   ['GAME text required',
                    '--file (source) filename mode=r required help=The announcement, plain text '
                    "(at most 2,000 characters); '-' reads stdin."]),
 'game create': ('command',
                 'Create a game with its house rules and deadline schedule.',
                 ['NAME text required',
                  "--first-deadline (first_deadline) text help=Local time of round 1's deadline, "
                  "'YYYY-MM-DD HH:MM' (default: 20:00 seven days from now).",
                  '--timezone (timezone) text help=IANA time zone of the deadlines, e.g. '
                  'Europe/Berlin.',
                  "--every (every) text default='7d' show_default help=Interval: 7d, 1w, 14d.",
                  '--deadlines (deadlines) text help=Explicit local deadlines instead, '
                  'comma-separated.',
                  '--rounds (rounds) integer default=12 show_default',
                  '--first-bonus-round (first_bonus_round) integer default=5 show_default',
                  "--bonus (bonus) text default='3,2,1' show_default help=Bonus values by rank.",
                  '--right (right) integer default=1 show_default help=Points per right tip.',
                  '--wrong (wrong) integer default=-2 show_default help=Points per wrong tip.',
                  '--early/--no-early (early) boolean default=False flag show_default '
                  'help=Resolve once every active player has a turn in.',
                  "--after-early (after_early) choice choices=calendar,fresh default='calendar' "
                  'show_default help=After a round closes early, the next deadline keeps the '
                  'calendar or is a whole interval from the close.',
                  '--aid/--no-aid (aid) boolean default=False flag show_default help=House rule: '
                  "the players' sheet shows what the public record rules out.",
                  "--missed-turn (missed_turn) choice choices=none,repeat,repeat-when-absent "
                  "default='none' show_default help=House rule: a player with no turn at the "
                  "deadline plays no tips (none), last round's tips (repeat), or those only "
                  "while an announced absence covers the deadline (repeat-when-absent).",
                  "--language (language) choice choices=en,de,es default='en' show_default"]),
 'game export': ('command',
                 'Write a whole game as JSON to standard output.',
                 ['GAME text required',
                  '--with-secret (with_secret) boolean flag help=Include the distribution and '
                  'salt (GM only; audited).']),
 'game import': ('command',
                 'Recreate a game from an export (new ids; reply keys change).',
                 ['SOURCE filename mode=r required',
                  '--name (name) text help=Import under another name.']),
 'game list': ('command', 'List the games with their state and open round.', []),
 'game report': ('command',
                 'Print a round report as text or JSON.',
                 ['GAME text required',
                  '--round (number) integer help=Round number (default: the latest).',
                  "--format (fmt) choice choices=text,json default='text'",
                  '--language (language) choice choices=en,de,es']),
 'game resolve': ('command',
                  'Resolve the open round now, whatever its deadline.',
                  ['GAME text required']),
 'game reverify': ('command',
                   'Recompute every resolved round and compare with the published results.',
                   ['GAME text required']),
 'game secret': ('command',
                 'Print the distribution and salt (GM only; recorded in the audit log).',
                 ['GAME text required',
                  '--yes (yes) boolean flag help=Confirm that you are the GM and want to see '
                  'it.']),
 'game start': ('command',
                'Deal the gems, publish the commitment and open round 1.',
                ['GAME text required',
                 '--seed (seed) integer hidden help=Reproducible deal, for tests only.']),
 'game status': ('command',
                 'Who has a turn in for the open round (counts only, no tip contents).',
                 ['GAME text required']),
 'game webhook': ('command',
                  "Set, show, test or remove the game's chat webhook (docs/webhooks.md).",
                  ['GAME text required',
                   "--url (url) text help=The chat's incoming-webhook address: https, public "
                   "internet; '-' reads it from stdin (out of the shell's history).",
                   '--format (fmt) choice choices=discord,slack,mattermost,matrix '
                   "default='discord' show_default help=The chat's kind (matrix: hookshot's "
                   'generic webhooks).',
                   "--remove (remove) boolean flag help=Remove the game's webhook.",
                   '--test (send_test) boolean flag help=Queue a test message to the chat.']),
 'gm': ('group', None, []),
 'gm add': ('command',
            'Create a game master account for EMAIL, shown as NAME; it signs in by emailed link.',
            ['EMAIL text required',
             'NAME text required',
             "--language (language) choice choices=en,de,es default='en' show_default help=The "
             "language of the GM's mails."]),
 'mail': ('group', 'Read the outbox, send mail, ingest and reprocess inbound mail.', []),
 'mail idle': ('command',
               'Watch IMAP_FOLDER and process each message as it arrives (IDLE), until stopped.\n'
               '\n'
               '    What `vpsleuth scheduler` and `vpsleuth serve` do in a thread when '
               'IMAP_IDLE\n'
               '    is on; run it alone with IMAP_IDLE=false for them. Where the server lacks\n'
               '    IDLE it looks every IMAP_POLL_SECONDS; after a dropped connection it tries\n'
               '    again with a growing wait. One process at a time processes the mailbox: a\n'
               '    second watcher stands by. Stop it with Ctrl-C or SIGTERM.\n'
               '    ',
               []),
 'mail inbox': ('command',
                'List recent inbound messages with their status and error.',
                ['--limit (limit) integer default=20 show_default',
                 '--status (status) choice '
                 'choices=received,applied,refused,ignored,duplicate,failed']),
 'mail ingest': ('command',
                 'Read one RFC 822 message from standard input and run it through the pipeline.\n'
                 '\n'
                 '    For an MTA pipe transport. Exit status 0 once the message is stored (also\n'
                 '    when it is refused or ignored: it is handled), 75 (EX_TEMPFAIL) when the\n'
                 '    database cannot be reached, so the MTA retries later, and 65 (EX_DATAERR)\n'
                 '    for input that cannot be stored at all.\n'
                 '    ',
                 []),
 'mail outbox': ('command',
                 'List the outbox (newest first), or print one mail in full with --show ID.',
                 ['--status (status) choice choices=all,pending,sending,sent,failed '
                  "default='all' show_default help=Only mails in this state.",
                  '--limit (limit) integer range range=1..None default=50 show_default help=How '
                  'many of the newest mails to list.',
                  '--show (show_id) integer metavar=ID help=Print one mail in full.']),
 'mail poll': ('command',
               'Fetch the messages in IMAP_FOLDER once, store and process them, move them.',
               []),
 'mail reprocess': ('command',
                    'Run a stored inbound message through the pipeline again (by its id in '
                    "'inbox').",
                    ['MESSAGE_ID integer required',
                     '--force (force) boolean flag help=Also take ignored and refused messages, '
                     'skipping the machine-mail checks.']),
 'mail send': ('command',
               'Send the mail that is due now (the scheduler does this by itself).',
               ['--retry (retry) boolean flag help=Ignore the back-off: try every pending mail '
                'now.',
                '--retry-failed (retry_failed) boolean flag help=Also give mails that failed for '
                'good another try.']),
 'mail smtpd': ('command',
                'Receive mail by SMTP and run each message through the pipeline (until stopped).',
                ["--host (host) text default='127.0.0.1' show_default help=Address to listen on.",
                 '--port (port) integer default=2525 show_default help=Port to listen on.']),
 'player': ('group', 'Add, list, withdraw and replace players.', []),
 'player add': ('command',
                'Add a player to a game.',
                ['GAME text required',
                 'NAME text required',
                 'EMAIL text required',
                 '--language (language) choice choices=en,de,es']),
 'player list': ('command', "List a game's players.", ['GAME text required']),
 'player replace': ('command',
                    "Hand PLAYER's seat to a substitute NAME at EMAIL (points and history "
                    'stay).',
                    ['GAME text required',
                     'PLAYER text required',
                     'NAME text required',
                     'EMAIL text required',
                     "--language (language) choice choices=en,de,es help=The newcomer's "
                     "language (default: the game's)."]),
 'player withdraw': ('command',
                     'Withdraw a player (no longer active).',
                     ['GAME text required', 'PLAYER text required']),
 'practice': ('command',
              'Play a practice game against computer players, reading your turns from the '
              'terminal.',
              ['--bots (count) integer range range=1..6 default=3 show_default help=How many '
               'computer players.',
               "--level (level) choice choices=easy,medium,hard default='medium' show_default",
               "--language (language) choice choices=en,de,es default='en' show_default help=The "
               'language of the reports.',
               '--rounds (rounds) integer range range=1..12 default=12 show_default',
               '--seed (seed) integer help=Make the deal reproducible.']),
 'routes': ('theirs', None, []),
 'run': ('theirs', None, []),
 'scheduler': ('command',
               'Run the scheduler in the foreground: resolve rounds, remind, send and fetch '
               'mail.\n'
               '\n'
               '    On PostgreSQL several (on several hosts) divide the work; on SQLite one '
               'works\n'
               '    and another one waits. Stop it with Ctrl-C or SIGTERM.\n'
               '    ',
               ['--once (once) boolean flag help=Run every job once and exit (for cron, or to '
                'catch up by hand).']),
 'serve': ('command',
           'Serve the web pages and API (waitress) and run the scheduler beside them.\n'
           '\n'
           '    The one command for the embedded defaults: the SQLite schema is brought up\n'
           '    to date first. Stop it with Ctrl-C or SIGTERM.\n'
           '    ',
           ["--host (host) text default='127.0.0.1' show_default help=Address to listen on "
            '(0.0.0.0: every interface).',
            '--port (port) integer default=5000 show_default',
            '--threads (threads) integer default=4 show_default help=Worker threads of the web '
            'server.',
            '--scheduler/--no-scheduler (with_scheduler) boolean default=True flag show_default '
            'help=Run the scheduler (and the IMAP watcher) in this process too (off when '
            '`vpsleuth scheduler` runs on its own).']),
 'shell': ('theirs', None, []),
 'translations': ('group', 'Gettext catalogues (docs/translating.md).', []),
 'translations check': ('command',
                        'Count (or list) untranslated and fuzzy entries; exit 1 if there are '
                        'any.',
                        ['--list (show) boolean flag help=Name every entry still to do.']),
 'translations set': ('command',
                      'Fill in translations from a JSON object on stdin (msgid -> text).',
                      ['LANG choice choices=de,es required']),
 'translations update': ('command',
                         'Extract every text, merge it into each catalogue, compile the .mo '
                         'files.',
                         []),
 'turn': ('group', 'Submit and show turns.', []),
 'turn show': ('command',
               "Show a player's standing turn in the open round (GM only).",
               ['GAME text required', 'PLAYER text required']),
 'turn submit': ('command',
                 'Submit a turn in the turn language from a file or standard input.',
                 ['GAME text required',
                  'PLAYER text required',
                  "SOURCE filename mode=r default='-'",
                  '--round (number) integer help=Refuse unless this round is open.']),
 'verify': ('command',
            'Check a revealed distribution and salt against the published commitment.',
            ['--distribution (distribution) text required help=A=...;B=...;...;X=... as '
             'revealed.',
             '--salt (salt) text required',
             '--commitment (commitment) text required help=The SHA-256 published at the start.'])}

# Issue 22 (the community's record): commands added, none of the above changed.
TREE.update({'account': ('group', "A person's data: export it, or delete the account.", []),
             'account delete': ('command',
                                'Delete the account of EMAIL: seats stay as former players, '
                                'nothing names them.',
                                ['EMAIL text required',
                                 '--successor (successor) text help=Address of another game '
                                 "master, who takes EMAIL's games that have not ended (without "
                                 'one they go on without a game master).',
                                 '--yes (yes) boolean flag help=Confirm: this cannot be '
                                 'undone.']),
             'account export': ('command',
                                'Print everything stored about EMAIL as JSON (as the settings '
                                'page gives it).',
                                ['EMAIL text required']),
             'game hand-over': ('command',
                                'Make the game master account of EMAIL the game master of GAME '
                                '(audited).',
                                ['GAME text required', 'EMAIL text required']),
             'game record': ('command',
                             'Whether GAME goes to the public archive and counts for the '
                             'ratings.',
                             ['GAME text required',
                              '--public/--private (public) boolean flag help=Show the game in '
                              'the public archive once it ends, or not.',
                              '--rated/--not-rated (rated) boolean flag help=Count the game '
                              'for the ratings (only before it starts).']),
             'ratings': ('group', "The players' ratings (OpenSkill Plackett-Luce).", []),
             'ratings rebuild': ('command',
                                 'Recompute every rating from the stored results and store it; '
                                 'it must equal what was.',
                                 ['--check (check) boolean flag help=Only compare the stored '
                                  'ratings with a recomputation; exit 1 if they differ.'])})

# Issue 23.4 (backups that restore): two commands added, none of the above changed.
TREE.update({'backup': ('command',
                        'Write a consistent copy of the whole database to TARGET, while the '
                        'service runs.\n'
                        '\n'
                        '    SQLite: the online backup API, one file. PostgreSQL: pg_dump '
                        '--format=custom.\n'
                        '    Bring it back with `vpsleuth restore TARGET`.\n'
                        '    ',
                        ['TARGET file required',
                         '--force (force) boolean flag help=Replace TARGET if it exists.']),
             'restore': ('command',
                         'Restore a backup made by `vpsleuth backup` into the configured '
                         'database.\n'
                         '\n'
                         '    Stop the web server and the scheduler first. The database must '
                         'have no games (a\n'
                         '    new SQLite file; for PostgreSQL an empty database, made with '
                         'createdb) unless\n'
                         "    --force. The schema is then upgraded to this version's, and mails "
                         'left being\n'
                         '    sent at the backup go again, with the same Message-ID.\n'
                         '    ',
                         ['SOURCE file required',
                          '--force (force) boolean flag help=Restore even into a database that '
                          'has games: all it holds is replaced.'])})


def test_every_command_path_option_and_help_is_as_recorded():
    found = tree()
    assert sorted(found) == sorted(TREE)
    for path, recorded in TREE.items():
        assert found[path] == recorded, path


def test_the_console_script_lists_the_recorded_commands(tmp_path):
    shown = subprocess.run(command() + ["--help"], capture_output=True, text=True, cwd=tmp_path,
                           env=environment(SQLALCHEMY_DATABASE_URI="sqlite://",
                                           SECRET_KEY="tree"), check=True).stdout
    listed = re.findall(r"^  (\S+)", shown.split("Commands:", 1)[1], re.M)
    assert sorted(listed) == sorted(path for path, (kind, _, _) in TREE.items()
                                    if path and " " not in path and "hidden" not in kind)
    assert TREE[""][1] in shown
