"""One whole random game per call for each rules core, for the throughput benchmark.

Runs on both interpreters (tools/testbed and firmware/lib on the path). The
players are the differential tests' (tools/testbed/play_*.py), so a game here also
logs every step and tries some illegal moves, as in the tests.
"""
import json

import play_fingerfootball as fingerfootball
import play_fingerweg as fingerweg
import play_geisteruhr as geisteruhr
import play_pimaldaumen as pimaldaumen

_board = None


def _pimaldaumen_board():
    global _board
    if _board is None:
        with open("host_tools/propctl/data/pimaldaumen_board.json") as f:
            _board = json.load(f)
    return _board


def play_geisteruhr(seed, players):
    return geisteruhr.random_game(seed, players)


def play_fingerweg(seed, players):
    return fingerweg.play_game(seed)  # the scenario draws 2-8 players itself


def play_pimaldaumen(seed, players):
    return pimaldaumen.play_game(seed, players, _pimaldaumen_board(), save_every=0)


def play_fingerfootball(seed, players):
    return fingerfootball.random_game(seed, seed + 1, 100000, 300)
