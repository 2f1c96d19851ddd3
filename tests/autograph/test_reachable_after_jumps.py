"""Code after a jump that may not happen runs converted as it runs in Python: a `with` whose
context manager suppresses an exception raised before the body's `return`, `break` or
`continue`; and a staged construct that reads a variable Python had not bound yet gives the
clear error, not a crash on a closure cell."""
import contextlib

import pytest

import autograph as ag
import runtime as rt


class Cached:
    def names(self):
        with contextlib.suppress(AttributeError):
            return self.__names
        self.__names = ['a', 'b']
        return self.__names

    def lookup(self):
        with contextlib.suppress(AttributeError):
            return self.__lookup
        self.__lookup = set(self.names())
        return self.__lookup


def test_a_return_in_a_with_that_may_suppress_an_exception_falls_through():
    converted = ag.to_graph(Cached.lookup)
    cached = Cached()
    assert converted(cached) == {'a', 'b'}
    assert converted(cached) is converted(cached)   # the cached set, from the `with`


def inverses(values):
    out = []
    for value in values:
        with contextlib.suppress(ZeroDivisionError):
            out.append(1 // value)
            continue
        out.append('zero')
    return out


def first_inverse(values):
    found = None
    for value in values:
        with contextlib.suppress(ZeroDivisionError):
            found = 1 // value
            break
    return found


@pytest.mark.parametrize('function, argument', [(inverses, [1, 0, 2]),
                                                (first_inverse, [0, 0, 1]),
                                                (first_inverse, [0])])
def test_continue_and_break_in_a_suppressing_with(function, argument):
    assert ag.to_graph(function)(argument) == function(argument)


def read_before_assignment(a, b):
    x = a
    y = b
    for _ in range(b % 3):
        c = 0
        while c < 3 and (y > x and z >= 2):  # noqa: F821 - z is bound below, later
            pass
    z = -y % 3
    return a - x + z


def test_a_staged_loop_reading_a_variable_bound_later_names_it():
    assert read_before_assignment(3, 2) == 1     # Python never reads z
    with pytest.raises(UnboundLocalError, match="local variable 'z' is used before it is "
                                                "assigned a value"):
        ag.function(read_before_assignment)(rt.constant(3), rt.constant(2))
