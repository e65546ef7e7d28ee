// The common page: the props it offers (GET /props.json, the desktop's registry), the event log,
// sound, speed, and the loading of the pinned MicroPython WebAssembly port, which gets firmware/lib
// and the virtual board in its filesystem, builds one prop (vboard/web_bridge.py) and runs it each
// animation frame, playing the piezo's tones through Web Audio.
// What the page shows of one prop (its markup, its controls, its picture) is that prop's part,
// propctl/props/NAME/web.js (with web.html and web.css), served as /props/NAME/...: a module whose
// default export takes this page's helpers (`page` below) and returns its view:
//   { build(), draw(frame), anchor() (where a refusal is said), quiet: [events not logged],
//     takeover() (optional: true when it runs the page without the firmware, e.g. --box) }
// Every word the page shows about the game comes from the bridge (propctl/describe.py's sentences,
// each prop's words): the same as at the terminal.
import { loadMicroPython } from "/mp/micropython.mjs";

const params = new URLSearchParams(location.search);
const SHOW_PLAN = params.get("show_plan") === "1";
const SEED_MAX = 4294967295;  // the seed setting's range, as `propctl plan --seed N` takes it
const LONGEST_FRAME_MS = 100;  // a tab in the background: do not jump minutes of board time at once
const $ = (id) => document.getElementById(id);
// `propctl web --lan`: the address carries a key, without which the server takes no report
const KEY = params.get("key");
const keyed = (path) => (KEY ? path + (path.includes("?") ? "&" : "?") + "key=" + encodeURIComponent(KEY) : path);

let speed = Math.max(1, parseInt(params.get("speed") || "1", 10) || 1);
let prop = null;    // the bridge's Prop
let view = null;    // the prop's part of the page
let boardMs = 0;
let cardNotes = {};

// &seed=N: a whole number 0..4294967295 (the prop's seed setting), else null
function fixedSeed() {
  if (!params.has("seed")) return null;
  const text = params.get("seed").trim();
  if (!/^[0-9]{1,10}$/.test(text) || Number(text) > SEED_MAX) {
    throw new Error("&seed=" + text + " is not a seed: a whole number 0.." + SEED_MAX);
  }
  return text;
}

// --- the event log (window.propEvents: the same records, for tests and curious people) ---
window.propEvents = [];
function logEvent(e) {
  window.propEvents.push(e);
  if (view && (view.quiet || []).includes(e.event)) return;
  const li = document.createElement("li");
  li.dataset.event = e.event;
  // the raw fields on hover, for the curious
  li.title = e.event + " " + Object.keys(e).filter((k) => !["event", "t", "text"].includes(k))
    .map((k) => k + "=" + (typeof e[k] === "object" ? JSON.stringify(e[k]) : e[k])).join(" ");
  const t = document.createElement("span");
  t.className = "t";
  t.textContent = (e.t / 1000).toFixed(1) + " s";
  li.append(t, " ", e.text);
  $("log").appendChild(li);
  $("log").scrollTop = $("log").scrollHeight;
}

// A command over the prop's link; a refusal is said beside the control that sent it (`near`;
// else where the prop's view says) and goes to the log.
function command(name, args, near) {
  startAudio();
  const answer = JSON.parse(prop.command(name, JSON.stringify(args)));
  if (answer.error) refuse(answer.text, near, { command: name, error: answer.error });
  else clearRefusal();
  return answer;
}

// The refusal, right after the control's row, in a live region a screen reader announces.
function refuse(text, near, fields) {
  logEvent(Object.assign({ event: "refused", t: boardMs, text }, fields || {}));
  let box = $("refusal");
  if (!box) {
    box = document.createElement("p");
    box.id = "refusal";
    box.className = "refusal";
    box.setAttribute("role", "alert");
    box.setAttribute("aria-live", "assertive");
  }
  const anchor = near || (view && view.anchor && view.anchor()) || $("status");
  anchor.after(box);
  box.textContent = text;
  box.hidden = false;
  box.scrollIntoView({ block: "nearest" });
}

function clearRefusal() {
  const box = $("refusal");
  if (box) box.hidden = true;
}

// --- sound: the piezo's PWM as a square wave (frequency from .freq, on while duty > 0) ---
const audio = { ctx: null, osc: null, gain: null, tones: 0, freq: 0, on: false, notes: [] };
window.propAudio = audio;
function startAudio() {
  if (audio.ctx) { audio.ctx.resume(); return; }
  const Ctx = window.AudioContext || window.webkitAudioContext;
  if (!Ctx) return;
  audio.ctx = new Ctx();
  audio.osc = audio.ctx.createOscillator();
  audio.osc.type = "square";
  audio.gain = audio.ctx.createGain();
  audio.gain.gain.value = 0;
  audio.osc.connect(audio.gain).connect(audio.ctx.destination);
  audio.osc.start();
}
function playTones(tones, frameStartMs) {
  if (!audio.ctx) return;
  // board times of this frame, replayed just behind real time
  const base = audio.ctx.currentTime + 0.05;
  for (const [t, freq, duty] of tones) {
    const at = base + Math.max(0, t - frameStartMs) / 1000 / speed;
    if (freq > 0) audio.osc.frequency.setValueAtTime(freq, at);
    if (duty !== -2) {  // -2: only the frequency changed
      audio.on = duty > 0 && !$("mute").checked;
      audio.gain.gain.setValueAtTime(audio.on ? 0.06 : 0, at);
    }
    if (audio.on && (freq !== audio.freq || duty !== -2)) {
      audio.tones += 1;
      audio.notes.push(freq);  // what was sent to the speaker, for tests and the curious
    }
    audio.freq = freq;
  }
}

function setLight(id, on) { const el = $(id); if (el) el.classList.toggle("on", !!on); }

function frame(ms) {
  const start = boardMs;
  const r = JSON.parse(prop.frame(ms));
  boardMs = r.t;
  for (const e of r.events) logEvent(e);
  playTones(r.tones, start);
  view.draw(r);
  window.propFrame = r;
}

function input(what, value) {
  startAudio();  // browsers allow sound only after a person's gesture
  prop.input(what, value);
}

// A button held down as long as the finger or mouse is on it (a prop's START, its game buttons).
function holdable(button, what) {
  let held = false;
  const down = (ev) => {
    ev.preventDefault();
    if (!held && !button.disabled) { held = true; button.classList.add("held"); input(what, 1); }
  };
  const up = () => { if (held) { held = false; button.classList.remove("held"); input(what, 0); } };
  button.addEventListener("pointerdown", down);
  button.addEventListener("pointerup", up);
  button.addEventListener("pointerleave", up);
  button.addEventListener("pointercancel", up);
}

// What a prop's part of the page may use.
const page = {
  $, params, keyed, logEvent, command, refuse, clearRefusal, input, holdable, setLight, startAudio,
  get prop() { return prop; },
  get boardMs() { return boardMs; },
  get cardNotes() { return cardNotes; },
};

// --- the props offered: the desktop's registry (propctl.props), in the firmware's order ---
function buildNav(props, chosen) {
  const anchor = $("speed").closest("label");
  for (const p of props) {
    const a = document.createElement("a");
    a.id = "nav-" + p.name;
    a.href = keyed("?prop=" + encodeURIComponent(p.name));
    a.textContent = p.label;
    if (p.name === chosen.name) a.classList.add("current");
    anchor.before(a);
  }
}

// The prop's markup, look and module from its folder (/props/NAME/...).
async function loadView(chosen) {
  if (chosen.files.includes("web.css")) {
    const link = document.createElement("link");
    link.rel = "stylesheet";
    link.href = "/props/" + chosen.name + "/web.css";
    // drawn only once its look is there (a page measured early must see it)
    const loaded = new Promise((done, failed) => {
      link.onload = done;
      link.onerror = () => failed(new Error("the " + chosen.title + "'s web.css did not load"));
    });
    document.head.appendChild(link);
    await loaded;
  }
  if (chosen.files.includes("web.html")) {
    const answer = await fetch("/props/" + chosen.name + "/web.html");
    if (!answer.ok) throw new Error("the " + chosen.title + "'s page part: HTTP " + answer.status);
    $("view").innerHTML = await answer.text();
  }
  const module = await import("/props/" + chosen.name + "/web.js");
  return module.default(page);
}

// A prop of the firmware with no part of the page yet: said so, and where it runs instead.
function noPage(chosen) {
  $("status").textContent = "The " + chosen.title + " (" + chosen.name + ") has no web page yet: " +
    "`propctl sim " + chosen.name + "` runs its firmware in the terminal.";
  document.title = chosen.title + ": no web page yet";
  $("speed").closest("label").style.display = "none";
  window.propNoPage = chosen.name;
}

async function startFirmware(chosen) {
  const seed = fixedSeed();
  const files = await (await fetch("/files.json")).json();
  cardNotes = files.notes || {};
  const mp = await loadMicroPython({ url: "/mp/micropython.wasm",
    stdout: (line) => console.log(line), stderr: (line) => console.error(line) });
  for (const [path, text] of Object.entries(files.text)) {
    mp.FS.mkdirTree(path.slice(0, path.lastIndexOf("/")));
    mp.FS.writeFile(path, text);
  }
  for (const [path, b64] of Object.entries(files.binary)) {
    mp.FS.writeFile(path, Uint8Array.from(atob(b64), (c) => c.charCodeAt(0)));
  }
  mp.runPython("import sys\nsys.path.clear()\nsys.path.extend(" + JSON.stringify(files.path) + ")");
  const bridge = mp.pyimport("web_bridge");
  // no os.urandom in the WebAssembly port: without &seed the rounds' seeds come from the browser's
  const entropy = crypto.getRandomValues(new Uint32Array(1))[0] >>> 2;
  prop = bridge.Prop(chosen.name, files.pack, entropy, seed === null ? -1 : seed, SHOW_PLAN);
  view.build();
  $("status").textContent = "the " + chosen.title + "'s firmware runs here (MicroPython " +
    bridge.version() + ", WebAssembly)" + (seed === null ? "" : ", seed " + seed);
  window.propReady = true;
}

function run() {
  let last = performance.now();
  const loop = (now) => {
    const ms = Math.round(Math.min(now - last, LONGEST_FRAME_MS) * speed);
    last = now;
    try {
      frame(ms);
    } catch (err) {
      $("status").textContent = "the firmware stopped: " + err;
      window.propError = String(err);
      return;
    }
    requestAnimationFrame(loop);
  };
  requestAnimationFrame(loop);
}

async function main() {
  const props = await (await fetch("/props.json")).json();
  const asked = params.get("prop");
  // an unknown ?prop= shows the first prop with a page
  const chosen = props.find((p) => p.name === asked) || props.find((p) => p.files.includes("web.js")) ||
    props[0];
  buildNav(props, chosen);
  if (!chosen.files.includes("web.js")) return noPage(chosen);
  view = await loadView(chosen);
  if (view.takeover && await view.takeover()) return;
  document.title = chosen.title + " on a virtual board";
  const sel = $("speed");
  if (![...sel.options].some((o) => o.value === String(speed))) sel.add(new Option(String(speed)));
  sel.value = String(speed);
  sel.addEventListener("change", () => { speed = parseInt(sel.value, 10); });
  await startFirmware(chosen);
  run();
}

main().catch((err) => {
  $("status").textContent = "could not start: " + err.message;
  window.propError = String(err);
});
