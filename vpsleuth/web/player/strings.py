"""German words of the players' pages."""

from ...i18n import add

add("de", {
    "Play with another address": "Mit einer anderen Adresse spielen",
    "Now:": "Jetzt:",
    "We send a link to the new address; the change happens when it is opened, and the old "
    "address then loses this game.":
        "Wir schicken einen Link an die neue Adresse; geändert wird, wenn er geöffnet wird, und "
        "die alte Adresse verliert dann diese Partie.",
    "Change address": "Adresse ändern",
    "A link to confirm it went to {}; your address changes when it is opened.":
        "Ein Link zur Bestätigung ging an {}; deine Adresse ändert sich, wenn er geöffnet wird.",
    "Your address is changed. To see all your games, sign in with a link you ask for.":
        "Deine Adresse ist geändert. Um alle deine Partien zu sehen, melde dich mit einem "
        "selbst angeforderten Link an.",
    "Confirm my new address": "Neue Adresse bestätigen",
    "From then on the old address can no longer sign in to this game, send turns by mail, or "
    "use its API tokens and feed links.":
        "Danach kann die alte Adresse sich nicht mehr bei dieser Partie anmelden, keine Züge "
        "per Mail schicken und ihre API-Schlüssel und Feed-Links nicht mehr nutzen.",
    # navigation and overview
    "Overview": "Übersicht", "Your turn": "Dein Zug", "Information sheet": "Informationsblatt",
    "Standings": "Tabelle", "Reports": "Berichte", "Game": "Partie", "Settings": "Einstellungen",
    "Deadline": "Abgabetermin", "bonus round": "Bonusrunde", "Your turn is in": "Dein Zug ist da",
    "tips": "Tipps", "tip": "Tipp", "no question": "keine Frage",
    "You have not sent a turn for this round yet.":
        "Du hast für diese Runde noch keinen Zug geschickt.",
    "Enter or change your turn": "Zug eingeben oder ändern",
    "Round reports": "Rundenberichte", "text": "Text", "as text": "als Text",
    "No round has been resolved yet.": "Noch keine Runde ist ausgewertet.",
    "House rules": "Hausregeln", "Rounds": "Runden", "right": "richtig", "wrong": "falsch",
    "from round": "ab Runde", "Players": "Mitspieler", "Commitment": "Prüfsumme",
    "Calendar and feed": "Kalender und Feed",
    "Private links for your calendar and feed reader: they work without signing in, so keep "
    "them to yourself.": "Private Links für deinen Kalender und Feedreader: Sie funktionieren "
                         "ohne Anmeldung, also behalte sie für dich.",
    "Deadlines as a calendar": "Abgabetermine als Kalender",
    "Round reports as a feed": "Rundenberichte als Feed",
    "which mails you get, language and time zone": "welche Mails du bekommst, Sprache und Zeitzone",
    "The game has ended; no more turns.": "Das Spiel ist beendet; keine Züge mehr.",
    "The game has not started yet; round 1 opens when it starts.":
        "Das Spiel hat noch nicht begonnen; Runde 1 beginnt mit dem Start.",
    "The game master has paused the game; turns are taken again when it resumes.":
        "Die Spielleitung hat das Spiel angehalten; Züge werden wieder angenommen, "
        "sobald es weitergeht.",
    "No round is open right now.": "Gerade ist keine Runde offen.",
    "The game master has withdrawn you from this game; you can read its pages but send no "
    "more turns.": "Die Spielleitung hat dich aus dieser Partie genommen; du kannst ihre Seiten "
                   "lesen, aber keine Züge mehr schicken.",
    "This form is incomplete or out of date; please reload the page.":
        "Dieses Formular ist unvollständig oder veraltet; bitte lade die Seite neu.",
    "The deadline of round {} has passed; the round is being resolved and round {} opens "
    "with the report.": "Der Abgabetermin von Runde {} ist vorbei; die Runde wird ausgewertet, "
                        "und Runde {} beginnt mit dem Bericht.",
    # time left
    "day": "Tag", "days": "Tage", "hour": "Stunde", "hours": "Stunden",
    "minute": "Minute", "minutes": "Minuten", "{} left": "noch {}",
    "the deadline has passed": "der Abgabetermin ist vorbei",
    # the turn form
    "Your question": "Deine Frage", "Placeholder": "Platzhalter", "Colour": "Farbe",
    "Kind": "Art", "Size": "Größe", "any (attribute)": "beliebig",
    "How many gems with one attribute, or two of different categories, does a placeholder "
    "hold? Set the others to 'any'.": "Wie viele Steine mit einem Merkmal, oder zwei Merkmalen "
                                      "verschiedener Arten, hat ein Platzhalter? Die übrigen "
                                      "bleiben auf „beliebig“.",
    "Two attributes are set: the third stays 'any'.":
        "Zwei Merkmale sind gewählt: das dritte bleibt „beliebig“.",
    "Your tips": "Deine Tipps", "of 36 gems tipped": "von 36 Steinen getippt",
    "Fill in last round's tips": "Tipps der letzten Runde einsetzen",
    "For each gem choose where you think it is: a placeholder A-G, X (nobody holds it), or – "
    "(no tip). Right +1, wrong −2.": "Wähle für jeden Stein, wo er deiner Meinung nach liegt: "
                                      "ein Platzhalter A-G, X (niemand hat ihn) oder – (kein "
                                      "Tipp). Richtig +1, falsch −2.",
    "no tip": "kein Tipp", "Save turn": "Zug speichern",
    "You can change it until the deadline.": "Du kannst ihn bis zum Abgabetermin ändern.",
    "Your turn as it stands": "Dein Zug, wie er gilt",
    "No turn for this round yet.": "Noch kein Zug für diese Runde.",
    "Last saved": "Zuletzt gespeichert", "via": "per",
    "channel-web": "Webseite", "channel-email": "E-Mail", "channel-cli": "Kommandozeile",
    "channel-gm": "Spielleitung", "channel-api": "API",
    "Paste a turn in the turn language": "Einen Zug in der Zugsprache einfügen",
    "Your turn as text": "Dein Zug als Text", "Send this turn": "Diesen Zug senden",
    "line": "Zeile", "write": "schreibe",
    "Last round's tips are filled in below. They count only once you save.":
        "Die Tipps der letzten Runde sind unten eingesetzt. Sie zählen erst, wenn du speicherst.",
    "You placed no tips last round: there is nothing to fill in.":
        "Du hast letzte Runde keine Tipps abgegeben: es gibt nichts einzusetzen.",
    "Your turn for round {} is saved.": "Dein Zug für Runde {} ist gespeichert.",
    "Your turn was not saved; please correct the marked fields.":
        "Dein Zug wurde nicht gespeichert; bitte korrigiere die markierten Felder.",
    "Your turn was not applied; nothing of it counts. Please fix these lines:":
        "Dein Zug wurde nicht übernommen; nichts davon zählt. Bitte korrigiere diese Zeilen:",
    "Your turn was changed elsewhere (by email or by the game master) since you opened this "
    "page. Your entries are kept below; the turn standing now is shown as text. Check and save "
    "again.": "Dein Zug wurde anderswo geändert (per E-Mail oder von der Spielleitung), seit du "
              "diese Seite geöffnet hast. Deine Eingaben stehen unten; der jetzt geltende Zug "
              "steht als Text darunter. Prüfe und speichere erneut.",
    "Nothing to save: choose a question or place tips first.":
        "Nichts zu speichern: wähle zuerst eine Frage oder setze Tipps.",
    "Paste a turn in the turn language first (at most {} characters).":
        "Füge zuerst einen Zug in der Zugsprache ein (höchstens {} Zeichen).",
    "not a value of this category": "kein Wert dieser Art",
    "tips go to A-G or X (nobody)": "Tipps gehen an A-G oder X (niemand)",
    "questions go to one of the placeholders A-G": "Fragen gehen an einen der Platzhalter A-G",
    "choose a placeholder A-G for your question, or set colour, kind and size to 'any'":
        "wähle einen Platzhalter A-G für deine Frage, oder setze Farbe, Art und Größe auf "
        "„beliebig“",
    "choose one attribute, or two of different categories, for your question":
        "wähle für deine Frage ein Merkmal oder zwei verschiedener Arten",
    "a question names at most two attributes: set one of colour, kind and size to 'any'":
        "eine Frage nennt höchstens zwei Merkmale: setze Farbe, Art oder Größe auf „beliebig“",
    # information sheet
    "Answers": "Antworten",
    "Every question of every round, by placeholder and attribute: the answer, the round and "
    "who asked.": "Jede Frage jeder Runde nach Platzhalter und Merkmal: die Antwort, die Runde "
                  "und wer gefragt hat.",
    "Answers by placeholder and attribute": "Antworten nach Platzhalter und Merkmal",
    "Where you placed each gem, round by round, and the tip score each round earned. Only the "
    "sum is published, never which tips were right.":
        "Wo du jeden Stein vermutet hast, Runde für Runde, und die Tipp-Punkte jeder Runde. "
        "Veröffentlicht wird nur die Summe, nie welche Tipps richtig waren.",
    "Gem": "Stein", "now": "jetzt", "Tip score": "Tipp-Punkte",
    # reports and standings
    "Question": "Frage", "Standings with chart": "Tabelle mit Diagramm",
    "After round": "Nach Runde", "Latest round report": "Neuester Rundenbericht",
    "Total points after each round": "Gesamtpunkte nach jeder Runde",
    "A line per player: the total after rounds 1 to {}.":
        "Eine Linie je Spieler: der Gesamtstand nach den Runden 1 bis {}.",
    "The commitment is the SHA-256 of the salt, a colon and the distribution. On any computer "
    "with a shell:": "Die Prüfsumme ist der SHA-256 aus Salz, Doppelpunkt und Verteilung. Auf "
                     "jedem Rechner mit einer Shell:",
    "The printed sum must equal the commitment above. Or let this page check it:":
        "Die ausgegebene Summe muss der Prüfsumme oben gleichen. Oder lass diese Seite prüfen:",
    "Distribution": "Verteilung", "Check": "Prüfen",
    "Check the commitment": "Die Prüfsumme prüfen",
    "It matches: the distribution and salt give exactly the commitment published at the start.":
        "Stimmt: Verteilung und Salz ergeben genau die zu Beginn veröffentlichte Prüfsumme.",
    "It does not match: these values do not give that commitment (or the distribution is not a "
    "valid deal).": "Stimmt nicht: diese Werte ergeben diese Prüfsumme nicht (oder die Verteilung "
                    "ist keine gültige Verteilung).",
    "The same check in a shell:": "Dieselbe Prüfung in einer Shell:",
    # feeds
    "{}: deadline of round {}": "{}: Abgabetermin Runde {}",
    "planned; the game master may move it": "geplant; die Spielleitung kann ihn verschieben",
    # settings
    "Mails you get": "Mails, die du bekommst",
    "when a round opens, with a turn to fill in": "wenn eine Runde beginnt, mit einem Zug zum "
                                                  "Ausfüllen",
    "reminders before the deadline while you have no turn in":
        "Erinnerungen vor dem Abgabetermin, solange dein Zug fehlt",
    "a confirmation of each turn you send": "eine Bestätigung jedes Zugs, den du schickst",
    "Round reports always come, and so does a confirmation of a turn someone else entered for "
    "you.": "Rundenberichte kommen immer, ebenso eine Bestätigung, wenn jemand anderes einen Zug "
            "für dich eingegeben hat.",
    "Language of the pages and mails": "Sprache der Seiten und Mails", "Time zone": "Zeitzone",
    "Save": "Speichern",
    "An IANA name such as Europe/Berlin; empty: the game's time zone":
        "Ein IANA-Name wie Europe/Berlin; leer: die Zeitzone der Partie",
    "API tokens": "API-Schlüssel",
    "A token lets a program of yours send turns and read reports for one game through the API. "
    "Treat it like a password.": "Mit einem Schlüssel kann ein Programm von dir über die API "
                                 "Züge für eine Partie schicken und Berichte lesen. Behandle ihn "
                                 "wie ein Passwort.",
    "Your new token for": "Dein neuer Schlüssel für",
    "Copy it now: it is shown only this once.": "Kopiere ihn jetzt: er wird nur dieses eine Mal "
                                                "gezeigt.",
    "Label": "Bezeichnung", "Created": "Erstellt", "Last used": "Zuletzt benutzt",
    "never": "nie", "Revoke": "Widerrufen", "You have no API tokens.": "Du hast keine "
                                                                       "API-Schlüssel.",
    "e.g. my script": "z. B. mein Skript", "Issue a token": "Schlüssel ausstellen",
    "The token is revoked; programs using it are refused now.":
        "Der Schlüssel ist widerrufen; Programme, die ihn benutzen, werden jetzt abgewiesen.",
    "No such token of yours; it may be revoked already.":
        "Kein solcher Schlüssel von dir; vielleicht ist er schon widerrufen.",
    "You do not play in that game.": "Du spielst in dieser Partie nicht mit.",
    "Your settings for {} are saved.": "Deine Einstellungen für {} sind gespeichert.",
})

# Keys whose English words differ from the key.
add("en", {"any (attribute)": "any", "channel-web": "the web page", "channel-email": "email",
           "channel-cli": "the command line", "channel-gm": "the game master",
           "channel-api": "the API"})
