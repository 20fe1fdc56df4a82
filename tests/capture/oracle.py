"""A deliberately slow, plain re-implementation of Back to the Code, for tests.

Written from the rules text (games.md section 4 plus the choices listed in
tronlab.capture.rules' docstring) with dicts, lists and sets only: squares are
``(x, y)`` tuples, ownership a dict from square to player, and every finished
round keeps a full copy of the game.  Nothing here is fast or clever on purpose.
"""

from __future__ import annotations

import copy

FAULT_WORDS = {"timeout", "bad-output", "error", "exited"}


class SlowGame:
    def __init__(self, width, height, starts, round_limit):
        self.width = width
        self.height = height
        self.n = len(starts)
        self.limit = round_limit
        self.owned = {tuple(s): p for p, s in enumerate(starts)}
        self.where = [tuple(s) for s in starts]          # None once out
        self.out = [False] * self.n
        self.back_unused = [True] * self.n
        self.round = 1
        # memory[k] = (owned, where) after in-game round k; memory[0] is the start
        self.memory = [(dict(self.owned), list(self.where))]
        self.quiet_rounds = 0
        self.final_round_next = False
        self.finished = False
        self.reason = None

    # ---- reading ---------------------------------------------------------------------------
    def grid(self):
        rows = []
        for y in range(self.height):
            rows.append([self.owned.get((x, y), -1) for x in range(self.width)])
        return rows

    def scores(self):
        return [sum(1 for v in self.owned.values() if v == p) for p in range(self.n)]

    def ranks(self):
        s = self.scores()
        return [1 + len([t for t in s if t > mine]) for mine in s]

    def inside(self, x, y):
        return 0 <= x < self.width and 0 <= y < self.height

    # ---- one turn --------------------------------------------------------------------------
    def judge(self, p, action):
        """('go', square) | ('back', n) | ('die', why)."""
        if isinstance(action, str):
            return ("die", action) if action in FAULT_WORDS else ("die", "bad-output")
        if type(action) not in (tuple, list) or len(action) != 2:
            return ("die", "bad-output")
        first, second = action
        if type(second) is not int:
            return ("die", "bad-output")
        if type(first) is str and first.lower() == "back":
            if not self.back_unused[p]:
                return ("die", "second-back")
            if second < 1 or second > 25:
                return ("die", "back-range")
            return ("back", second)
        if type(first) is not int:
            return ("die", "bad-output")
        if not self.inside(first, second):
            return ("die", "off-grid")
        return ("go", (first, second))

    def play(self, actions):
        assert not self.finished
        was_final = self.final_round_next
        plans = {}
        total_back = 0
        someone_backed = False
        for p in range(self.n):
            if self.out[p]:
                continue
            what, value = self.judge(p, actions[p])
            if what == "die":
                self.out[p] = True
                self.where[p] = None
            elif what == "back":
                self.back_unused[p] = False
                total_back += value
                someone_backed = True
            else:
                plans[p] = value
        if someone_backed:
            self.go_back(total_back)
        else:
            self.move_and_capture(plans)
        self.check_end(was_final, played=not someone_backed)

    def go_back(self, total):
        r = self.round
        steps = min(total, r - 1)
        resume = r - steps
        owned, where = self.memory[resume - 1]
        self.owned = dict(owned)
        self.where = [None if self.out[p] else where[p] for p in range(self.n)]
        self.memory = self.memory[:resume]
        self.memory[-1] = (dict(self.owned), list(self.where))
        self.round = resume
        self.quiet_rounds = 0

    def move_and_capture(self, plans):
        before = list(self.where)
        for p, (tx, ty) in plans.items():
            x, y = self.where[p]
            if tx > x:
                x += 1
            elif tx < x:
                x -= 1
            elif ty > y:
                y += 1
            elif ty < y:
                y -= 1
            self.where[p] = (x, y)
        for p in range(self.n):
            here = self.where[p]
            if here is None:
                continue
            others = [q for q in range(self.n) if q != p and self.where[q] == here]
            if not others and here not in self.owned:
                self.owned[here] = p
            if self.stood_next_to_long_ago(p, here):
                self.take_regions(p, here)
        moved = any(self.where[p] is not None and self.where[p] != before[p]
                    for p in range(self.n))
        self.quiet_rounds = 0 if moved else self.quiet_rounds + 1
        self.round += 1
        self.memory.append((dict(self.owned), list(self.where)))

    def stood_next_to_long_ago(self, p, here):
        # the memory holds rounds 0 .. round-1; "two or more rounds ago" is 0 .. round-2
        long_ago = [self.memory[k][1][p] for k in range(0, self.round - 1)]
        x, y = here
        return any(sq in long_ago for sq in [(x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)])

    def king_neighbours(self, sq):
        x, y = sq
        out = []
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                if (dx or dy) and self.inside(x + dx, y + dy):
                    out.append((x + dx, y + dy))
        return out

    def take_regions(self, p, here):
        for start in self.king_neighbours(here):
            if start in self.owned:
                continue
            region = {start}
            todo = [start]
            while todo:
                sq = todo.pop()
                for nb in self.king_neighbours(sq):
                    if nb not in self.owned and nb not in region:
                        region.add(nb)
                        todo.append(nb)
            edge = any(x in (0, self.width - 1) or y in (0, self.height - 1) for x, y in region)
            foreign = any(self.owned.get(nb, p) != p
                          for sq in region for nb in self.king_neighbours(sq))
            if not edge and not foreign:
                for sq in region:
                    self.owned[sq] = p

    # ---- endings ---------------------------------------------------------------------------
    def check_end(self, was_final, played):
        if all(self.out):
            self.reason = "no-active-player"
        elif was_final:
            self.reason = "decided"
        elif played and self.round - 1 == self.limit:
            self.reason = "round-limit"
        elif self.quiet_rounds >= 25:
            self.reason = "idle"
        elif played and self.cannot_change():
            self.final_round_next = True
        self.finished = self.reason is not None

    def cannot_change(self):
        r = self.round - 1
        spare = sum(1 for p in range(self.n) if not self.out[p] and self.back_unused[p])
        if spare * 25 > r:
            return False
        then = self.memory[r - spare * 25][0]
        free = self.width * self.height - len(then)
        now = self.scores()
        boxes = []
        for p in range(self.n):
            lo = sum(1 for v in then.values() if v == p)
            hi = now[p] if self.out[p] else lo + free
            boxes.append((lo, hi))
        # decided when no two players' reachable scores share a value (a fixed tie too)
        for i in range(self.n):
            for j in range(i + 1, self.n):
                (a, b), (c, d) = boxes[i], boxes[j]
                if max(a, c) <= min(b, d):
                    return False
        return True

    def snapshot(self):
        return copy.deepcopy((self.grid(), self.where, self.out, self.back_unused, self.round))
