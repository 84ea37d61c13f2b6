"""Writes a TTIR kernel nested N deep; used by deep-nesting.test.

    nested.py KIND N

KIND: attr (N-1 nested `[` in an attribute, inside the attribute
dictionary's `{`), type (N-1 nested `!tt.ptr<` in an argument's type,
inside the signature's `(`), region (N-1 nested `scf.if` regions inside
the function body's `{`), comment (N `[` in a comment) or string (N `[` in
a string attribute). The nesting depth kiln counts is N for the first
three, 1 for the last two.
"""

import sys

kind, n = sys.argv[1], int(sys.argv[2])
if kind == "attr":
    print("tt.func public @k() attributes {x = " + "[" * (n - 1) + "]" * (n - 1)
          + "} { tt.return }")
elif kind == "type":
    print("tt.func public @k(%a: " + "!tt.ptr<" * (n - 1) + "f32" + ">" * (n - 1)
          + ") { tt.return }")
elif kind == "region":
    print("tt.func public @k(%c: i1) {\n" + "scf.if %c {\n" * (n - 1)
          + "}\n" * (n - 1) + "tt.return }")
elif kind == "comment":
    print("// " + "[" * n + "\ntt.func public @k() { tt.return }")
elif kind == "string":
    print('tt.func public @k() attributes {x = "' + "[" * n
          + '"} { tt.return }')
