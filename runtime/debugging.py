"""`rt.debugging`: run-time assertions and checks.

Checks decidable while a graph is built (ranks, static shapes, dtypes) fail at once with
`ValueError`/`TypeError`; the others are `Assert` ops raising `rt.errors.InvalidArgumentError`
when they run.
"""
from runtime.ops.checks import (
                                assert_all_finite,
                                assert_near,
                                assert_non_negative,
                                assert_positive,
                                assert_rank,
                                assert_shapes,
                                assert_type,
                                check_numerics,
)
from runtime.ops.io import (
                                Assert,
                                assert_equal,
                                assert_greater,
                                assert_greater_equal,
                                assert_less,
                                assert_less_equal,
                                assert_none_equal,
)

__all__ = ['Assert', 'assert_all_finite', 'assert_equal', 'assert_greater',
           'assert_greater_equal', 'assert_less', 'assert_less_equal', 'assert_near',
           'assert_non_negative', 'assert_none_equal', 'assert_positive', 'assert_rank',
           'assert_shapes', 'assert_type', 'check_numerics']
