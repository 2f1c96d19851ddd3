"""Code, docs and the changelog speak to readers outside the project's history: no issue
numbers, no references to sections of a contract file that is not in the repository, and no
numbered stretches of past work ("the fifth session"). Say what the code does, and link to docs/."""
import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parent.parent
FOLDERS = ('runtime', 'autograph', 'autograph_rt', 'tools', 'tests', 'docs', 'examples')
ORDINALS = ('first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|'
            'twelfth|thirteenth|fourteenth|fifteenth|\\d+(?:st|nd|rd|th)')
HISTORY = re.compile(
    r'\bissues? \d+|\bSPEC\b ?§|§ ?\d|\bSPEC \d+\b'
    rf'|\b(?:{ORDINALS}|this|last|previous|next|earlier) session\b', re.IGNORECASE)
# Text that is not the project's own words: fixtures recorded from other programs and the
# standard-library tests the stdlib harness runs.
SKIPPED = ('tests/autograph/stdlib/lib', '/fixtures/')


def project_files():
    yield ROOT / 'README.md'
    yield ROOT / 'CHANGELOG.md'
    for folder in FOLDERS:
        for path in sorted((ROOT / folder).rglob('*')):
            relative = path.relative_to(ROOT).as_posix()
            if path.suffix in ('.py', '.md') and not any(s in relative for s in SKIPPED):
                yield path


def test_no_issue_numbers_contract_sections_or_session_names():
    found = []
    for path in project_files():
        if path == pathlib.Path(__file__):
            continue
        for number, line in enumerate(path.read_text(encoding='utf-8').splitlines(), 1):
            if HISTORY.search(line):
                found.append(f'{path.relative_to(ROOT)}:{number}: {line.strip()}')
    assert not found, 'history vocabulary:\n' + '\n'.join(found[:40])


def test_the_pattern_finds_what_it_is_for():
    for text in ('see issue 22', 'SPEC §6', 'as in §3', 'the fifth session', 'last session'):
        assert HISTORY.search(text), text
    for text in ('tf.compat.v1.Session(graph=g)', 'pytest_sessionfinish(session)',
                 "the test run's temp dir", 'a tissue 3', 'docs/jit.md'):
        assert not HISTORY.search(text), text
