"""Card decks on the desktop: load CSV/JSON, check, pack and show them.

Modules:
    container   the generic pack writer (pack_chunks, build_pack) and every limit of a pack
    load        files -> rows with line numbers -> pack records of one kind, and every Problem
    kinds       the registry of card kinds (KIND_MODULES) and their interface (CardKind)
    taskcards   kind "taskcards": Finger weg! task cards (pack code TASK)
    questions   kind "questions": Pi mal Daumen question cards (pack code QUES)
    cli         `propctl cards check|pack|show`

Adding a kind (questions.py was added this way):
  1. firmware/lib/cardpack/KIND.py: the record layout in its docstring, KIND
     (4 letters), VERSION and decode(record) -> card, raising cardpack.PackError
     on bad bytes and on values the game cannot use (the board reads cards with it).
  2. host_tools/propctl/cards/NAME.py: what kinds.CardKind lists (NAME, TITLE,
     CODE, VERSION, COLUMNS, REQUIRED_COLUMNS, JSON_FIELDS, matches_columns,
     parse, key, encode, decode, describe, to_json); taskcards.py is the worked example.
  3. Add NAME to KIND_MODULES in kinds.py. check/pack/show then work for the
     new kind with no other change; load already refuses control characters
     and lone surrogates in any text, and every limit of a pack.
"""
