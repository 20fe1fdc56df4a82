"""Value checks for kernels called directly from Python (``@kernel(guard=...)``).

A kernel's signature says which arguments are arrays of which dtype, and
:mod:`tronlab.jit.argcheck` checks that on every call from Python.  It cannot
say which int is an index into which array, nor that a scratch array must be
as long as the grid, nor that the grid needs its wall border: the kernels read
``flat[square + offset]`` without bounds checks (that is why boards are
padded), so a start square of ``10**9``, or a fill that walks off an unpadded
grid, reads outside the array and can crash the interpreter.  Those facts
belong to each kernel, so every kernel with a signature (the ones Python can
call: the notebooks show ``flood_fill_kernel``, ``territory_kernel``,
``multi_score_kernel``; the README invites users to call them) declares a
``guard``: a plain function of the same arguments built from the checks here,
run after the type check and before the kernel, raising ValueError that names
the argument.  The rule, tested by walking :func:`tronlab.jit.kernels.declared`
(tests/test_kernel_guards.py): a kernel with ``sig`` has a ``guard``.  A scratch
tuple (``ChamberScratch``, ``FillerScratch``, ...) must be what its
``new_scratch`` makes for this grid (:func:`scratch`); an index read out of an
argument (a parent link, a label) is checked where the kernel would follow it.
Kernels without ``sig`` are helpers compiled code calls (the course's
``pure_bounds_kernel`` has a guard all the same); from Python they get numba's
own typing check.  The package's wrappers check the board
(:func:`tronlab.tron.board.check_board`) and their scratch once and call the
kernels unchecked (``_kernels.fast``).

The checks cost a few microseconds (the border is four short numpy reductions,
a scratch tuple one shape and dtype comparison an array); compiled code calling
the kernels never runs them.

>>> import numpy as np
>>> flat = np.ones(16, np.uint8); flat[5] = flat[6] = 0
>>> padded_grid(flat, 4)
4
>>> inside(flat, 4, 0, "start")
Traceback (most recent call last):
...
ValueError: start 0 is on the border of this 4x4 padded grid, not on its playing area
"""

from __future__ import annotations

import functools

import numpy as np


def padded_grid(flat, stride) -> int:
    """Check that ``flat`` is a padded grid ``stride`` squares wide, at least 3x3,
    whose border squares are all blocked (nonzero), as ``board.flat`` is; return
    the number of rows."""
    n, stride = flat.size, int(stride)
    if stride < 3 or n % stride or n // stride < 3:
        raise ValueError(f"stride {stride} does not fit a padded grid of {n} squares: stride is "
                         f"the padded width (board.stride = width + 2) and divides the size")
    rows = n // stride
    if np.count_nonzero(flat.take(_border(n, stride))) != 2 * stride + 2 * (rows - 2):
        raise ValueError("flat must be a padded grid whose border squares are all blocked "
                         "(nonzero), like board.flat: the kernel does not check bounds")
    return rows


@functools.lru_cache(maxsize=32)
def _border(n: int, stride: int) -> np.ndarray:
    """The flat indices of the border of a padded grid of ``n`` squares, ``stride`` wide."""
    rows = np.arange(n).reshape(n // stride, stride)
    return np.concatenate([rows[0], rows[-1], rows[1:-1, 0], rows[1:-1, -1]])


def inside(flat, stride, square, name: str) -> None:
    """Check that flat index ``square`` is a square of the playing area (not the border)."""
    stride = int(stride)
    rows = flat.size // stride
    if not 0 <= square < flat.size:
        raise ValueError(f"{name} {square} is outside this {stride}x{rows} padded grid "
                         f"(flat indices 0..{flat.size - 1}; a square (x, y) of the playing "
                         f"area is (y + 1) * {stride} + (x + 1))")
    y, x = divmod(int(square), stride)
    if not (1 <= y < rows - 1 and 1 <= x < stride - 1):
        raise ValueError(f"{name} {square} is on the border of this {stride}x{rows} padded "
                         f"grid, not on its playing area")


def long_enough(size: int, **arrays) -> None:
    """Check that each array (by keyword name) holds at least ``size`` items."""
    for name, a in arrays.items():
        if a.size < size:
            raise ValueError(f"scratch {name} holds {a.size} items, the kernel needs {size}")


def players(heads, alive, me=None) -> None:
    """Check ``heads``/``alive`` (one entry per player, 1-4 players) and ``me``."""
    if not 1 <= heads.size <= 4 or alive.size != heads.size:
        raise ValueError(f"heads and alive hold one entry per player (1-4), got {heads.size} "
                         f"heads and {alive.size} alive flags")
    if me is not None and not 0 <= me < heads.size:
        raise ValueError(f"me {me} is not a player: the heads are players 0..{heads.size - 1}")


def living_heads(flat, stride, heads, alive, me=None) -> None:
    """:func:`players`, then :func:`inside` for the head of each living player."""
    players(heads, alive, me)
    for p in range(heads.size):
        if alive[p]:
            inside(flat, stride, heads[p], f"head of living player {p}")



def on_grid(flat, stride, squares=None, **arrays) -> int:
    """:func:`padded_grid`, then :func:`inside` for each ``{name: square}`` of
    ``squares`` and :func:`long_enough` (one item a square) for ``arrays``;
    returns the number of rows."""
    rows = padded_grid(flat, stride)
    for name, square in (squares or {}).items():
        inside(flat, stride, square, name)
    long_enough(flat.size, **arrays)
    return rows


def shaped(name: str, a, *shape) -> None:
    """Check that array ``a`` is at least ``shape`` (one minimum a dimension)."""
    if any(have < want for have, want in zip(a.shape, shape)):
        raise ValueError(f"{name} has shape {a.shape}, the kernel needs at least {shape}")


def between(name: str, value, lo: int, hi: int) -> None:
    """Check ``lo <= value <= hi`` for an int argument."""
    if not lo <= value <= hi:
        raise ValueError(f"{name} {value} is outside {lo}..{hi}")


def scratch(given, size: int, new_scratch, name: str, arg: str = "scratch"):
    """``given`` if it is scratch for a flat grid of ``size`` squares as ``new_scratch(size)``
    makes it (the same type, every array of the same shape and dtype, C-contiguous and
    writeable), a new one if it is None; else a ValueError saying to call ``name``: the
    kernels write these arrays without bounds checks, so one too short is written past
    its end."""
    if given is None:
        return new_scratch(size)
    kind, layout = _layout(new_scratch, size)
    if not (isinstance(given, kind) and len(given) == len(layout) and all(
            isinstance(a, np.ndarray) and (a.shape, a.dtype) == shape_dtype
            and a.flags.c_contiguous and a.flags.writeable
            for a, shape_dtype in zip(given, layout))):
        raise ValueError(f"{arg} must be {name}(board.flat.size) for this board")
    return given


def sized(given, size: int, new_scratch, name: str, arg: str) -> None:
    """For a guard, after the type check of the kernel's signature (each array's dtype,
    C order, writeable): check that scratch tuple ``given`` is of the type
    ``new_scratch(size)`` makes, each array of its shape (a few microseconds, where
    :func:`scratch`'s full check of a 29-array tuple costs tens)."""
    kind, shapes = _shapes(new_scratch, size)
    if type(given) is not kind or [a.shape for a in given] != shapes:
        raise ValueError(f"{arg} must be {name}(board.flat.size) for this board")


@functools.lru_cache(maxsize=32)
def _shapes(new_scratch, size: int) -> tuple:
    kind, layout = _layout(new_scratch, size)
    return kind, [shape for shape, _ in layout]


@functools.lru_cache(maxsize=32)
def _layout(new_scratch, size: int) -> tuple:
    """The type of ``new_scratch(size)`` and each of its arrays' ``(shape, dtype)``."""
    made = new_scratch(size)
    return type(made), tuple((a.shape, a.dtype) for a in made)
