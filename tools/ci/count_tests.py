#!/usr/bin/env python3
"""Counts the test cases of one `bazel test` run for ./kilnw test.

Reads the JUnit XML (test.xml) that Bazel keeps under bazel-testlogs/ for
every test target, but only files written during this run (newer than the
stamp file ./kilnw touches before starting Bazel), so results of earlier
runs are never counted again. Each <testcase> counts once, whoever wrote it:

  * GoogleTest: <testcase status="run" result="completed|skipped">, with
    <failure> children on failure and <skipped/> for GTEST_SKIP;
    status="notrun" for DISABLED_ tests.
  * lit --xunit-xml-output: <testcase classname= name=>, <failure> on
    failure, <skipped message=.../> for UNSUPPORTED and other skipped tests.
  * Bazel's own test.xml for tests that write none (plain sh_test, or a
    test that crashed or timed out before writing its own): one testcase
    named after the target, with an <error> child when it failed.

A case is failed if it has a <failure> or <error> child, skipped if it has
a <skipped> child or status="notrun" / result="skipped", else passed.

Bazel's summary lines (`//pkg:target   FAILED in 3.2s`) cover what the XML
cannot: a target reported FAILED, TIMEOUT, NO STATUS, FAILED TO BUILD, ...
with no failing case in a fresh test.xml counts as one failed case, and a
nonzero Bazel exit status with no failure counted at all (a build error, a
bad flag, no test targets) counts as one failure too, so the last line and
the exit status always agree.

Prints one line per target, the failed cases, and as the very last line
`N passed, N failed` (`, N skipped` appended when any were skipped).
Exits 0 only if nothing failed and Bazel exited 0.
"""

import argparse
import os
import re
import sys
import xml.etree.ElementTree as ET

# Bazel's per-target summary line, e.g.
#   //dialects/tt/IR:ops_test                    PASSED in 0.4s
#   //dialects/tt/IR:lit                (cached) PASSED in 1.2s
#   //runtime:state_test                  FAILED TO BUILD
#   //runtime:load_test      FLAKY, failed in 1 out of 2 in 0.9s
# Any status but PASSED and FLAKY (FAILED, TIMEOUT, NO STATUS, INCOMPLETE,
# ...) means the target failed.
_SUMMARY_RE = re.compile(
    r"^(?P<label>@?[\w.~+-]*//[^\s]*)\s+(?:\(cached\)\s+)?"
    r"(?P<status>[A-Z]+(?: [A-Z]+)*)(?=$|[\s,])"
)
_ANSI_RE = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
# Path components Bazel adds below a target's testlogs directory.
_SPLIT_DIR_RE = re.compile(r"^(shard_\d+_of_\d+|run_\d+_of_\d+|attempt_\d+)$")
_PASSING_STATUSES = {"PASSED", "FLAKY"}
# Bazel's documented exit codes, for a failure no test case shows.
_BAZEL_EXIT = {
    1: "build failed",
    2: "command line or environment problem",
    3: "tests failed",
    4: "no test targets found",
    8: "interrupted",
}


def parse_bazel_log(path):
    """Returns {label: status} from Bazel's test summary lines."""
    statuses = {}
    if not path or not os.path.exists(path):
        return statuses
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            m = _SUMMARY_RE.match(_ANSI_RE.sub("", line).strip())
            if m:
                statuses[m.group("label")] = m.group("status")
    return statuses


def label_to_dir(label):
    """//pkg/sub:name -> pkg/sub/name, the target's directory in testlogs."""
    repo, _, rest = label.partition("//")
    pkg, _, name = rest.partition(":")
    if not name:
        name = pkg.rsplit("/", 1)[-1]
    parts = []
    if repo.lstrip("@"):
        parts += ["external", repo.lstrip("@")]
    if pkg:
        parts.append(pkg)
    parts.append(name)
    return "/".join(parts)


def dir_to_label(target_dir):
    """pkg/sub/name -> //pkg/sub:name (a guess where the summary lacks it)."""
    pkg, _, name = target_dir.rpartition("/")
    return "//%s:%s" % (pkg, name)


def find_xml(testlogs, since_ns):
    """Returns {target_dir: [test.xml paths]}; only files newer than since_ns
    when since_ns is given."""
    found = {}
    if not os.path.isdir(testlogs):
        return found
    for dirpath, dirnames, filenames in os.walk(testlogs, followlinks=True):
        dirnames[:] = [d for d in dirnames if not d.endswith(".outputs")]
        if "test.xml" not in filenames:
            continue
        path = os.path.join(dirpath, "test.xml")
        if since_ns is not None and os.stat(path).st_mtime_ns < since_ns:
            continue
        parts = os.path.relpath(dirpath, testlogs).split(os.sep)
        while parts and _SPLIT_DIR_RE.match(parts[-1]):
            parts.pop()
        found.setdefault("/".join(parts), []).append(path)
    return found


def classify(case):
    """'failed', 'skipped' or 'passed' for one <testcase> element."""
    tags = {child.tag for child in case}
    if "failure" in tags or "error" in tags:
        return "failed"
    if ("skipped" in tags or case.get("status") == "notrun"
            or case.get("result") == "skipped"):
        return "skipped"
    return "passed"


def read_cases(path):
    """Yields (case name, outcome, message) for every <testcase> in one
    test.xml; message is that of its <error>/<failure>, if any."""
    root = ET.parse(path).getroot()
    parent = {child: p for p in root.iter() for child in p}
    for case in root.iter("testcase"):
        name = case.get("name") or ""
        classname = case.get("classname") or ""
        if not classname and not name:
            suite = parent.get(case)
            name = suite.get("name", "") if suite is not None else ""
        problem = case.find("error")
        if problem is None:
            problem = case.find("failure")
        message = problem.get("message", "") if problem is not None else ""
        yield ("%s.%s" % (classname, name) if classname else name,
               classify(case), message)


class Target:
    def __init__(self, label):
        self.label = label
        self.counts = {"passed": 0, "failed": 0, "skipped": 0}
        self.failed_cases = []

    def add(self, name, outcome):
        self.counts[outcome] += 1
        if outcome == "failed":
            self.failed_cases.append(name)

    def add_xml(self, path):
        own_name = label_to_dir(self.label)  # Bazel's generated testcase name
        try:
            for name, outcome, message in read_cases(path):
                if name.startswith(own_name):
                    # Bazel wrote this XML itself: the test wrote none, so
                    # its error message (exit code, signal) is all we know.
                    name = self.label + name[len(own_name):]
                    if message:
                        name += " (%s)" % message
                self.add(name, outcome)
        except (ET.ParseError, OSError) as e:
            self.add("(unreadable test.xml: %s)" % e, "failed")


def count(testlogs, since_ns, statuses, bazel_exit):
    """Returns the Target list for this run."""
    label_of_dir = {label_to_dir(label): label for label in statuses}
    targets = {}

    def target(label):
        return targets.setdefault(label, Target(label))

    for target_dir, paths in sorted(find_xml(testlogs, since_ns).items()):
        t = target(label_of_dir.get(target_dir, dir_to_label(target_dir)))
        for path in sorted(paths):
            t.add_xml(path)

    # What the XML of this run does not show: tests reported without a fresh
    # test.xml (cached results, crashes, targets that failed to build).
    stale = None
    for label, status in sorted(statuses.items()):
        t = targets.get(label)
        if status in _PASSING_STATUSES:
            if t is None:
                # A cached result: its test.xml is from the run that passed.
                if stale is None:
                    stale = find_xml(testlogs, None)
                t = target(label)
                for path in sorted(stale.get(label_to_dir(label), [])):
                    t.add_xml(path)
                if sum(t.counts.values()) == 0:
                    t.add(label, "passed")
        elif t is None or t.counts["failed"] == 0:
            target(label).add("%s (%s)" % (label, status), "failed")

    if bazel_exit != 0 and not any(t.counts["failed"] for t in targets.values()):
        why = _BAZEL_EXIT.get(bazel_exit, "see its output above")
        target("bazel").add("bazel test exited with status %d (%s)"
                            % (bazel_exit, why), "failed")
    return [targets[k] for k in sorted(targets)]


def totals_line(passed, failed, skipped):
    line = "%d passed, %d failed" % (passed, failed)
    if skipped:
        line += ", %d skipped" % skipped
    return line


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--testlogs", required=True,
                    help="the bazel-testlogs directory")
    ap.add_argument("--since",
                    help="stamp file touched before the run; only test.xml "
                         "files newer than it are read")
    ap.add_argument("--bazel-log",
                    help="Bazel's console output, for its summary lines")
    ap.add_argument("--bazel-exit", type=int, default=0,
                    help="Bazel's exit status")
    args = ap.parse_args(argv)

    since_ns = os.stat(args.since).st_mtime_ns if args.since else None
    targets = count(args.testlogs, since_ns, parse_bazel_log(args.bazel_log),
                    args.bazel_exit)

    passed = sum(t.counts["passed"] for t in targets)
    failed = sum(t.counts["failed"] for t in targets)
    skipped = sum(t.counts["skipped"] for t in targets)

    print("")
    print("Test cases by target:")
    width = max([len(t.label) + 1 for t in targets] + [0])
    for t in targets:
        print("  %-*s  %s" % (width, t.label + ":",
                              totals_line(t.counts["passed"], t.counts["failed"],
                                          t.counts["skipped"])))
    if not targets:
        print("  (no test ran)")
    if failed:
        print("Failed test cases:")
        for t in targets:
            for name in t.failed_cases:
                print("  " + (name if name.startswith(t.label)
                              else "%s: %s" % (t.label, name)))
    print(totals_line(passed, failed, skipped))
    sys.stdout.flush()
    return 0 if failed == 0 and args.bazel_exit == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
