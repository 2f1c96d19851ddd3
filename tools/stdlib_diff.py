"""Passed tests per standard-library module, original vs converted with `autograph convert`.

    python3 -m tools.stdlib_diff [MODULE ...] [--keep DIR] [--show N] [--repeat N]

Runs tests/autograph/stdlib/stdlib_harness.py on each module (all of its MODULES by default) and
prints, per module, the tests that pass on the original, those that pass converted, the
regressions (passing on the original, not converted), the functions swapped and the times:
import and tests (`ratio`), the tests alone (`tests`), and the CPU time of the import and tests
(`cpu`, the process's: on a shared machine the steadier figure, which others' load moves
less than the wall-clock `ratio`). Both sides load bytecode, as a
user's program would: the original from the standard library's `__pycache__`, the converted
module from the caches one untimed import writes first (its `.pyc` and the converted code
objects, stdlib_harness.py); the converted side's import still includes the swap itself
(finding the module's functions and loading their code). Both sides run with autograph
loaded (untimed), so the tests' own `gc.collect()` calls scan the same objects on either side.
`--repeat N` runs each side N times, alternated, and keeps each side's fastest times (a shared
machine's load moves single runs by 30-100%). Functions converted while the tests run (a
test's own subclass of a converted class) are converted in the first run, into an on-disk
cache of the comparison's own, and loaded from it in the runs after: with `--repeat 1` they
are always converted (cold), with more the fastest run is usually one that loads them.
"""
import argparse
import os
import sys
import tempfile

from tests.autograph.stdlib import stdlib_harness as harness


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('modules', nargs='*', help='modules to test (default: all)')
    parser.add_argument('--keep', metavar='DIR', help='keep the converted files here')
    parser.add_argument('--show', type=int, default=5, metavar='N',
                        help='list up to N regressions per module')
    parser.add_argument('--repeat', type=int, default=1, metavar='N',
                        help='run each side N times, alternated; keep the fastest times')
    arguments = parser.parse_args(argv)
    modules = [harness.BY_NAME[m] for m in arguments.modules] or list(harness.MODULES)
    base = arguments.keep or tempfile.mkdtemp(prefix='stdlib_diff_')
    print(f'{"module":<14}{"original":>9}{"converted":>10}{"lost":>6}{"swapped":>8}'
          f'{"t orig":>8}{"t conv":>8}{"ratio":>7}{"tests":>7}{"cpu":>7}')
    totals = [0, 0, 0]
    for module in modules:
        result = harness.compare(module, os.path.join(base, module.name),
                                 arguments.repeat)
        original, converted = len(result.passed_original), len(result.passed_converted)
        lost = len(result.regressions)
        totals = [totals[0] + original, totals[1] + converted, totals[2] + lost]
        t_original, t_converted = result.original['seconds'], result.converted['seconds']
        ratio = t_converted / t_original if t_original else float('nan')
        tests_original = result.original.get('tests_seconds', 0.0)
        tests_ratio = result.converted.get('tests_seconds', 0.0) / tests_original \
            if tests_original else float('nan')
        cpu_original = result.original.get('cpu_seconds', 0.0)
        cpu_ratio = result.converted.get('cpu_seconds', 0.0) / cpu_original \
            if cpu_original else float('nan')
        print(f'{module.name:<14}{original:>9}{converted:>10}{lost:>6}'
              f'{len(result.converted["swapped"] or ()):>8}{t_original:>8.2f}'
              f'{t_converted:>8.2f}{ratio:>7.1f}{tests_ratio:>7.1f}{cpu_ratio:>7.1f}', flush=True)
        if result.converted['error']:
            print(f'    error: {result.converted["error"][:300]}')
        for test in result.regressions[:arguments.show]:
            print(f'    lost: {test}')
    print(f'{"total":<14}{totals[0]:>9}{totals[1]:>10}{totals[2]:>6}')
    return 0


if __name__ == '__main__':
    sys.exit(main())
