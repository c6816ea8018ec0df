"""What the player wrote in a reply: the quoted original and signatures removed.

Our round mail contains a ready turn ("QUESTION E blue opal"); a quoted copy of
it must never be read as the player's turn. So:

* an unquoted copy of the original, as Outlook and many web mailers append it
  below a separator ("-----Original Message-----", "Von: ... Gesendet: ...",
  "On ... wrote:" followed by unquoted text), is cut off with everything below;
* quoted lines ("> ...", wherever they are: top-, bottom- or interleaved
  posting) and the attribution line above a quoted block are blanked;
* a signature ("-- ") or a mobile footer ("Sent from my iPhone") ends the text.

Removed lines inside the kept text become empty lines rather than vanish, so
the line numbers in an error reply match the lines of the player's mail.

Why our own stripper: of the libraries checked, email-reply-parser keeps German
attributions and Outlook header blocks, and mail-parser-reply keeps a whole
bottom-posted reply including the quoted turn template and keeps "Sent from my
iPhone"; both would let a quoted template reach the parser.
"""

from __future__ import annotations

import re

# A separator line above an unquoted copy of the original (or a forward).
_SEPARATOR = re.compile(
    r"^\s*(?:-{2,}\s*(?:original message|ursprüngliche nachricht|originalnachricht|"
    r"message d'origine|forwarded message|weitergeleitete nachricht)\s*-{2,}"
    r"|begin forwarded message:|anfang der weitergeleiteten nachricht:)\s*$",
    re.IGNORECASE)
_RULE = re.compile(r"^\s*(?:_{8,}|-{8,}|={8,})\s*$")
# The first line of a header block of the original: From/Von followed by Sent/Date/...
_HEADER_FROM = re.compile(r"^\s*\*?(?:from|von|de|van)\s*:\*?\s*\S", re.IGNORECASE)
_HEADER_NEXT = re.compile(
    r"^\s*\*?(?:sent|date|to|subject|cc|gesendet|datum|an|betreff|envoyé|objet|verzonden|"
    r"onderwerp)\s*:", re.IGNORECASE)
# "On <date>, <name> wrote:" and its relatives; Gmail wraps it over two lines.
_ATTRIBUTION = re.compile(
    r"^\s*(?:(?:on|am|le|op|el)\s.*\b(?:wrote|schrieb|a écrit|schreef|escribió)\b.*:"
    r"|.*\b(?:wrote|schrieb(?: am .*)?|a écrit|schreef|escribió)\s*:)\s*$",
    re.IGNORECASE)
# Only an attribution that starts like "On ..." / "Am ..." may be wrapped over lines.
_ATTRIBUTION_START = re.compile(r"^\s*(?:on|am|le|op|el)\s", re.IGNORECASE)
_SIGNATURE = re.compile(r"^(?:-- ?|--)$")
_FOOTER = re.compile(
    r"^\s*(?:sent from my \S.*|sent from (?:mail|outlook|yahoo mail) for \S.*"
    r"|get outlook for \S.*|sent with proton mail.*|sent from proton mail.*"
    r"|von meinem \S.* gesendet\.?|gesendet von meinem \S.*|gesendet mit der .* app\.?"
    r"|diese nachricht wurde von meinem .* gesendet\.?|envoyé de mon \S.*)\s*$",
    re.IGNORECASE)


def is_quoted(line: str) -> bool:
    """A line of a quoted original ("> ..."; any indentation)."""
    return line.lstrip().startswith(">")


def _attribution_end(lines: list[str], i: int) -> int | None:
    """If an attribution starts at line i, the index of its last line."""
    if is_quoted(lines[i]) or not lines[i].strip():
        return None
    wraps = _ATTRIBUTION_START.match(lines[i]) is not None
    for j in range(i, min(i + 3, len(lines))):
        if j > i and (not wraps or is_quoted(lines[j]) or not lines[j].strip()):
            return None
        joined = " ".join(line.strip() for line in lines[i:j + 1])
        if len(joined) <= 300 and _ATTRIBUTION.match(joined):
            return j
    return None


def _header_block(lines: list[str], i: int) -> bool:
    """A From:/Von: line followed within a few lines by Sent:/Date:/To:/Betreff: ..."""
    if not _HEADER_FROM.match(lines[i]):
        return False
    return any(_HEADER_NEXT.match(line) for line in lines[i + 1:i + 5])


def _next_text(lines: list[str], j: int) -> str | None:
    for line in lines[j + 1:]:
        if line.strip():
            return line
    return None


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
        end = _attribution_end(lines, i)
        if end is not None:
            following = _next_text(lines, end)
            if following is None or not is_quoted(following):
                break  # an unquoted original below "... wrote:": cut it off
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
