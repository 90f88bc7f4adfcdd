"""The game review's predictions come true about as often as they say (issue 20, §1).

A fixed set of bot games (24 deals, ``easy`` at both seats: a deterministic player, so the
set replays the same on any machine) is reviewed at every decision of both seats with a small
search (60 iterations), and the predicted chances of not being the fool are set against what
happened, decile by decile (:mod:`tools.review_calibration`).

The bound, 0.10 on the expected calibration error: on this set the error measures 0.059, and
resampling its games (a bootstrap of 400 draws: decisions of one game share its result, so the
game is the unit) puts 95% of the errors below 0.093 and 99% below 0.112. The set's own luck
thus stays under the bound; an error above it means the search's estimates drifted (a change to
the search, its playouts, or what the review gives it), not these games. The review proper
searches 20 times longer, so its estimates are less noisy than these.

The whole set takes about 18 s of CPU time here (longer on a shared machine): marked slow.
"""

from __future__ import annotations

import pytest

from games.engine import Rules
from tools.review_calibration import collect, ece, reliability, table

pytestmark = pytest.mark.slow

BOUND = 0.10


def test_predicted_chances_match_the_observed_non_fool_rates_on_the_fixed_set() -> None:
    pairs = collect(Rules.for_variant("podkidnoy", players=2), 24, ("easy", "easy"), 60, "fixed")
    deciles = reliability(pairs)
    error = ece(deciles)
    print(f"\nECE {error:.4f} over {len(pairs)} decisions\n{table(deciles)}")
    assert len(pairs) > 800
    assert error <= BOUND, table(deciles)
    low = [d for d in deciles if d.low < 0.3]
    high = [d for d in deciles if d.low >= 0.7]
    assert max(d.observed for d in low) < min(d.observed for d in high)
