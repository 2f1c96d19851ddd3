"""Runtime functions that call user functions: `rt.map_fn(fn, ...)`, `rt.scan`, `rt.foldl`,
`rt.foldr`, `rt.switch_case`.

`ag__.callee(rt.map_fn, fscope)` is a wrapper that hands them the user functions wrapped so that
each call runs what `callee` resolves (the conversion), as TensorFlow's AutoGraph converts the
functions given to `tf.map_fn`: Python `if`/`while` on tensors inside `fn` then becomes graph
control flow.
"""
import runtime as rt

# function -> (parameter name, position) of each argument that holds user callables
CALLABLE_ARGS = {
    rt.map_fn: (('fn', 0),),
    rt.scan: (('fn', 0),),
    rt.foldl: (('fn', 0),),
    rt.foldr: (('fn', 0),),
    rt.switch_case: (('branch_fns', 1), ('default', 2)),
}


def with_converted_callables(f, args, kwargs, convert):
    """`args`, `kwargs` of a call of `f` (a key of CALLABLE_ARGS) with each user callable `c`
    (also inside a list, pairs or a dict of branches) replaced by `convert(c)`."""
    args = list(args)
    for name, position in CALLABLE_ARGS[f]:
        if name in kwargs:
            kwargs = {**kwargs, name: _wrapped(kwargs[name], convert)}
        elif position < len(args):
            args[position] = _wrapped(args[position], convert)
    return tuple(args), kwargs


def _wrapped(value, convert):
    if callable(value):
        return convert(value)
    if isinstance(value, dict):
        return {k: _wrapped(v, convert) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(_wrapped(v, convert) for v in value)
    return value
