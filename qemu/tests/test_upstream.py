# SPDX-License-Identifier: GPL-2.0
"""upstream: which objects series-check compiles, how it judges their
warnings, where the proposed MAINTAINERS entry goes, and who each mail is
sent to.
"""

import io
import subprocess
import sys
import tempfile
import unittest
from contextlib import redirect_stdout
from pathlib import Path
from types import SimpleNamespace
from unittest import mock

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import config  # noqa: E402
import upstream  # noqa: E402

PREAMBLE = "List of maintainers\n===================\n\n3C59X NETWORK DRIVER\nM:\tA <a@x.org>\n\n"


class Objects(unittest.TestCase):
    def test_enabled_reads_only_obj_config_lines(self):
        with tempfile.TemporaryDirectory() as d:
            tree, out = Path(d, "tree"), Path(d, "out")
            (tree / "kernel").mkdir(parents=True)
            out.mkdir()
            (tree / "kernel/Makefile").write_text(
                "obj-y = groups.o cred.o\nobj-$(CONFIG_UID16) += uid16.o\n")
            (out / ".config").write_text("# CONFIG_UID16 is not set\nCONFIG_UID16_X=y\n")
            self.assertFalse(upstream.enabled(tree, out, "kernel/uid16.o"))
            self.assertTrue(upstream.enabled(tree, out, "kernel/groups.o"))
            self.assertTrue(upstream.enabled(tree, out, "fs/nfsd/auth.o"))   # no Makefile
            (out / ".config").write_text("CONFIG_UID16=y\n")
            self.assertTrue(upstream.enabled(tree, out, "kernel/uid16.o"))

    def judge(self, patched, vanilla):
        """check_objects() on one compile row, with recorded (ok, warnings)"""
        results = []
        row = [("mips", "mips", "mips-linux-gnu-", None, [])]
        per = {"patched": patched, "vanilla": vanilla}
        with mock.patch.object(upstream, "COMPILE", row), \
             mock.patch.object(upstream.shutil, "which", return_value="/usr/bin/gcc"), \
             mock.patch.object(upstream, "objects_warnings",
                               side_effect=lambda kernel, *a: per[kernel]), \
             mock.patch.object(upstream, "progress"):
            upstream.check_objects(results, ["mips"])
        self.assertEqual(len(results), 1)
        return results[0][1]

    def test_only_new_warnings_fail(self):
        old = "kernel/cred.c:1: warning: old"
        self.assertEqual(self.judge((True, [old]), (True, [old])), "pass")
        self.assertEqual(self.judge((True, [old, "kernel/groups.c:9: warning: new"]),
                                    (True, [old])), "fail")
        self.assertEqual(self.judge((False, []), (True, [])), "fail")
        # a tree that fails as the vanilla one does is skipped, not passed
        err = "arch/alpha/include/asm/pgtable.h:1: error: x"
        self.assertEqual(self.judge((False, [err]), (False, [err])), "skip")

    def test_a_warning_moved_by_the_series_is_not_new(self):
        """The series adds lines above a warning that vanilla has too: the same
        warning at another line is not new, one more of it is."""
        v = ["fs/proc/array.c:252:11: warning: incorrect type in assignment",
             "fs/proc/array.c:288:9: warning: context imbalance in 'proc_pid_status'"]
        p = ["fs/proc/array.c:255:11: warning: incorrect type in assignment",
             "fs/proc/array.c:291:9: warning: context imbalance in 'proc_pid_status'"]
        self.assertEqual(self.judge((True, p), (True, v)), "pass")
        self.assertEqual(self.judge((True, p + ["fs/proc/array.c:300:9: warning: incorrect "
                                                "type in assignment"]), (True, v)), "fail")

    def test_a_checker_kbuild_turned_off_is_a_skip_not_a_pass(self):
        results = []
        why = "C=2 specified, but sparse is not available or not up to date"
        row = [("x86_64", "x86_64", "", None, ["sparse"])]
        with mock.patch.object(upstream, "COMPILE", row), \
             mock.patch.object(upstream, "objects_warnings", return_value=(None, [why])), \
             mock.patch.object(upstream, "progress"):
            upstream.check_objects(results, ["x86_64"])
        self.assertEqual(results, [("objects: x86_64 sparse", "skip", why)])
        ok, warnings, _ = self.warnings([
            "/t/Makefile:1311: C=2 specified, but sparse is not available or not up to date",
            "  CC      kernel/groups.o"])
        self.assertEqual((ok, warnings), (None, [why]))

    def warnings(self, log_lines, returncode=0):
        """objects_warnings() of x86_64 W=1, where make prints log_lines: (ok, warnings,
        the objects made)"""
        made = []

        def kmake(tree, out, t, *args, log, check=True):
            made.extend(args)
            log.parent.mkdir(parents=True, exist_ok=True)
            log.write_text("".join(x + "\n" for x in log_lines))
            return mock.Mock(returncode=returncode)
        with tempfile.TemporaryDirectory() as d, config.using(build=Path(d)):
            tree, out = Path(d, "tree"), Path(d, "out/objects-patched-x86_64")
            for f in ("kernel/groups.c", "kernel/uid16.c"):
                Path(tree, f).parent.mkdir(parents=True, exist_ok=True)
                Path(tree, f).write_text("")
            (tree / "kernel/Makefile").write_text("obj-$(CONFIG_UID16) += uid16.o\n")
            out.mkdir(parents=True)
            (out / ".config").write_text("CONFIG_X=y\n")
            (out / "kernel").mkdir()
            (out / "kernel/groups.o").write_text("stale")
            touched = ["kernel/groups.o", "kernel/uid16.o", "fs/nfsd/auth.o"]
            with mock.patch.object(upstream, "tree_of", return_value=tree), \
                    mock.patch.object(upstream, "ensure_patched"), \
                    mock.patch.object(upstream, "touched_objects", return_value=touched), \
                    mock.patch.object(upstream, "kmake", side_effect=kmake):
                ok, warnings = upstream.objects_warnings("patched", "x86_64", "x86_64", "", "",
                                                         "W=1")
            self.assertFalse((out / "kernel/groups.o").exists())      # made again
        return ok, warnings, made

    def test_the_touched_objects_warnings_are_read_from_the_log(self):
        ok, warnings, made = self.warnings([
            "  CC      kernel/groups.o",
            "/work/build/patched/kernel/groups.c:12:3: warning: unused variable 'x'",
            "init/Kconfig:12:warning: choice value used outside its choice group",
            "/work/build/patched/kernel/groups.c:12:3: warning: unused variable 'x'"])
        self.assertTrue(ok)
        self.assertEqual(warnings, ["kernel/groups.c:12:3: warning: unused variable 'x'"])
        # uid16.o is not in the .config, auth.c not in the tree
        self.assertEqual(made, ["W=1", "kernel/groups.o"])
        ok, warnings, _ = self.warnings(["kernel/groups.c:1:1: error: expected ';'"], 2)
        self.assertEqual((ok, warnings), (False, ["kernel/groups.c:1:1: error: expected ';'"]))

    def test_dropped_options_fail_only_a_strict_row(self):
        def kmake(tree, out, t, *args, log, check=True):
            log.parent.mkdir(parents=True, exist_ok=True)
            log.write_text("")
            return mock.Mock(returncode=0)
        dropped = ["CONFIG_UID16=y (users.config) but the .config has n"]
        with tempfile.TemporaryDirectory() as d, config.using(build=Path(d)), \
                mock.patch.object(upstream, "tree_of", return_value=Path(d)), \
                mock.patch.object(upstream, "merge_config",
                                  side_effect=lambda tree, out, *a: out.mkdir(parents=True)), \
                mock.patch.object(upstream, "dropped_options", return_value=dropped), \
                mock.patch.object(upstream, "ensure_patched"), \
                mock.patch.object(upstream, "touched_objects", return_value=[]), \
                mock.patch.object(upstream, "kmake", side_effect=kmake), \
                mock.patch("builtins.print") as shown:
            with self.assertRaises(config.Failure) as e:
                upstream.objects_warnings("patched", "arm64", "arm64", "aarch64-linux-gnu-", "",
                                          "W=1", strict=True)
            self.assertIn("arm64: users.config options dropped: CONFIG_UID16", str(e.exception))
            self.assertFalse(Path(d, "out/objects-patched-arm64").exists())   # made again next time
            self.assertEqual(upstream.objects_warnings("patched", "mips", "mips",
                                                       "mips-linux-gnu-", "", ""), (True, []))
        self.assertIn("note: mips: CONFIG_UID16=y", shown.call_args.args[0])

    def test_bisect_builds_go_through_kmake(self):
        """kmake: the one kernel make, which prints a progress line a minute"""
        with tempfile.TemporaryDirectory() as d:
            out = Path(d, "out/bisect-x86_64")
            out.mkdir(parents=True)
            (out / ".config").write_text("CONFIG_X=y\n")
            calls = []
            with config.using(build=Path(d)), \
                 mock.patch.object(upstream, "kmake", side_effect=lambda *a, **kw:
                                   calls.append((a[3:], kw)) or mock.Mock(returncode=2)), \
                 mock.patch.object(upstream, "sh"):
                ok, log, image = upstream.build_at(Path(d), "x86_64", "x86_64",
                                                   [Path("kconfig/base.config")])
        self.assertFalse(ok)
        self.assertEqual(calls[-1][0], ("bzImage",))
        self.assertIs(calls[-1][1]["check"], False)
        self.assertEqual(image.name, "bzImage")


class Bisect(unittest.TestCase):
    def bisect(self, only=None, boot=True, start=None, broken=(), unbuilt=(), failing=()):
        """check_bisect() on a series of two patches: the results, one "name status" each.
        broken: patches that do not apply; unbuilt: labels whose kernels do not build;
        failing: jobs whose boot fails a test"""
        patches = [Path("/s/0001-cred-a.patch"), Path("/s/0002-cred-b.patch")]
        at = ["base"]

        def git_am(tree, p, log):
            at[0] = p.name[:4]
            return p.name[:4] not in broken

        def build_at(tree, name, target, frags):
            return at[0] not in unbuilt, Path("/log"), Path("/image")

        def boot_suite(kernel, target, image, job, quiet):
            return [(f"{job}/t", "fail" if job in failing else "pass", "")]
        results = []
        with mock.patch.object(upstream, "bisect_tree", return_value=Path("/tree")), \
                mock.patch.object(upstream, "series_patches", return_value=patches), \
                mock.patch.object(upstream, "git_am", side_effect=git_am), \
                mock.patch.object(upstream, "build_at", side_effect=build_at), \
                mock.patch.object(upstream, "boot_suite", side_effect=boot_suite), \
                mock.patch.object(upstream, "progress"):
            upstream.check_bisect(results, only, boot, start)
        return [f"{n[len('bisect: '):]} {s}" for n, s, _ in results]

    def test_every_patch_builds_and_boots_multiuser_n_only_at_the_end(self):
        self.assertEqual(self.bisect(["x86_64", "x86_64-nomultiuser"], unbuilt={"0001"},
                                     failing={"bisect-0002-x86_64"}),
                         ["base builds x86_64 pass", "base boots x86_64 pass",
                          "0001 builds x86_64 fail",
                          "0002 builds x86_64 pass", "0002 boots x86_64 fail",
                          "0002 builds x86_64-nomultiuser pass"])
        self.assertEqual(self.bisect(boot=False),
                         [f"{label} builds {name} pass" for label in ("base", "0001", "0002")
                          for name in ("x86_64", "arm64")]
                         + ["0002 builds x86_64-nomultiuser pass"])

    def test_a_run_resumes_at_a_patch_and_stops_where_one_does_not_apply(self):
        self.assertEqual(self.bisect(["arm64"], boot=False, start="0002"),
                         ["0002 builds arm64 pass"])
        self.assertEqual(self.bisect(["arm64"], boot=False, broken={"0002"}),
                         ["base builds arm64 pass", "0001 builds arm64 pass",
                          "0002-cred-b.patch applies fail"])


class Randstruct(unittest.TestCase):
    def test_each_seed_must_be_used_and_compile(self):
        """seed a: builds; b: the plugin kept its old seed; c: a layout check fails;
        d: make fails before it writes the plugin's header"""
        seeds = ["a" * 64, "b" * 64, "c" * 64, "d" * 64]

        def kmake(tree, out, t, *args, log, check=True):
            with open(log, "a") as f:
                if args == ("prepare",):
                    return mock.Mock(returncode=0)
                seed = (out / "scripts/basic/randstruct.seed").read_text().strip()
                header = out / "scripts/gcc-plugins/randomize_layout_seed.h"
                header.parent.mkdir(parents=True, exist_ok=True)
                if seed == seeds[3]:          # make failed before it wrote the header
                    return mock.Mock(returncode=2)
                used = seeds[0] if seed == seeds[1] else seed
                header.write_text(f'const char *randstruct_seed = "{used}";\n')
                if seed == seeds[2]:
                    f.write("kernel/groups.c:9:1: error: static assertion failed: \"gid\"\n")
                    return mock.Mock(returncode=2)
                return mock.Mock(returncode=0)

        def merge(tree, out, *a):
            Path(out, "scripts/basic").mkdir(parents=True)
            return {}
        results = []
        with tempfile.TemporaryDirectory() as d, config.using(build=Path(d)), \
                mock.patch.object(upstream, "merge_config", side_effect=merge), \
                mock.patch.object(upstream, "dropped_options", return_value=[]) as dropped, \
                mock.patch.object(upstream, "kmake", side_effect=kmake), \
                mock.patch.object(upstream, "progress"):
            Path(d, "logs").mkdir()
            upstream.check_randstruct(results, seeds, Path(d, "patched"))
            self.assertEqual([r[1:] for r in results[:2]],
                             [("pass", ""), ("fail", "the plugin was not rebuilt with this seed")])
            self.assertEqual(results[2][1], "fail")
            self.assertEqual(results[3][1:], ("fail", "the plugin was not rebuilt with this seed"))
            self.assertEqual(results[2][2], 'static assertion failed: "gid"')
            dropped.return_value = ["CONFIG_RANDSTRUCT_FULL=y (randstruct.config) but the "
                                    ".config has n"]
            with self.assertRaises(config.Failure):
                upstream.check_randstruct([], seeds, Path(d, "other"))


class Maintainers(unittest.TestCase):
    def test_the_snippet_goes_to_its_alphabetical_place(self):
        with tempfile.TemporaryDirectory() as d:
            root, tree, build = Path(d, "root"), Path(d, "tree"), Path(d, "build")
            root.mkdir()
            tree.mkdir()
            (root / "MAINTAINERS.snippet").write_text(
                "CREDENTIALS: SUPPLEMENTARY GROUPS\nM:\tX <x@y.org>\nF:\tkernel/groups.c\n")
            (tree / "MAINTAINERS").write_text(
                PREAMBLE + "CPU IDLE\nM:\tB <b@x.org>\n\nCRYPTO API\nM:\tC <c@x.org>\n")
            with mock.patch.object(upstream, "ROOT", root), \
                 config.using(build=build), \
                 mock.patch.object(upstream, "tree_of", return_value=tree):
                text = upstream.proposed_maintainers().read_text()
        self.assertLess(text.index("CPU IDLE"), text.index("CREDENTIALS: SUPPLEMENTARY"))
        self.assertLess(text.index("CREDENTIALS: SUPPLEMENTARY"), text.index("CRYPTO API"))
        self.assertIn("F:\tkernel/groups.c\n\nCRYPTO API\n", text)


    def check(self, changed="kernel/groups.c\n", found=("kernel/groups.c",
                                                        "tools/testing/selftests/groups"),
              parsed_drops=None):
        """check_maintainers()'s three results: the series changes files changed,
        get_maintainer.pl finds the entry for the files found, parse-maintainers.pl
        loses the line parsed_drops of the proposed file"""
        snippet = ("CREDENTIALS: SUPPLEMENTARY GROUPS\nM:\tX <x@y.org>\nF:\tkernel/groups.c\n"
                   "F:\ttools/testing/selftests/groups/\n")
        real_run = subprocess.run

        def parse(cmd, cwd=None):
            text = Path(cmd[2][len("--input="):]).read_text()
            if parsed_drops and "proposed" in cmd[2]:
                text = text.replace(parsed_drops + "\n", "")
            Path(cmd[3][len("--output="):]).write_text(text)

        def run(cmd, **kw):
            if cmd[0] == "diff":
                return real_run(cmd, **kw)
            if cmd[0] == "git":
                return mock.Mock(stdout=changed)
            file = cmd[-1]
            return mock.Mock(stdout="X <x@y.org> (maintainer:CREDENTIALS: SUPPLEMENTARY GROUPS)\n"
                             if file in found else "Linus <l@x.org> (maintainer:THE REST)\n")
        results = []
        with tempfile.TemporaryDirectory() as d:
            root, tree = Path(d, "root"), Path(d, "tree")
            root.mkdir()
            tree.mkdir()
            (root / "MAINTAINERS.snippet").write_text(snippet)
            (tree / "MAINTAINERS").write_text(PREAMBLE + "CRYPTO API\nM:\tC <c@x.org>\n")
            with mock.patch.object(upstream, "ROOT", root), config.using(build=Path(d)), \
                    mock.patch.object(upstream, "tree_of", return_value=tree), \
                    mock.patch.object(upstream, "sh", side_effect=parse), \
                    mock.patch.object(upstream.subprocess, "run", side_effect=run), \
                    mock.patch.object(upstream, "progress"):
                upstream.check_maintainers(results)
        return [r[1] for r in results], results

    def test_the_snippet_is_proposed_not_added_and_found_for_its_files(self):
        self.assertEqual(self.check()[0], ["pass", "pass", "pass"])
        self.assertEqual(self.check(changed="kernel/groups.c\nMAINTAINERS\n")[0],
                         ["fail", "pass", "pass"])
        self.assertEqual(self.check(parsed_drops="CRYPTO API")[0], ["pass", "fail", "pass"])
        statuses, results = self.check(found=("kernel/groups.c",))
        self.assertEqual(statuses, ["pass", "pass", "fail"])
        self.assertEqual(results[2][2], "tools/testing/selftests/groups")


class Recipients(unittest.TestCase):
    def recipients(self, touched, role, found):
        """cmd_recipients() for a patch touching the files named, with
        get_maintainer.pl answering found"""
        with tempfile.TemporaryDirectory() as d:
            patch = Path(d, "0015-cred-pages.patch")
            patch.write_text("From: Ada Lovelace <ada@kernel.org>\n\n"
                             + "".join(f"--- a/{f}\n+++ b/{f}\n" for f in touched))
            out = io.StringIO()
            with mock.patch.object(upstream, "ensure_patched", return_value=Path(d)), \
                 mock.patch.object(upstream, "get_maintainer", return_value=found), \
                 redirect_stdout(out):
                upstream.cmd_recipients(SimpleNamespace(patch=str(patch), role=role))
        return out.getvalue().splitlines()

    def test_the_credential_core_goes_to_mm_with_hardening_in_cc(self):
        doc = "Jonathan Corbet <corbet@lwn.net>"
        to = self.recipients(["kernel/groups.c", "include/linux/cred.h"], "to", [doc])
        self.assertEqual(to[:2], upstream.CORE_TO)
        self.assertIn(doc, to)
        cc = self.recipients(["kernel/uid16.c"], "cc", [upstream.PLACEHOLDER])
        self.assertEqual(cc, upstream.CORE_CC)      # the snippet's placeholder is dropped

    def test_groups_and_uid16_go_to_cred_h_s_people_too(self):
        cred = "Paul Moore <paul@paul-moore.com>"

        def by_file(tree, patch, role, file=False):
            return [cred] if file and patch == "include/linux/cred.h" else []
        with mock.patch.object(upstream, "get_maintainer", side_effect=by_file):
            for f in ("kernel/groups.c", "kernel/uid16.c"):
                with tempfile.TemporaryDirectory() as d:
                    patch = Path(d, "0014-x.patch")
                    patch.write_text(f"From: Ada Lovelace <ada@kernel.org>\n\n+++ b/{f}\n")
                    out = io.StringIO()
                    with mock.patch.object(upstream, "ensure_patched", return_value=Path(d)), \
                         redirect_stdout(out):
                        upstream.cmd_recipients(SimpleNamespace(patch=str(patch), role="to"))
                self.assertEqual(out.getvalue().splitlines(), upstream.CORE_TO + [cred], f)

    def test_other_patches_go_to_their_maintainers_only(self):
        nfsd = "Chuck Lever <chuck.lever@oracle.com>"
        to = self.recipients(["fs/nfsd/auth.c"], "to", [nfsd])
        self.assertEqual(to, [nfsd])
        # nobody found but the author: the fallback, Andrew Morton
        to = self.recipients(["lib/x.c"], "to", ["Ada Lovelace <ada@kernel.org>"])
        self.assertEqual(to, ["Ada Lovelace <ada@kernel.org>", upstream.FALLBACK_TO])


class SeriesCheck(unittest.TestCase):
    def series_check(self, *results, **options):
        """cmd_series_check()'s exit status when its checks give these results, and the
        architectures check_objects() was given"""
        args = SimpleNamespace(**{"start": None, "skip_bisect": True, "bisect": "",
                                  "no_boot": False, "archs": "none", **options})
        patches = [Path("0001-cred-a.patch"), Path("0002-cred-b.patch")]
        with tempfile.TemporaryDirectory() as d, config.using(build=Path(d)), \
                mock.patch.object(upstream, "series_patches", return_value=patches), \
                mock.patch.object(upstream, "check_checkpatch", return_value=list(results)), \
                mock.patch.object(upstream, "check_maintainers"), \
                mock.patch.object(upstream, "check_mutants_apply"), \
                mock.patch.object(upstream, "check_randstruct"), \
                mock.patch.object(upstream, "check_bisect") as bisect, \
                mock.patch.object(upstream, "check_objects") as objects, \
                mock.patch("builtins.print"):
            status = upstream.cmd_series_check(args)
        archs = objects.call_args.args[1] if objects.called else None
        return status, archs, bisect.call_args

    def test_a_failure_fails_it_and_nothing_else_does(self):
        p, f, s = ("a", "pass", ""), ("b", "fail", "x"), ("c", "skip", "no hppa-linux-gnu-gcc")
        self.assertEqual(self.series_check(p, s)[0], 0)
        self.assertEqual(self.series_check(s)[0], 0)           # all skipped: not a failure
        self.assertEqual(self.series_check(p, f)[0], 1)

    def test_the_checks_run_are_those_asked_for(self):
        self.assertIsNone(self.series_check()[1])
        self.assertEqual(self.series_check(archs="")[1], [c[0] for c in config.COMPILE])
        self.assertEqual(self.series_check(archs="mips,alpha")[1], ["mips", "alpha"])
        bisect = self.series_check(skip_bisect=False, bisect="arm64", no_boot=True,
                                   start="0002")[2]
        self.assertEqual(bisect, mock.call(mock.ANY, ["arm64"], boot=False, start="0002"))
        with self.assertRaises(config.Failure) as e:
            self.series_check(start="0003")
        self.assertIn("--from 0003: no patch of the series", str(e.exception))


class MutantsApply(unittest.TestCase):
    def test_a_mutant_of_this_base_that_does_not_apply_fails(self):
        with tempfile.TemporaryDirectory() as d:
            tree, mutants = Path(d, "tree"), Path(d, "mutants")
            tree.mkdir()
            mutants.mkdir()
            (tree / "f.c").write_text("int a;\nint b;\n")
            subprocess.run(["git", "init", "-q"], cwd=tree, check=True)
            good = "--- a/f.c\n+++ b/f.c\n@@ -1,2 +1,2 @@\n-int a;\n+int c;\n int b;\n"
            stale = good.replace("int a;", "int x;", 1)
            (mutants / "good.patch").write_text("Mutant: good\n\n" + good)
            (mutants / "other.patch").write_text("Mutant: other\nBases: 6.12\n\n" + stale)
            results = []
            with mock.patch.object(upstream, "MUTANTS", mutants), \
                    mock.patch.object(upstream, "mutant_bases",
                                      side_effect=lambda n: ["6.12"] if n == "other" else None), \
                    mock.patch.object(upstream, "ensure_patched", return_value=tree), \
                    mock.patch.object(upstream, "progress"), config.using(base="6.1"):
                upstream.check_mutants_apply(results)
                self.assertEqual(results[-1][1:], ("pass", ""))      # other is not 6.1's
                (mutants / "bad.patch").write_text("Mutant: bad\n\n" + stale)
                upstream.check_mutants_apply(results)
                self.assertEqual(results[-1][1:], ("fail", "bad"))


class GetMaintainer(unittest.TestCase):
    def test_only_lines_with_an_address_and_the_role_s_flag(self):
        out = ("Ada Lovelace <ada@kernel.org>\nlinux-kernel@vger.kernel.org\n\n"
               "get_maintainer: no file matched\n")
        with mock.patch.object(upstream.subprocess, "run",
                               return_value=mock.Mock(stdout=out)) as run:
            got = upstream.get_maintainer(Path("/tree"), "p.patch", "to")
            self.assertIn("--nol", run.call_args.args[0])
            upstream.get_maintainer(Path("/tree"), "kernel/groups.c", "cc", file=True)
            self.assertEqual(run.call_args.args[0][-3:], ["--nom", "-f", "kernel/groups.c"])
        self.assertEqual(got, ["Ada Lovelace <ada@kernel.org>", "linux-kernel@vger.kernel.org"])


class SendEmail(unittest.TestCase):
    SENDER = "Ada Lovelace <ada@kernel.org>"

    def send(self, patch, returncode=0, alone=None):
        """cmd_send_email() of a cover letter and one patch, whose git send-email exits
        with returncode, and of alone (nfsd/0001-nfsd-y.patch's text) if given; the
        patch as it would go out, and the patches of each git send-email call"""
        dry = ("Dry-OK. Log says:\nSubject: [PATCH 1/1] cred: x\nTo: a@b.org\n\nResult: OK\n")
        with tempfile.TemporaryDirectory() as d, config.using(build=Path(d)), \
                mock.patch.object(config.Settings, "series", new_callable=mock.PropertyMock,
                                  return_value=Path(d)):
            cover, one = Path(d, "0000-cover-letter.patch"), Path(d, "0001-cred-x.patch")
            cover.write_text("From: Someone <s@x.org>\nSubject: [PATCH 0/1] x\n\n"
                             "Harness Dev (1):\n  cred: x\n")
            one.write_text(patch)
            if alone:
                Path(d, "nfsd").mkdir()
                Path(d, "nfsd/0001-nfsd-y.patch").write_text(alone)
            with mock.patch.object(upstream, "ensure_patched", return_value=Path(d)), \
                    mock.patch.object(upstream, "sender_identity", return_value=self.SENDER), \
                    mock.patch.object(upstream, "cover_letter", return_value=cover), \
                    mock.patch.object(upstream, "series_patches", return_value=[one]), \
                    mock.patch.object(upstream.subprocess, "run", return_value=mock.Mock(
                        returncode=returncode, stdout=dry, stderr="")) as run, \
                    mock.patch("builtins.print"):
                self.assertEqual(upstream.cmd_send_email(SimpleNamespace()), 0)
                calls = [[Path(a).relative_to(d).as_posix() for a in c.args[0]
                          if a.endswith(".patch")] for c in run.call_args_list]
                return Path(d, "outgoing/series/0001-cred-x.patch").read_text(), calls

    def test_every_patch_must_be_signed_off_by_the_sender(self):
        signed = (f"From: {upstream.PLACEHOLDER}\nSubject: [PATCH 1/1] cred: x\n\nbody\n\n"
                  f"Signed-off-by: {upstream.PLACEHOLDER}\n")
        self.assertIn(f"Signed-off-by: {self.SENDER}\n", self.send(signed)[0])
        with self.assertRaises(config.Failure) as e:
            self.send(signed.replace("Signed-off-by", "Reviewed-by"))
        self.assertIn(f"not signed off by {self.SENDER}: 0001-cred-x.patch", str(e.exception))
        with self.assertRaises(config.Failure) as e:
            self.send(signed, returncode=1)
        self.assertIn("git send-email --dry-run failed", str(e.exception))


    def test_a_patch_sent_alone_is_a_thread_of_its_own(self):
        signed = (f"From: {upstream.PLACEHOLDER}\nSubject: [PATCH] x\n\nbody\n\n"
                  f"Signed-off-by: {upstream.PLACEHOLDER}\n")
        _, calls = self.send(signed, alone=signed)
        self.assertEqual(calls, [["outgoing/nfsd/0001-nfsd-y.patch"],
                                 ["outgoing/series/0000-cover-letter.patch",
                                  "outgoing/series/0001-cred-x.patch"]])
        self.assertEqual(len(self.send(signed)[1]), 1)
        with self.assertRaises(config.Failure) as e:
            self.send(signed, alone=signed.replace("Signed-off-by", "Acked-by"))
        self.assertIn("not signed off by", str(e.exception))


class Seeds(unittest.TestCase):
    def test_seeds_are_fixed_distinct_and_whole(self):
        # the seeds every series-check has used since the check began: a
        # failure must be reproducible with the seed its report names
        self.assertEqual(upstream.RANDSTRUCT_SEEDS, [
            "ba252db7eaa35c4695f85c1b0e6a6b2fb1da1b80fa0bf1c66b242b94d9b5b8f0",
            "9dd4a3172e49f64cde62241843f6322529a1c8d3c3740f8e9e453bc670d7ebdf",
            "673d81621f7d15fc1a0ec76294f67bdbc2b0ad84432dbc51a8065611d2788ebc",
            "c8d5df4d7f534005ede33ca8ac147b3af0caa2949f8bc9c001d1c96154c48a38",
            "3c1443ba758e9739a2a417d880e31ff555e69e01377be56f9936927c26f03b4c"])
        seeds = upstream.randstruct_seeds(10)
        self.assertEqual(seeds[:5], upstream.RANDSTRUCT_SEEDS)
        self.assertEqual(len(set(seeds)), 10)
        for s in seeds:
            self.assertRegex(s, r"^[0-9a-f]{64}$")


if __name__ == "__main__":
    unittest.main()
