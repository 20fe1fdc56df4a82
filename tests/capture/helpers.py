"""Small helpers shared by the Back to the Code rule tests."""

import numpy as np

from tronlab.capture import format_grid, state_from_ascii, step

STAY = "stay"


def play(state, *turns):
    """Play ``turns`` (each a list of actions; ``STAY`` = target the own square);
    return the last StepResult."""
    result = None
    for actions in turns:
        actions = [state.positions[p] if a == STAY else a for p, a in enumerate(actions)]
        result = step(state, actions)
        state = result.state
    return result


def grid(state):
    return format_grid(state.owner, state.positions)


def squares(state, player):
    return sorted((int(x), int(y)) for y, x in zip(*np.nonzero(state.owner == player)))


CORRIDOR = """
    A.....
    ......
    .....B
"""
EAST_WEST = [(5, 0), (0, 2)]        # player 0 walks east along row 0, player 1 west along row 2


def walked(rounds, **kw):
    """States after 0, 1, ..., ``rounds`` rounds of the corridor walk."""
    states = [state_from_ascii(CORRIDOR, **kw)]
    for _ in range(rounds):
        states.append(step(states[-1], EAST_WEST).state)
    return states


def same_game(a, b):
    return (a.owner.tolist() == b.owner.tolist() and a.positions == b.positions
            and a.round == b.round)
