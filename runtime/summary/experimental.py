"""`rt.summary.experimental`: the default step of this thread's summaries."""
from runtime.summary.writer import get_step, set_step

__all__ = ['get_step', 'set_step']
