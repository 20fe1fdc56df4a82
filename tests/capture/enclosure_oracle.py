"""scipy.ndimage's 8-connected labels as the oracle of the enclosure rule
(tronlab.capture.enclosure), for the tests."""

import numpy as np
from scipy import ndimage

KING = np.ones((3, 3), bool)


def scipy_regions(owner):
    labels, _ = ndimage.label(owner == -1, structure=KING)
    return labels


def scipy_enclose(owner, player, x, y):
    """Oracle: the labels of the 8 squares around (x, y) (not (x, y) itself)
    whose squares avoid the outer ring and whose 8-neighbourhood holds no other
    player's square."""
    labels = scipy_regions(owner)
    h, w = owner.shape
    out = owner.copy()
    seeds = {labels[j, i] for j in range(y - 1, y + 2) for i in range(x - 1, x + 2)
             if 0 <= i < w and 0 <= j < h and (i, j) != (x, y) and labels[j, i] > 0}
    for lab in seeds:
        region = labels == lab
        on_ring = region[0].any() or region[-1].any() or region[:, 0].any() or region[:, -1].any()
        around = ndimage.binary_dilation(region, structure=KING) & ~region
        if not on_ring and not ((owner >= 0) & (owner != player) & around).any():
            out[region] = player
    return out
