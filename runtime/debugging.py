"""`rt.debugging`: run-time assertions and checks, and the op observers of
runtime/observers.py (`enable_check_numerics`, `set_log_device_placement`).

Checks decidable while a graph is built (ranks, static shapes, dtypes) fail at once with
`ValueError`/`TypeError`; the others are `Assert` ops raising `rt.errors.InvalidArgumentError`
when they run.
"""
from runtime.observers import (
                                disable_check_numerics,
                                enable_check_numerics,
                                get_log_device_placement,
                                set_log_device_placement,
)
from runtime.ops.checks import (
                                assert_all_finite,
                                assert_integer,
                                assert_near,
                                assert_negative,
                                assert_non_negative,
                                assert_non_positive,
                                assert_positive,
                                assert_proper_iterable,
                                assert_rank,
                                assert_rank_at_least,
                                assert_rank_in,
                                assert_same_float_dtype,
                                assert_scalar,
                                assert_shapes,
                                assert_type,
                                check_numerics,
                                is_numeric_tensor,
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
           'assert_greater_equal', 'assert_integer', 'assert_less', 'assert_less_equal',
           'assert_near', 'assert_negative', 'assert_non_negative', 'assert_non_positive',
           'assert_none_equal', 'assert_positive', 'assert_proper_iterable', 'assert_rank',
           'assert_rank_at_least', 'assert_rank_in', 'assert_same_float_dtype', 'assert_scalar',
           'assert_shapes', 'assert_type', 'check_numerics', 'disable_check_numerics',
           'enable_check_numerics', 'get_log_device_placement', 'is_numeric_tensor',
           'set_log_device_placement']
