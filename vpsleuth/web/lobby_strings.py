"""German words of the open games pages, the visitor's and the GM's side."""

from ..i18n import add

add("de", {
    "Open games": "Offene Partien",
    "Open games: find a game that welcomes new players":
        "Offene Partien: eine Partie finden, die neue Mitspieler sucht",
    "Games whose game masters welcome new players. Ask to join one: its game master accepts "
    "or declines, and you hear by mail either way.":
        "Partien, deren Spielleitung neue Mitspieler willkommen heißt. Frag an, ob du "
        "mitspielen kannst: Die Spielleitung nimmt an oder lehnt ab, und du erfährst es in "
        "jedem Fall per Mail.",
    "No game is open for new players just now.":
        "Gerade ist keine Partie für neue Mitspieler offen.",
    "State": "Stand", "full": "voll", "Ask to join": "Mitspielen anfragen",
    "The game and its house rules": "Die Partie und ihre Hausregeln",
    "You run this game.": "Du leitest diese Partie.",
    "You play in this game.": "Du spielst in dieser Partie mit.",
    "Open the game": "Zur Partie",
    "You asked to join as": "Du hast angefragt als",
    "waiting for the game master's answer": "die Spielleitung hat noch nicht entschieden",
    "The game is full and takes no requests.": "Die Partie ist voll und nimmt keine Anfragen an.",
    "Your name in the game": "Dein Name in der Partie",
    "Language of your mails": "Sprache deiner Mails",
    "A message to the game master (optional)": "Eine Nachricht an die Spielleitung (freiwillig)",
    "The game master sees your name, your address and this message. If they accept, the "
    "invitation with a sign-in link comes by mail; a player who joins late starts at 0 points.":
        "Die Spielleitung sieht deinen Namen, deine Adresse und diese Nachricht. Nimmt sie an, "
        "kommt die Einladung mit einem Anmeldelink per Mail; wer später einsteigt, beginnt mit "
        "0 Punkten.",
    "Send the request": "Anfrage senden",
    "Your request is sent. The game master decides; you hear by mail either way.":
        "Deine Anfrage ist gesendet. Die Spielleitung entscheidet; du erfährst es in jedem Fall "
        "per Mail.",
    # the GM's side
    "Open game": "Offene Partie", "listed": "ausgeschrieben",
    "An ended game is not listed.": "Eine beendete Partie wird nicht ausgeschrieben.",
    "An open game is listed for everyone signed in here, with its house rules; they can ask "
    "to join, and you accept or decline each request.":
        "Eine offene Partie sieht jeder, der hier angemeldet ist, mit ihren Hausregeln; wer "
        "möchte, fragt an, und du nimmst jede Anfrage an oder lehnst sie ab.",
    "List this game as open": "Diese Partie als offen ausschreiben",
    "List this game as open: anyone signed in here may ask to join":
        "Diese Partie als offen ausschreiben: Wer hier angemeldet ist, kann anfragen",
    "Players at most": "Höchstens so viele Spieler",
    "Empty for no limit. Invited and accepted players count alike; a full game takes no "
    "requests.":
        "Leer für keine Grenze. Eingeladene und angenommene Spieler zählen gleich; eine volle "
        "Partie nimmt keine Anfragen an.",
    "Empty for no limit. You can change both later on the game's page.":
        "Leer für keine Grenze. Beides kannst du später auf der Seite der Partie ändern.",
    "The game is full.": "Die Partie ist voll.",
    "Requests to join": "Anfragen zum Mitspielen", "No requests yet.": "Noch keine Anfragen.",
    "Name in the game for": "Name in der Partie für",
    "Accept": "Annehmen", "Decline": "Ablehnen",
    "Decline this request? The requester is told by mail.":
        "Diese Anfrage ablehnen? Wer angefragt hat, bekommt eine Mail.",
    "accepted": "angenommen", "declined": "abgelehnt",
    "Saved: the game is listed as open.": "Gespeichert: Die Partie ist als offen ausgeschrieben.",
    "Saved: the game is not listed as open.":
        "Gespeichert: Die Partie ist nicht als offen ausgeschrieben.",
    "{name} joins the game; the invitation is in the outbox.":
        "{name} spielt mit; die Einladung liegt im Postausgang.",
    "The request of {name} is declined; they are told by mail.":
        "Die Anfrage von {name} ist abgelehnt; eine Mail sagt es.",
    "The player limit is a whole number, or empty for none.":
        "Die Spielerzahl ist eine ganze Zahl, oder leer für keine Grenze.",
    "The player limit is 1 to 1000, or empty for none.":
        "Die Spielerzahl ist 1 bis 1000, oder leer für keine Grenze.",
    "open game listing changed": "Ausschreibung geändert",
    "request to join accepted": "Anfrage angenommen",
    "request to join declined": "Anfrage abgelehnt",
})
