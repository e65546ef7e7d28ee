"""Home Assistant MQTT discovery: the prop as a device (net.discovery), or its entities
removed (net.discovery false).

As Home Assistant's MQTT discovery documents it (home-assistant.io/integrations/mqtt,
"MQTT Discovery": topic <discovery_prefix>/<component>/[<node_id>/]<object_id>/config,
a retained JSON config; an empty retained config removes the entity), after each connect:

    DP/sensor/NODE/state/config   the prop's state in one word (its state document's
                                  "state", or what the prop's own template makes of the
                                  document), "error" for the state's error form; the
                                  whole state as attributes
    DP/button/NODE/main/config    its main action (the prop's MAIN_ACTION), available
                                  only while the prop can do it (sensor.mqtt/button.mqtt:
                                  `availability` with `availability_mode: all`: the prop's
                                  status and a template over its state), so Home Assistant
                                  offers no button the prop would refuse

What is the prop's own (its main action and its templates) is in its folder:
props/PROP/discovery.py, imported by name (main_action).

DP is net.discovery_prefix (Home Assistant's default: homeassistant). NODE is
PREFIX_ID (net.prefix and net.id): two venues on one broker never share a config
topic, and a Mosquitto ACL line `pattern write homeassistant/+/props_%u/#` lets each
prop announce only itself (docs/venue.md). Both documents carry one `device`, an
`origin` (who made the config) and PREFIX/ID/status for availability ("online" /
"offline", the will), so Home Assistant greys the prop out when it goes.

With net.discovery false the prop publishes an empty retained config on both topics
after each connect: entities it announced before are removed, not left stale.
"""
from link import protocol

# The sensor's value template when the prop gives none: the state document's "state" word.
# Templates are Jinja2 as Home Assistant renders them, over the prop's PREFIX/ID/state
# document; they read keys with .get() so the state's error form ({"error": ...}) renders too.
STATE_VALUE = "{{ value_json.state.get('state', 'error') }}"


def main_action(prop: str):
    """The prop's MAIN_ACTION (props/PROP/discovery.py: command, button name, sensor value
    template or None for STATE_VALUE, "can do it now" test), imported by name through the
    registry; None for a prop without one (no button, the state sensor only)."""
    try:
        return __import__("props.%s.discovery" % prop, None, None, ["MAIN_ACTION"]).MAIN_ACTION
    except ImportError:
        return None


ORIGIN = "game props"
COMPONENTS = (("sensor", "state"), ("button", "main"))


def node(venue) -> str:
    return "%s_%s" % (venue.prefix, venue.id)


def topics(venue) -> list:
    """The config topics this prop announces on (allocates: at connect only)."""
    return [("%s/%s/%s/%s/config" % (venue.discovery_prefix, component, node(venue), obj)).encode()
            for component, obj in COMPONENTS]


def documents(venue) -> list:
    """[(topic, payload bytes)] for this prop (allocates: at connect only)."""
    ident = venue.state_document()
    uid = node(venue)
    device = {"identifiers": [uid], "name": "%s %s" % (ident["prop"], venue.id),
              "model": ident["prop"], "sw_version": ident["firmware"], "manufacturer": "game props"}
    origin = {"name": ORIGIN, "sw_version": ident["firmware"]}
    status = venue.t_status.decode()
    state = venue.t_state.decode()
    action = main_action(ident["prop"])
    where = topics(venue)
    sensor = {"name": "State", "unique_id": uid + "_state", "state_topic": state,
              "value_template": action[2] if action is not None and action[2] else STATE_VALUE,
              "json_attributes_topic": state,
              "json_attributes_template": "{{ value_json.state | tojson }}",
              "availability_topic": status, "device": device, "origin": origin}
    out = [(where[0], sensor)]
    if action is not None:
        button = {"name": action[1], "unique_id": uid + "_" + action[0],
                  "command_topic": venue.t_cmd.decode(),
                  "payload_press": protocol.encode({"cmd": action[0]})[:-1].decode(),
                  "availability": [{"topic": status},
                                   {"topic": state,
                                    "value_template": "{{ 'online' if %s else 'offline' }}" % action[3]}],
                  "availability_mode": "all", "device": device, "origin": origin}
        out.append((where[1], button))
    return [(topic, protocol.encode(doc)[:-1]) for topic, doc in out]


def announce(venue, client) -> bool:
    """Publish the documents (net.discovery) or the empty configs that remove them, those not
    yet sent; True once all are out (retried on the next pass)."""
    if venue.discovery:
        docs = documents(venue)
    else:
        docs = [(topic, b"") for topic in topics(venue)]
    sent = venue._discovery_sent
    while sent < len(docs):
        topic, payload = docs[sent]
        if not client.publish(topic, payload, True):
            venue._discovery_sent = sent
            return False
        sent += 1
    venue._discovery_sent = 0
    return True
