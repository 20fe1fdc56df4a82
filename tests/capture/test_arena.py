"""The capture arena's sign test against scipy, and its tally on a small run."""

import pytest
from scipy.stats import binomtest

from tronlab.capture.arena import one_against_many, sign_test, table_text


@pytest.mark.parametrize("wins, losses", [(0, 0), (1, 0), (9, 1), (5, 5), (3, 17), (183, 15)])
def test_sign_test_is_scipys_two_sided_binomial_test(wins, losses):
    want = 1.0 if wins + losses == 0 else binomtest(wins, wins + losses).pvalue
    assert sign_test(wins, losses) == pytest.approx(want, rel=1e-9, abs=1e-300)


def test_tally_counts_every_game_once_and_the_table_says_the_verdict():
    t = one_against_many("nearest", "random", n_players=3, games=6, seed=1, width=12, height=8)
    assert t.games == 6 == t.firsts + t.shared + t.lost
    assert t.p == sign_test(t.firsts, t.lost) and t.ms_per_turn > 0
    assert t.verdict == ("clear" if t.p < 0.01 and t.firsts > t.lost else
                         "lost" if t.p < 0.01 else "unclear")
    lines = table_text({3: t}).splitlines()
    assert lines[1].split()[:5] == ["3", "6", str(t.firsts), str(t.shared), str(t.lost)]


@pytest.mark.parametrize("options, error, message", [
    ({"games": 0}, ValueError, "games must be an int from 1 to 100000, got 0"),
    ({"games": -2}, ValueError, "games must be an int from 1 to 100000, got -2"),
    ({"games": 2.0}, TypeError, "games must be an int from 1 to 100000, got float 2.0"),
    ({"games": True}, TypeError, "games must be an int from 1 to 100000, got bool True"),
    ({"games": 100_001}, ValueError, "games must be an int from 1 to 100000, got 100001"),
    ({"n_players": 5}, ValueError, "n_players must be an int from 2 to 4, got 5"),
    ({"n_players": "2"}, TypeError, "n_players must be an int from 2 to 4, got str '2'"),
])
def test_a_wrong_count_is_named_before_any_game(options, error, message):
    # before: games=0 divided by zero, games=-2 returned a tally of -2 games
    with pytest.raises(error) as err:
        one_against_many("nearest", "random", **{"n_players": 2, "games": 2, **options})
    assert str(err.value) == message
