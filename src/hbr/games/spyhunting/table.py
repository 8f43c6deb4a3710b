"""A game of Spyhunting at the table: the player on one side, the computer on the
other, and the words that tell the player everything a player at a real board sees.

Both tokens stand in plain sight, so positions are said freely; only the hunter's
plan is hidden until it is carried out, and the computer's spy never sees it.
"""

from __future__ import annotations

import dataclasses

from hbr.game import RecordError, Reply, Table, replay
from hbr.games.spyhunting.bots import HunterBot, SpyBot, bot_rng, spy_moves
from hbr.games.spyhunting.engine import Act, Event, IllegalCommand, Kind, Plan, SpyMove, apply
from hbr.games.spyhunting.phrases import Actions, Command, GoTo, Path, SpyGrammar, Word
from hbr.games.spyhunting.state import (
    HUNTER_HOME,
    SPY_HOME,
    Action,
    Heading,
    Phase,
    Point,
    Rules,
    Side,
    State,
    new_game,
)
from hbr.grammar import Meta

SAVE_VERSION = 1
RULES_SUMMARY = (
    "Spyhunting is played on the points where the lines of a chess board cross: 9 columns from west to east and "
    "9 rows from south to north. The hunter starts at column 1, row 1, facing north; the spy at column 9, row 9. "
    "The spy wins by reaching the hunter's corner and then getting back to its own; the hunter wins by shooting it. "
    "Each series both dice are rolled. The hunter makes as many steps or quarter turns as the four-sided die says, "
    "then secretly plans as many actions as the eight-sided die says, one shot at most. Then the spy moves 3 points, "
    "or 5 if the big die shows 5 or more, never onto the hunter, and the plan is carried out. A shot flies straight "
    "ahead to the edge. The spy is safe on the hunter's corner, and for the series once the hunter has stood on its "
    "point. After leaving home the hunter keeps 3 or more points from it. No phase may end where it began."
)
#: Each variant in a few words, said in the opening when it is played.
VARIANT_NAMES = {
    "capture_wins": "capture wins", "four_way": "the shot flies four ways", "forward_only": "forward steps only",
    "short_spy": "short spy moves", "diagonal": "diagonal steps",
}
#: What each variant changes, said after the rules when it is played.
VARIANT_RULES = {
    "capture_wins": "In this game the hunter also wins by landing on the spy.",
    "four_way": "In this game a shot flies in all four directions at once.",
    "forward_only": "In this game the hunter steps only forward, the way it faces; it turns to go elsewhere.",
    "short_spy": "In this game the spy moves 2 points, or 4 if the big die shows 5 or more.",
    "diagonal": (
        "In this game both may also step diagonally, to the point across a square, and that counts as one point: "
        "the hunter says forward left, forward right, back left or back right; the spy north east, south east, "
        "south west or north west. The hunter still faces, and shoots, along the lines."
    ),
}


def at(point: Point) -> str:
    return f"column {point.x}, row {point.y}"


def offset(frm: Point, to: Point) -> str:
    dx, dy = to.x - frm.x, to.y - frm.y
    parts = [f"{abs(dx)} {'east' if dx > 0 else 'west'}" if dx else "", f"{abs(dy)} {'north' if dy > 0 else 'south'}" if dy else ""]
    said = " and ".join(p for p in parts if p)
    return f"{said} of you" if said else "on your point"


def plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


class SpyTable(Table[Command]):
    """One game; ``side`` is the player's side, the computer plays the other at ``level``."""

    def __init__(
        self, seed: int, side: Side = Side.HUNTER, level: str = "normal", rules: Rules = Rules(),
        cues: bool = True, detail: str = "normal",
    ) -> None:
        self.seed: int | None = seed
        self.side = side
        self.level = level
        self.cues = cues
        self.detail = detail
        self.state: State = new_game(seed, rules)
        self.grammar = SpyGrammar(side, rules.diagonal)
        self.inputs: list[str] = []
        self.planned: list[Action] = []
        #: The small die's actions made this series, and the state before them: they
        #: can be taken back until the plan is begun (the spy has not moved yet).
        self.made: list[Action] = []
        self.series_start: State = self.state
        self.path: list[Point] = []  # the spy's points so far this move (the player's spy)
        self.story: list[str] = []  # each series' events as said, for recap
        self.last = ""
        self._computer_first = self._computer_hunter() if side is Side.SPY else ""

    # --- the Game interface -------------------------------------------------

    @property
    def over(self) -> bool:
        return self.state.over

    def opening(self) -> str:
        other = self.side.other.value
        goal = (
            "Shoot the spy before it reaches your corner and gets back to its own."
            if self.side is Side.HUNTER
            else "Reach the hunter's corner at column 1, row 1, then get back to yours at column 9, row 9, unshot."
        )
        if self.inputs:
            return f"Back in Spyhunting, series {self.state.series}. " + self._series_intro("")
        variants = [VARIANT_NAMES[key] for key in self._variants()]
        playing = f"Variants: {', '.join(variants)}; say rules to hear them. " if variants else ""
        return (
            f"Spyhunting. You are the {self.side.value}; the computer is the {other}, playing {self.level}. "
            f"{playing}"
            "Columns count from 1 in the west to 9 in the east, rows from 1 in the south to 9 in the north. "
            f"{goal} " + self._series_intro(self._computer_first)
        )

    def answer(self, meta: Meta) -> str:
        match meta:
            case Meta.HELP:
                return self._help()
            case Meta.HELP_MORE:
                return (
                    "Also: dice, where am i, where is the " + self.side.other.value + ", my plan, undo, "
                    "start again, recap, rules, repeat, faster, slower, quit."
                )
            case Meta.RULES:
                return " ".join([RULES_SUMMARY, *(VARIANT_RULES[key] for key in self._variants())])
            case Meta.RECAP:
                return " ".join(self.story[-2:]) or "Nothing has happened yet."
            case Meta.WHERE:
                return self._where()
            case Meta.REVEAL:
                return "Nothing is hidden in Spyhunting but the hunter's plan, and that is told as it is carried out."
        raise ValueError(meta)

    def closing(self) -> str:
        series = f"{self.state.series} series"
        if self.state.winner is None:
            return f"Game over: unfinished in series {self.state.series}, seed {self.seed}."
        result = "you won" if self.state.winner is self.side else "you lost"
        return f"Game over: {result}, the {self.state.winner.value} wins, in {series}, seed {self.seed}."

    def progress(self) -> str:
        return f"Spyhunting as the {self.side.value}, series {self.state.series}"

    def record(self) -> dict[str, object]:
        return {
            "game": "spyhunting", "version": SAVE_VERSION, "seed": self.seed, "side": self.side.value,
            "level": self.level, "rules": dataclasses.asdict(self.state.rules), "commands": list(self.inputs),
        }

    def outcome(self) -> str | None:
        return f"{self.state.winner.value} wins" if self.state.winner else None

    def yes(self) -> Command | None:
        """With the plan full the game asks "say confirm, or undo": yes confirms."""
        s = self.state
        full = self.side is Side.HUNTER and s.phase is Phase.PLAN and len(self.planned) == s.d8
        return Word.CONFIRM if full and not s.over else None

    # --- the player's commands ------------------------------------------------

    def _act(self, command: Command) -> Reply:
        match command:
            case Word.DICE:
                return Reply(f"The dice: {self.state.d4} and {self.state.d8}. {self._todo()}")
            case Word.OTHER:
                return Reply(self._where())
            case Word.PLAN:
                return Reply(self._plan_so_far())
            case Word.UNDO | Word.CLEAR:
                return Reply(self._undo(command is Word.CLEAR))
            case Word.CONFIRM:
                return self._confirm()
            case Word.STAY:
                return self._stay()
            case Actions(actions):
                return self._hunter_actions(actions)
            case Path(headings):
                if self.side is not Side.SPY:
                    return Reply("You are the hunter: say forward, back, left, right, turn left, turn right, or shoot.")
                return self._spy_steps(headings)
            case GoTo(point):
                return self._go_to(point)
        raise ValueError(command)

    def _hunter_actions(self, actions: tuple[Action, ...]) -> Reply:
        if self.side is not Side.HUNTER:
            return Reply("You are the spy: say north, south, east or west, or go to a point, like go to 6 7.")
        state = self.state
        if state.phase is Phase.HUNTER_MOVE:
            left = state.d4 - state.used
            if len(actions) > left:
                return Reply(f"You have {plural(left, 'action')} left on the small die; say {left} or fewer.")
            said: list[str] = []
            for action in actions:
                try:
                    self.state, events = apply(self.state, Act(action))
                except IllegalCommand as err:
                    return Reply(" ".join([*said, str(err), self._todo()]))
                self.made.append(action)
                said.append(self._narrate(events))
            return Reply(" ".join([*said, self._todo()]), self._cues_of(actions))
        left = state.d8 - len(self.planned)
        if not left:
            return Reply(f"Your plan is full. {self._plan_so_far()}")
        if len(actions) > left:
            return Reply(f"Your plan has room for {plural(left, 'more action')}; say {left} or fewer.")
        if sum(a is Action.SHOOT for a in (*self.planned, *actions)) > 1:
            return Reply("The plan may hold one shot at most. " + self._todo())
        self.planned += actions
        if len(self.planned) < state.d8:
            return Reply(f"Planned: {', '.join(a.value for a in actions)}. {self._todo()}")
        return Reply(self._plan_so_far())

    def _confirm(self) -> Reply:
        if self.side is not Side.HUNTER or self.state.phase is not Phase.PLAN or len(self.planned) < self.state.d8:
            return Reply("There is no full plan to confirm. " + self._todo())
        try:
            self.state, _ = apply(self.state, Plan(tuple(self.planned)))
        except IllegalCommand as err:
            return Reply(f"{err} Say undo or start again, and change it.")
        self.planned = []
        bot = SpyBot(self.level, bot_rng(self.state.seed, self.state.series, "spy"))
        self.state, events = apply(self.state, bot.move(self.state))
        return self._told(events)

    def _spy_steps(self, headings: tuple[Heading, ...]) -> Reply:
        state = self.state
        if state.phase is not Phase.SPY_MOVE:
            return Reply("It is not your move yet. " + self._todo())
        total = state.spy_points
        if len(self.path) + len(headings) > total:
            return Reply(f"You have {plural(total - len(self.path), 'point')} left to move; say that many or fewer.")
        here = self.path[-1] if self.path else state.spy
        added = []
        for heading in headings:
            to = here + heading
            if not to.on_board:
                return Reply(f"That would leave the board. {self._todo()}")
            if to == state.hunter:
                return Reply(f"You may not enter the hunter's point, {at(to)}. {self._todo()}")
            added.append(to)
            here = to
        self.path += added
        if len(self.path) == total:
            return self._spy_done()
        if here == HUNTER_HOME:
            return Reply(f"You are on the hunter's corner. Say stay here to stop, or go on: {self._todo()}")
        return Reply(f"To {at(here)}. {self._todo()}")

    def _go_to(self, point: Point) -> Reply:
        if self.side is not Side.SPY or self.state.phase is not Phase.SPY_MOVE:
            return Reply("Go to is for the spy's move. " + self._todo())
        if not point.on_board:
            return Reply("Columns and rows go from 1 to 9.")
        self.path = []
        ends = spy_moves(self.state)
        if point not in ends:
            return Reply(
                f"You cannot end on {at(point)} with exactly {plural(self.state.spy_points, 'point')}"
                + (f"; points an {'odd' if self.state.spy_points % 2 else 'even'} number away work, and never "
                   "through the hunter." if not self.state.rules.diagonal else ", never through the hunter.")
            )
        return self._apply_spy(SpyMove(ends[point]))

    def _stay(self) -> Reply:
        if self.path and self.path[-1] == HUNTER_HOME:
            return self._spy_done()
        return Reply("Stay here is for stopping early on the hunter's corner. " + self._todo())

    def _spy_done(self) -> Reply:
        headings = []
        prev = self.state.spy
        for p in self.path:
            headings.append(next(h for h in Heading if prev + h == p))
            prev = p
        self.path = []
        return self._apply_spy(SpyMove(tuple(headings)))

    def _apply_spy(self, move: SpyMove) -> Reply:
        try:
            self.state, events = apply(self.state, move)
        except IllegalCommand as err:
            return Reply(f"{err} {self._todo()}")
        return self._told(events)

    def _undo(self, everything: bool) -> str:
        if self.side is Side.HUNTER and self.state.phase is Phase.PLAN and self.planned:
            gone = self.planned[:] if everything else self.planned[-1:]
            del self.planned[len(self.planned) - len(gone):]
            return f"Taken back: {', '.join(a.value for a in gone)}. {self._todo()}"
        if self.side is Side.SPY and self.path:
            del self.path[0 if everything else -1:]
            return f"Taken back. {self._todo()}"
        if self.side is Side.HUNTER and self.made and not self.planned and self.state.phase is not Phase.SPY_MOVE:
            gone = self.made[:] if everything else self.made[-1:]
            self.made = self.made[: len(self.made) - len(gone)]
            self.state = self.series_start
            for action in self.made:
                self.state, _ = apply(self.state, Act(action))
            return f"Taken back: {', '.join(a.value for a in gone)}. {self._where()} {self._todo()}"
        return "There is nothing to take back. " + self._todo()

    # --- the computer's side --------------------------------------------------

    def _computer_hunter(self) -> str:
        """The computer hunter's small-die actions (said) and its plan (kept hidden)."""
        bot = HunterBot(self.level, bot_rng(self.state.seed, self.state.series, "hunter"))
        said = []
        for act in bot.actions(self.state):
            self.state, events = apply(self.state, act)
            said.append(self._narrate(events))
            if self.state.over:
                return " ".join(said)
        self.state, _ = apply(self.state, bot.plan(self.state))
        return " ".join(said) + f" The hunter has written its plan of {plural(self.state.d8, 'action')}."

    def _told(self, events: tuple[Event, ...]) -> Reply:
        """After the spy's move: the move, the plan carried out, and the next series."""
        moved = [e for e in events if e.kind in (Kind.SPY_MOVED, Kind.SPY_REACHED_CORNER, Kind.SPY_HOME)]
        plan = tuple(e for e in events if e not in moved and e.kind is not Kind.NEW_SERIES)
        whose = "Your plan:" if self.side is Side.HUNTER else "The hunter's plan:"
        words = self._narrate(tuple(moved)) + (f" {whose} {self._narrate(plan)}" if plan else "")
        self.story.append(words)
        cues = tuple(dict.fromkeys(CUE_OF[e.kind] for e in events if e.kind in CUE_OF))
        if self.state.over:
            won = self.state.winner is self.side
            return Reply(f"{words} {'You win!' if won else 'You lose.'}", cues)
        self.made, self.series_start = [], self.state
        computer = self._computer_hunter() if self.side is Side.SPY else ""
        return Reply(f"{words} {self._series_intro(computer)}", ("dice", *cues))

    # --- words --------------------------------------------------------------

    def _series_intro(self, computer: str) -> str:
        s = self.state
        head = f"Series {s.series}. The dice: {s.d4} and {s.d8}."
        if self.side is Side.SPY:
            return f"{head} {computer} {self._where()} {self._todo()}".replace("  ", " ")
        return f"{head} {self._where()} {self._todo()}"

    def _where(self) -> str:
        s = self.state
        corner = " The spy has been to the hunter's corner and runs for home." if s.spy_reached_corner else ""
        if self.side is Side.HUNTER:
            return (f"You are at {at(s.hunter)}, facing {s.facing.word}. "
                    f"The spy is at {at(s.spy)}, {offset(s.hunter, s.spy)}.{corner}")
        goal = "your home, column 9, row 9" if s.spy_reached_corner else "the hunter's corner, column 1, row 1"
        return (f"You are at {at(s.spy)}; you head for {goal}. "
                f"The hunter is at {at(s.hunter)}, facing {s.facing.word}, {offset(s.spy, s.hunter)}.")

    def _todo(self) -> str:
        s = self.state
        if s.over:
            return ""
        if self.side is Side.HUNTER and s.phase is Phase.HUNTER_MOVE:
            left = s.d4 - s.used
            return f"Your move: {plural(left, 'action')}, steps or turns."
        if self.side is Side.HUNTER and s.phase is Phase.PLAN:
            left = s.d8 - len(self.planned)
            if left == 0:
                return "Say confirm, or undo."
            if not self.planned:
                return f"Now your plan: {plural(left, 'action')}, one shot at most. The spy will not hear it."
            return f"{left} more in your plan."
        if self.side is Side.SPY and s.phase is Phase.SPY_MOVE:
            left = s.spy_points - len(self.path)
            return (f"Your move: {plural(left, 'more point')}. Say a direction, like north or east two times, "
                    "or go to a point, like go to 6 7.")
        return ""

    def _plan_so_far(self) -> str:
        if self.side is Side.SPY:
            steps = ", ".join(at(p) for p in self.path)
            return f"Your move so far: {steps}. {self._todo()}" if self.path else self._todo()
        if not self.planned:
            return "Your plan is empty. " + self._todo()
        return f"Your plan: {', '.join(a.value for a in self.planned)}. {self._todo()}"

    def _variants(self) -> list[str]:
        """The variants played, by field name, in the order of the rules."""
        return [name for name, on in dataclasses.asdict(self.state.rules).items() if on]

    def _help(self) -> str:
        if self.side is Side.HUNTER:
            diagonal = "forward left, back right, " if self.state.rules.diagonal else ""
            return ("Say one action at a time, or one with how many times: forward, back, left, right, "
                    f"{diagonal}turn left, turn right, forward two times, and in your "
                    "plan shoot. The plan is read back: say confirm, or undo. " + self._todo())
        diagonal = "north east, south west, " if self.state.rules.diagonal else ""
        return ("Say one direction at a time, or one with how many times: north, south, east, west, "
                f"{diagonal}north two times; or go to a point, like go to 6 7, "
                "column then row. " + self._todo())

    def _narrate(self, events: tuple[Event, ...]) -> str:
        hunter = "You" if self.side is Side.HUNTER else "The hunter"
        spy = "You" if self.side is Side.SPY else "The spy"
        out = []
        for e in events:
            match e.kind:
                case Kind.STEPPED:
                    assert e.action is not None and e.point is not None
                    out.append(f"{hunter} {'step' if hunter == 'You' else 'steps'} {e.action.value} to {at(e.point)}.")
                case Kind.TURNED:
                    assert e.heading is not None and e.action is not None
                    verb = "turn" if hunter == "You" else "turns"
                    out.append(f"{hunter} {verb} {e.action.value.split()[1]}, facing {e.heading.word}.")
                case Kind.STEP_LOST:
                    assert e.action is not None
                    out.append(f"A step {e.action.value} is lost: {e.reason}.")
                case Kind.LANDED_ON_SPY:
                    out.append("The hunter stands on the spy's point: the spy cannot be shot this series.")
                case Kind.SPY_MOVED:
                    assert e.point is not None
                    verb = "move" if spy == "You" else "moves"
                    out.append(f"{spy} {verb} {plural(len(e.path), 'point')}, to {at(e.point)}.")
                case Kind.SPY_REACHED_CORNER:
                    out.append(f"{spy} {'reach' if spy == 'You' else 'reaches'} the hunter's corner! Now back home.")
                case Kind.SHOT_HIT:
                    out.append(f"{hunter} {'shoot' if hunter == 'You' else 'shoots'}: a hit!")
                case Kind.SHOT_MISSED:
                    why = {"corner": " The spy is safe on the hunter's corner.",
                           "immune": " The spy is on the line, but safe this series."}.get(e.reason, "")
                    out.append(f"{hunter} {'shoot' if hunter == 'You' else 'shoots'} {e.heading.word if e.heading else ''}:"
                               f" a miss.{why}")
                case Kind.CAPTURED:
                    out.append("The hunter catches the spy!")
                case Kind.SPY_HOME:
                    out.append(f"{spy} {'are' if spy == 'You' else 'is'} home again, at {at(SPY_HOME)}.")
        return " ".join(out)

    def _cues_of(self, actions: tuple[Action, ...]) -> tuple[str, ...]:
        return tuple(dict.fromkeys("step" if a.is_step else "turn" for a in actions))


CUE_OF = {
    Kind.STEPPED: "step", Kind.TURNED: "turn", Kind.STEP_LOST: "bump", Kind.SHOT_HIT: "hit",
    Kind.SHOT_MISSED: "miss", Kind.SPY_HOME: "spy home", Kind.SPY_REACHED_CORNER: "corner",
}


def restore(record: object, cues: bool = True, detail: str = "normal") -> SpyTable:
    """Rebuild a game from :meth:`SpyTable.record` by replaying the player's commands."""
    if not isinstance(record, dict) or record.get("game") != "spyhunting" or record.get("version") != SAVE_VERSION:
        raise RecordError(f"not a Spyhunting record of version {SAVE_VERSION}")
    seed, side, level, rules, commands = (record.get(k) for k in ("seed", "side", "level", "rules", "commands"))
    if not isinstance(seed, int) or side not in ("hunter", "spy") or level not in ("easy", "normal", "hard"):
        raise RecordError("the record's seed, side or level is not valid")
    if not isinstance(rules, dict) or not isinstance(commands, list):
        raise RecordError("the record's rules or commands are not valid")
    try:
        table = SpyTable(seed, Side(side), str(level), Rules(**{k: bool(v) for k, v in rules.items()}), cues, detail)
    except TypeError:
        raise RecordError("the record names an unknown variant") from None
    replay(table, commands)
    return table
