def tf__get_MSE(y_true, y_pred):
    fscope = ag__.new_scope('get_MSE', ag__.STD_REQUESTED)
    print('Calculating MSE!')
    sq_diff = ag__.converted_call(rt.pow, (y_true - y_pred, 2), None, fscope)
    return ag__.converted_call(rt.reduce_mean, (sq_diff,), None, fscope)
