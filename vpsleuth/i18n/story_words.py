"""The game told afterwards in a player's words: what the page and the final report print.

``story_in_words(told, lang)`` turns the story's data (services/story.py:
rounds, gems, players) into sentences in ``lang``: how many gems were certain
after each round and how many deals were still possible, what each answer
ruled out, which question told the most, which answers proved each gem, each
player's part; bits only as a detail, explained once. Pure (Babel and the
catalogues): the web page and both mail bodies print the same words.
"""

from __future__ import annotations

from ..rules import GEM_BY_CODE, Question
from . import ntranslate, translate
from .story_numbers import (
    NOTHING,
    bits_text,
    deals_text,
    expected_share,
    gems_certain,
    power_note,
    round_told,
    ruled_out,
)

# How each language quotes a question in a sentence.
QUOTES = {"en": "“{}”", "de": "„{}“", "es": "«{}»"}


def story_in_words(told: dict, lang: str = "en") -> dict:
    """The words of ``told`` (a story as ``story.tell`` returns it) in ``lang``.

    ``intro`` and ``power_note``: the deals possible at the start; ``rounds``:
    per round ``certain_text``, ``deals``, ``told`` and the questions with what
    each ruled out, ``most`` (the question that told the most, when more than one
    was asked) and ``best``; ``gems_text``, ``proved`` (with the answers that
    proved each gem, or None when that was not worked out), ``unproved_text``
    and ``unproved``; ``players`` (a sentence each) or None; ``bits``.
    """
    start = 2.0 ** told["start_bits"]
    proved = [g for g in told["gems"] if g["certain_in_round"] is not None]
    unproved = [g["gem"] for g in told["gems"] if g["certain_in_round"] is None]
    return {
        "intro": translate(lang, "At the start {} deals were possible: all the ways to share "
                                 "the 36 gems out among A–G and X.").format(
            deals_text(start, False, lang)),
        "power_note": power_note(start, lang),
        "rounds": [_round(r, lang) for r in told["rounds"]],
        "gems_text": _gems_text(len(proved), told.get("final", True), lang),
        "proved": [_proved(g, lang) for g in proved],
        "unproved_text": _unproved_text(len(unproved), told.get("final", True), lang)
        if proved and unproved else None,
        "unproved": unproved,
        "players": [{"player": p["player"], "text": player_text(p, lang)}
                    for p in told["players"]] if told.get("players") else None,
        "bits": {"explain": translate(
            lang, "A bit is what a yes-or-no answer with even chances tells: each bit halves "
                  "the number of deals still possible, so n bits left means 2ⁿ deals."),
                 "start": bits_text(told["start_bits"], lang)},
    }


def quoted(text: str, lang: str) -> str:
    return QUOTES.get(lang, QUOTES["en"]).format(text)


def question_text(codes: str, lang: str) -> str:
    return Question.from_codes(codes).text(lang)


def _round(r: dict, lang: str) -> dict:
    # A lone question told what its round told: one figure for both, not two estimates.
    alone = len(r["questions"]) == 1 and r["questions"][0]["revealed_bits"] is not None
    questions = [{"asked_by": q["asked_by"], "text": question_text(q["question"], lang),
                  "answer": q["answer"],
                  "told": ruled_out(r["revealed_bits"] if alone else q["revealed_bits"], lang),
                  "most": False} for q in r["questions"]]
    most = _most_telling(r["questions"])
    if most is not None:
        questions[most]["most"] = True
    best = r.get("best")
    return {
        "number": r["number"], "certain": r["certain"],
        "certain_text": gems_certain(r["certain"], lang), "newly": r["newly_certain"],
        "deals": deals_text(r["count"], r["exact"], lang),
        "deals_line": translate(lang, "deals still possible: {}").format(
            deals_text(r["count"], r["exact"], lang)),
        "told": round_told(r["revealed_bits"], lang) if r["questions"] else
        translate(lang, "No questions this round."),
        "questions": questions,
        "most": _most_text(r["questions"], most, lang) if len(r["questions"]) > 1 else None,
        "best": _best_text(best, r["questions"], lang) if best else None,
        "bits": {"left": bits_text(r["bits_left"], lang),
                 "revealed": bits_text(r["revealed_bits"], lang),
                 "best": bits_text(best["expected_bits"], lang, 2) if best else "–"},
    }


def _most_telling(questions: list[dict]) -> int | None:
    """The index of the question whose answer ruled out the most; None if none told anything
    (or what they told was not worked out). The first asked wins a tie."""
    told = [(q["revealed_bits"], -i) for i, q in enumerate(questions)
            if q["revealed_bits"] is not None and q["revealed_bits"] >= NOTHING]
    return -max(told)[1] if told else None


def _most_text(questions: list[dict], most: int | None, lang: str) -> str | None:
    if most is None:
        if any(q["revealed_bits"] is None for q in questions):
            return None
        return translate(lang, "None of this round's questions told anything new.")
    q = questions[most]
    asked = quoted(question_text(q["question"], lang), lang)
    if q["asked_by"]:
        return translate(lang, "Told the most: {question}, asked by {player} (answer: "
                               "{answer}).").format(question=asked, player=q["asked_by"],
                                                    answer=q["answer"])
    return translate(lang, "Told the most: {question} (answer: {answer}).").format(
        question=asked, answer=q["answer"])


def _best_text(best: dict, questions: list[dict], lang: str) -> str:
    text = translate(lang, "The best question to ask that round: {question}; on average it "
                           "would have ruled out about {share} of the deals still "
                           "possible.").format(
        question=quoted(question_text(best["question"], lang), lang),
        share=expected_share(best["expected_bits"], lang))
    askers = [q["asked_by"] for q in questions
              if q["question"] == best["question"] and q["asked_by"]]
    if askers:
        text += " " + translate(lang, "{player} asked it.").format(player=askers[0])
    return text


def _gems_text(proved: int, final: bool, lang: str) -> str:
    if proved:
        return ntranslate(lang, "The answers proved where {num} gem lay.",
                          "The answers proved where {num} gems lay.", proved).format(
            num=proved)
    if final:
        return translate(lang, "The answers never proved where any gem lay.")
    return translate(lang, "Nothing was proved yet.")


def _unproved_text(unproved: int, final: bool, lang: str) -> str:
    if final:
        return ntranslate(lang, "{num} gem was never proved:", "{num} gems were never proved:",
                          unproved).format(num=unproved)
    return ntranslate(lang, "{num} gem is not proved yet:", "{num} gems are not proved yet:",
                      unproved).format(num=unproved)


def _proved(g: dict, lang: str) -> dict:
    because = None if g["because"] is None else [
        {"asked_by": b["asked_by"], "text": question_text(b["question"], lang),
         "answer": b["answer"]} for b in g["because"]]
    return {"gem": g["gem"], "name": GEM_BY_CODE[g["gem"]].name(lang),
            "round": g["certain_in_round"], "location": g["location"], "because": because}


def player_text(p: dict, lang: str) -> str:
    """One player's part in words: "2 safe tips; 2 guesses (1 right, 1 wrong); 1 proved gem
    not tipped (1 point missed)."."""
    parts = [ntranslate(lang, "{num} safe tip", "{num} safe tips", p["safe_tips"]).format(
        num=p["safe_tips"])]
    guesses = ntranslate(lang, "{num} guess", "{num} guesses", p["guesses"]).format(
        num=p["guesses"])
    if p["right_guesses"] + p["wrong_guesses"]:
        guesses += " (" + ntranslate(lang, "{num} right", "{num} right", p[
            "right_guesses"]).format(num=p["right_guesses"]) + ", " + ntranslate(
            lang, "{num} wrong", "{num} wrong", p["wrong_guesses"]).format(
            num=p["wrong_guesses"]) + ")"
    parts.append(guesses)
    if p["left_on_table"]:
        parts.append(ntranslate(lang, "{num} proved gem not tipped", "{num} proved gems not "
                                "tipped", p["left_on_table"]).format(num=p["left_on_table"])
                     + " (" + ntranslate(lang, "{num} point missed", "{num} points missed",
                                         p["points_left"]).format(num=p["points_left"]) + ")")
    else:
        parts.append(translate(lang, "no proved gem missed"))
    return "; ".join(parts) + "."
