# SPDX-License-Identifier: GPL-2.0
"""upstream: which objects series-check compiles, how it judges their
warnings, where the proposed MAINTAINERS entry goes, and who each mail is
sent to.
"""

import io
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
