"""The functions whose readable form (`ag.to_code`) the golden files in golden/ pin: the seed
examples of the guide, and loops with a `break`, an `if` inside a `while` and a `return`. The
others are run in both forms by test_readable_form.py."""
import runtime as rt


def simple_relu(x):
    if rt.greater(x, 0):
        return x
    else:
        return 0


def my_relu(x):
    return rt.maximum(0., x)


def power(x, y):
    result = rt.eye(10, dtype=rt.int32)
    for _ in range(y):
        result = rt.matmul(x, result)
    return result


def train(num_steps):
    for _ in rt.range(num_steps):
        pass


def get_MSE(y_true, y_pred):
    print("Calculating MSE!")
    sq_diff = rt.pow(y_true - y_pred, 2)
    return rt.reduce_mean(sq_diff)


def sum_until(n, limit):
    total = 0
    for i in range(n):
        if total > limit:
            break
        total += i
    return total


def collatz_steps(x):
    steps = 0
    while x > 1:
        if x % 2 == 0:
            x = x // 2
        else:
            x = 3 * x + 1
        steps += 1
    return steps


def first_above(xs, limit):
    for x in xs:
        if x > limit:
            return x
    return -1


GOLDEN = (simple_relu, my_relu, power, train, get_MSE, sum_until, collatz_steps, first_above)


def clipped_sum(xs, low, high):
    total = 0.0
    for x in xs:
        if not low < x <= high:
            continue
        total += x if x > 0 and high > 0 else -x
    return total


def evens(n):
    found = []
    i = 0
    while i < n:
        if i % 2 == 0 or i == 7:
            found.append(i)
        i += 1
    return found


def scaled(x, factor):
    def scale(v):
        return v * factor if factor is not None else v
    assert x is not None, 'x is needed'
    apply = lambda v: scale(v) + 1  # noqa: E731 (a lambda, converted too)
    return apply(x)
