"""A CSV cell over csv's 128 KB limit: said as what it is, in one line.

A 10 MB line, or a double quote never closed in a long file, read "is not valid CSV (field
larger than field limit (131072))": Python's words, and wrong about the file's validity.
"""
from propctl.cli import main

HEADER = "id,category,text,s1,s2,s3,s4,s5,s6,s7,s8,bolt\n"


def check(tmp_path, capsys, text):
    path = tmp_path / "d.en.csv"
    path.write_text(text, encoding="utf-8")
    code = main(["cards", "check", str(path)])
    out, err = capsys.readouterr()
    return code, out.strip().splitlines(), err


def test_a_ten_megabyte_line_is_named_as_a_cell_too_long(tmp_path, capsys):
    code, lines, err = check(tmp_path, capsys, HEADER + "X1,geo," + "a" * 10_000_000 +
                             ",1,2,3,4,5,6,7,8,1\n")
    assert code == 1 and len(lines) == 1, lines
    assert lines[0].startswith(str(tmp_path / "d.en.csv") + ":2: has a cell longer than 128 KB")
    assert "field limit" not in lines[0] and len(lines[0]) < 300


def test_an_unclosed_quote_in_a_long_file_says_what_may_cause_it(tmp_path, capsys):
    row = "X{k},geo,Keep your fingers off it,1,2,3,4,5,6,7,8,1\n"
    text = HEADER + 'Y,geo,"Keep your fingers off it,1,2,3,4,5,6,7,8,1\n' + \
        "".join(row.format(k=k) for k in range(3000))
    code, lines, err = check(tmp_path, capsys, text)
    assert code == 1 and "double quote opened and never closed" in lines[0], lines
