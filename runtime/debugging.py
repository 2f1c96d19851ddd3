"""`rt.debugging`: run-time assertions."""
from runtime.ops.io import Assert, assert_equal, assert_greater, assert_less

__all__ = ['Assert', 'assert_equal', 'assert_greater', 'assert_less']
