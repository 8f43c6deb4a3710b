"""Game-agnostic speech output: synthesis, playback, sound cues and the speaker queue."""
