"""The speed machinery of converted code: everything here makes the executed code fast on
Python values and changes nothing it computes.

The converters write each `if`, loop, `and`/`or`/`not` and conditional expression in two
forms, the staged one (`ag__.if_stmt(...)` and its block functions) and the construct as plain
Python, and the value of its test picks one when it runs (`dual`). Then:

- `plain_forms` writes the code that runs on Python values close to the original: real
  returns, direct calls of plain values' methods, `ag__.ld(x)` only where `x` may hold a
  placeholder, the `ag__` constants of a loop read from locals;
- `type_tests` finds where a local's type test can be made once for several uses;
- `scope_reads` takes the function scope's lookup off a call's entry: the slow paths that use
  the scope look it up where they run;
- `staged_functions` moves each staged form into a function of its own, so that the plain
  path's variables stay fast locals rather than cells.

The readable form of `ag.to_code` (converters/staged_view.py) leaves all of it out: it keeps
the staged form of each construct, TensorFlow's shape, and runs none of `plain_forms`,
`scope_reads` and `staged_functions`. docs/performance.md measures what each part buys.
"""
