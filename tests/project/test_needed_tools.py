"""A missing tool skips a test on a person's machine and fails it under CI, each time saying which."""
import needed_tools
import pytest


def test_a_missing_tool_skips_with_a_line_saying_which(monkeypatch):
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception, match="the box check SKIPPED: pdftotext is not installed"):
        needed_tools.missing("the box check", "pdftotext is not installed")


def test_under_ci_a_missing_tool_fails_the_test(monkeypatch):
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="CI must run the box check: pdftotext is not installed"):
        needed_tools.missing("the box check", "pdftotext is not installed")


def test_chromium_is_found_or_the_browser_tests_say_so(monkeypatch):
    monkeypatch.setattr(needed_tools, "find_chromium", lambda: None)
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="chromium is not installed"):
        needed_tools.chromium()
    monkeypatch.setattr(needed_tools, "find_chromium", lambda: "/usr/bin/chromium")
    assert needed_tools.chromium() == "/usr/bin/chromium"
