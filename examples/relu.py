"""A small program to convert: `autograph convert examples/relu.py`."""
import runtime as rt


def simple_relu(x):
    if rt.greater(x, 0):
        return x
    else:
        return 0


def count_down(n):
    total = 0
    while n > 0:
        if n % 3 == 0:
            n -= 1
            continue
        total += n
        n -= 1
    return total
