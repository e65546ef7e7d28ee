"""TLS to the broker (net.tls): the ssl context that checks the broker, built at boot only.

    context_and_host, problem = context("ca.pem", "192.168.1.20")

The broker's certificate is checked against the CA certificate in the file `ca` on the
board's flash (PEM as openssl writes it, or DER) and its name against the host (the
ports' ssl module is mbedtls: both checks are made in the handshake). With no ssl module
or an unreadable CA the problem is said and no context made: the prop then never
connects, never in the clear (net.venue).
"""


def context(ca: str, host: str) -> tuple:
    """((ssl context, host), "") or (None, why not)."""
    try:
        import ssl
    except ImportError:
        return None, "this board's MicroPython has no ssl module: net.tls cannot work"
    try:
        ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
        ctx.verify_mode = ssl.CERT_REQUIRED  # type: ignore[attr-defined]
        ctx.load_verify_locations(cadata=der(ca))
    except (OSError, ValueError) as exc:
        return None, "net.ca %s cannot be read as a CA certificate (%s)" % (ca, exc)
    return (ctx, host), ""


def der(path: str) -> bytes:
    """The CA certificate in the file at `path` as DER, the form the ports' mbedtls takes
    (a PEM file, as openssl writes it, is decoded here: measured, the unix port's
    load_verify_locations refuses PEM with "invalid cert")."""
    with open(path, "rb") as f:
        data = f.read(8192)
    if not data.startswith(b"-----BEGIN"):
        return data
    import binascii
    end = data.find(b"-----END")
    if end < 0:
        raise ValueError("a PEM file with no END line")
    return binascii.a2b_base64(data[data.find(b"\n") + 1:end])  # the first certificate
