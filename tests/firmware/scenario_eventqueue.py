"""EventQueue scenarios: a script of pushes and pops, and the same under heap_lock."""
from drivers.eventqueue import EventQueue


def run(size, script):
    """script: ints >= 0 are pushed, -1 pops; returns every pop's result, the final length, and
    what peek(k) shows for k = -1 .. len."""
    queue = EventQueue(size)
    popped = []
    for step in script:
        if step < 0:
            popped.append(queue.pop())
        else:
            queue.push(step)
    return [popped, len(queue), [queue.peek(k) for k in range(-1, len(queue) + 1)]]


def locked_churn(size, rounds):
    """Two pushes and one pop, `rounds` times, heap locked; [allocated?, final length]."""
    import micropython
    queue = EventQueue(size)
    n = 0
    micropython.heap_lock()
    try:
        while n < rounds:
            queue.push(n & 0xFF)
            queue.push((n + 1) & 0xFF)
            queue.pop()
            n += 1
    except MemoryError:
        micropython.heap_unlock()
        return [True, len(queue)]
    micropython.heap_unlock()
    return [False, len(queue)]
