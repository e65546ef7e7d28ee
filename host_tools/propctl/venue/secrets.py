"""The venue's passwords on their way to a board: from a file or a prompt, never shown.

    problem = on_command_line(settings)        # --set net.password=... is refused: shell history
    extra = from_file("secrets.json")          # {"net": {"password": ..., "broker_password": ...}}
    extra = ask()                              # the same from two getpass prompts
    print(hidden(config_text))                 # config.json as deploy shows it, passwords "(hidden)"

Secrets file: a JSON object with "password" (Wi-Fi) and/or "broker_password",
e.g. {"password": "...", "broker_password": "..."}; any other key is refused.
"""
import getpass
import json
import sys

from propctl.inputfile import InputFileError, read_json

SECTION = "net"
KEYS = ("password", "broker_password")
SHOWN = "(hidden)"
FILE_LIMIT = 4096


class SecretsError(Exception):
    """The secrets cannot be used; the message says why (and shows no secret)."""


def on_command_line(settings: dict):
    """A sentence refusing net.password/net.broker_password given with --set, else None."""
    section = settings.get(SECTION)
    if not isinstance(section, dict):
        return None
    given = [key for key in KEYS if key in section]
    if not given:
        return None
    return ("%s on the command line would stay in the shell's history and the process list; "
            "give it with --secrets FILE or --ask-passwords" % ", ".join("net." + k for k in given))


def from_file(path: str) -> dict:
    """{"net": {...}} from a secrets file; SecretsError saying what is wrong with it."""
    try:
        data = read_json(path, FILE_LIMIT)
    except InputFileError as exc:
        raise SecretsError("--secrets %s %s" % (path, exc)) from None
    if not isinstance(data, dict):
        raise SecretsError("--secrets %s must hold a JSON object, e.g. "
                           "{\"password\": \"...\", \"broker_password\": \"...\"}" % path)
    unknown = sorted(str(key)[:30] for key in data if key not in KEYS)
    if unknown:
        raise SecretsError("--secrets %s: unknown key %s (known: %s)"
                           % (path, ", ".join(unknown), ", ".join(KEYS)))
    for key in data:
        if not isinstance(data[key], str):
            raise SecretsError("--secrets %s: %s must be text" % (path, key))
    return {SECTION: dict(data)} if data else {}


def ask(prompt=getpass.getpass) -> dict:
    """{"net": {...}} from two prompts that echo nothing; an empty answer leaves that one out."""
    if prompt is getpass.getpass and not sys.stdin.isatty():  # it would read them, echoed, from stdin
        raise SecretsError("--ask-passwords needs a terminal to type them unseen; where there is "
                           "none, give them with --secrets FILE")
    section = {}
    for key, what in (("password", "Wi-Fi password (net.password, empty: unchanged): "),
                      ("broker_password", "broker password (net.broker_password, empty: unchanged): ")):
        try:
            answer = prompt(what)
        except EOFError:  # no terminal and the input ended (getpass then reads stdin)
            raise SecretsError("--ask-passwords: the input ended before the passwords were typed; "
                               "give them with --secrets FILE where no one can type") from None
        if answer:
            section[key] = answer
    return {SECTION: section} if section else {}


def hidden(config_text: str) -> str:
    """config.json text with the passwords replaced by "(hidden)" (for printing only)."""
    try:
        config = json.loads(config_text)
    except ValueError:
        return config_text
    section = config.get(SECTION) if isinstance(config, dict) else None
    if not isinstance(section, dict):
        return config_text
    for key in KEYS:
        if section.get(key):
            section[key] = SHOWN
    return json.dumps(config, indent=1, sort_keys=True) + "\n"
