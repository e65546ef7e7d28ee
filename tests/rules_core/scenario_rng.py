"""PRNG scenarios: long mixed draw sequences for the differential tests."""
from rules.rng import Rng

# Moduli chosen to hit the edges of below(): 1, powers of two, odd numbers,
# just above 2**31 (rejection limit far from 2**32) and 2**32 itself.
_MODULI = (1, 2, 3, 6, 7, 10, 100, 1000, 65536, 0x80000001, 0x100000000)


def mixed_draws(seed, count):
    """`count` values mixing every helper, in a fixed pattern."""
    rng = Rng(seed)
    out = []
    items = list(range(10))
    for i in range(count):
        step = i % 5
        if step == 0:
            out.append(rng.next32())
        elif step == 1:
            out.append(rng.below(_MODULI[i % len(_MODULI)]))
        elif step == 2:
            out.append(rng.between(-50, 50))
        elif step == 3:
            out.append(rng.choice(items))
        else:
            rng.shuffle(items)
            out.append(items[0] * 10 + items[9])
    return out


def many_seeds(first_seed, seeds, count):
    """mixed_draws for `seeds` consecutive seeds, as one list of lists."""
    return [mixed_draws(first_seed + s, count) for s in range(seeds)]


def ranged(seed, low, high, count):
    rng = Rng(seed)
    return [rng.between(low, high) for _ in range(count)]


def interpreter_name():
    """Deliberately differs by interpreter: proves the harness notices."""
    import sys
    return sys.implementation.name


def fail_with(message):
    """Deliberately raises: proves MicroPython errors reach the test readably."""
    raise ValueError(message)


def locked_draws(seed, count):
    """Every kind of draw `count` times with the heap locked: [allocated?, draws done].

    The moduli reach each reduction path of below() (n <= 2**14, <= 2**22, <= 2**29).
    """
    import micropython
    rng = Rng(seed)
    items = list(range(10))
    done = 0
    micropython.heap_lock()
    try:
        while done < count:
            rng.below(6)
            rng.between(20000, 60000)
            rng.below(0x1FFFFFFF)
            rng.chance(250)
            rng.choice(items)
            rng.shuffle(items)
            done += 1
    except MemoryError:
        micropython.heap_unlock()
        return [True, done]
    micropython.heap_unlock()
    return [False, done]


def locked_next32(seed):
    """[allocated?] for up to 100 raw 32-bit draws under the heap lock (big ints on 32 bits)."""
    import micropython
    rng = Rng(seed)
    n = 0
    micropython.heap_lock()
    try:
        while n < 100:
            rng.next32()
            n += 1
    except MemoryError:
        micropython.heap_unlock()
        return [True]
    micropython.heap_unlock()
    return [False]


def small_int_bits():
    """Bits of this port's small ints: 62 on a 64-bit port, 30 on a 32-bit one (and on a board)."""
    import sys
    return 62 if sys.maxsize > 2 ** 32 else 30
