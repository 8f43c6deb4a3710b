"""Game-agnostic voice input: audio, end-of-speech detection, recognizers and their models.

Backends live in their own modules (``sphinx``, ``kaldi``) and import their
library lazily, so a missing optional library never breaks an import.
"""
