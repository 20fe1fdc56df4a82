"""Notebook 12 quotes two whole games its cell stops at round 80 to stay quick (the
spoiled capture of BlockBack, section "going back to spoil a capture"): played to the end,
the same seed and bots give the scores the prose states, and the stopped games are those
same games cut short (a round limit changes no move before it)."""

import pytest

from tronlab.capture import play_capture
from tronlab.capture.back import BlockBack
from tronlab.capture.paths_bot import PathBot


def _games(**options):
    return (play_capture([PathBot(max_nodes=5000, back=BlockBack()), "rectangles"], rng=2,
                         **options),
            play_capture([PathBot(max_nodes=5000), "rectangles"], rng=2, **options))


@pytest.mark.slow
def test_the_whole_games_notebook_12_quotes_and_its_cut_games_agree():
    whole = _games()
    assert [g.outcome["scores"] for g in whole] == [[368, 285], [330, 370]]
    cut = _games(round_limit=80)
    assert [g.outcome["scores"] for g in cut] == [[79, 73], [216, 277]]
    for short, full in zip(cut, whole):
        n = short.outcome["turns"]
        assert short.actions == full.actions[:n]
