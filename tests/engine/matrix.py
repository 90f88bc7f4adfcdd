"""The table configurations the conformance suite plays: every variant, 2-6 players,
every deck, and the main options (teams, neighbours, draws off, redeal, show, jokers)."""

from __future__ import annotations

from games.engine import Rules


def _configs() -> list[Rules]:
    out: list[Rules] = []
    for variant in ("podkidnoy", "perevodnoy"):
        for deck in (24, 36, 52):
            for players in range(2, 7):
                if players * 6 > deck:
                    continue
                out.append(Rules.for_variant(variant, players, deck=deck))
        out.append(Rules.for_variant(variant, 3, throw_in="neighbours"))
        out.append(Rules.for_variant(variant, 5, throw_in="neighbours", draws=False))
        out.append(Rules.for_variant(variant, 4, teams=True))
        out.append(Rules.for_variant(variant, 4, teams=True, throw_in="neighbours", draws=False))
        out.append(Rules.for_variant(variant, 2, redeal=True, first_bout_limit_5=False))
        out.append(Rules.for_variant(variant, 6, redeal=True, deck=36))
    out.append(Rules.for_variant("perevodnoy", 3, transfer_by_trump_show=True))
    out.append(Rules.for_variant("perevodnoy", 2, transfer_by_trump_show=True, deck=24))
    for players in range(2, 7):
        out.append(Rules.for_variant("circle", players))
        out.append(Rules.for_variant("circle", players, jokers=2))
    out.append(Rules.for_variant("circle", 3, jokers=2, joker_beats="colour",
                                 throw_in_after_joker=False, joker_last="pass_on"))
    out.append(Rules.for_variant("circle", 2, jokers=2, joker_last="pass_on"))
    out.append(Rules.for_variant("circle", 4, teams=True, jokers=2, draws=False))
    out.append(Rules.for_variant("circle", 4, throw_in="neighbours", transfer_by_trump_show=True))
    return out


CONFIGS = _configs()


def config_id(r: Rules) -> str:
    bits = [r.variant, f"{r.players}p", str(r.deck)]
    for name, default in (("teams", False), ("throw_in", "all"), ("draws", True),
                          ("redeal", False), ("transfer_by_trump_show", False), ("jokers", 0),
                          ("joker_beats", "any"), ("joker_last", "defence_only"),
                          ("first_bout_limit_5", r.variant != "circle")):
        value = getattr(r, name)
        if value != default:
            bits.append(f"{name}={value}")
    return "-".join(bits)
