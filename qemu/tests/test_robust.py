# SPDX-License-Identifier: GPL-2.0
"""robust: which checks a mutant is for.
"""

import sys
import tempfile
import unittest
from pathlib import Path
from types import SimpleNamespace
from unittest import mock

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import config  # noqa: E402
import robust  # noqa: E402


class MutantChecks(unittest.TestCase):
    def checks_of(self, header):
        with tempfile.TemporaryDirectory() as d:
            (Path(d) / "m.patch").write_text(header + "\n--- a/x\n+++ b/x\n")
            with mock.patch.object(robust, "MUTANTS", Path(d)):
                return robust.mutant_checks("m")

    def test_a_checks_line_names_them(self):
        self.assertEqual(self.checks_of("Mutant: nfsd\nChecks: nfs"), ["nfs"])
        self.assertEqual(self.checks_of("Mutant\nChecks: check,debug"), ["check", "debug"])

    def test_without_one_every_check_but_nfs(self):
        self.assertEqual(self.checks_of("Mutant: groups.c"), ["check", "differential", "debug"])

    def test_the_repository_s_nfsd_mutant_is_for_check_nfs(self):
        self.assertEqual(robust.mutant_checks("nfsd-squash-shares-gid-0"), ["nfs"])


def guest(*programs):
    """A console with the programs' (label, lines) between /init's markers"""
    lines = ["[    0.1] Linux version 6.1"]
    for label, out in programs:
        lines += [f"# harness: begin {label}", *out, f"# harness: end {label} exit=0"]
    return lines + ["# harness: done"]


class Debug(unittest.TestCase):
    def test_failed_names_the_failures(self):
        self.assertEqual(robust.failed([("a", "pass", ""), ("b", "fail", "x"), ("c", "skip", "")]),
                         ["b"])
        self.assertEqual(robust.failed([("a", "pass", "")]), [])

    def test_each_facility_must_have_been_on(self):
        lines = ["[    0.0] KernelAddressSanitizer initialized (generic)"]
        facilities = {"KASAN": robust.DEBUG_ON["KASAN"], "KFENCE": robust.DEBUG_ON["KFENCE"]}
        with mock.patch.object(robust, "boot_plan", return_value=(lines, "ok", 1.0, [])), \
                mock.patch.object(robust, "report_boot"):
            results, _ = robust.boot_checked("patched", "x86_64", None, "debug-x86_64", {}, [],
                                             {}, facilities)
        self.assertEqual([r[:2] for r in results], [("debug-x86_64/KASAN was on", "pass"),
                                                     ("debug-x86_64/KFENCE was on", "fail")])


class Differential(unittest.TestCase):
    def test_each_abi_s_digest_is_read_from_its_program(self):
        lines = guest(("x86_64/groups_diff", ["ok 1 model", "# digest: 0123456789abcdef ops=100"]),
                      ("i386/groups_diff", ["ok 1 model"]))
        results = [("d/kunit/groups/x", "fail", ""), ("d/x86_64/groups_diff/model", "pass", "")]
        with mock.patch.object(robust, "robust_programs",
                               return_value={"x86_64": {"groups_diff": "x"},
                                             "i386": {"groups_diff": "i"}}), \
                mock.patch.object(robust, "build_kernel"), \
                mock.patch.object(robust, "boot_plan", return_value=(lines, "ok", 1.0, results)), \
                mock.patch.object(robust, "report_boot"):
            got, digests = robust.differential("vanilla", "x86_64")
        self.assertEqual(got, [("d/x86_64/groups_diff/model", "pass", "")])   # KUnit left out
        self.assertEqual(digests, {"x86_64/groups_diff": ("0123456789abcdef", 100)})

    def run_differential(self, vanilla, patched):
        """cmd_differential's results when the kernels' digests are these"""
        def differential(kernel, target, seed, ops):
            return [], {"vanilla": vanilla, "patched": patched}[kernel]
        args = SimpleNamespace(targets=["x86_64"], seed=1, ops=100)
        with mock.patch.object(robust, "differential", side_effect=differential), \
                mock.patch.object(robust, "conclude", side_effect=lambda job, r, t0: r), \
                mock.patch("builtins.print"):
            return {r[0].split(": ")[1]: r[1] for r in robust.cmd_differential(args)}

    def test_vanilla_and_patched_digests_must_agree(self):
        same = {"x86_64/groups_diff": ("0123456789abcdef", 100),
                "i386/groups_diff": ("fedcba9876543210", 100)}
        self.assertEqual(self.run_differential(same, dict(same)),
                         {"x86_64 x86_64": "pass", "x86_64 i386": "pass"})
        other = {**same, "i386/groups_diff": ("fedcba9876543211", 100)}
        self.assertEqual(self.run_differential(same, other),
                         {"x86_64 x86_64": "pass", "x86_64 i386": "fail"})
        fewer = {**same, "i386/groups_diff": ("fedcba9876543210", 99)}
        self.assertEqual(self.run_differential(same, fewer)["x86_64 i386"], "fail")
        self.assertEqual(self.run_differential({}, {}),       # no digest is no agreement
                         {"x86_64 x86_64": "fail", "x86_64 i386": "fail"})


class Mutants(unittest.TestCase):
    def caught(self, names, failing, checks="check,differential,debug,nfs", every=False,
               digests=None):
        """cmd_mutants's results, and the checks it ran, when the checks in failing fail"""
        ran = []

        def check(name):
            def run(kernel, *a):
                ran.append(name)
                return [("t", "fail" if name in failing else "pass", "")]
            return run
        vanilla = {"x86_64/groups_diff": ("0123456789abcdef", 100)}

        def differential(kernel, target):
            ran.append("differential")
            r = [("d", "fail" if "differential" in failing else "pass", "")]
            return r, vanilla if kernel == "vanilla" else (digests or vanilla)
        args = SimpleNamespace(fast=False, names=names, checks=checks, all=every)
        with mock.patch.object(robust, "boot_suite", side_effect=check("check")), \
                mock.patch.object(robust, "differential", side_effect=differential), \
                mock.patch.object(robust, "debug_run",
                                  side_effect=lambda k, t: (check("debug")(k), [], "seed")), \
                mock.patch.object(robust.nfs, "check_kernel", side_effect=check("nfs")), \
                mock.patch.object(robust, "conclude", side_effect=lambda job, r, t0: r), \
                mock.patch.object(robust, "progress"), mock.patch("builtins.print"):
            return [r[1] for r in robust.cmd_mutants(args)], ran

    def test_a_mutant_is_caught_by_the_first_check_that_fails(self):
        self.assertEqual(self.caught(["skip-sort"], {"check"}), (["pass"], ["check"]))
        self.assertEqual(self.caught(["skip-sort"], {"debug"}),
                         (["pass"], ["check", "differential", "differential", "debug"]))
        self.assertEqual(self.caught(["skip-sort"], set()),
                         (["fail"], ["check", "differential", "differential", "debug"]))
        # --all: every check, even once caught
        self.assertEqual(self.caught(["skip-sort"], {"check"}, every=True)[1],
                         ["check", "differential", "differential", "debug"])
        # only those its Checks: line names, of those asked for
        self.assertEqual(self.caught(["nfsd-squash-shares-gid-0"], set())[1], ["nfs"])
        self.assertEqual(self.caught(["skip-sort"], set(), checks="debug")[1], ["debug"])

    def test_a_mutant_of_other_bases_is_skipped(self):
        # LOCALIO exists from 6.12 on
        self.assertEqual(robust.mutant_bases("localio-off"), ["6.12", "7.3"])
        self.assertIsNone(robust.mutant_bases("skip-sort"))
        for base, want in (("6.1", (["skip"], [])), ("7.3", (["pass"], ["nfs"]))):
            with mock.patch.object(robust, "settings", return_value=SimpleNamespace(base=base)):
                self.assertEqual(self.caught(["localio-off"], {"nfs"}), want, base)

    def test_a_digest_unlike_vanilla_s_catches_it(self):
        other = {"x86_64/groups_diff": ("0123456789abcdee", 100)}
        self.assertEqual(self.caught(["skip-sort"], set(), digests=other),
                         (["pass"], ["check", "differential", "differential"]))

    def test_an_unknown_check_is_refused(self):
        with self.assertRaises(config.Failure) as e:
            self.caught(["skip-sort"], set(), checks="check,kasan")
        self.assertIn("unknown check 'kasan'", str(e.exception))


if __name__ == "__main__":
    unittest.main()
