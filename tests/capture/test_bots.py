"""Back to the Code bots (tronlab.capture.bots) on hand-made grids."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import EXAMPLES

from tronlab.capture import reset, state_from_ascii
from tronlab.capture.bots import NearestBot, RandomBot, get_bot, nearest_target, neutral_neighbours


def target(text, player=0, **kw):
    positions = kw.pop("positions", None)
    return nearest_target(state_from_ascii(text, positions=positions).view(), player, **kw)


def test_goes_to_the_nearest_neutral_square_by_manhattan_distance():
    text = """
        0000000
        0A000..
        0000000
        ..00000
    """
    # (1, 3) is 2 away, (5, 1) is 4 away (both have a neutral neighbour)
    assert target(text, positions={1: (6, 0)}) == (1, 3)
    assert target(text.replace("..00000", "0000000"), positions={1: (6, 0)}) == (5, 1)


def test_ties_go_to_more_neutral_neighbours_then_reading_order():
    # (1, 0) and (0, 1) are both 1 away with one neutral neighbour: (1, 0) comes first
    assert target("""
        ..00
        .A00
        0000
    """, positions={1: (3, 2)}) == (1, 0)
    # (2, 1), (1, 2), (3, 2) are all 1 away; (3, 2) has two neutral neighbours, the others one
    assert target("""
        00000
        00...
        0.A.0
        0.0.0
    """, positions={1: (0, 0)}) == (3, 2)


def test_prefers_a_cluster_to_a_lone_square():
    text = """
        0.000
        0A0..
        00000
    """
    # (1, 0) is 1 away but alone (cost 1 + 3); (3, 1) is 2 away beside (4, 1)
    assert target(text, positions={1: (0, 2)}) == (3, 1)
    assert target(text, positions={1: (0, 2)}, lone_penalty=0) == (1, 0)


def test_late_in_the_game_avoids_squares_nearer_an_opponent():
    text = """
        000000000
        .0A0.b000
        000000000
    """
    # (0, 1) and (4, 1) are both 2 away; (4, 1) has a neutral neighbour (b's square) but is
    # nearer b; with 3 of 27 squares neutral it is late, so (0, 1)
    assert target(text) == (0, 1)
    assert target(text, late=0.0) == (4, 1)         # never late: the cluster square
    mirrored = """
        0000000
        0A000b.
        0000000
    """
    # both neutral squares are nearer b: dropping them would leave nothing, so keep them
    assert target(mirrored) == (5, 1)


def test_the_late_rule_only_looks_at_active_opponents():
    s = state_from_ascii("""
        0000
        A00.
        0000
        0000
        .000
    """, positions={1: (3, 0)})
    # (3, 1) and (0, 4) are both 3 away and alone; (3, 1) is 1 from player 1
    assert nearest_target(s.view(), 0) == (0, 4)
    view = s.view()._replace(eliminated=(False, True), positions=((0, 1), None))
    assert nearest_target(view, 0) == (3, 1)


def test_stays_when_nothing_is_neutral_and_never_aims_at_its_own_shared_square():
    assert target("""
        00
        A1
    """, positions={1: (1, 1)}) == (0, 1)
    s = state_from_ascii("""
        00.
        0..
    """, positions={0: (1, 1), 1: (1, 1)})
    assert nearest_target(s.view(), 0) == (2, 1)


def test_neutral_neighbours_counts_orthogonal_neutral_squares():
    owner = state_from_ascii("""
        ..0
        .A.
    """, positions={1: (2, 0)}).owner
    assert neutral_neighbours(owner).tolist() == [[2, 1, 2], [1, 3, 0]]


def test_random_bot_is_seeded_keeps_its_target_and_backs_at_most_once():
    s = reset(2, rng=1)
    view = s.view()
    a, b = RandomBot(7), RandomBot(7)
    ta = [a(view, 0) for _ in range(5)]
    assert ta == [b(view, 0) for _ in range(5)] and len(set(ta)) == 1
    assert all(0 <= x < 35 and 0 <= y < 20 for x, y in ta)
    backer = RandomBot(3, back_chance=1.0)
    kind, n = backer(view, 0)
    assert kind == "BACK" and 1 <= n <= 25
    used = view._replace(backs_left=(0, 1))
    assert isinstance(backer(used, 0)[0], int)


def test_random_targets_cover_the_grid():
    view = reset(2, rng=1).view()
    bot = RandomBot(11)
    seen = set()
    for _ in range(400):
        bot.target = None
        seen.add(bot(view, 1))
    xs, ys = zip(*seen)
    assert min(xs) == 0 and max(xs) == 34 and min(ys) == 0 and max(ys) == 19


def test_bots_by_name():
    assert isinstance(get_bot("nearest"), NearestBot)
    assert isinstance(get_bot("random", 1), RandomBot)
    assert get_bot("random-back", 1).back_chance > 0
    with pytest.raises(ValueError, match="unknown bot"):
        get_bot("clever")
    assert np.issubdtype(type(get_bot("nearest")(reset(2, rng=0).view(), 1)[0]), np.integer)


def test_capture_bots_are_in_the_main_registry():
    from tronlab.runner import registry
    assert {"random", "random-back", "nearest"} <= set(registry.bot_names("backtothecode"))
    assert registry.bot_names("capture") == registry.bot_names("backtothecode")
    bot = registry.get_bot("nearest", game="backtothecode", rng=3)
    assert isinstance(bot, NearestBot)
    assert isinstance(registry.get_bot("random", game="capture", rng=3), RandomBot)
    assert "B2" in registry.describe("nearest", game="capture")
    # the tron bot of the same name is another bot
    assert not isinstance(registry.get_bot("random", rng=3), RandomBot)


def brute_nearest(view, player, late=0.5, lone_penalty=3):
    """Oracle: the rule of the bots module docstring, square by square."""
    w, h = view.width, view.height
    me = view.positions[player]
    neutral = {(x, y) for y in range(h) for x in range(w) if view.owner[y][x] == -1}
    cand = neutral - {me}
    if not cand:
        return me

    def dist(a, b):
        return abs(a[0] - b[0]) + abs(a[1] - b[1])

    if len(neutral) <= late * w * h:
        rivals = [q for q in range(view.n_players)
                  if q != player and not view.eliminated[q] and view.positions[q] is not None]
        safe = {s for s in cand if not any(dist(view.positions[q], s) < dist(me, s)
                                           for q in rivals)}
        cand = safe or cand

    def around(s):
        return sum((s[0] + dx, s[1] + dy) in neutral
                   for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)))

    def key(s):
        d = dist(me, s)
        return (d + (lone_penalty if around(s) == 0 else 0), d, -around(s), s[1], s[0])

    return min(cand, key=key)


@settings(max_examples=EXAMPLES, deadline=None)
@given(st.integers(2, 4), st.integers(2, 12), st.integers(2, 9), st.integers(0, 2**32 - 1),
       st.floats(0.0, 1.0), st.floats(0.0, 1.0), st.integers(0, 5))
def test_nearest_target_matches_a_brute_force_reading_of_its_rule(n, w, h, seed, neutral,
                                                                   late, penalty):
    rng = np.random.default_rng(seed)
    owner = np.where(rng.random((h, w)) < neutral, -1, rng.integers(0, n, (h, w)))
    squares = rng.choice(w * h, size=n, replace=True)
    positions = tuple((int(s) % w, int(s) // w) for s in squares)
    eliminated = tuple(bool(rng.random() < 0.3) and p > 0 for p in range(n))
    positions = tuple(None if e else pos for pos, e in zip(positions, eliminated))
    view = reset(n, width=w, height=h, symmetric=False, rng=seed).view()._replace(
        owner=owner.astype(np.int8), positions=positions, eliminated=eliminated)
    assert nearest_target(view, 0, late=late, lone_penalty=penalty) == brute_nearest(
        view, 0, late=late, lone_penalty=penalty)


@pytest.mark.slow
def test_a_whole_game_compiles_nothing_the_warm_up_did_not(monkeypatch):
    """The four search bots, after :func:`run_every_kernel`, play a 4-player game
    on numba's dispatchers: no kernel may gain a signature (a compile, or a load
    from numba's cache, in the middle of a game costs seconds)."""
    from tronlab.capture.game import play_capture
    from tronlab.capture.warmup import run_every_kernel
    from tronlab.jit.kernels import KernelTable, compiled_versions, versions_added
    from tronlab.runner.registry import get_bot as registry_bot

    monkeypatch.setattr(KernelTable, "fast", KernelTable.jit)     # numba, not the twins
    run_every_kernel()
    before = compiled_versions()
    bots = [registry_bot(n, game="capture")
            for n in ("rectangles", "paths", "rectangles-block", "paths-block")]
    rec = play_capture(bots, rng=3)
    assert rec.outcome["reason"] in ("decided", "round-limit", "idle")
    assert versions_added(before) == {}


def test_get_bot_takes_the_bots_options_as_the_main_get_bot_does():
    # before: capture's get_bot(name, rng) took no options (not even time=, which every
    # registry factory takes), and the registry's random/nearest refused their own
    # options: tronlab.get_bot("nearest", game="capture", late=0.25) said
    # "nearest has no option 'late'"
    import tronlab
    assert get_bot("nearest", late=0.25, lone_penalty=1).late == 0.25
    assert tronlab.get_bot("nearest", game="capture", lone_penalty=1).lone_penalty == 1
    assert get_bot("random", 1, back_chance=0.5).back_chance == 0.5
    assert get_bot("random-back", 1).back_chance == 0.01        # its own default stays
    assert get_bot("paths", 2, max_nodes=500).max_nodes == 500
    assert isinstance(get_bot("random", rng=3, time=0.1), RandomBot)
    with pytest.raises(TypeError, match="^nearest has no option 'colour'$"):
        get_bot("nearest", colour=1)
    with pytest.raises(ValueError, match="time must be a positive number of seconds"):
        get_bot("random", time=-1)
    with pytest.raises(TypeError, match="a bot name is a str"):
        get_bot(["nearest"])                    # before: "unhashable type: 'list'"
    # the same seed, the same bot, whichever way it was made
    view = reset(2, rng=0).view()
    a, b = get_bot("random", 7), tronlab.get_bot("random", game="capture", rng=7)
    assert [a(view, 0) for _ in range(3)] == [b(view, 0) for _ in range(3)]
