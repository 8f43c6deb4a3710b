import numpy as np

from hbr.game import Note
from hbr.games.hbr.cues import CUES, cues_for
from hbr.games.hbr.events import Event, Kind
from hbr.speech.earcons import RATE, render


def test_render_is_short_mono_and_soft_edged() -> None:
    sound = render([Note(440, 0.1), Note(660, 0.1, to=880)])
    assert sound.dtype == np.int16 and sound.ndim == 1
    assert len(sound) < 0.5 * RATE
    assert abs(int(sound[0])) < 200 and abs(int(sound[-1])) < 200


def test_every_key_event_has_a_cue_and_npc_movement_has_none() -> None:
    for kind in (Kind.OBSTACLE, Kind.EDGE, Kind.HOLE_FOUND, Kind.RABBIT_BUMPED, Kind.READY_TO_HUNT,
                 Kind.DANGER_ZONE, Kind.BEAR_SNARED, Kind.CAPTURED, Kind.BEAR_ATE, Kind.RABBIT_HOME):
        assert kind.value in CUES
    # No cue may carry more than the words: nothing marks where the bear or rabbit went.
    assert Kind.BEAR_MOVED.value not in CUES and Kind.RABBIT_MOVED.value not in CUES


def test_cues_for_a_round_in_order_and_once() -> None:
    events = (Event(Kind.OBSTACLE), Event(Kind.BEAR_MOVED), Event(Kind.DANGER_ZONE), Event(Kind.DANGER_ZONE))
    assert cues_for(events) == ("obstacle", "danger_zone")
