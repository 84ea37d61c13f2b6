"""The nesting-depth error's excerpt, for deep-nesting.test.

    excerpt_check.py write FILE   writes a kernel with 40 `é` and a tab
                                  before 1000 nested `[`, on a CRLF line
    excerpt_check.py check ERR    reads kiln's stderr: whether the excerpt
                                  (its second line) has a CR, whether the
                                  caret line (its third) has a tab where
                                  the excerpt has one, and what is above
                                  the caret
"""

import sys

mode, path = sys.argv[1], sys.argv[2]
if mode == "write":
    text = ('tt.func public @k() attributes {s = "' + "\u00e9" * 40
            + '", x = \t' + "[" * 1000 + "]" * 1000 + "} { tt.return }\r\n")
    with open(path, "wb") as out:
        out.write(text.encode())
else:
    lines = open(path, "rb").read().split(b"\n")
    # A split character would raise here.
    excerpt, caret = lines[1].decode("utf-8"), lines[2].decode("utf-8")
    at = len(caret) - 1
    print("cr" if "\r" in excerpt else "no cr",
          "tab kept" if caret[:at].count("\t") == excerpt[:at].count("\t")
          else "tab lost",
          "under " + excerpt[at])
