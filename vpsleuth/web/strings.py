"""German words of the shared web pages (sign-in, layout, errors)."""

from ..i18n import add

add("de", {
    "Sign in": "Anmelden",
    "Sign out": "Abmelden",
    "You are signed out on every device.": "Du bist auf allen Geräten abgemeldet.",
    "Sign out everywhere": "Überall abmelden",
    "Ends every session of your address, on every device and browser, including this one.":
        "Beendet jede Sitzung deiner Adresse, auf jedem Gerät und in jedem Browser, auch hier.",
    "You came in by the invitation to this game, so you see this game only. To see all your "
    "games, sign in with a link you ask for yourself.":
        "Du bist über die Einladung zu dieser Partie hier und siehst nur diese Partie. Um alle "
        "deine Partien zu sehen, melde dich mit einem selbst angeforderten Link an.",
    "a play-by-mail moderator": "Spielleitung für Postspiele",
    "Your games": "Deine Partien",
    "You play in no game yet. A game master invites you by email.":
        "Du spielst noch in keiner Partie. Eine Spielleitung lädt dich per Mail ein.",
    "Thirty-six gems, seven sealed hands, one missing stone. Ask, deduce, place your tips: "
    "the play-by-mail detective game, moderated for you.":
        "Sechsunddreißig Edelsteine, sieben verdeckte Hände, ein fehlender Stein. Fragen, "
        "kombinieren, Tipps setzen: das Detektivspiel per Post, für dich moderiert.",
    "No password: we send you a link that signs you in once.":
        "Kein Passwort: Wir schicken dir einen Link, der dich einmal anmeldet.",
    "Your email address": "Deine E-Mail-Adresse",
    "Send me a sign-in link": "Anmeldelink schicken",
    "Check your mail": "Sieh in dein Postfach",
    "If this address plays in a game here, a sign-in link is on its way to":
        "Wenn diese Adresse hier mitspielt, ist ein Anmeldelink unterwegs an",
    "It works once, for one hour.": "Er gilt einmal und eine Stunde lang.",
    "Sign in to VP-Sleuth": "Bei VP-Sleuth anmelden",
    "Sorry": "Leider",
    "Back to your games": "Zurück zu deinen Partien",
    "Please enter the email address you play with.":
        "Bitte gib die E-Mail-Adresse ein, mit der du spielst.",
    "setup": "in Vorbereitung", "running": "läuft", "paused": "pausiert",
    "finished": "beendet",
    "Game master": "Spielleitung",
})
