"""The one hook through which `ag.explain` learns from the operators which converted statements
became graph ops.

`recorder` is None except while `ag.explain` traces a function (autograph/tracing/explain.py
sets it). The operators test it only on their staged paths, which build graph ops anyway; the
paths that run Python values never look at it. A recorder has two methods:

- `mark()`, before a statement is staged: where the current graph's ops end;
- `staged(kind, mark)`, after: the statement of `kind` (`"if"`, `"for"`, ...) at the user's
  line that is running became the op of its kind made since `mark` (or `mark` is None and the
  op type is known: `staged(kind, None, op_type)`).
"""

recorder = None


class staging:
    """`with recording.staging(kind):` around the code that stages a statement of `kind`: tells
    the recorder, if there is one, once the statement's op is made."""

    __slots__ = ('kind', 'recorder', 'mark')

    def __init__(self, kind):
        self.kind = kind
        self.recorder = recorder

    def __enter__(self):
        self.mark = self.recorder.mark() if self.recorder is not None else None
        return self

    def __exit__(self, cls, exception, traceback):
        if cls is None and self.recorder is not None:
            self.recorder.staged(self.kind, self.mark)
        return False
