"""net.backoff.next(now, at_least) over 200 props' first refusals (MicroPython): one JSON line."""
import json

from net.backoff import Backoff

from rules.rng import Rng

waits = []
for i in range(200):
    waits.append(Backoff(Rng(i + 1)).next(0, 5000))
print(json.dumps({"waits": waits}))
