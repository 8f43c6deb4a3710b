"""A game of Rabbit Hunt at the table: the player (grey) against one to three computer
farmers, and the words that make a farm of face-down cards knowable by ear.

The words say what a player at the table knows and nothing more: where each card was
planted and by whom, the cards face up, the player's own hand and hidden cards, and
what a ladder showed them. A card another farmer planted is "a card" until it is
turned up; the hidden rabbits are told when the game is over (or on "reveal" then).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable

from hbr.game import RecordError, Reply, Table, replay
from hbr.games.rabbithunt.bots import LEVELS, Bot
from hbr.games.rabbithunt.engine import Event, Go, Happened, IllegalMove, Move, Peek, Plant, Refusal, apply, problem
from hbr.games.rabbithunt.phrases import ALL_SPOTS, Ask, Command, Question, RabbitGrammar, spoken_phrases
from hbr.games.rabbithunt.state import (
    BARN,
    COLOURS,
    DECK_SIZE,
    MOST_CARROTS,
    PEEK_CARROTS,
    Card,
    Kind,
    Phase,
    Placed,
    Spot,
    State,
    carrots_for,
    neighbours,
    new_game,
)
from hbr.grammar import Meta

SAVE_VERSION = 1
YOU = 0
RULES_SUMMARY = (
    "Rabbit Hunt: each farmer hides three rabbits among the face-down cards of the farm and hunts the others'. "
    "The farm grows around the barn at 5 5, in rows 1 in the south to 9 in the north and places 1 in the west to 9 "
    "in the east; each row sits half a card off the next, so a card touches six. On your turn, first plant one card "
    "from your hand face down on an open spot that touches at least two cards. Then take two actions: draw a card; "
    "take a carrot, up to 6; walk your farmer from card to card, paying a carrot for each two steps, and turn up the "
    "card it stops on; or pay 3 carrots to look at a player's hand. A rival's rabbit turned up is caught. Your own "
    "goes back to your hand and a card of yours takes its place. A carrot patch gives 2 carrots, a seed bag 2 cards, "
    "and a ladder shows you the face-down cards beside it. A farmer whose three rabbits are caught is out. When the "
    "deck runs out the game ends: a rabbit still in your hand puts you out, and the most rabbits caught wins; then "
    "the fewest lost; then the hidden rabbit nearest the barn. With four farmers, those who sit opposite are a team."
)
#: What is told of the others' turns once the player is out.
_AFTER_OUT = frozenset({Happened.CAUGHT, Happened.OUT, Happened.DECK_EMPTY, Happened.WON})
_HOW = "plant a card at a spot, like plant a rabbit at 4 4"
_ACTIONS = "draw a card, take a carrot, go to a spot, or peek at a player"


def spot_text(spot: Spot) -> str:
    return "the barn" if spot == BARN else f"{spot[0]} {spot[1]}"


def many(count: int, word: str) -> str:
    """"1 step", "2 steps"."""
    return f"{count} {word}{'' if count == 1 else 's'}"


def listed(items: Iterable[str]) -> str:
    """"4 4, 4 5 and 5 6"."""
    said = list(items)
    return said[0] if len(said) == 1 else ", ".join(said[:-1]) + " and " + said[-1]


def a(kind: Kind) -> str:
    return f"a {kind.value}"


def counted(cards: Iterable[Card]) -> str:
    """Cards as said: "2 rabbits, a field and a ladder"."""
    counts = Counter(c.kind for c in cards)
    said = [a(k) if n == 1 else f"{n} {k.value}{'es' if k.value.endswith('ch') else 's'}" for k, n in counts.items()]
    return listed(said) if said else "no cards"


class RabbitTable(Table[Command]):
    """One game: the player is grey and moves first round the table; the computer plays
    the other ``players - 1`` farmers at ``level``. With four, grey and blue are a team
    against yellow and green."""

    def __init__(self, seed: int, players: int = 2, level: str = "normal", cues: bool = True,
                 detail: str = "normal") -> None:
        if level not in LEVELS:
            raise ValueError(f"no level {level!r}")
        self.seed: int | None = seed
        self.players = players
        self.level = level
        self.cues = cues
        self.detail = detail
        self.state: State = new_game(seed, players)
        self.grammar = RabbitGrammar()
        self.inputs: list[str] = []
        self.history: list[str] = []
        self.last = ""
        self._first, _ = self._computers()
        #: What the other farmers did in their last turns (for "last turn").
        self._others = self._first

    # --- the Game interface -------------------------------------------------

    @property
    def over(self) -> bool:
        return self.state.over

    def opening(self) -> str:
        if self.inputs:
            return f"Back in Rabbit Hunt, turn {self.state.turn}. {self._prompt()}"
        others = ", ".join(c.capitalize() for c in COLOURS[1:self.players])
        teams = " Blue is your partner, against Yellow and Green." if self.players == 4 else ""
        return (f"Rabbit Hunt. You farm grey; the computer plays {others}, {self.level}.{teams} Hide your three "
                f"rabbits among the farm's face-down cards before the deck runs out, and find theirs: walk your "
                f"farmer onto a card to turn it up. The barn is 5 5; rows go 1 in the south to 9 in the north. "
                f"Say describe to hear the farm, my hand for your cards. {self._first} {self._prompt()}"
                ).replace("  ", " ")

    def answer(self, meta: Meta) -> str:
        match meta:
            case Meta.HELP:
                return (f"On your turn, first {_HOW}. Then two actions: {_ACTIONS}, like peek at yellow. "
                        "Ask where am i, what is at 4 4, where did yellow plant, my hand, my cards, where can i plant, "
                        "describe, score, or farmers.")
            case Meta.HELP_MORE:
                return ("A spot is its row, 1 in the south to 9 in the north, then its place, 1 in the west to 9 in "
                        "the east. Walking costs a carrot for each two steps from card to card. A rabbit planted "
                        "among few cards of yours is soon found: plant fields first. Also: last turn, rules, recap.")
            case Meta.RULES:
                return RULES_SUMMARY
            case Meta.RECAP:
                return " ".join(self.history[-6:]) or "Nothing has happened yet."
            case Meta.WHERE:
                return self._where()
            case Meta.REVEAL:
                if not self.over:
                    return "Reveal is for after the game, so the hidden rabbits stay hidden while you play."
                return self._hidden_rabbits()
        raise ValueError(meta)

    def closing(self) -> str:
        s = self.state
        if not s.over:
            return f"Game over: unfinished on turn {s.turn}, seed {self.seed}."
        if not s.winners:
            result = "nobody won"
        elif YOU in s.winners:
            result = "you won" if len(s.winners) == 1 else "you won, with " + self._names(p for p in s.winners if p)
        else:
            result = "you lost; " + self._names(s.winners) + (" wins" if len(s.winners) == 1 else " win")
        return f"Game over: {result}, after {s.turn} turns, seed {self.seed}. {self._hidden_rabbits()}"

    def listening(self) -> frozenset[str]:
        """Plants of the kinds in hand on the open spots while a card is to be planted;
        walks to the cards, the actions and peeks after; the questions always."""
        s = self.state
        if s.phase is Phase.PLANT:
            kinds = {c.kind for c in s.hands[YOU]}
            return frozenset(spoken_phrases(kinds, s.open_spots(), (), self.players, acting=False))
        goes = [spot for spot in ALL_SPOTS if s.occupied(spot) and spot != s.farmers[YOU]]
        return frozenset(spoken_phrases((), (), goes, self.players))

    def progress(self) -> str:
        return f"Rabbit Hunt, turn {self.state.turn}"

    def record(self) -> dict[str, object]:
        return {"game": "rabbithunt", "version": SAVE_VERSION, "seed": self.seed, "players": self.players,
                "level": self.level, "commands": list(self.inputs)}

    def outcome(self) -> str | None:
        if not self.state.over:
            return None
        return "you won" if YOU in self.state.winners else "you lost"

    # --- commands -------------------------------------------------------------

    def _act(self, command: Command) -> Reply:
        if isinstance(command, Ask):
            return Reply(self._ask(command))
        refusal = problem(self.state, command)
        if refusal is not None:
            return Reply(f"{self._refused(command, refusal)} {self._prompt(again=True)}".strip(), ("blocked",))
        self.state, events = apply(self.state, command)
        words = [self._told(events)]
        cues = [self._cue(e) for e in events]
        more, more_cues = self._computers()
        self._others = more or self._others
        words.append(more)
        cues += more_cues
        words.append(self._prompt())
        return Reply(" ".join(w for w in words if w), tuple(dict.fromkeys(c for c in cues if c)))

    def _computers(self) -> tuple[str, list[str]]:
        """The computer farmers' turns until it is the player's, or the game is over, told
        a turn at a time. Once the player is out the others play on to the end, and only
        the catches, the farmers put out and the end are told."""
        words: list[str] = []
        cues: list[str] = []
        told_out = self.state.out[YOU]
        turn: list[Event] = []
        while not self.state.over and self.state.to_move != YOU:
            s = self.state
            bot = Bot(self.level, random.Random(f"rabbithunt bot {self.seed} {s.turn} {s.phase.value} {s.actions_left}"))
            self.state, events = apply(s, bot.move(s))
            if s.out[YOU]:
                events = tuple(e for e in events if e.kind in _AFTER_OUT or e.kind is Happened.TURNED_UP
                               and e.card is not None and e.card.kind is Kind.RABBIT)
            turn += events
            cues += [self._cue(e) for e in events if e.player == YOU or e.target == YOU or e.kind is Happened.WON]
            if self.state.to_move != s.to_move or self.state.over:
                words.append(self._told(tuple(turn)))
                turn = []
                if self.state.out[YOU] and not told_out and not self.state.over:
                    words.append("The others play on to the end.")
                    told_out = True
        return " ".join(w for w in words if w), cues

    def _refused(self, move: Move, refusal: Refusal) -> str:
        s = self.state
        if refusal is Refusal.NOT_IN_HAND and isinstance(move, Plant):
            return f"You hold no {move.kind.value}: you hold {counted(s.hands[YOU])}."
        if refusal is Refusal.TAKEN and isinstance(move, Plant):
            return f"{spot_text(move.spot).capitalize()} already holds a card."
        if refusal is Refusal.NO_CARD_THERE and isinstance(move, Go):
            return f"There is no card at {spot_text(move.spot)} to walk to."
        if refusal is Refusal.CARROTS and isinstance(move, Go):
            steps = s.steps(s.farmers[YOU])[move.spot]
            return f"That is {many(steps, 'step')}, {many(carrots_for(steps), 'carrot')}; you have {s.carrots[YOU]}."
        if refusal is Refusal.WHOM and isinstance(move, Peek):
            return "That is your own hand." if move.target == YOU else "There is no such farmer in this game."
        return {
            Refusal.OVER: "The game is over.",
            Refusal.PLANT_FIRST: "First plant a card from your hand.",
            Refusal.PLANTED: "You have planted this turn's card.",
            Refusal.NOT_TOUCHING: f"A card there would touch fewer than two cards. {self._open()}",
            Refusal.HERE: "Your farmer is already there.",
            Refusal.CARROTS: f"Looking at a hand costs {PEEK_CARROTS} carrots; you have {s.carrots[YOU]}.",
            Refusal.FULL: f"You have {MOST_CARROTS} carrots, the most a farmer may hold.",
        }[refusal]

    # --- words ------------------------------------------------------------------

    def _name(self, player: int) -> str:
        return "you" if player == YOU else COLOURS[player].capitalize()

    def _names(self, players: Iterable[int]) -> str:
        return listed(self._name(p) for p in players)

    def _farmer_of(self, players: list[int]) -> str:
        """"your farmer", "Yellow's farmer", "your and Yellow's farmers"."""
        owners = [self._whose(p) for p in players]
        return " and ".join(owners) + (" farmers" if len(owners) > 1 else " farmer")

    def _whose(self, player: int | None) -> str:
        if player is None:
            return "a"
        return "your" if player == YOU else f"{COLOURS[player].capitalize()}'s"

    def _card(self, card: Card) -> str:
        if card.kind is Kind.RABBIT:
            return f"{self._whose(card.owner)} rabbit"
        return a(card.kind)

    def _told(self, events: tuple[Event, ...]) -> str:
        """The events in words, kept for "last turn" and "recap"; two carrots taken one
        after the other are said once."""
        out: list[str] = []
        for i, e in enumerate(events):
            if e.kind is Happened.CARROT and i + 1 < len(events) and events[i + 1].kind is Happened.CARROT \
                    and events[i + 1].player == e.player:
                continue
            twice = e.kind is Happened.CARROT and i > 0 and events[i - 1].kind is Happened.CARROT \
                and events[i - 1].player == e.player
            line = self._event(e).replace(" a carrot,", " two carrots,") if twice else self._event(e)
            if line:
                out.append(line)
        said = " ".join(out)
        if said:
            self.history.append(said)
        return said

    def _event(self, e: Event) -> str:
        me = e.player == YOU
        who = self._name(e.player).capitalize()
        match e.kind:
            case Happened.PLANTED:
                assert e.spot is not None and e.card is not None
                return (f"You plant {a(e.card.kind)} at {spot_text(e.spot)}." if me
                        else f"{who} plants a card at {spot_text(e.spot)}.")
            case Happened.DREW:
                return f"You draw {counted(e.cards)}." if me else f"{who} draws a card."
            case Happened.CARROT:
                if self.detail == "brief":
                    return f"{who} take{'' if me else 's'} a carrot."
                return f"{who} take{'' if me else 's'} a carrot, and {'have' if me else 'has'} {e.count}."
            case Happened.WALKED:
                assert e.to is not None
                if self.detail == "brief":
                    return f"{who} walk{'' if me else 's'} to {spot_text(e.to)}."
                steps = e.target or 0
                return f"{who} walk{'' if me else 's'} {many(steps, 'step')} to {spot_text(e.to)}, for {many(e.count, 'carrot')}."
            case Happened.TURNED_UP:
                assert e.card is not None
                if e.card.kind is Kind.RABBIT and e.card.owner == e.player:
                    return f"It is {'your' if me else 'its'} own rabbit!"
                return f"It is {self._card(e.card)}{'!' if e.card.kind is Kind.RABBIT else '.'}"
            case Happened.CAUGHT:
                return f"{who} catch{'' if me else 'es'} it: {e.count} caught."
            case Happened.REPLACED:
                return "" if self.detail == "brief" else "A card from the deck takes its place, face down."
            case Happened.TOOK_BACK:
                if me:
                    return f"You take it back into your hand, and hide {counted(e.cards)} in its place."
                return f"{who} takes it back, and hides a card in its place."
            case Happened.LEFT:
                assert e.card is not None
                if e.card.owner == e.player:
                    return "With no card in hand to hide there, it goes back face down, where everyone knows it is."
                return "Partners do not catch each other's rabbits: it goes back face down."
            case Happened.PATCH:
                return f"The carrot patch gives {many(e.count, 'carrot')}."
            case Happened.SEEDS:
                if me:
                    return f"The seed bag: you draw {counted(e.cards)}."
                return f"The seed bag: {who} draws {many(len(e.cards), 'card')}."
            case Happened.LOOKED:
                if not e.cards:
                    return "From the ladder there is no face-down card to see."
                if me:
                    seen = "; ".join(f"at {spot_text(s)}, {self._card(c)}" for s, c in zip(e.spots, e.cards, strict=True))
                    return f"From the ladder you see: {seen}."
                return f"{who} climbs the ladder and sees the {many(len(e.cards), 'face-down card')} beside it."
            case Happened.PEEKED:
                assert e.target is not None
                if me:
                    return f"You pay {PEEK_CARROTS} carrots and see {self._whose(e.target)} hand: {counted(e.cards)}."
                return f"{who} pays {PEEK_CARROTS} carrots to look at {self._whose(e.target)} hand."
            case Happened.OUT:
                if e.reason == "caught":
                    return ("You have lost all three rabbits: you are out." if me
                            else f"{who} has lost all three rabbits and is out.")
                return "You still hold a rabbit: you are out." if me else f"{who} still holds a rabbit and is out."
            case Happened.DECK_EMPTY:
                return "The deck is empty: the game ends."
            case Happened.WON:
                return self._won(e)
        return ""

    def _won(self, e: Event) -> str:
        if not e.players:
            return "Nobody wins."
        how = {"caught": " with the most rabbits caught", "lost": ", losing the fewest rabbits",
               "nearest": ", with the hidden rabbit nearest the barn", "shared": ", a shared win"}.get(e.reason, "")
        if YOU in e.players:
            partner = [p for p in e.players if p != YOU]
            return f"You win{' with ' + self._names(partner) if partner else ''}{how}!"
        return f"{self._names(e.players).capitalize()} win{'s' if len(e.players) == 1 else ''}{how}."

    def _cue(self, e: Event) -> str:
        if e.kind is Happened.WON:
            return "win" if YOU in e.players else "lose"
        if e.kind is Happened.CAUGHT:
            return "caught" if e.player == YOU else "lost"
        return {Happened.PLANTED: "plant", Happened.CARROT: "carrot", Happened.PATCH: "carrot",
                Happened.TURNED_UP: "turn up", Happened.WALKED: "walk"}.get(e.kind, "")

    def _prompt(self, again: bool = False) -> str:
        """What the player is to do now; ``again``: after a refusal, without the hand."""
        s = self.state
        if s.over:
            return ""
        if s.phase is Phase.PLANT:
            if self.detail == "brief" or again:
                return "Your turn: plant a card."
            spots = f" Open spots: {', '.join(spot_text(o) for o in s.open_spots())}." if self.detail == "verbose" else ""
            return f"Your turn: plant a card. You hold {counted(s.hands[YOU])}.{spots}"
        first = "Your turn: your hand is empty, so two actions." if not s.hands[YOU] and s.actions_left == 2 else ""
        return first or ("Now two actions." if s.actions_left == 2 else "One more action.")

    # --- questions ----------------------------------------------------------------

    def _ask(self, ask: Ask) -> str:
        s = self.state
        match ask.what:
            case Question.DESCRIBE:
                return self._describe()
            case Question.AT:
                assert ask.at is not None
                reach = self._reach(ask.at) if self.state.occupied(ask.at) else ""
                return f"At {spot_text(ask.at)}: {self._at(ask.at)}{'; ' + reach + ' from your farmer' if reach else ''}."
            case Question.HAND:
                return f"Your hand: {counted(s.hands[YOU])}. You have {many(s.carrots[YOU], 'carrot')}."
            case Question.MINE:
                return self._mine()
            case Question.OPEN:
                return self._open()
            case Question.SCORE:
                return self._score()
            case Question.FARMERS:
                return self._farmers()
            case Question.LAST:
                return self._others or "The others have not played yet."
            case Question.PLANTED:
                return self._planted_by(YOU if ask.who is None else ask.who)
        raise ValueError(ask)  # pragma: no cover

    def _placed(self, placed: Placed) -> str:
        """A card on the farm as the player knows it."""
        if placed.face_up:
            return f"{a(placed.card.kind)}, face up"
        if self.state.knows(YOU, placed):
            return f"{self._card(placed.card)}, face down"
        if placed.by is None:
            return "a card from the deck, face down"
        return f"a card {self._name(placed.by)} planted"

    def _with_farmers(self, spot: Spot) -> str:
        """", with your and Yellow's farmers there", or nothing."""
        here = [p for p in self.state.in_play() if self.state.farmers[p] == spot]
        return f", with {self._farmer_of(here)} there" if here else ""

    def _at(self, spot: Spot) -> str:
        s = self.state
        farmers = self._with_farmers(spot)
        if spot == BARN:
            return f"the barn{farmers}"
        placed = s.at(spot)
        if placed is not None:
            return self._placed(placed) + farmers
        return "an open spot: a card may be planted there" if spot in s.open_spots() else "nothing"

    def _reach(self, spot: Spot) -> str:
        """How far the player's farmer walks to ``spot``, and for how much: "2 steps, 1 carrot"."""
        steps = self.state.steps(self.state.farmers[YOU]).get(spot)
        if not steps:
            return ""
        return f"{many(steps, 'step')}, {many(carrots_for(steps), 'carrot')}"

    def _planted_by(self, player: int) -> str:
        """The face-down cards ``player`` planted, nearest the player's farmer first."""
        if player == YOU:
            return self._mine()
        if player >= self.players:
            return "There is no such farmer in this game."
        s = self.state
        steps = s.steps(s.farmers[YOU])
        theirs = sorted((steps.get(spot, 99), spot) for spot, p in s.farm if p.by == player and not p.face_up)
        name = self._name(player)
        if not theirs:
            return f"{name} has no card face down on the farm."
        said = "; ".join(f"{spot_text(spot)}, {self._reach(spot) or 'where your farmer is'}" for _, spot in theirs)
        return f"Cards {name} planted, face down, nearest first: {said}."

    def _where(self) -> str:
        """The player's farmer, carrots, and the cards beside it."""
        s = self.state
        here = s.farmers[YOU]
        beside = [f"{spot_text(n)}, {self._at(n)}" for n in sorted(neighbours(here)) if s.at(n) is not None or n == BARN]
        return (f"Your farmer is at {spot_text(here)}, with {many(s.carrots[YOU], 'carrot')}. "
                f"Beside it: {'; '.join(beside)}.")

    def _describe(self) -> str:
        """The farm as the player knows it, alike cards said together, each kind where
        it is first found from the north row down: "A card from the deck, face down: 6
        4, 6 5 and 4 4." Said row by row, "a card from the deck, face down" came once for
        every card, over and over late in a game."""
        s = self.state
        alike: dict[str, list[Spot]] = {}
        for spot in sorted((spot for spot in ALL_SPOTS if s.occupied(spot) and spot != BARN),
                           key=lambda spot: (-spot[0], spot[1])):
            alike.setdefault(self._at(spot), []).append(spot)
        said = [f"{what[0].upper()}{what[1:]}: {listed(spot_text(spot) for spot in spots)}." for what, spots in alike.items()]
        return (f"The farm has {len(s.farm)} cards around the barn at {BARN[0]} {BARN[1]}{self._with_farmers(BARN)}; "
                f"the deck {len(s.deck)}. " + " ".join(said))

    def _mine(self) -> str:
        s = self.state
        mine = [f"{self._card(p.card)} at {spot_text(spot)}" for spot, p in s.farm
                if p.by == YOU and not p.face_up and s.knows(YOU, p)]
        lost = sum(1 for hand in s.caught for c in hand if c.owner == YOU)
        return (f"Your face-down cards: {'; '.join(mine) or 'none'}. You have caught {many(len(s.caught[YOU]), 'rabbit')}, "
                f"and lost {lost} of yours.")

    def _open(self) -> str:
        spots = self.state.open_spots()
        return "Open spots: " + ", ".join(spot_text(s) for s in spots) + "." if spots else "No spot is open."

    def _score(self) -> str:
        s = self.state
        said = []
        for p in range(s.players):
            lost = sum(1 for hand in s.caught for c in hand if c.owner == p)
            state = " (out)" if s.out[p] else ""
            said.append(f"{self._name(p).capitalize()}{state}: {len(s.caught[p])} caught, {lost} lost, "
                        f"{many(s.carrots[p], 'carrot')}, {many(len(s.hands[p]), 'card')} in hand")
        return "; ".join(said) + f". The deck has {len(s.deck)} cards of {DECK_SIZE[s.players]}."

    def _farmers(self) -> str:
        s = self.state
        said = [f"Your farmer is at {spot_text(s.farmers[YOU])}, with {many(s.carrots[YOU], 'carrot')}."]
        said += [f"{self._name(p)}'s at {spot_text(s.farmers[p])}." for p in s.in_play() if p != YOU]
        return " ".join(said)

    def _hidden_rabbits(self) -> str:
        s = self.state
        hidden = [f"{self._card(p.card)} at {spot_text(spot)}" for spot, p in s.farm
                  if p.card.kind is Kind.RABBIT and not p.face_up]
        return "Hidden rabbits: " + "; ".join(hidden) + "." if hidden else "No rabbit was left hidden."


def restore(record: object, cues: bool = True, detail: str = "normal") -> RabbitTable:
    if not isinstance(record, dict) or record.get("game") != "rabbithunt" or record.get("version") != SAVE_VERSION:
        raise RecordError(f"not a Rabbit Hunt record of version {SAVE_VERSION}")
    seed, players, level, commands = (record.get(k) for k in ("seed", "players", "level", "commands"))
    if (not isinstance(seed, int) or players not in DECK_SIZE or level not in LEVELS
            or not isinstance(commands, list)):
        raise RecordError("the record's settings are not valid")
    try:
        table = RabbitTable(seed, int(players), str(level), cues, detail)
        replay(table, commands)
    except (ValueError, IllegalMove) as err:
        raise RecordError(f"the record cannot be replayed: {err}") from None
    return table

