# SPDX-License-Identifier: Apache-2.0
"""A PEP 517 / PEP 660 build backend for the pure-Python ibwire package.

pip builds a package in an isolated environment and installs the backend's
requirements there first, from PyPI; setuptools would need the network.
This backend needs only the standard library: a wheel is a zip of the
package plus a .dist-info directory (METADATA, WHEEL, RECORD), which it
writes itself.  Metadata comes from pyproject.toml's [project] table.
"""
import base64
import hashlib
import io
import os
import re
import tarfile
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
PACKAGE = "ibwire"
TAG = "py3-none-any"


def _project():
    with open(os.path.join(HERE, "pyproject.toml"), "rb") as f:
        raw = f.read()
    try:
        import tomllib
        return tomllib.loads(raw.decode("utf-8"))["project"]
    except ImportError:
        # Before 3.11: the few "key = "value"" lines this file uses.
        table = raw.decode("utf-8").split("[project]", 1)[1]
        return dict(re.findall(r'^(\w[\w-]*) = "([^"]*)"', table, re.M))


def _metadata():
    p = _project()
    lines = ["Metadata-Version: 2.1", "Name: " + p["name"],
             "Version: " + p["version"], "Summary: " + p["description"],
             "License: Apache-2.0"]
    if p.get("requires-python"):
        lines.append("Requires-Python: " + p["requires-python"])
    readme = os.path.join(HERE, "README.md")
    body = ""
    if os.path.exists(readme):
        lines.append("Description-Content-Type: text/markdown")
        with open(readme, encoding="utf-8") as f:
            body = "\n" + f.read()
    return p["name"], p["version"], "\n".join(lines) + "\n" + body


def _package_files():
    root = os.path.join(HERE, PACKAGE)
    for name in sorted(os.listdir(root)):
        if name.endswith(".py"):
            yield os.path.join(root, name), PACKAGE + "/" + name


def _record_line(arcname, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest())
    return "%s,sha256=%s,%d" % (arcname, digest.rstrip(b"=").decode(),
                                len(data))


def _write_wheel(directory, members):
    """Write the wheel of `members` [(arcname, bytes)] plus its dist-info
    into `directory`; return the wheel's file name."""
    name, version, metadata = _metadata()
    dist = "%s-%s" % (name, version)
    info = dist + ".dist-info"
    members = list(members) + [
        (info + "/METADATA", metadata.encode("utf-8")),
        (info + "/WHEEL", ("Wheel-Version: 1.0\nGenerator: ibwire_build\n"
                           "Root-Is-Purelib: true\nTag: %s\n" % TAG)
         .encode()),
    ]
    record = [_record_line(a, d) for a, d in members]
    record.append(info + "/RECORD,,")
    members.append((info + "/RECORD", ("\n".join(record) + "\n").encode()))
    filename = "%s-%s.whl" % (dist, TAG)
    with zipfile.ZipFile(os.path.join(directory, filename), "w",
                         zipfile.ZIP_DEFLATED) as z:
        for arcname, data in members:
            # A fixed time: the same sources give the same wheel.
            zi = zipfile.ZipInfo(arcname, date_time=(1980, 1, 1, 0, 0, 0))
            zi.external_attr = 0o644 << 16
            zi.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(zi, data)
    return filename


def _read(path):
    with open(path, "rb") as f:
        return f.read()


# ---- PEP 517 ----

def get_requires_for_build_wheel(config_settings=None):
    return []


def get_requires_for_build_sdist(config_settings=None):
    return []


def build_wheel(wheel_directory, config_settings=None,
                metadata_directory=None):
    return _write_wheel(wheel_directory,
                        [(arc, _read(path)) for path, arc in
                         _package_files()])


def build_sdist(sdist_directory, config_settings=None):
    name, version, metadata = _metadata()
    base = "%s-%s" % (name, version)
    filename = base + ".tar.gz"
    files = [(os.path.join(HERE, f), f) for f in
             ("pyproject.toml", "ibwire_build.py", "README.md")
             if os.path.exists(os.path.join(HERE, f))]
    files += list(_package_files())
    with tarfile.open(os.path.join(sdist_directory, filename), "w:gz") as t:
        for path, arc in files:
            t.add(path, arcname=base + "/" + arc, recursive=False)
        pkg_info = metadata.encode("utf-8")
        ti = tarfile.TarInfo(base + "/PKG-INFO")
        ti.size = len(pkg_info)
        t.addfile(ti, io.BytesIO(pkg_info))
    return filename


# ---- PEP 660: an editable install is a .pth naming this directory ----

def get_requires_for_build_editable(config_settings=None):
    return []


def build_editable(wheel_directory, config_settings=None,
                   metadata_directory=None):
    pth = (HERE + "\n").encode("utf-8")
    return _write_wheel(wheel_directory, [("_ibwire_editable.pth", pth)])
