"""The lessons, as data: each step is a real position in the engine's notation (``docs/position.md``)
seen from one seat, the move it asks for, a hint and what the move showed.

Why data and not code per lesson: every step is checked the same way (``learn.checking``), so a new
lesson is a few lines here, and ``tests/learn/test_lessons.py`` proves at once that each position
reads, that its accepted answers are legal and that a wrong move is answered. The texts are
gettext strings (Russian in ``locale/ru``); card names in them use the symbols the site's card labels
use in both languages (``7♦``). ``section`` is the anchor of the rules page's section the lesson
teaches (``docs/rules.md``): the rules page links that section to the lesson.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from games.engine import Rules


@dataclass(frozen=True, slots=True)
class Step:
    """One position and the move it asks of ``seat``.

    The answer is accepted when it is legal and either one of ``accept`` (canonical notations) or,
    with ``accept`` empty, of one of ``kinds`` and, when ``size`` is set, of that many cards: "any
    legal cover" is ``kinds=("cover",)``.
    """

    position: str
    task: Promise
    hint: Promise
    done: Promise
    seat: int = 0
    accept: tuple[str, ...] = ()
    kinds: tuple[str, ...] = ()
    size: int | None = None


@dataclass(frozen=True, slots=True)
class Lesson:
    """A few steps on one topic, and the table of the practice game that ends it: the lesson's
    variant with the options it taught (its steps' table options, and as many players as its
    positions need), so the game practises what the lesson showed and not the variant's default."""

    slug: str
    title: Promise
    summary: Promise
    practice: Rules
    section: str
    steps: tuple[Step, ...]

    @property
    def variant(self) -> str:
        return self.practice.variant

    @property
    def practice_bots(self) -> int:
        """The easy bots the practice game seats: every seat but the player's."""
        return self.practice.players - 1

    @property
    def practice_options(self) -> list[tuple[str, str]]:
        """The practice table's options that differ from its variant's defaults, as the "play bots
        now" door reads them (``play.forms.BotGamePost``: flags as ``true``/``false``)."""
        defaults = Rules.for_variant(self.variant, players=self.practice.players)
        return [
            (option.name, _form_value(getattr(self.practice, option.name)))
            for option in Rules.options_for(self.variant)
            if option.name != "players"
            and getattr(self.practice, option.name) != getattr(defaults, option.name)
        ]


def _form_value(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


LESSONS: tuple[Lesson, ...] = (
    Lesson(
        slug="trumps",
        title=_("What trumps do"),
        summary=_("The turned-up card names the trump suit, and a trump beats every other suit."),
        practice=Rules.for_variant("podkidnoy"),
        section="cards",
        steps=(
            Step(
                position=(
                    "podkidnoy trump=6D hands=9H,KC,7D,QS/8S,JS,10C,AH stock=7C,8C,6D table=AS attacker=1"
                ),
                task=_(
                    "You are attacked with the A♠, the highest spade. Diamonds are trumps in this game: any "
                    "trump beats any card of another suit. Beat the ace."
                ),
                hint=_("You hold no higher spade. Choose your trump, the 7♦, then the ace, and press Cover."),
                done=_("A seven of trumps beat an ace: a trump beats every card of the other suits."),
                accept=("cover 7D>AS",),
            ),
            Step(
                position=(
                    "podkidnoy trump=6D hands=AS,KS,10D,7D/8S,JS,10C,AH stock=7C,8C,6D table=8D attacker=1"
                ),
                task=_(
                    "Now you are attacked with a trump, the 8♦. A trump falls only to a higher trump. Cover "
                    "it."
                ),
                hint=_("Aces of other suits do not help here: only a diamond higher than the eight does."),
                done=_("Only the 10♦ could beat it. Keep your trumps for cards you cannot beat otherwise."),
                accept=("cover 10D>8D",),
            ),
        ),
    ),
    Lesson(
        slug="covering",
        title=_("Covering"),
        summary=_("The defender beats each attack card with a higher card of its suit, or with a trump."),
        practice=Rules.for_variant("podkidnoy"),
        section="bout",
        steps=(
            Step(
                position=(
                    "podkidnoy trump=6D hands=9H,8S,JC,10D/8D,JS,10C,AH stock=7C,8C,6D table=7H attacker=1"
                ),
                task=_(
                    "You defend against the 7♥. A card is beaten by a higher card of the same suit. Cover "
                    "it without spending a trump."
                ),
                hint=_("A higher heart beats a heart: the 9♥."),
                done=_("Covered. The trump 10♦ would have beaten it too, but a trump is worth keeping."),
                accept=("cover 9H>7H",),
            ),
            Step(
                position=(
                    "podkidnoy trump=6D hands=QC,8C,JH,10D/8D,JS,10C,AH stock=7C,6H,6D table=7S>6S,9C "
                    "attacker=1"
                ),
                task=_(
                    "You covered the 6♠ and the 9♣ was thrown in. Every attack card needs a card of its "
                    "own: cover the 9♣."
                ),
                hint=_("Beat the 9♣ with a higher club, or with a trump."),
                done=_("Every card is covered: when nobody throws in more, the bout ends in bito."),
                kinds=("cover",),
            ),
        ),
    ),
    Lesson(
        slug="taking",
        title=_("Taking"),
        summary=_("A defender who cannot or will not cover takes every card on the table."),
        practice=Rules.for_variant("podkidnoy"),
        section="bout",
        steps=(
            Step(
                position=(
                    "podkidnoy trump=6D hands=10C,JS,7S,8H/7C,8C,9H,KS stock=6C,7H,6D table=AH attacker=1"
                ),
                task=_(
                    "You are attacked with the A♥ and cannot beat it: you have no higher heart and no "
                    "trump. Take the card."
                ),
                hint=_("When you cannot cover, press Take: the cards on the table go into your hand."),
                done=_(
                    "You took it. After a take the defender does not attack next: the player after them does."
                ),
                accept=("take",),
            ),
            Step(
                position=(
                    "podkidnoy trump=6D hands=10C,JS,9S/7C,8C,KS,QH stock=6C,7H,6D table=9H>9C,AH "
                    "attacker=0 taking=yes"
                ),
                task=_(
                    "Your opponent is taking. While the defender takes you may still throw in cards of the "
                    "ranks on the table, and they take those too. Throw one in."
                ),
                hint=_("A nine is on the table, and you hold the 9♠."),
                done=_("The defender picks up everything on the table, your nine included."),
                accept=("attack 9S",),
            ),
        ),
    ),
    Lesson(
        slug="throwing-in",
        title=_("Throwing in and its limits"),
        summary=_(
            "Cards of any rank on the table may be added, but never more than the defender's hand, six, or "
            "five before the first bito."
        ),
        practice=Rules.for_variant("podkidnoy"),
        section="bout",
        steps=(
            Step(
                position=(
                    "podkidnoy trump=6D hands=7C,KH,JS,AS/8D,QC,10S,9H,8H stock=6C,7H,6D table=7S>6S "
                    "attacker=0"
                ),
                task=_(
                    "Your 6♠ was covered with the 7♠. You may throw in any card whose rank is on the table, "
                    "the covers included. Throw a card in."
                ),
                hint=_("Sixes and sevens are on the table: your 7♣ fits."),
                done=_("The covers' ranks count too: a cover can hand the attacker a new card to throw."),
                accept=("attack 7C",),
            ),
            Step(
                position=(
                    "podkidnoy trump=6D hands=8S,8H,KH/QC,JD stock=6C,7H,9S,6D table=8C attacker=0 taking=yes"
                ),
                task=_(
                    "The defender holds 2 cards and is taking the 8♣. A bout never has more attack cards "
                    "than the defender held when it began. Throw in as many eights as you may."
                ),
                hint=_("Two attack cards at most: the 8♣ and one more. Throw in one eight, not both."),
                done=_("Right: one more card, two in all, as many as the defender held."),
                kinds=("attack",),
                size=1,
            ),
            Step(
                position=(
                    "podkidnoy trump=6D hands=9S,10H,KH,AC/JD,QS,KS stock=AS,6C,6D "
                    "table=7S>6S,8H>6H,9C>7C,10C>8C attacker=0"
                ),
                task=_(
                    "Before the game's first bito a bout holds at most five attack cards, and four are on "
                    "the table. Throw in what you may."
                ),
                hint=_("Only a fifth card fits: throw in one card, not two."),
                done=_("Five attack cards: the limit until the first bito. After it the limit is six."),
                kinds=("attack",),
                size=1,
            ),
        ),
    ),
    Lesson(
        slug="who-throws-in",
        title=_("Who may throw in"),
        summary=_("Everybody but the defender, or at some tables only the neighbours."),
        practice=Rules.for_variant("podkidnoy", players=4, throw_in="neighbours"),
        section="bout",
        steps=(
            Step(
                position=(
                    "podkidnoy trump=6D hands=9S,KH,QC/8C,JC,AS/10H,9H,KC stock=7C,7H,6D table=9C attacker=0"
                ),
                seat=2,
                task=_(
                    "Player 1 attacks player 2. Throwing in is not only for the attacker: at this table "
                    "everybody but the defender may throw in. Throw in a card."
                ),
                hint=_("A nine is on the table, and you hold the 9♥."),
                done=_("Anyone may add cards within the limit; the first card laid counts."),
                accept=("attack 9H",),
            ),
            Step(
                position=(
                    "podkidnoy throw_in=neighbours trump=6D hands=9S,KH,QC/8C,JC,AS/10H,9H,KC/7S,8S,JH "
                    "stock=7C,7H,6D table=9C attacker=0"
                ),
                seat=2,
                task=_(
                    "At this table only the neighbours throw in: the attacker and the player after the "
                    "defender. That is you. Throw in a card."
                ),
                hint=_("Your 9♥ matches the 9♣ on the table."),
                done=_(
                    "The fourth player may not throw in here: each table chooses between everybody and the "
                    "neighbours."
                ),
                accept=("attack 9H",),
            ),
        ),
    ),
    Lesson(
        slug="passing",
        title=_("Passing and bito"),
        summary=_("Say you are done; when every card is covered and everybody passed, the cards go away."),
        practice=Rules.for_variant("podkidnoy"),
        section="bout",
        steps=(
            Step(
                position=(
                    "podkidnoy trump=6D hands=KH,QC,AS/8C,JC,10S stock=7C,7H,9D,6D table=9S>6S attacker=0"
                ),
                task=_("Your 6♠ is covered and you have no six or nine to throw in. Say you are done: pass."),
                hint=_("Press Pass: with every card covered, your pass ends the bout in bito."),
                done=_(
                    "Bito: the covered cards go to the discard pile for good, and the defender attacks next."
                ),
                accept=("pass",),
            ),
            Step(
                position=(
                    "podkidnoy trump=6D hands=KH,9D,AS/8C,JC,10S stock=7C,7H,QD,6D table=9S>6S attacker=0"
                ),
                task=_(
                    "You could throw in your 9♦, but it is a trump, your best card. You may pass at any "
                    "time: keep it and pass."
                ),
                hint=_("Throwing in a trump only to make the defender cover is rarely worth it: pass."),
                done=_(
                    "You kept your trump. A pass means “nothing more from me for now”: if the table "
                    "changes, you may throw in again."
                ),
                accept=("pass",),
            ),
        ),
    ),
    Lesson(
        slug="the-draw",
        title=_("The draw"),
        summary=_("After each bout everybody draws up to six: the leader first, the defender last."),
        practice=Rules.for_variant("podkidnoy"),
        section="bout",
        steps=(
            Step(
                position="podkidnoy trump=6D hands=KH,QC/8C,JC,10S stock=7C,6D table=9S>6S attacker=0",
                task=_(
                    "After a bout everybody draws back up to six cards: first the player who led the bout, "
                    "the defender last. Only two cards are left in the stock. End the bout and see who gets "
                    "them."
                ),
                hint=_("Nothing of yours fits: pass to end the bout."),
                done=_(
                    "You led, so you drew first and took both cards, the turned-up trump among them. The "
                    "defender got none: the stock is empty, and play goes on with the cards in hand."
                ),
                accept=("pass",),
            ),
        ),
    ),
    Lesson(
        slug="the-fool",
        title=_("Who is out, and who is the fool"),
        summary=_(
            "With the stock gone, a player without cards is out; the last one holding cards is the fool."
        ),
        practice=Rules.for_variant("podkidnoy"),
        section="bout",
        steps=(
            Step(
                position="podkidnoy trump=6D hands=9S/KH,QC,8H table=6S attacker=1 bito=yes",
                task=_(
                    "The stock is empty and you hold one card. Cover the 6♠ with it: a player without cards "
                    "once the stock is empty is out."
                ),
                hint=_("The 9♠ beats the 6♠: choose it, then the six, and press Cover."),
                done=_(
                    "You are out, and your opponent is left holding cards: the last one holding cards is "
                    "the fool."
                ),
                accept=("cover 9S>6S",),
            ),
            Step(
                position="podkidnoy trump=6D hands=9S/- table=6S attacker=1 bito=yes",
                task=_("Your opponent led their last card. Cover it with yours and see how the game ends."),
                hint=_("The 9♠ beats the 6♠."),
                done=_(
                    "Nobody holds cards: you both went out in the same bout, so the game is a draw. (At a "
                    "table without draws the defender would be the fool.)"
                ),
                accept=("cover 9S>6S",),
            ),
        ),
    ),
    Lesson(
        slug="transfer",
        title=_("Transfers and the trump show"),
        summary=_("In perevodnoy the defender may pass the attack on with a card of the same rank."),
        practice=Rules.for_variant("perevodnoy", transfer_by_trump_show=True),
        section="transfer",
        steps=(
            Step(
                position="perevodnoy trump=6D hands=8H,KS,QC/9S,10S,JS,AC stock=7C,7H,6D table=8C attacker=1",
                task=_(
                    "In perevodnoy the defender may pass the attack on by laying a card of the same rank "
                    "before covering anything. You are attacked with the 8♣ and hold the 8♥. Transfer."
                ),
                hint=_("Choose the 8♥ and press Transfer."),
                done=_(
                    "Now your opponent defends against two eights. With two players a transfer goes "
                    "straight back to the attacker."
                ),
                kinds=("transfer",),
            ),
            Step(
                position=(
                    "perevodnoy transfer_by_trump_show=yes trump=6D hands=8D,KS,QC/9S,10S,JS,AC "
                    "stock=7C,7H,6D table=8C attacker=1"
                ),
                task=_(
                    "At this table a transfer may also be made by showing a trump of the attack rank: you "
                    "keep the card. Show your 8♦."
                ),
                hint=_("Choose the 8♦ and press Show trump."),
                done=_(
                    "The attack passed on and the trump stayed in your hand. Each trump may be shown once a "
                    "bout."
                ),
                accept=("show 8D",),
            ),
            Step(
                position=(
                    "perevodnoy trump=6D hands=8H,KS,QH/9S,10S,JS,AC stock=7C,7H,6D table=9C>8C,8S attacker=1"
                ),
                task=_(
                    "You covered the 8♣ and then the 8♠ was thrown in. Once a card is covered there is no "
                    "transfer: cover the new card."
                ),
                hint=_("Your 8♥ can no longer transfer. The K♠ beats the 8♠."),
                done=_("A transfer is only possible before the first cover of the bout."),
                accept=("cover KS>8S",),
            ),
        ),
    ),
    Lesson(
        slug="circle-collecting",
        title=_("Circle, stage 1: the draw and the beat"),
        summary=_("Players draw from the stock, and a drawn card that beats a circle card takes it."),
        practice=Rules.for_variant("circle", players=3),
        section="circle-collecting",
        steps=(
            Step(
                position="circle trump=2D hands=-/-/- stock=4S,2D circle=7H,3H,4C drawn=9H turn=0",
                task=_(
                    "In stage 1 of circle you drew the 9♥. A drawn card that beats a card of the circle "
                    "must beat one, and you take both into your hand. It beats two of them: choose one."
                ),
                hint=_("A higher card of the same suit beats, as in a bout: the 9♥ beats the 7♥ or the 3♥."),
                done=_("Both cards are now in your hand. A drawn card that beats nothing joins the circle."),
                kinds=("beat",),
            ),
            Step(
                position="circle trump=2D hands=-/-/- stock=4S,2D circle=7H,KS,3D,5C drawn=5D turn=0",
                task=_(
                    "You drew the 5♦, a trump. It beats every circle card of another suit and every lower "
                    "trump. Beat the king."
                ),
                hint=_("Choose the K♠ in the circle and press Beat."),
                done=_(
                    "When the stock is gone the circle's leftovers are dealt, and stage 2 is played like "
                    "transfer Durak without a stock."
                ),
                accept=("beat 5D>KS",),
            ),
        ),
    ),
    Lesson(
        slug="circle-playing-out",
        title=_("Circle, stage 2: leads, rounds and jokers"),
        summary=_("Leads of 1, 3 or 5 cards, throw-ins in turn, and jokers that only defend."),
        practice=Rules.for_variant("circle", players=3, jokers=2),
        section="circle-playing-out",
        steps=(
            Step(
                position="circle trump=2D hands=6S,6H,JC,KD,9C/AS,3C,4H,10S,QS attacker=0",
                task=_(
                    "In stage 2 a lead is 1, 3 or 5 cards: one card, a pair and a single, or two pairs and "
                    "a single. Lead three cards: your two sixes and one more."
                ),
                hint=_(
                    "Choose the 6♠, the 6♥ and a card of another rank, then press Play cards. Two cards are "
                    "no lead."
                ),
                done=_("A lead of three. After a lead of more than one card there is no transfer."),
                kinds=("attack",),
                size=3,
            ),
            Step(
                position="circle trump=2D hands=AS,3C/9S,10H/6C,KH,QH table=7S>6S attacker=0 turn=2",
                seat=2,
                task=_(
                    "Once the defender has covered everything, throw-ins go round in turn from the "
                    "defender's left, and now it is your turn. Throw in a card."
                ),
                hint=_("A six is on the table, and you hold the 6♣."),
                done=_(
                    "Each player in turn throws in or passes; the defender covers the new cards when the "
                    "turn comes back round."
                ),
                accept=("attack 6C",),
            ),
            Step(
                position="circle jokers=2 trump=2D hands=RJ,4C/KS,QC,3H table=AD attacker=1",
                task=_(
                    "With jokers, a joker covers any card, even the ace of trumps, but it never leads and "
                    "is never thrown in. Cover the A♦ with your joker."
                ),
                hint=_("Choose the red joker, then the A♦, and press Cover."),
                done=_("Jokers only defend. A player left with nothing but jokers skips the attack."),
                accept=("cover RJ>AD",),
            ),
        ),
    ),
)

#: Every lesson by its slug.
BY_SLUG: dict[str, Lesson] = {lesson.slug: lesson for lesson in LESSONS}


def lessons_by_section() -> dict[str, list[Lesson]]:
    """The rules page's section anchors, each with the lessons that teach it, in lesson order."""
    sections: dict[str, list[Lesson]] = {}
    for lesson in LESSONS:
        sections.setdefault(lesson.section, []).append(lesson)
    return sections
