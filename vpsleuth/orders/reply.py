"""What the player wrote in a reply: the quoted original and signatures removed.

Our round mail contains a ready turn ("QUESTION E blue opal"); a quoted copy of
it must never be read as the player's turn. So:

* an unquoted copy of the original, as Outlook and many web mailers append it
  below a separator ("-----Original Message-----", "-------- Mensaje original
  --------"), a header block in any order ("Von:/Gesendet:/An:/Betreff:",
  GMX's "Gesendet:/Von:/...", "De :/Envoyé :", "От:/Отправлено:") or an
  attribution followed by unquoted text ("On ... wrote:" as Yahoo writes it),
  is cut off with everything below;
* quoted lines ("> ...", wherever they are: top-, bottom- or interleaved
  posting) and the attribution above a quoted block are blanked: "On ...
  wrote:", "Am ... schrieb ...:", "Le ... a écrit :", "El ... escribió:",
  "Op ... schreef ...:", "Il giorno ... ha scritto:", "... написал(а):", and any
  other line of one to three lines ending in ":" just above the quote that
  names a date or an address (Gmail's Russian "пн, 30 нояб. 2026 г. в 09:00,
  VP-Sleuth <...>:" has no verb at all);
* a signature ("-- ") or a client's footer ("Sent from my iPhone", "Von meinem
  iPhone gesendet", "Gesendet von Mail für Windows", "Envoyé de mon iPhone",
  "Отправлено с iPhone", "Get Outlook for Android", and the made-up kind:
  "Sent from a magnificent torch of pixels") ends the text.

Removed lines inside the kept text become empty lines rather than vanish, so
the line numbers in an error reply match the lines of the player's mail.

Pure (the turn language's words only), so a service may strip a mailed board post
as the mail pipeline strips a turn. Why our own rules and not mail-parser-reply:
measured on tests/mail/corpus/ (bench/corpus_score.py); see docs/mail-inbound.md, "Choices".
"""

from __future__ import annotations

import re

from .signoff import is_command, is_ignored

# A separator line above an unquoted copy of the original (or a forward).
_SEPARATOR = re.compile(
    r"^\s*(?:-{2,}\s*(?:original message|original-nachricht|ursprüngliche nachricht|"
    r"originalnachricht|message d'origine|message original|mensaje original|"
    r"messaggio originale|oorspronkelijk bericht|origineel bericht|исходное сообщение|"
    r"оригинальное сообщение|пересылаемое сообщение|forwarded message|"
    r"weitergeleitete nachricht|message transféré|mensaje reenviado|"
    r"messaggio inoltrato|doorgestuurd bericht)\s*-{2,}"
    r"|begin forwarded message:|anfang der weitergeleiteten nachricht:"
    r"|début du message réexpédié\s?:)\s*$",
    re.IGNORECASE)
_RULE = re.compile(r"^\s*(?:_{8,}|-{8,}|={8,})\s*$")
# The lines of a header block of the original, in the languages of the clients.
_FROM_NAMES = r"from|von|de|van|da|от|från"
_OTHER_NAMES = (r"sent|date|to|cc|subject|gesendet|datum|an|betreff|kopie|envoyé|à|a|objet|"
                r"enviado|fecha|para|asunto|inviato|data|oggetto|verzonden|aan|onderwerp|"
                r"отправлено|дата|кому|копия|тема")
_HEADER = re.compile(rf"^\s*\*?(?:(?P<from>{_FROM_NAMES})|{_OTHER_NAMES})\s*:\*?(?:\s|$)",
                     re.IGNORECASE)
# "On <date>, <name> wrote:" and its relatives; Gmail wraps it over two lines.
_VERB = (r"wrote|schrieb|geschrieben|a écrit|escribió|escribio|schreef|ha scritto|"
         r"scrisse|написал\w*(?:\(а\))?|пишет|escreveu")
# An attribution that starts like "On ..." / "Am ..." or with a date may wrap over
# lines and has its verb anywhere; any other ends with it ("X wrote:", "X schrieb am ...:").
_ATTRIBUTION_START = re.compile(
    r"^\s*(?:on|am|le|op|el|il|em|в)\s|^\s*(?:\d|пн|вт|ср|чт|пт|сб|вс)", re.IGNORECASE)
_VERB_ANYWHERE = re.compile(rf"(?<!\w)(?:{_VERB})(?!\w).*:\s*$", re.IGNORECASE)
_VERB_AT_END = re.compile(rf"(?<!\w)(?:{_VERB})(?: am .{{1,60}}?)?\s*:\s*$", re.IGNORECASE)
_DATE_OR_ADDRESS = re.compile(r"\d|@")
_SIGNATURE = re.compile(r"^(?:-- ?|--)$")
_FOOTER = re.compile(
    r"^\s*(?:"
    r"sent (?:from|with|via|using|by) \S.{0,60}"
    r"|get outlook for \S.*|download outlook for \S.*"
    r"|von meine[mr] \S.{0,50} (?:gesendet|versendet)\.?"
    r"|(?:gesendet|versendet|verschickt) (?:von|vom|mit|über) \S.{0,60}"
    r"|diese nachricht wurde von meinem .{0,60} gesendet\.?"
    r"|outlook für \S+ herunterladen"
    r"|envoyé (?:de|depuis|à partir de|avec) \S.{0,60}|obtenir outlook pour \S.*"
    r"|enviado (?:desde|con|de) \S.{0,60}|obtener outlook para \S.*"
    r"|inviato (?:da|dal|dalla|con) \S.{0,60}|scarica outlook per \S.*"
    r"|(?:verzonden|verstuurd) (?:vanaf|van|met|via) \S.{0,60}|outlook voor \S+ downloaden"
    r"|отправлено (?:с|со|из|через) \S.{0,60}|получить outlook для \S.*"
    r")\s*$",
    re.IGNORECASE)


def is_quoted(line: str) -> bool:
    """A line of a quoted original ("> ..."; any indentation)."""
    return line.lstrip().startswith(">")


def _next_text(lines: list[str], j: int) -> str | None:
    for line in lines[j + 1:]:
        if line.strip():
            return line
    return None


def _not_attribution(line: str) -> bool:
    return is_quoted(line) or is_ignored(line) or is_command(line)


def _attribution_end(lines: list[str], i: int) -> tuple[int, bool] | None:
    """If an attribution starts at line i: the index of its last line, and whether
    it names a verb (only then may it stand above an unquoted original)."""
    if _not_attribution(lines[i]):
        return None
    wraps = _ATTRIBUTION_START.match(lines[i]) is not None
    for j in range(i, min(i + 3, len(lines))):
        if j > i and (not wraps or _not_attribution(lines[j])):
            return None
        joined = " ".join(line.strip() for line in lines[i:j + 1])
        if len(joined) > 300:
            return None
        if (wraps and _VERB_ANYWHERE.search(joined)) or (j == i and _VERB_AT_END.search(joined)):
            return j, True
        following = _next_text(lines, j)
        if (joined.endswith(":") and _DATE_OR_ADDRESS.search(joined)
                and following is not None and is_quoted(following)):
            return j, False  # no verb, but it introduces the quote: Gmail in Russian
    return None


def _header_block(lines: list[str], i: int) -> bool:
    """A header block of the original starts at line i: From/Von/De/От and at least
    one more header line (a From line first), or three header lines in any order
    among them a From line (GMX: Gesendet/Von/An/Betreff)."""
    first = _HEADER.match(lines[i])
    if first is None:
        return False
    window = [m for m in (_HEADER.match(line) for line in lines[i:i + 6]) if m]
    has_from = any(m.group("from") for m in window)
    if first.group("from"):
        return len(window) >= 2
    return has_from and len(window) >= 3


def _cut_above(lines: list[str], i: int) -> int:
    """Move a cut up over separator rules and blank lines just above it."""
    while i > 0 and (not lines[i - 1].strip() or _RULE.match(lines[i - 1])):
        i -= 1
    return i


def strip_reply(text: str) -> str:
    """The player's own lines of a reply; quoted lines blanked, the original cut off."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    kept: list[str] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        if _SEPARATOR.match(line) or _header_block(lines, i):
            kept = kept[:_cut_above(kept, len(kept))]
            break
        if _SIGNATURE.match(line) or _FOOTER.match(line):
            break
        found = _attribution_end(lines, i)
        if found is not None:
            end, has_verb = found
            following = _next_text(lines, end)
            if following is None or not is_quoted(following):
                if has_verb:
                    break  # an unquoted original below "... wrote:": cut it off
            else:
                kept.extend("" for _ in range(i, end + 1))
                i = end + 1
                continue
        kept.append("" if is_quoted(line) else line.rstrip())
        i += 1
    while kept and not kept[-1].strip():
        kept.pop()
    return "\n".join(kept)


def has_content(text: str) -> bool:
    """True if any line is more than blank space or a # comment."""
    return any(line.strip() and not line.strip().startswith("#") for line in text.split("\n"))
