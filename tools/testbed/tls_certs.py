"""Test certificates made by the test with openssl (from the distribution): a CA and a broker
certificate it signs, EC P-256 keys (what a small board verifies fastest).

    make_pki(folder) -> {"ca": ca.pem, "cert": server.pem, "key": server.key}
    make_pki(folder, names=("DNS:other.example",))   # a certificate for another name
"""
import shutil
import subprocess
from pathlib import Path

import pytest


def _openssl(*args, cwd):
    exe = shutil.which("openssl")
    if exe is None:
        pytest.skip("openssl is not installed: the TLS leg did not run")
    subprocess.run([exe, *args], cwd=str(cwd), check=True, capture_output=True)


def make_pki(folder: Path, names=("DNS:localhost", "IP:127.0.0.1"), ca_name="test venue CA") -> dict:
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
    _openssl("req", "-x509", *ec, "-keyout", "ca.key", "-out", "ca.pem", "-days", "2",
             "-subj", "/CN=" + ca_name, cwd=folder)
    _openssl("req", *ec, "-keyout", "server.key", "-out", "server.csr", "-subj", "/CN=venue broker",
             cwd=folder)
    (folder / "ext.cnf").write_text("subjectAltName=%s\n" % ",".join(names))
    _openssl("x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey", "ca.key",
             "-CAcreateserial",
             "-out", "server.pem", "-days", "2", "-extfile", "ext.cnf", cwd=folder)
    return {"ca": folder / "ca.pem", "cert": folder / "server.pem", "key": folder / "server.key"}
