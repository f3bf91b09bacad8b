# SPDX-License-Identifier: GPL-2.0
"""make check-mutants FAST=1: the mutants made by rule, and the choice among them.
"""

import sys
import tempfile
import unittest
from pathlib import Path
from unittest import mock

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import config  # noqa: E402
import mutate  # noqa: E402

SOURCE = """\
#define GROUPS_SORT_SMALL	64
static const int ngroups_max_max = 65536;

static int groups_sorted(const struct group_info *gi)
{
	unsigned int i;

	for (i = 1; i < gi->ngroups; i++)
		if (gid_lt(group_info_gid(gi, i), group_info_gid(gi, i - 1)))
			return false;	/* a < b */
	return true;
}

static const int ngroups_max_min = 8;

SYSCALL_DEFINE2(setgroups, int, gidsetsize, gid_t __user *, grouplist)
{
	group_info = groups_alloc(gidsetsize);
	__group_info_blocks(gi)[b] =
		(kgid_t *)__get_free_page(GFP_KERNEL_ACCOUNT);
	if (!gid_eq(grp, cred->fsgid))
		retval = 1;
}
"""


def rules(line, prev=""):
    return [(r, new.strip()) for r, new in mutate.line_mutants(line, prev)]


class Rules(unittest.TestCase):
    def test_comparison_gid_constant_arith_negate(self):
        got = rules("\t\tif (gid_lt(group_info_gid(gi, i), group_info_gid(gi, i - 1)))")
        self.assertIn(("gid", "if (gid_gt(group_info_gid(gi, i), group_info_gid(gi, i - 1)))"),
                      got)
        self.assertIn(("const", "if (gid_lt(group_info_gid(gi, i), group_info_gid(gi, i - 2)))"),
                      got)
        self.assertIn(("arith", "if (gid_lt(group_info_gid(gi, i), group_info_gid(gi, i + 1)))"),
                      got)
        self.assertIn(("negate",
                       "if (!(gid_lt(group_info_gid(gi, i), group_info_gid(gi, i - 1))))"), got)
        got = rules("\tfor (i = 1; i < gi->ngroups; i++)")
        self.assertIn(("cmp", "for (i = 1; i <= gi->ngroups; i++)"), got)
        self.assertNotIn("cmp", [r for r, new in got if "->=" in new or "-=" in new])

    def test_gid_eq_negated_and_back(self):
        self.assertIn(("gid", "if (gid_eq(grp, cred->fsgid))"),
                      rules("\tif (!gid_eq(grp, cred->fsgid))"))
        self.assertIn(("gid", "return !gid_eq(gids[i], grp);"),
                      rules("\treturn gid_eq(gids[i], grp);"))

    def test_comments_declarations_and_octal_are_left_alone(self):
        self.assertEqual(rules("\t/* for (i = 0; i < n; i++) */"), [])
        self.assertEqual(rules("\t * from i < n to the end of the block"), [])
        self.assertEqual([r for r, _ in rules("\t\treturn false;\t/* a < b */")], [])
        self.assertNotIn("drop", [r for r, _ in rules("\tunsigned int i = 0;")])
        self.assertEqual(rules("\t\t.mode\t\t= 0644,"), [])

    def test_drop_only_a_whole_statement(self):
        self.assertIn(("drop", ";"), rules("\tgroup_info = groups_alloc(gidsetsize);", "{"))
        # the second line of a statement is not one
        self.assertNotIn("drop", [r for r, _ in rules(
            "\t\t(kgid_t *)__get_free_page(GFP_KERNEL_ACCOUNT);",
            "\t__group_info_blocks(gi)[b] =")])
        self.assertIn(("drop", ";"), rules("\t\tretval = 1;", "\tif (!gid_eq(grp, x))"))

    def test_a_statement_through_a_pointer_is_code(self):
        self.assertIn(("drop", ";"), rules("\t\t*len = gi->ngroups;", "{"))
        self.assertIn(("const", "#define GROUPS16_CHUNK\t65U"), rules("#define GROUPS16_CHUNK\t64U"))

    def test_an_explanation_is_for_one_mutated_line(self):
        text = "# c\ngroups.c:f:cmp1 | if (a < b) { | both sort\n"
        explain = mutate.equivalents(text)
        m = {"id": "groups.c:f:cmp1", "new": "\tif (a < b) {"}
        self.assertEqual(mutate.explained(explain, m), "both sort")
        self.assertIsNone(mutate.explained(explain, {**m, "new": "\tif (a > b) {"}))
        for line in (mutate.EQUIVALENT.read_text().splitlines()):
            if line and not line.startswith("#"):
                self.assertEqual(len(line.split(" | ")), 3, line)

    def test_define_constant(self):
        self.assertEqual(rules("#define GROUPS_SORT_SMALL\t64"),
                         [("const", "#define GROUPS_SORT_SMALL\t65")])


class Mutants(unittest.TestCase):
    def test_functions_ids_and_what_is_outside_functions(self):
        added = set(range(1, SOURCE.count("\n") + 1))
        ms = mutate.mutants_of(SOURCE, added, "kernel/groups.c")
        funcs = {m["function"] for m in ms}
        self.assertEqual(funcs, {"GROUPS_SORT_SMALL", "groups_sorted", "setgroups"})
        # between two functions is in neither (the sysctl's table and limits)
        for between in ("static const int ngroups_max_max = 65536;",
                        "static const int ngroups_max_min = 8;"):
            self.assertNotIn(SOURCE.split("\n").index(between) + 1, [m["line"] for m in ms])
        ids = [m["id"] for m in ms]
        self.assertEqual(len(ids), len(set(ids)))
        self.assertIn("groups.c:groups_sorted:cmp1", ids)
        for m in ms:        # each changes exactly its own line
            self.assertEqual(SOURCE.split("\n")[m["line"] - 1], m["old"])
            self.assertNotEqual(m["old"], m["new"])

    def test_what_only_the_selftests_reach(self):
        for f in ("setgroups", "getgroups16", "groups_from_user", "groups16_to_user",
                  "in_egroup_p"):
            self.assertTrue(mutate.SUITE_ONLY.match(f), f)
        for f in ("groups_search_paged", "groups_alloc", "setgroups1", "groups_sort"):
            self.assertFalse(mutate.SUITE_ONLY.match(f), f)

    def test_pick_spreads_over_functions_and_rules(self):
        ms = [{"id": f"{f}:{r}{k}", "function": f, "rule": r, "path": "p", "line": i}
              for i, (f, r, k) in enumerate((f, r, k) for f in "abc" for r in ("cmp", "drop")
                                            for k in range(5))]
        got = mutate.pick(ms, 6)
        self.assertEqual(sorted((m["function"], m["rule"]) for m in got),
                         [(f, r) for f in "abc" for r in ("cmp", "drop")])
        self.assertEqual(len(mutate.pick(ms, 0)), len(ms))


class Patches(unittest.TestCase):
    """FAST=1 MUTANTS=name: a mutant of robust/mutants/ is caught only when KUnit fails
    with it, and the tree is put back after each one."""

    def run_with(self, states):
        calls = []

        def kunit(tree, log):
            return states.pop(0)

        def sh(cmd, cwd=None, check=None):
            calls.append(cmd[:3])
            return mock.Mock(returncode=0)
        with mock.patch.object(mutate, "mutants_tree", return_value=Path("/nonexistent")), \
             mock.patch.object(mutate, "run_kunit", side_effect=kunit), \
             mock.patch.object(mutate.subprocess, "run", side_effect=sh), \
             mock.patch.object(mutate, "conclude", side_effect=lambda job, r, t0: r), \
             mock.patch.object(mutate, "progress"):
            return mutate.cmd_patches(["a", "b", "c"]), calls

    def test_caught_only_by_failing_tests(self):
        results, calls = self.run_with([("pass", []), ("fail", ["t/kunit/groups/x"]),
                                        ("pass", []), ("build", "does not build")])
        self.assertEqual([r[1] for r in results], ["pass", "fail", "fail"])
        self.assertIn("1 failed, e.g. t/kunit/groups/x", results[0][2])
        self.assertIn("not caught (build", results[2][2])
        self.assertEqual([c[:2] for c in calls], [["git", "apply"], ["git", "checkout"]] * 3)

    def test_a_failing_baseline_stops_the_run(self):
        with self.assertRaises(mutate.Failure):
            self.run_with([("fail", ["t/kunit/groups/y"])])


def mutant(k, function="groups_search", path="kernel/groups.c"):
    return {"id": f"{Path(path).name}:{function}:cmp{k}", "function": function, "rule": "cmp",
            "path": path, "line": k, "old": "\tif (a < b)", "new": "\tif (a <= b)"}


class Choice(unittest.TestCase):
    def test_the_lines_the_series_adds(self):
        diff = ("diff --git a/kernel/groups.c b/kernel/groups.c\n"
                "@@ -10,0 +11,3 @@ int x;\n+a\n+b\n+c\n"
                "@@ -20 +23 @@\n-old\n+new\n"
                "@@ -30,2 +33,0 @@\n-gone\n-gone\n")
        with mock.patch.object(mutate.subprocess, "run", return_value=mock.Mock(stdout=diff)):
            self.assertEqual(mutate.added_lines(Path("/tree"), "kernel/groups.c"),
                             {11, 12, 13, 23})

    def test_uid16_and_the_syscalls_need_the_suite(self):
        self.assertTrue(mutate.needs_suite(mutant(1, "getresgid16", "kernel/uid16.c")))
        self.assertTrue(mutate.needs_suite(mutant(1, "setgroups")))
        self.assertFalse(mutate.needs_suite(mutant(1, "groups_search")))

    def test_named_mutants_or_each_kind_up_to_its_limit(self):
        fast = [mutant(k) for k in range(1, 4)]
        slow = [mutant(k, "setgroups") for k in range(4, 7)]
        chosen = mutate.choose(fast + slow, 2, 1, ())
        self.assertEqual([m["id"] for m in chosen],
                         ["groups.c:groups_search:cmp1", "groups.c:groups_search:cmp2",
                          "groups.c:setgroups:cmp4"])
        self.assertEqual(len(mutate.choose(fast + slow, 0, 0, ())), 6)
        self.assertEqual(mutate.choose(fast + slow, 1, 1, ["groups.c:setgroups:cmp6"]),
                         [slow[2]])
        with self.assertRaises(config.Failure) as e:
            mutate.choose(fast + slow, 1, 1, ["groups.c:setgroups:cmp6", "groups.c:x:cmp9"])
        self.assertIn("no mutant groups.c:x:cmp9", str(e.exception))


class Verdict(unittest.TestCase):
    def test_a_survivor_fails_unless_explained(self):
        m = mutant(1)
        self.assertEqual(mutate.verdict_of(m, "fail", ["KUnit groups_test_search"], {})[1:],
                         ("pass", "caught by KUnit groups_test_search"))
        self.assertEqual(mutate.verdict_of(m, "build", ["does not build"], {})[1], "skip")
        self.assertEqual(mutate.verdict_of(m, "pass", [], {})[1:],
                         ("fail", "survives: no test catches it"))
        explain = {(m["id"], m["new"].strip()): "both orders sort alike"}
        self.assertEqual(mutate.verdict_of(m, "pass", [], explain)[1:],
                         ("skip", "survives, equivalent: both orders sort alike"))


class Runs(unittest.TestCase):
    def suite(self, results=(), baseline=(), build_fails=False):
        def kmake(*a, **kw):
            if build_fails:
                raise config.Failure("make failed")
        with tempfile.TemporaryDirectory() as d, config.using(build=Path(d)), \
                mock.patch.object(mutate, "ensure_config"), \
                mock.patch.object(mutate, "kmake", side_effect=kmake), \
                mock.patch.object(mutate, "boot_suite", return_value=list(results)):
            return mutate.run_suite(Path(d), "mutant-1", baseline)

    def test_the_suite_catches_with_failures_the_unmutated_kernel_has_not(self):
        ok = ("mutant-1/x86_64/groups_test/global.sort", "pass", "")
        known = ("mutant-1/x86_64/groups_test/global.flaky", "fail", "timeout")
        new = ("mutant-1/i386/groups_test/global.sort", "fail", "x")
        self.assertEqual(self.suite([ok]), ("pass", []))
        self.assertEqual(self.suite([ok, known], {"x86_64/groups_test/global.flaky"}),
                         ("pass", []))
        self.assertEqual(self.suite([ok, known, new], {"x86_64/groups_test/global.flaky"}),
                         ("fail", ["mutant-1/i386/groups_test/global.sort"]))
        self.assertEqual(self.suite(build_fails=True), ("build", ["does not build"]))

    def test_a_mutant_goes_to_what_can_reach_it_and_its_file_comes_back(self):
        with tempfile.TemporaryDirectory() as d:
            for path in ("kernel/groups.c", "kernel/uid16.c"):
                Path(d, path).parent.mkdir(exist_ok=True)
                Path(d, path).write_text("{\n\tif (a < b)\n}\n")
            seen = []

            def run(name):
                def runner(tree, *a):
                    seen.append((name, Path(d, m["path"]).read_text()))
                    return "fail", ["x"]
                return runner
            with mock.patch.object(mutate, "run_kunit", side_effect=run("KUnit")), \
                    mock.patch.object(mutate, "run_suite", side_effect=run("suite")), \
                    config.using(build=Path(d)):
                for m in (mutant(2), mutant(2, "setgroups"),
                          mutant(2, "getresgid16", "kernel/uid16.c")):
                    self.assertEqual(mutate.try_mutant(Path(d), m, "mutant-1")[1], ("fail", ["x"]))
                    self.assertEqual(Path(d, m["path"]).read_text(), "{\n\tif (a < b)\n}\n")
        self.assertEqual(seen, [("KUnit", "{\n\tif (a <= b)\n}\n"),
                                ("suite", "{\n\tif (a <= b)\n}\n"),
                                ("suite", "{\n\tif (a <= b)\n}\n")])

    def test_the_baseline_must_pass_kunit_and_excuses_the_suite_s_own_failures(self):
        def baselines(kunit, chosen, suite=("pass", [])):
            with mock.patch.object(mutate, "run_kunit", return_value=kunit), \
                    mock.patch.object(mutate, "run_suite", return_value=suite) as ran, \
                    mock.patch.object(mutate, "progress"), config.using(build=Path("/b")):
                return mutate.baselines(Path("/tree"), chosen), ran.call_count
        with self.assertRaises(config.Failure):
            baselines(("fail", ["KUnit groups_test_search"]), [mutant(1)])
        self.assertEqual(baselines(("pass", []), [mutant(1)]), (set(), 0))
        failed = ("fail", ["mutants-base/x86_64/groups_test/global.flaky"])
        self.assertEqual(baselines(("pass", []), [mutant(1, "setgroups")], failed),
                         ({"x86_64/groups_test/global.flaky"}, 1))


if __name__ == "__main__":
    unittest.main()
