"""German words of the turn form (both ways to tip, one save) and of the notebook."""

from ...i18n import add

add("de", {
    # the information sheet and the notebook
    "Every question of every round, by attribute and placeholder: the answer, the round and "
    "who asked.": "Jede Frage jeder Runde, nach Merkmal und Platzhalter: die Antwort, die Runde "
                  "und wer gefragt hat.",
    "Answers by attribute and placeholder": "Antworten nach Merkmal und Platzhalter",
    "Attribute": "Merkmal",
    "Your notebook": "Dein Notizbuch",
    "Private: only you can see it, not the other players and not the game master. Tap a cell "
    "to mark where a gem is: yes, no, maybe, then empty again. By keyboard: arrow keys to "
    "move, Enter or Space to change, or Y, N, M and Delete.":
        "Privat: nur du siehst es, weder die anderen Mitspieler noch die Spielleitung. Tippe "
        "auf ein Feld, um zu markieren, wo ein Stein liegt: ja, nein, vielleicht, dann wieder "
        "leer. Mit der Tastatur: Pfeiltasten zum Bewegen, Eingabe oder Leertaste zum Ändern, "
        "oder J, N, M und Entf.",
    "Your marks: each gem by placeholder and X": "Deine Markierungen: jeder Stein nach "
                                                 "Platzhalter und X",
    "yes": "ja", "no": "nein", "maybe": "vielleicht", "no mark": "keine Markierung",
    "Notes": "Notizen", "Save notes": "Notizen speichern", "Saving…": "Wird gespeichert …",
    "Saved": "Gespeichert",
    "Not saved: the connection or your session was lost. Your notes stay here; it is tried "
    "again with your next change.":
        "Nicht gespeichert: Die Verbindung oder deine Anmeldung ist verloren. Deine Notizen "
        "bleiben hier; mit der nächsten Änderung wird es erneut versucht.",
})
