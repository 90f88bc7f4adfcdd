"""What one seat knows about the hidden cards, read from its view and the public history.

Durak hides only the hands, the stock's order and (face down) the discard, and yet much of it
leaks through public play: a taker picks up cards everyone saw on the table; whoever draws the
stock's last card holds the turned-up trump (in a whole-deck deal, the dealer does); the first
attacker holds the opening trump that was shown; in ``circle`` stage 1 every card a player
collects was face up. A careful player also remembers which cards went to the discard.
:func:`read_knowledge` replays the events (:class:`games.engine.Event` objects or their
``to_dict()`` form, as the site stores them) and returns, for each other seat, the cards it is
known to hold now.

History may be missing or partial (a bot asked with the view alone): the knowledge is then
simply smaller. It is a belief, never trusted blindly: the determinizer keeps only the known
cards that are still consistent with the view.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from games.engine.cards import card_from_str, mask_of
from games.engine.events import Event

#: An event as the engine returns it, or as ``Event.to_dict()`` stores it.
EventLike = Event | Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class PublicEvent:
    """One event with cards as ints, whatever form it came in."""

    kind: str
    seat: int | None
    cards: tuple[int, ...] = ()
    target: int | None = None
    count: int = 0


@dataclass(slots=True)
class Knowledge:
    """The seat ``me``'s knowledge: ``known[s]`` is the mask of cards seat ``s`` surely holds
    (never set for ``me``: its own hand is in the view); ``discard`` the discard by face
    (only for a careful player, else 0); ``leader``/``lead_size``/``shown`` describe the bout
    under way (who led it, with how many cards, which trumps were shown for a transfer)."""

    me: int
    known: list[int]
    discard: int = 0
    leader: int | None = None
    lead_size: int = 0
    shown: int = 0
    actions: int = 0


def normalise(event: EventLike) -> PublicEvent:
    """An :class:`Event` or its dict form as a :class:`PublicEvent`."""
    if isinstance(event, Event):
        return PublicEvent(event.kind, event.seat, event.cards, event.target, event.count)
    cards = tuple(_card(c) for c in event.get("cards", ()))
    target = event.get("target")
    return PublicEvent(
        str(event["kind"]),
        event.get("seat"),
        cards,
        None if target is None else _card(target),
        int(event.get("count", 0) or 0),
    )


def _card(c: int | str) -> int:
    return c if isinstance(c, int) else card_from_str(c)


def _opt_card(text: str | None) -> int:
    return -1 if text is None else card_from_str(text)


def read_knowledge(view: Any, history: Iterable[EventLike] | None, careful: bool) -> Knowledge:
    """Replay ``history`` from ``view.viewer``'s seat.

    ``careful`` keeps the discard by face (a careful player's memory); otherwise only its
    size (in the view) is known.
    """
    me = int(view.viewer)
    n = int(view.players)
    events = [normalise(e) for e in history or ()]
    # Only what happened since the last redeal concerns the hands in play.
    for i in range(len(events) - 1, -1, -1):
        if events[i].kind == "redeal":
            events = events[i + 1 :]
            break
    trump_card = _opt_card(view.trump_card)
    opening = _opt_card(view.opening_trump)
    # The stock's size when the history began: what it is now plus everything drawn since.
    stock = int(view.stock_count) + sum(e.count for e in events if e.kind == "draw")
    known = [0] * n
    dealer = getattr(view, "dealer", None)
    whole_deck = history is not None and stock == 0 and view.variant != "circle"
    if whole_deck and trump_card >= 0 and dealer is not None:
        # A whole-deck deal (no stock from the start): the last card dealt, the dealer's, showed
        # the trump and stayed in hand. Without the history an empty stock proves nothing.
        known[int(dealer)] |= 1 << trump_card
    table = 0
    discard = 0
    leader: int | None = None
    lead_size = 0
    shown = 0
    first_lead_seen = False
    for e in events:
        k = e.kind
        seat = e.seat
        cards = mask_of(e.cards)
        if k in ("attack", "transfer", "cover"):
            if seat is None:
                continue
            if k == "attack" and e.count == 1:
                if not first_lead_seen and opening >= 0 and view.variant != "circle":
                    known[seat] |= 1 << opening
                first_lead_seen = True
                leader, lead_size, shown = seat, len(e.cards), 0
            known[seat] &= ~cards
            table |= cards
        elif k == "show" and seat is not None:
            known[seat] |= cards
            shown |= cards
        elif k == "took" and seat is not None:
            known[seat] |= table
            table = 0
        elif k == "bito":
            discard |= table
            table = 0
        elif k == "draw" and seat is not None:
            before = stock
            stock -= e.count
            if before > 0 and stock <= 0 and trump_card >= 0 and view.variant != "circle":
                known[seat] |= 1 << trump_card
        elif k == "beat" and seat is not None:
            known[seat] |= cards | (1 << e.target if e.target is not None else 0)
        elif k == "stage2" and seat is not None and opening >= 0:
            known[seat] |= 1 << opening
            first_lead_seen = True
    if table == 0 and not view.table:
        leader, lead_size, shown = None, 0, 0
    known[me] = 0
    return Knowledge(
        me=me,
        known=known,
        discard=discard if careful else 0,
        leader=leader,
        lead_size=lead_size,
        shown=shown,
        actions=len(events),
    )


def view_cards(cards: Sequence[str]) -> int:
    """Mask of cards given in notation."""
    return mask_of(card_from_str(c) for c in cards)
