"""Tensors and Variables are unhashable, as in TensorFlow (their `==` is elementwise); `.ref()`
is the hashable reference, `.deref()` gives the object back."""
import pytest

import autograph as ag
import runtime as rt


def test_tensors_and_variables_are_unhashable_with_tensorflows_messages():
    t = rt.constant(1.0)
    v = rt.Variable(1.0)
    with pytest.raises(TypeError, match=r'^Tensor is unhashable\. Instead, use tensor\.ref\(\) '
                                        r'as the key\.$'):
        hash(t)
    with pytest.raises(TypeError, match=r'^Variable is unhashable\. Instead, use '
                                        r'variable\.ref\(\) as the key\. \(Variable: <rt\.'):
        {v: 1}
    with pytest.raises(TypeError, match='Tensor is unhashable'):
        {v[0]}
    with pytest.raises(TypeError, match='Tensor is unhashable'):
        hash(v.assign(2.0) + 0)


def test_refs_are_hashable_equal_for_the_same_object_and_deref_to_it():
    t, u = rt.constant(1.0), rt.constant(1.0)
    v = rt.Variable([1, 2])
    keys = {t.ref(): 't', v.ref(): 'v'}
    assert keys[t.ref()] == 't' and keys[v.ref()] == 'v' and u.ref() not in keys
    assert t.ref() == t.ref() and t.ref() != u.ref() and hash(t.ref()) == hash(t.ref())
    assert t.ref().deref() is t and v.ref().deref() is v
    assert repr(t.ref()).startswith('<Reference wrapping ')


def test_symbolic_tensors_are_unhashable_too():
    seen = []

    def check(x):
        try:
            hash(x)
        except TypeError as e:
            seen.append(str(e))
        seen.append(x.ref().deref() is x)
        return x

    ag.function(ag.do_not_convert(check))(rt.constant(1.0))
    assert seen == ['Tensor is unhashable. Instead, use tensor.ref() as the key.', True]
