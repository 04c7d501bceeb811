# SPDX-License-Identifier: Apache-2.0
"""The Python guide's example (docs/python.md) runs as written: its tests pass on the
bundled clean capture and its Checker test fails on one with a known
error (pcaps/bad-flow-gbn.pcap, FLOW-GBN at frame 7)."""
import io
import os
import re
import types
import unittest

import support


def readme_example():
    with open(os.path.join(support.SOURCE_ROOT, "docs", "python.md")) as f:
        text = f.read()
    return re.search(r"```python\n(.*?)```", text, re.S).group(1)


def run_example(capture):
    """The example's unittest result on `capture`."""
    os.environ["CAPTURE"] = capture
    module = types.ModuleType("readme_example")
    exec(compile(readme_example(), "docs/python.md", "exec"), module.__dict__)
    suite = unittest.defaultTestLoader.loadTestsFromModule(module)
    return unittest.TextTestRunner(stream=io.StringIO()).run(suite)


class ReadmeExample(unittest.TestCase):

    def test_clean_capture_passes(self):
        result = run_example(os.path.join(support.PCAPS,
                                          "rocev2-rc-mixed.pcap"))
        self.assertEqual(result.testsRun, 3)
        self.assertTrue(result.wasSuccessful(),
                        result.failures + result.errors)

    def test_bad_capture_fails_the_checker_test(self):
        result = run_example(os.path.join(support.PCAPS,
                                          "bad-flow-gbn.pcap"))
        failed = [t.id().rsplit(".", 1)[1] for t, _ in result.failures]
        self.assertEqual(failed, ["test_checker_finds_nothing"])
        self.assertIn("FLOW-GBN", result.failures[0][1])


if __name__ == "__main__":
    unittest.main()
