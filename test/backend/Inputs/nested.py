"""Writes a TTIR kernel nested N deep; used by deep-nesting.test.

    nested.py KIND N

KIND: attr (N-1 nested `[` in an attribute, inside the attribute
dictionary's `{`), type (N-1 nested `!tt.ptr<` in an argument's type,
inside the signature's `(`), region (N-1 nested `scf.if` regions inside
the function body's `{`), comment (N `[` in a comment) or string (N `[` in
a string attribute): the nesting depth kiln counts in the text is N for
the first three, 1 for the last two. Also:
  setreset  N levels as two runs of `[`, with an integer set of 700 `>=`
            constraints between them (which lowered the count: helper-87);
  neg       N levels: an affine map whose result is N-3 unary minus signs
            before d0, in the attribute dictionary;
  chain     aliases #a0 = [0], #a1 = [#a0], ... #a{N-1}, the last one used
            as an attribute (text nested 2 deep);
  double    aliases #a0 = [0], #a1 = [#a0, #a0], ... #a{N-1}: 2^(N-1)
            zeros written out;
  props     the same aliases, #a{N-1} as an op's properties (a parser
            error that prints it);
  negcomment  as neg, with a `//` comment after each sign;
  crcomment as attr, with a `//` comment ended by a CR (no LF) before
            the brackets, and CRs for line ends;
  mulchain  an affine map `(d0)[s0] -> (d0 * s0 * ...)` of N products;
  wide      an array attribute of N integers (shallow).
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
elif kind == "setreset":
    first = (n - 1) // 2
    second = n - 1 - first
    constraints = ", ".join(["d0 >= 0"] * 700)
    print("tt.func public @k() attributes {x = " + "[" * first
          + "affine_set<(d0) : (" + constraints + ")>, " + "[" * second
          + "]" * second + "]" * first + "} { tt.return }")
elif kind == "neg":
    print("tt.func public @k() attributes {x = affine_map<(d0) -> ("
          + "- " * (n - 3) + "d0)>} { tt.return }")
elif kind == "negcomment":
    print("tt.func public @k() attributes {x = affine_map<(d0) -> ("
          + "-//\n" * (n - 3) + "d0)>} { tt.return }")
elif kind == "crcomment":
    sys.stdout.write("tt.func public @k() attributes {x = //\r" + "[" * (n - 1)
                     + "]" * (n - 1) + "} { tt.return }\r")
elif kind == "wide":
    print("tt.func public @k() attributes {x = [" + ", ".join(["1"] * n)
          + "]} { tt.return }")
elif kind == "mulchain":
    print("tt.func public @k() attributes {x = affine_map<(d0)[s0] -> (d0"
          + " * s0" * n + ")>} { tt.return }")
elif kind == "props":
    print("#a0 = [0]")
    for i in range(1, n):
        print(f"#a{i} = [#a{i - 1}, #a{i - 1}]")
    print(f'tt.func public @k() {{ %c = "arith.constant"() '
          f'<{{value = #a{n - 1}}}> : () -> i32\n tt.return }}')
elif kind in ("chain", "double"):
    print("#a0 = [0]")
    for i in range(1, n):
        print(f"#a{i} = [#a{i - 1}]" if kind == "chain"
              else f"#a{i} = [#a{i - 1}, #a{i - 1}]")
    print(f"tt.func public @k() attributes {{x = #a{n - 1}}} {{ tt.return }}")
elif kind == "string":
    print('tt.func public @k() attributes {x = "' + "[" * n
          + '"} { tt.return }')
