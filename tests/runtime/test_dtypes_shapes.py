"""Dtypes and shapes."""
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import runtime as rt

ALL = ['bool', 'int8', 'int16', 'int32', 'int64', 'uint8', 'float16', 'float32', 'float64',
       'complex64', 'complex128', 'string']


@pytest.mark.parametrize('name', ALL)
def test_every_dtype_is_a_DType_reachable_two_ways(name):
    d = getattr(rt, name)
    assert isinstance(d, rt.DType)
    assert getattr(rt.dtypes, name) is d
    assert d.name == name
    assert rt.as_dtype(name) is d


def test_dtype_properties():
    assert rt.float32.as_numpy_dtype is np.float32
    assert rt.int64.as_numpy_dtype is np.int64
    assert rt.bool.as_numpy_dtype is np.bool_
    assert rt.float16.is_floating and rt.float64.is_floating
    assert not rt.int32.is_floating
    assert rt.int8.is_integer and rt.uint8.is_integer and not rt.float32.is_integer
    assert rt.bool.is_bool and not rt.bool.is_integer and not rt.int32.is_bool
    assert not rt.string.is_integer and not rt.string.is_floating


def test_complex_dtypes_as_in_tensorflow():
    assert rt.complex64.is_complex and rt.complex128.is_complex and not rt.float32.is_complex
    assert not rt.complex64.is_floating and not rt.complex64.is_integer
    assert rt.complex64.real_dtype is rt.float32 and rt.complex128.real_dtype is rt.float64
    assert rt.float32.real_dtype is rt.float32
    assert (rt.complex64.enum, rt.complex128.enum) == (8, 18)  # DT_COMPLEX64, DT_COMPLEX128
    assert rt.complex64.proto_name == 'DT_COMPLEX64'
    assert rt.as_dtype(np.complex64) is rt.complex64 and rt.as_dtype(complex) is rt.complex128


def test_as_dtype_accepts_numpy_dtypes_types_names_and_dtypes():
    assert rt.as_dtype(np.float32) is rt.float32
    assert rt.as_dtype(np.dtype('int64')) is rt.int64
    assert rt.as_dtype(np.dtype(bool)) is rt.bool
    assert rt.as_dtype('float64') is rt.float64
    assert rt.as_dtype(rt.uint8) is rt.uint8
    assert rt.as_dtype(np.dtype('U3')) is rt.string


def test_as_dtype_rejects_unknown_names():
    with pytest.raises(TypeError, match='complex'):
        rt.as_dtype('complex')


def test_dtypes_compare_by_identity_and_print_like_tensorflow():
    assert rt.as_dtype('float32') == rt.float32
    assert rt.float32 != rt.float64
    assert repr(rt.int32) == 'rt.int32'
    assert str(rt.int32) == "<dtype: 'int32'>"


# ---- shapes ----------------------------------------------------------------------------------

def test_a_partial_shape():
    s = rt.TensorShape([2, None])
    assert s.rank == 2
    assert s.as_list() == [2, None]
    assert not s.is_fully_defined()
    assert s[0] == 2 and s[1] is None
    assert len(s) == 2
    assert list(s) == [2, None]
    assert str(s) == '(2, None)'
    assert s == (2, None) and s == [2, None]
    assert s != (2, 3)


def test_shape_strings_look_like_tuples():
    assert str(rt.TensorShape([])) == '()'
    assert str(rt.TensorShape([3])) == '(3,)'
    assert str(rt.TensorShape([1, 2, 3])) == '(1, 2, 3)'


def test_fully_defined_shape():
    s = rt.TensorShape([2, 3])
    assert s.is_fully_defined()
    assert s == rt.TensorShape((2, 3))
    assert s[1:] == (3,)
    assert s.num_elements() == 6


def test_unknown_rank():
    s = rt.TensorShape(None)
    assert s.rank is None
    assert not s.is_fully_defined()
    assert s.is_compatible_with([1, 2, 3])
    with pytest.raises(ValueError):
        s.as_list()


def test_is_compatible_with():
    assert rt.TensorShape([2, None]).is_compatible_with([2, 5])
    assert rt.TensorShape([2, None]).is_compatible_with(rt.TensorShape([None, None]))
    assert not rt.TensorShape([2, None]).is_compatible_with([3, 5])
    assert not rt.TensorShape([2, None]).is_compatible_with([2])
    assert rt.TensorShape([]).is_compatible_with(())


def test_shapes_are_hashable_and_immutable_values():
    assert len({rt.TensorShape([1, 2]), rt.TensorShape((1, 2))}) == 1


def test_a_dimension_must_be_an_int():
    with pytest.raises(TypeError):
        rt.TensorShape([1.5])
    with pytest.raises(ValueError):
        rt.TensorShape([-1])


dims = st.lists(st.one_of(st.none(), st.integers(0, 4)), max_size=4)


@given(dims, dims)
def test_compatibility_is_symmetric_and_matches_the_definition(a, b):
    sa, sb = rt.TensorShape(a), rt.TensorShape(b)
    expected = len(a) == len(b) and all(x is None or y is None or x == y for x, y in zip(a, b))
    assert sa.is_compatible_with(sb) == expected
    assert sb.is_compatible_with(sa) == expected


@given(st.lists(st.integers(0, 4), max_size=4), st.data())
def test_a_shape_is_compatible_with_itself_with_dims_forgotten(full, data):
    forget = data.draw(st.lists(st.booleans(), min_size=len(full), max_size=len(full)))
    partial = [None if f else d for d, f in zip(full, forget)]
    assert rt.TensorShape(partial).is_compatible_with(full)
    assert rt.TensorShape(full).is_fully_defined()
    assert rt.TensorShape(partial).is_fully_defined() == (not any(forget))
