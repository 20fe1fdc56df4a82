"""The mistakes exercise B3 (:mod:`tronlab.course.ex_rects`) recognises, each with its
hint: a term of the rectangle score left out, a term applied the wrong way, an eliminated
player counted wrongly; and the hints for a score that is 0 everywhere or rounded to a
whole number.  The checker recomputes the expected score with each mistake
switched on (:func:`tronlab.course.ex_rects.variant`, whose keywords are the first item of
each pair) and names the first one that gives the learner's number."""

from __future__ import annotations

import math

__all__ = ["TERMS", "MISTAKES", "ELIMINATED", "BOUNDARIES", "SWAPPED", "ZERO_EVERYWHERE",
           "ROUNDED_DOWN", "rounded_hint", "decimals_hint"]

#: the terms of the exercise (RectTerms names), in the order the score applies them
TERMS = ("cap_to_win", "approach", "player_constant", "thin_corner", "win_bonus",
         "size_divisor", "border_bonus", "edge_bonus", "proximity_divisor")


_TERM_HINTS = {
    "cap_to_win": "the enough-to-win cap: points are at most the squares still needed to win "
                  "(needed_to_win with the active players)",
    "approach": "the doubled approach cost: the walk to the rectangle's start square counts "
                "twice (2 x its Manhattan distance)",
    "player_constant": "the player-count constant: add 10, 6 or 4 turns for 2, 3 or 4 players",
    "thin_corner": "thin areas: a rectangle less than 3 squares wide or high scores "
                   "1 / (1 + distance to its upper-left corner), divided by the turns",
    "win_bonus": "the win bonus: x 2 when the rectangle's neutral squares reach the number "
                 "needed to win",
    "size_divisor": "the size penalty: / 2 when a side is longer than 14, 13 or 12 squares "
                    "(2, 3, 4 players; the side from x0 to x1 is x1 - x0 + 1 squares long)",
    "border_bonus": "the border bonus (2 players only): x 2 when a vertical side runs along "
                    "the middle column (width // 2) and more than 10 of its squares are neutral",
    "edge_bonus": "the edge bonus (3-4 players only): x 1.1 when the rectangle touches the "
                  "grid's edge (x0 == 0, y0 == 0, x1 == view.width - 1 or "
                  "y1 == view.height - 1)",
    "proximity_divisor": "opponents near: / 2 for each opponent less than 2 squares "
                         "(Manhattan, 0 inside) from the rectangle",
}

#: an eliminated player's mistakes, tried first: a size limit by the active players scores as
#: no size penalty at all, but those grids come after every term's own (ex_rects_grids)
ELIMINATED = [
    ({"needed": "all"}, "the squares still needed to win: give needed_to_win the ids of the "
                        "players not eliminated (active); an eliminated player's squares still "
                        "rank, but its score can no longer grow, so it is not a player who "
                        "could take every free square"),
    ({"constant": "active"}, "the player-count constant goes by all the players of the game, "
                             "eliminated ones included: CONSTANT[view.n_players], not the "
                             "number of players still in it"),
    ({"limit": "active"}, "the size limit goes by all the players of the game, eliminated ones "
                          "included: SIZE_LIMIT[view.n_players], not the number of players "
                          "still in it"),
]

#: a term's test off by one, tried before the missing terms: on the grid that sits on the
#: boundary the term is missing there too, and the boundary is the better hint
BOUNDARIES = [
    ({"win": ">"}, "the win bonus counts when the neutral squares *reach* the number needed to "
                   "win: neutral >= needed, so exactly as many as needed earns it too"),
    ({"edge": "far"}, "the edge bonus: the last column is x = view.width - 1 and the last row "
                      "y = view.height - 1 (x runs from 0), so a rectangle with "
                      "x1 == view.width - 1 or y1 == view.height - 1 touches the edge"),
    ({"edge": "near"}, "the edge bonus is for a rectangle that touches the edge: x0 == 0, "
                       "y0 == 0, x1 == view.width - 1 or y1 == view.height - 1; one square "
                       "short of it is not enough"),
    ({"column_end": False}, "the border bonus: the rectangle's squares on the middle column are "
                            "owner[y0:y1 + 1, col]; owner[y0:y1, col] leaves out the one on "
                            "row y1 (a slice leaves out its end)"),
    ({"prox": "border"}, "opponents near: an opponent inside the rectangle is 0 squares from "
                         "it, however far from the border: the gap is max(0, x0 - ox, ox - x1) "
                         "+ max(0, y0 - oy, oy - y1), not the distance to the nearest border "
                         "square"),
]

#: (mistake, hint) pairs tried in order: an eliminated player's, the boundaries, the missing
#: terms, the rest
MISTAKES = ELIMINATED + BOUNDARIES + [({"off": (t,)}, f"a term is missing - {_TERM_HINTS[t]}")
                         for t in TERMS] + [
    ({"empty": False}, "a rectangle with no neutral square scores 0, thin or not: closing it "
                       "brings nothing"),
    ({"enemy": False}, "an opponent's square inside the rectangle makes its score 0: the "
                       "enclosure would go to nobody"),
    ({"points": "inside"}, "points: count the neutral squares of the whole rectangle, border "
                           "included - walking the border takes them too"),
    ({"walk": "all"}, "turns: border squares you already own need no stepping on; walk only "
                      "until every border square not yet yours is behind you"),
    ({"walk": "clockwise"}, "turns: try both directions round the border, clockwise and "
                            "anticlockwise, and keep the cheaper"),
    ({"walk": "nearest"}, "turns: the nearest border square is not always the best start; try "
                          "every start square and keep the fewest turns in total"),
    ({"walk": "corner"}, "turns: the walk need not start at the corner (x0, y0); try every "
                         "border square as the start (the walk to it, counted twice, plus the "
                         "steps along the border) and keep the fewest turns in total"),
    ({"walk": "to corner"}, "turns: the approach is the walk to the start square of the "
                            "border walk, wherever on the border that is: 2 x the distance "
                            "from you to that square, not to the corner (x0, y0)"),
    ({"walk": "squares"}, "turns: count the steps along the border, not the squares: the start "
                          "square is already under your feet, so passing k more border squares "
                          "takes k steps"),
    ({"closing": False}, "turns: add 1 for the closing turn (the enclosure happens on the "
                         "turn after the last border square)"),
    ({"size": ">="}, "the size penalty applies to a side *longer* than the limit, not equal "
                     "to it"),
    ({"border": "all"}, "the border bonus is for 2-player games only"),
    ({"border_free": ">="}, "the border bonus needs *more than* 10 neutral squares on that "
                            "side"),
    ({"edge": "all"}, "the edge bonus is for 3-4 player games only"),
    ({"prox": "chebyshev"}, "opponents near: measure the gap with Manhattan distance (dx + dy "
                            "outside the rectangle), not the larger of dx and dy"),
    ({"prox": "once"}, "opponents near: divide by 2 once *for each* opponent that is near"),
    ({"prox": "<="}, "opponents near: only a gap *less than* 2 counts"),
    ({"prox": "times"}, "opponents near: divide by 2 once for each opponent near, that is by "
                        "2 ** near (4 for two, 8 for three), not by 2 * near"),
    ({"prox": "self"}, "opponents near: count the other players only (q != player): you stand "
                       "on or next to most rectangles you score, and that costs nothing"),
    ({"thin_side": "<3"}, "thin areas: a side *shorter than 3 squares* is 1 or 2 squares long, "
                          "x1 - x0 < 2 (the side from x0 to x1 is x1 - x0 + 1 squares): a "
                          "rectangle 3 squares wide is not thin"),
    ({"column": "height"}, "the border bonus: the middle column is view.width // 2 (x runs "
                           "along the width), not view.height // 2"),
    ({"divide": "floor"}, "points // turns rounds down, to 0 when the turns outnumber the points: "
                          "divide with /"),
    ({"box": "xy"}, "the rectangle's squares are owner[y0:y1 + 1, x0:x1 + 1], rows (y) first: "
                    "owner[x0:x1 + 1, y0:y1 + 1] reads another patch of the grid (numpy cuts "
                    "a slice off at the edge without a word)"),
    ({"box": "end"}, "the rectangle's squares are owner[y0:y1 + 1, x0:x1 + 1]: (x1, y1) is a "
                     "square of the rectangle, and a slice leaves out its end, so "
                     "owner[y0:y1, x0:x1] misses the last row and the last column"),
    ({"thin": "turns"}, "thin areas: 1 / (1 + distance to the corner) is the points; divide "
                        "it by the turns as usual"),
]


#: the hint for a score of the rectangle with x and y swapped
SWAPPED = ("that is the score of the rectangle with x and y swapped: rect is (x0, y0, x1, y1), "
           "x first, while the grid is indexed owner[y, x]")


#: the hint for a score of 0 on every rectangle tried: most often the enemy test zeroes them
ZERO_EVERYWHERE = ("Something sets every score to 0: is a neutral square (-1) taken for "
                   "another player's? Only a square owned by someone else, owner >= 0 and "
                   "owner != player, makes the score 0")


#: added to ZERO_EVERYWHERE: a float 0 can also be a fraction rounded down
ROUNDED_DOWN = (" - or is the score rounded down (int(), //, math.floor)? It is a fraction, "
                "often below 1")


def rounded_hint(got, want, probes, is_int) -> str | None:
    """The hint for a score rounded to a whole number (int(), round(), math.floor, //)
    where the expected score ``want`` is a fraction, when ``got`` and the learner's
    ``probes`` (``(rect, theirs, expected)``, see ``ex_rects._probes``) are all such
    roundings, else None.  A float 0 is left to the other hints unless ``is_int`` (the
    learner returned an int): it may be a score set to 0 on purpose."""
    def whole_of(mine, score):
        return float(mine).is_integer() and mine in (math.floor(score), round(score))
    if float(want).is_integer() or not whole_of(got, want) or (got == 0 and not is_int):
        return None
    if not all(whole_of(mine, score) for _, mine, score in probes):
        return None
    what = f"the int {got:g}" if is_int else f"{got:g}, a whole number,"
    return (f"you returned {what} where the score is a fraction, {want:.6g}: divide with /, "
            f"not //, and do not round (no int(), round() or math.floor)"
            + (". If nothing is rounded, something sets the score to 0: is a neutral square "
               "(-1) taken for another player's?" if got == 0 else ""))


def decimals_hint(got, want, probes) -> str | None:
    """The hint for a score rounded to 1-5 decimal places (``round(score, 3)``, often meant
    for printing), when ``got`` and the learner's ``probes`` (at least one) are all that
    rounding of the expected scores, else None."""
    pairs = [(got, want), *((mine, score) for _, mine, score in probes)]
    for k in range(1, 6) if probes else ():       # one number alone could be a coincidence
        if got != want and all(mine == round(score, k) for mine, score in pairs):
            return (f"you returned {got:g} where the score is {want:.6g}: that is the score "
                    f"rounded to {k} decimal place{'' if k == 1 else 's'}. Return the number "
                    f"as it is (round only when you print it)")
    return None


def empty_walk_hint(case, err) -> str | None:
    """The hint for max() of nothing where every border square is the player's already (the
    walk has no square left to pass); None elsewhere."""
    from ..capture.rects import border_cycle

    view, (player, (x0, y0, x1, y1)) = case.board.view, case.args
    if not (isinstance(err, ValueError) and "empty" in str(err)) or any(
            view.owner[y, x] != player for x, y in border_cycle(x0, y0, x1, y1)):
        return None
    return ("every border square of this rectangle is yours already: no square is left to "
            "step on, so the walk is 0 (max() of an empty list raises: max(..., default=0)), "
            "and the turns are the approach, the closing turn and the constant")
