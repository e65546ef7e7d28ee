"""Card decks on the desktop: load CSV/JSON, check, pack and show them.

Modules:
    container   the generic pack writer: build_pack(code, version, records)
    load        files -> rows with line numbers -> cards of one kind, and every Problem
    kinds       the registry of card kinds (KIND_MODULES) and the kind-module interface
    taskcards   kind "taskcards": Finger weg! task cards (pack code TASK)
    cli         `propctl cards check|pack|show`

Adding a kind (e.g. Pi mal Daumen questions):
  1. firmware/lib/cardpack/question.py: the record layout in its docstring, KIND
     (4 letters), VERSION and decode(record) -> card, raising cardpack.PackError
     on bad bytes (the board reads cards with it).
  2. host_tools/propctl/cards/questions.py: the names listed in the kinds module
     docstring (NAME, TITLE, CODE, VERSION, COLUMNS, REQUIRED_COLUMNS, JSON_FIELDS,
     matches_columns, parse, key, encode, decode, describe, to_json);
     taskcards.py is the worked example.
  3. Add "questions" to KIND_MODULES in kinds.py. check/pack/show then work
     for the new kind with no other change.
"""
