"""The control of every heap-lock check: under MicroPython's heap lock an allocation must fail,
or a scenario that runs firmware with the heap locked proves nothing (MicroPython only)."""
import micropython


def heap_lock_is_armed():
    """True when an allocation under the lock raised MemoryError."""
    micropython.heap_lock()
    try:
        junk = [0] * 8
    except MemoryError:
        micropython.heap_unlock()
        return True
    micropython.heap_unlock()
    return len(junk) < 0
