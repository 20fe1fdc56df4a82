"""Showing a value that came from somebody else's code (a bot's answer, a
learner's return value) in a message, even when its own ``__repr__`` raises; and a
count with its noun in the right number (:func:`plural`).

>>> class Odd:
...     def __repr__(self):
...         raise ValueError("no")
>>> safe_repr(Odd())
'<Odd object: its __repr__ raised ValueError: no>'
>>> safe_repr("x" * 10, 4)
"'xxx..."
>>> plural(1, "game"), plural(3, "game"), plural(0, "answer")
('1 game', '3 games', '0 answers')
"""

from __future__ import annotations


def safe_repr(value, limit: int | None = None) -> str:
    """``repr(value)``, or a sentence saying that the object's own ``__repr__`` raised."""
    try:
        text = repr(value)
        if not isinstance(text, str):
            raise TypeError(f"__repr__ returned {type(text).__name__}, not str")
    except Exception as err:  # noqa: BLE001 - a learner's __repr__ may do anything
        try:
            detail = f"{type(err).__name__}: {err}" if str(err) else type(err).__name__
        except Exception:  # noqa: BLE001
            detail = type(err).__name__
        return f"<{type(value).__name__} object: its __repr__ raised {detail}>"
    if limit is not None and len(text) > limit:
        text = text[:limit] + "..."
    return text


def plural(n: int, noun: str) -> str:
    """``n`` and ``noun``, with an s unless ``n`` is 1: '1 game', '2 games'."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"
