"""German words of the turn form (both ways to tip, one save) and of the notebook."""

from ...i18n import add

add("de", {
    # the turn form
    "Your turn was not applied; nothing of it counts.":
        "Dein Zug wurde nicht übernommen; nichts davon zählt.",
    "The lines to fix are shown with your text.": "Die zu korrigierenden Zeilen stehen bei "
                                                  "deinem Text.",
    "The text is too long: at most {} characters.": "Der Text ist zu lang: höchstens {} "
                                                     "Zeichen.",
    "Gems you had picked already keep your choice: {}.":
        "Steine, die du schon gewählt hattest, behalten deine Wahl: {}.",
    "How to place tips": "Wie du tippst", "By gem": "Nach Stein", "By place": "Nach Platz",
    "X: the one gem nobody holds. Pick it here.":
        "X: der eine Stein, den niemand hat. Wähle ihn hier.",
    "Pick the gems you think {} holds (five each). A gem tipped elsewhere moves here.":
        "Wähle die Steine, die {} deiner Meinung nach hat (je fünf). Ein anderswo getippter "
        "Stein wandert hierher.",
    "now at {}": "jetzt bei {}",
    "Write lines in the turn language": "Zeilen in der Zugsprache schreiben",
    "Applied after your choices above, in the order written; a later line wins. A refused "
    "line refuses the whole turn.":
        "Sie gelten nach deiner Auswahl oben, in der geschriebenen Reihenfolge; eine spätere "
        "Zeile gewinnt. Eine abgelehnte Zeile lehnt den ganzen Zug ab.",
    "Changes not saved yet": "Änderungen noch nicht gespeichert",
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
