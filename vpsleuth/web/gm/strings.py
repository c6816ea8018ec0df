"""German words of the GM console (English is the key)."""

from ...i18n import add

add("de", {
    # navigation and headings
    "Games": "Partien", "Outbox": "Postausgang", "API tokens": "API-Schlüssel",
    "New game": "Neue Partie", "Game pages": "Seiten der Partie",
    "Players and setup": "Spieler und Einstellungen", "Status board": "Statustafel",
    "Audit log": "Protokoll", "Players' view": "Ansicht der Spieler",
    "You run no game yet.": "Du leitest noch keine Partie.",
    "Create the first one.": "Lege die erste an.",
    "players": "Spieler", "turns in": "Züge da", "Deadline": "Abgabetermin",
    "Not started: invite the players, then start the game.":
        "Nicht gestartet: Lade die Spieler ein, dann starte die Partie.",
    "passed": "abgelaufen",
    # the new game form
    "Please check the marked fields.": "Bitte prüfe die markierten Felder.",
    "The game": "Die Partie", "Name": "Name", "Language of the game": "Sprache der Partie",
    "Mails and reports default to this language; each player may choose another.":
        "Mails und Berichte sind zunächst in dieser Sprache; jeder Spieler kann eine andere "
        "wählen.",
    "Deadlines": "Abgabetermine",
    "A first deadline, then at a fixed interval":
        "Ein erster Termin, dann in festem Abstand",
    "A list of deadlines": "Eine Liste von Terminen",
    "First deadline (local time)": "Erster Abgabetermin (Ortszeit)",
    "Deadlines (local times, one a line)": "Abgabetermine (Ortszeit, einer je Zeile)",
    "After the last one the rounds go on at the interval below.":
        "Nach dem letzten geht es im Abstand unten weiter.",
    "Interval in days": "Abstand in Tagen",
    "The deadline stays at the same local time, also across daylight-saving changes.":
        "Der Termin bleibt zur selben Ortszeit, auch über Sommer- und Winterzeit hinweg.",
    "Time zone": "Zeitzone", "or another time zone (IANA name)":
        "oder eine andere Zeitzone (IANA-Name)",
    "House rules": "Hausregeln", "Rounds": "Runden", "First bonus round": "Erste Bonusrunde",
    "Points per right tip": "Punkte je richtigem Tipp",
    "Points per wrong tip": "Punkte je falschem Tipp",
    "Bonus points by rank": "Bonuspunkte nach Platz",
    "For the most, second-most, ... right tips of a round; empty for none.":
        "Für die meisten, zweitmeisten, ... richtigen Tipps einer Runde; leer für keine.",
    "Resolve a round early once every active player has sent a turn":
        "Eine Runde vorzeitig auswerten, sobald alle aktiven Spieler gezogen haben",
    "Reminders": "Erinnerungen", "Hours before the deadline": "Stunden vor dem Termin",
    "Players with no turn yet get a mail at these times; empty for none.":
        "Wer noch keinen Zug geschickt hat, bekommt zu diesen Zeiten eine Mail; leer für keine.",
    "Create the game": "Partie anlegen",
    "This field is required.": "Dieses Feld wird gebraucht.",
    "Give a whole number.": "Bitte eine ganze Zahl angeben.",
    "Not a valid integer value.": "Keine ganze Zahl.",
    "Choose one of the offered values.": "Bitte einen der angebotenen Werte wählen.",
    "Choose the player.": "Bitte den Spieler wählen.",
    "Field cannot be longer than 80 characters.": "Höchstens 80 Zeichen.",
    "Field cannot be longer than 120 characters.": "Höchstens 120 Zeichen.",
    "Number must be at least 1.": "Die Zahl muss mindestens 1 sein.",
    "Write the turn, one command a line.": "Schreibe den Zug, einen Befehl je Zeile.",
    # the game page
    "Open round": "Offene Runde", "from round": "ab Runde", "Points per tip": "Punkte je Tipp",
    "right": "richtig", "wrong": "falsch", "Early resolution": "Vorzeitige Auswertung",
    "on": "an", "off": "aus", "Language": "Sprache", "Commitment": "Prüfsumme",
    "Progress": "Verlauf",
    "Invite the players, then start the game: the gems are dealt, the commitment is "
    "published and round 1 opens.":
        "Lade die Spieler ein, dann starte die Partie: Die Steine werden verteilt, die "
        "Prüfsumme veröffentlicht und Runde 1 beginnt.",
    "Start the game now? House rules and schedule cannot change afterwards.":
        "Partie jetzt starten? Hausregeln und Termine lassen sich danach nicht mehr ändern.",
    "Start the game": "Partie starten",
    "Invite at least one player to start.": "Lade mindestens einen Spieler ein, um zu starten.",
    "Status board of round": "Statustafel der Runde",
    "Round reports": "Rundenberichte",
    "No round has been resolved yet.": "Noch keine Runde ist ausgewertet.",
    "Players": "Spieler", "joined": "dabei seit", "invited": "eingeladen",
    "withdrawn": "zurückgezogen",
    "Change address": "Adresse ändern", "New address of": "Neue Adresse von", "Save": "Speichern",
    "Withdraw this player? They no longer play or score.":
        "Diesen Spieler zurückziehen? Er spielt und punktet dann nicht mehr.",
    "Withdraw": "Zurückziehen", "No players yet.": "Noch keine Spieler.",
    "Invite a player": "Spieler einladen", "Email address": "E-Mail-Adresse",
    "Invite": "Einladen",
    "The invitation with a sign-in link goes to the outbox; a player who joins late starts "
    "at 0 points.":
        "Die Einladung mit Anmeldelink geht in den Postausgang; wer später dazukommt, beginnt "
        "mit 0 Punkten.",
    # the status board
    "The game has not started yet.": "Die Partie hat noch nicht begonnen.",
    "Invite the players and start it.": "Lade die Spieler ein und starte sie.",
    "bonus round": "Bonusrunde", "paused since": "pausiert seit",
    "players have a turn in.": "Spieler haben einen Zug geschickt.",
    "Turns": "Züge", "Turn": "Zug", "Last received": "Zuletzt erhalten", "Channel": "Weg",
    "Question": "Frage", "Action": "Aktion", "Actions": "Aktionen", "in": "da",
    "none yet": "noch keiner", "yes": "ja", "no": "nein", "Enter turn": "Zug eintragen",
    "No active players.": "Keine aktiven Spieler.",
    "Counts only: what a player asked or tipped stays with the player until the round is "
    "resolved.":
        "Nur Anzahlen: Was ein Spieler fragt oder tippt, bleibt bis zur Auswertung bei ihm.",
    "Extend the deadline": "Termin verlängern", "New deadline": "Neuer Termin",
    "Extend": "Verlängern",
    "The players get a mail with the new deadline.":
        "Die Spieler bekommen eine Mail mit dem neuen Termin.",
    "Pause": "Pause", "Resume the game": "Partie fortsetzen", "Pause the game": "Partie pausieren",
    "Resuming moves the deadline on by the length of the pause.":
        "Beim Fortsetzen verschiebt sich der Termin um die Dauer der Pause.",
    "While paused, no turns are taken and no round is resolved.":
        "Während der Pause werden keine Züge angenommen und keine Runde ausgewertet.",
    "Resolve now": "Jetzt auswerten",
    "Answer the questions, score the tips and publish the report of this round before its "
    "deadline.":
        "Die Fragen beantworten, die Tipps werten und den Bericht dieser Runde vor dem Termin "
        "veröffentlichen.",
    "Resolve this round now? This cannot be undone.":
        "Diese Runde jetzt auswerten? Das lässt sich nicht rückgängig machen.",
    "Resolve round": "Auswerten: Runde",
    "On a player's behalf": "Für einen Spieler",
    "Enter a turn": "Zug eintragen", "The secret": "Das Geheimnis",
    "View the distribution": "Verteilung ansehen",
    "asks first; recorded in the audit log": "mit Rückfrage; wird protokolliert",
    # entering a turn
    "For a turn that reached you on paper or by phone. It counts like the player's own; the "
    "player gets a confirmation mail saying you entered it.":
        "Für einen Zug, der dich auf Papier oder per Telefon erreicht hat. Er zählt wie ein "
        "eigener; der Spieler bekommt eine Bestätigung, dass du ihn eingetragen hast.",
    "The turn was not applied; nothing of it counts. Please fix these lines:":
        "Der Zug wurde nicht übernommen; nichts davon zählt. Bitte berichtige diese Zeilen:",
    "line": "Zeile", "write": "schreibe", "The turn": "Der Zug",
    "Enter the turn": "Zug eintragen", "The turn language": "Die Zugsprache",
    # the distribution
    "Secret until the game ends. Your look is recorded in the audit log.":
        "Geheim bis zum Ende der Partie. Dein Blick darauf wird protokolliert.",
    "Location": "Ort", "Gems": "Steine", "Back to the status board": "Zurück zur Statustafel",
    "View the distribution?": "Verteilung ansehen?",
    "The distribution is the game's secret: where every gem lies. Look only when you must "
    "(to settle a dispute or check a report). Make sure no player can see your screen.":
        "Die Verteilung ist das Geheimnis der Partie: wo jeder Stein liegt. Sieh nur nach, "
        "wenn es sein muss (bei einem Streit oder um einen Bericht zu prüfen). Achte darauf, "
        "dass kein Spieler deinen Bildschirm sieht.",
    "Every look is recorded in the game's audit log.":
        "Jeder Blick darauf wird im Protokoll der Partie vermerkt.",
    "Show me the distribution": "Verteilung zeigen", "Cancel": "Abbrechen",
    "The gems are dealt when the game starts; there is no distribution yet.":
        "Die Steine werden beim Start verteilt; noch gibt es keine Verteilung.",
    # audit log
    "times in": "Zeiten in", "When": "Wann", "Who": "Wer", "Details": "Einzelheiten",
    "Nothing recorded yet.": "Noch nichts protokolliert.",
    "game created": "Partie angelegt", "player invited": "Spieler eingeladen",
    "player withdrawn": "Spieler zurückgezogen", "game started": "Partie gestartet",
    "deadline extended": "Termin verlängert", "game paused": "Partie pausiert",
    "game resumed": "Partie fortgesetzt", "round resolved": "Runde ausgewertet",
    "turn entered": "Zug eingetragen", "address changed": "Adresse geändert",
    "invitation link made to forward": "Einladungslink zum Weiterleiten erzeugt",
    "distribution viewed": "Verteilung angesehen",
    "deadline moved after an outage": "Termin nach Ausfall verschoben",
    "API token issued": "API-Schlüssel ausgegeben", "API token revoked": "API-Schlüssel widerrufen",
    "command line": "Kommandozeile", "web": "Web", "email": "E-Mail",
    "entered by GM": "von der Spielleitung", "API": "API",
    # outbox
    "Forward this text to the player. Its link is new and works once, for that player in this "
    "game only; this is recorded in the audit log.":
        "Leite diesen Text an die Spielerin oder den Spieler weiter. Der Link ist neu und gilt "
        "einmal, nur für diese Person in dieser Partie; das steht im Protokoll.",
    "Links in mails work for their addressee only, so they are hidden here. To forward this "
    "invitation by hand, make a link of its own (recorded in the audit log).":
        "Links in Mails gelten nur für ihre Empfänger und sind hier verborgen. Um diese "
        "Einladung von Hand weiterzuleiten, erzeuge einen eigenen Link (steht im Protokoll).",
    "Links in mails work for their addressee only, so they are hidden here.":
        "Links in Mails gelten nur für ihre Empfänger und sind hier verborgen.",
    "Forward by hand": "Von Hand weiterleiten",
    "Mails for the players of your games. With no mail server set up they wait here: open "
    "one to read it or forward it by hand.":
        "Mails an die Spieler deiner Partien. Ohne eingerichteten Mailserver warten sie hier: "
        "Öffne eine, um sie zu lesen oder von Hand weiterzuleiten.",
    "Game": "Partie", "all games": "alle Partien", "Status": "Status", "any": "alle",
    "Show": "Zeigen", "Queued": "Eingereiht", "To": "An", "Subject": "Betreff",
    "waiting": "wartet", "sending": "wird gesendet", "sent": "gesendet", "failed": "gescheitert",
    "Pages": "Seiten", "newer": "neuere", "older": "ältere", "No mails here.": "Keine Mails.",
    "attempts": "Versuche", "Sent": "Gesendet", "Last error": "Letzter Fehler",
    # tokens
    "A token lets a program act for you through the API (header: Authorization: Bearer ...). "
    "Keep it like a password; revoke it when you no longer need it.":
        "Mit einem Schlüssel handelt ein Programm über die API für dich (Kopfzeile: "
        "Authorization: Bearer ...). Hüte ihn wie ein Passwort; widerrufe ihn, wenn du ihn "
        "nicht mehr brauchst.",
    "Your new token": "Dein neuer Schlüssel", "Copy": "Kopieren",
    "It is shown only now: only a fingerprint of it is kept.":
        "Er wird nur jetzt gezeigt: Gespeichert wird nur ein Fingerabdruck.",
    "Issue a token": "Schlüssel ausgeben", "Label": "Bezeichnung",
    "e.g. my spreadsheet": "z. B. meine Tabelle", "Issue": "Ausgeben",
    "Your tokens": "Deine Schlüssel", "Issued": "Ausgegeben", "Last used": "Zuletzt benutzt",
    "never": "nie", "revoked": "widerrufen", "live": "gültig",
    "Revoke this token? Programs using it stop working.":
        "Diesen Schlüssel widerrufen? Programme, die ihn nutzen, funktionieren dann nicht mehr.",
    "Revoke": "Widerrufen", "No tokens yet.": "Noch keine Schlüssel.",
    # flashed after actions ({...} is filled in after translation)
    "Game created. Now invite the players.": "Partie angelegt. Lade jetzt die Spieler ein.",
    "{name} is invited; the invitation is in the outbox.":
        "{name} ist eingeladen; die Einladung liegt im Postausgang.",
    "{name} is withdrawn.": "{name} ist zurückgezogen.",
    "{name} now plays as {email}.": "{name} spielt jetzt als {email}.",
    "The game has started and round 1 is open. Commitment (SHA-256): {commitment}":
        "Die Partie hat begonnen, Runde 1 läuft. Prüfsumme (SHA-256): {commitment}",
    "The deadline of round {n} is now {when}; the players are told.":
        "Der Termin der Runde {n} ist jetzt {when}; die Spieler erfahren es per Mail.",
    "The game is paused: no turns and no resolution until you resume it.":
        "Die Partie ist pausiert: keine Züge und keine Auswertung, bis du sie fortsetzt.",
    "The game runs again; the deadline moved on by the length of the pause.":
        "Die Partie läuft wieder; der Termin hat sich um die Dauer der Pause verschoben.",
    "Which round? Reload the status board and try again.":
        "Welche Runde? Lade die Statustafel neu und versuche es noch einmal.",
    "Round {n} is resolved already (or does not exist); nothing was done.":
        "Runde {n} ist schon ausgewertet (oder gibt es nicht); nichts wurde getan.",
    "Round {n} is resolved; the report is in the outbox.":
        "Runde {n} ist ausgewertet; der Bericht liegt im Postausgang.",
    "The turn of {name} is in; a confirmation mail is in the outbox.":
        "Der Zug von {name} ist eingetragen; eine Bestätigung liegt im Postausgang.",
    "Token {label} issued. Copy it now: it is shown only once.":
        "Schlüssel {label} ausgegeben. Kopiere ihn jetzt: Er wird nur einmal gezeigt.",
    "The token is revoked; it no longer works.":
        "Der Schlüssel ist widerrufen; er gilt nicht mehr.",
    "only game masters may use these pages": "nur Spielleitungen dürfen diese Seiten benutzen",
})
