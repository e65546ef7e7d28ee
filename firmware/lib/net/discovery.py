"""Home Assistant MQTT discovery (net.discovery: true): the prop as a device.

Two retained documents under homeassistant/ (Home Assistant's default
discovery prefix), sent once after each connect:
    homeassistant/sensor/NODE/state/config    the prop's state ("idle", "running", ...)
                                              with the whole state as attributes
    homeassistant/button/NODE/main/config     its main action (start a round, next card, roll)
NODE is the prop's ID alone (a Mosquitto ACL pattern matches %u only as a whole topic
level, so `pattern write homeassistant/+/%u/#` lets each prop announce only itself).
Both share one `device` and PREFIX/ID/status as availability ("online"/"offline",
the will), so Home Assistant greys the prop out when it goes.
"""
from link import protocol

# prop -> (command, button name): what a game master presses most
MAIN_ACTIONS = {
    "clock": ("start_round", "Start round"),
    "fusebox": ("next_card", "Next card"),
    "football": ("roll", "Roll the dice"),
}


def documents(venue) -> list:
    """[(topic, payload bytes)] for this prop (allocates: at connect only)."""
    ident = venue.state_document()
    node = venue.id
    uid = "%s_%s" % (venue.prefix, venue.id)
    device = {"identifiers": [uid], "name": "%s %s" % (ident["prop"], venue.id),
              "model": ident["prop"], "sw_version": ident["firmware"], "manufacturer": "game props"}
    status = venue.t_status.decode()
    out = []
    sensor = {"name": "State", "unique_id": uid + "_state", "state_topic": venue.t_state.decode(),
              "value_template": "{{ value_json.state.state | default('on') }}",
              "json_attributes_topic": venue.t_state.decode(),
              "json_attributes_template": "{{ value_json.state | tojson }}",
              "availability_topic": status, "device": device}
    out.append(("homeassistant/sensor/%s/state/config" % node, sensor))
    action = MAIN_ACTIONS.get(ident["prop"])
    if action is not None:
        button = {"name": action[1], "unique_id": uid + "_" + action[0],
                  "command_topic": venue.t_cmd.decode(),
                  "payload_press": protocol.encode({"cmd": action[0]})[:-1].decode(),
                  "availability_topic": status, "device": device}
        out.append(("homeassistant/button/%s/main/config" % node, button))
    return [(topic.encode(), protocol.encode(doc)[:-1]) for topic, doc in out]


def announce(venue, client) -> bool:
    """Publish the documents not yet sent; True once all are out (retried on the next pass)."""
    docs = documents(venue)
    sent = venue._discovery_sent
    while sent < len(docs):
        topic, payload = docs[sent]
        if not client.publish(topic, payload, True):
            venue._discovery_sent = sent
            return False
        sent += 1
    venue._discovery_sent = 0
    return True
