"""Venue mode: the prop on an MQTT broker (docs/venue.md). Imported only when net.broker is set.

    venue      the net layer: topics, the serial link's commands, retained state, NetPort
    mqtt       a small non-blocking MQTT 3.1.1 client (why not umqtt.simple: see there)
    mqtt_packets  its bytes on the wire: packets encoded into and parsed out of fixed buffers
    wifi       joining Wi-Fi without waiting
    backoff    doubling waits with jitter
    discovery  Home Assistant's MQTT discovery documents (net.discovery)
    late       events while the broker is away, published late
    tls        the ssl context that checks the broker (net.tls), at boot only
"""
