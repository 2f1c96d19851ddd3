def tf__my_relu(x):
    fscope = ag__.new_scope('my_relu', ag__.STD_REQUESTED)
    return ag__.converted_call(rt.maximum, (0.0, x), None, fscope)
