def tf__power(x, y):
    fscope = ag__.new_scope('power', ag__.STD_REQUESTED)
    result = ag__.converted_call(rt.eye, (10,), {'dtype': rt.int32}, fscope)

    def get_state():
        return (result,)

    def set_state(vars_):
        nonlocal result
        result, = vars_

    def loop_body(itr):
        nonlocal result
        _ = itr
        result = ag__.converted_call(ag__.ld(rt).matmul, (ag__.ld(x), ag__.ld(result)), None,
                                     fscope)
    ag__.for_stmt(ag__.converted_call(range, (y,), None, fscope), None, loop_body, get_state,
                  set_state, ('result',), {'iterate_names': '_'})
    return ag__.ld(result)
