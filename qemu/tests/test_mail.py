# SPDX-License-Identifier: GPL-2.0
"""mail: the sender's identity, and the series rewritten for them.
"""

import sys
import unittest
from pathlib import Path
from unittest import mock

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import mail  # noqa: E402

class Identity(unittest.TestCase):
    def test_sign_as_rewrites_author_signoff_and_shortlog(self):
        cover = ("From: Harness Dev <dev@example.org>\n\nblurb\n\n"
                 "Harness Dev (19):\n  cred: one\n\n"
                 "Signed-off-by: Harness Dev <dev@example.org>\n")
        out = mail.sign_as(cover, "Ada Lovelace <ada@kernel.example.net>")
        self.assertNotIn("Harness Dev", out)
        self.assertIn("\nAda Lovelace (19):\n", out)
        self.assertIn("From: Ada Lovelace <ada@kernel.example.net>\n", out)
        self.assertIn("Signed-off-by: Ada Lovelace <ada@kernel.example.net>\n", out)

    def test_the_placeholder_and_reserved_domains_never_sign(self):
        def ident(name, email):
            out = {"user.name": name, "user.email": email}
            with mock.patch.object(mail.subprocess, "run", side_effect=lambda cmd, **kw:
                                   mock.Mock(stdout=out[cmd[-1]] + "\n")):
                return mail.sender_identity()
        self.assertEqual(ident("Ada Lovelace", "ada@kernel.org"), "Ada Lovelace <ada@kernel.org>")
        for name, email in (("Harness Dev", "dev@example.org"), ("Ada", "ada@example.com"),
                            ("Ada", "ada@host.invalid"), ("", "ada@kernel.org"),
                            ("Ada", "ada@localhost")):
            with self.assertRaises(mail.Failure, msg=email) as e:
                ident(name, email)
            self.assertIn("git config --global user.email", str(e.exception))


class Objects(unittest.TestCase):
    def test_the_kernel_objects_of_the_c_files_the_series_changes(self):
        changed = ("kernel/groups.c\nkernel/groups_kunit.c\nfs/nfsd/auth.c\n"
                   "tools/testing/selftests/groups/groups_test.c\nsamples/x/y.c\n")
        with mock.patch.object(mail.subprocess, "run", return_value=mock.Mock(stdout=changed)):
            self.assertEqual(mail.touched_objects(Path("/tree")),
                             ["kernel/groups.o", "fs/nfsd/auth.o"])


if __name__ == "__main__":
    unittest.main()
