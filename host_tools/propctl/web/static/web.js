// The page: loads the pinned MicroPython WebAssembly port, writes firmware/lib and the virtual
// board into its filesystem, builds one prop (vboard/web_bridge.py) and runs it each animation
// frame; draws what the board's outputs show and plays the piezo's tones through Web Audio.
import { loadMicroPython } from "/mp/micropython.mjs";

const params = new URLSearchParams(location.search);
const PROP = ["clock", "fusebox", "football"].includes(params.get("prop")) ? params.get("prop") : "clock";
const SHOW_PLAN = params.get("show_plan") === "1";
const LONGEST_FRAME_MS = 100;  // a tab in the background: do not jump minutes of board time at once
const $ = (id) => document.getElementById(id);

let speed = Math.max(1, parseInt(params.get("speed") || "1", 10));
let prop = null;
let boardMs = 0;

// --- the event log (window.propEvents: the same records, for tests and curious people) ---
window.propEvents = [];
function logEvent(e) {
  window.propEvents.push(e);
  // the round's planned length would spoil the game at the table: shown only with ?show_plan=1
  const hidden = SHOW_PLAN ? ["event", "t"] : ["event", "t", "duration_ms"];
  const fields = Object.keys(e).filter((k) => !hidden.includes(k) && k !== "text").map((k) => {
    const v = e[k];  // the firmware's link fields already count windows and players from 1
    return k + "=" + (typeof v === "object" ? JSON.stringify(v) : v);
  });
  const li = document.createElement("li");
  li.dataset.event = e.event;
  li.title = e.event + " " + fields.join(" ");  // the raw fields on hover
  // the describer's sentence, unless it would tell the hidden plan
  const spoils = !SHOW_PLAN && hidden.some((k) => k in e && k !== "event" && k !== "t");
  const text = e.text && !spoils ? e.text : e.event + "  " + fields.join(" ");
  li.textContent = (e.t / 1000).toFixed(2).padStart(7) + " s  " + text;
  $("log").appendChild(li);
  li.scrollIntoView({ block: "nearest" });
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

// --- the props' faces ---
function setLight(id, on) { const el = $(id); if (el) el.classList.toggle("on", !!on); }

function drawClock(r) {
  $("hand").setAttribute("transform", "rotate(" + (r.hand_mdeg / 1000) + ")");
  setLight("clock-led", r.outputs.led);
  setLight("clock-piezo", r.outputs["piezo.duty"] > 0);
}

function drawFusebox(r) {
  if (r.card) {
    $("card-id").textContent = r.card.id;
    $("card-category").textContent = r.card.category;
    $("card-text").textContent = r.card.text;
  }
  document.querySelectorAll("#windows button").forEach((b, i) => {
    b.classList.toggle("open", r.open.includes(i + 1));
    const statement = r.card ? r.card.statements[i] : "";
    b.textContent = (i + 1) + (statement ? "\n" + statement : "");
  });
  for (const name of ["led_red", "led_green", "relay"]) setLight("fb-" + name, r.outputs[name]);
  setLight("fb-piezo", r.outputs["piezo.duty"] > 0);
  for (const e of r.events) {
    if (e.event === "fuse_blown") $("fuse").classList.add("blown");
    if (e.event === "card") $("fuse").classList.remove("blown");
    $("fuse").textContent = $("fuse").classList.contains("blown") ? "fuse BLOWN" : "fuse intact";
  }
}

// The referee's questions as buttons: one per legal action (a pick per option, yards from a box).
let shownActions = "";
function drawActions(actions) {
  const key = JSON.stringify(actions);
  if (key === shownActions) return;
  shownActions = key;
  const box = $("actions");
  box.replaceChildren();
  for (const [name, kind, options] of actions) {
    if (kind === "team" || kind === "dice") {  // the coin and the dice: the ROLL button
      box.append(name + ": press ROLL ");
      continue;
    }
    const picks = kind === "pick" ? options : [null];
    for (const pick of picks) {
      const b = document.createElement("button");
      b.dataset.action = name;
      b.textContent = name + (pick ? " " + pick : "");
      let yards = null;
      if (kind === "yards") {
        yards = document.createElement("input");
        Object.assign(yards, { type: "number", min: options[0], max: options[1], value: options[0] });
        yards.style.width = "4em";
        b.textContent += " (yards)";
      }
      b.addEventListener("click", () => {
        const args = { action: name };
        if (pick) args.pick = pick;
        if (yards) args.yards = parseInt(yards.value, 10);
        report(args);
      });
      box.append(b);
      if (yards) box.append(yards);
      box.append(" ");
    }
  }
}

function report(args) {
  startAudio();
  const answer = JSON.parse(prop.command("report", JSON.stringify(args)));
  if (answer.error) logEvent({ event: "refused", t: boardMs, report: args.action, error: answer.error });
}

function drawFootball(r) {
  $("oled").textContent = r.screen.join("\n");
  drawActions(r.actions);
  const leds = $("football-leds");
  for (const name of Object.keys(r.outputs).filter((n) => n.startsWith("led"))) {
    let el = $("ff-" + name);
    if (!el) {
      el = document.createElement("span");
      el.id = "ff-" + name;
      el.className = "light";
      el.textContent = name.slice(4) || name;
      leds.appendChild(el);
    }
    el.classList.toggle("on", !!r.outputs[name]);
  }
}
const DRAW = { clock: drawClock, fusebox: drawFusebox, football: drawFootball };

function frame(ms) {
  const start = boardMs;
  const r = JSON.parse(prop.frame(ms));
  boardMs = r.t;
  for (const e of r.events) logEvent(e);
  playTones(r.tones, start);
  DRAW[PROP](r);
  window.propFrame = r;
}

function input(what, value) {
  startAudio();  // browsers allow sound only after a person's gesture
  prop.input(what, value);
}

function buildControls() {
  if (PROP === "clock") {
    const svg = $("numerals");
    for (let h = 1; h <= 12; h++) {
      const a = h * Math.PI / 6;
      const t = document.createElementNS("http://www.w3.org/2000/svg", "text");
      t.setAttribute("x", (84 * Math.sin(a)).toFixed(1));
      t.setAttribute("y", (-84 * Math.cos(a)).toFixed(1));
      t.setAttribute("class", "numeral");
      t.textContent = h;
      svg.appendChild(t);
    }
    const start = $("start");
    let held = false;
    const down = (ev) => { ev.preventDefault(); if (!held) { held = true; start.classList.add("held"); input("button", 1); } };
    const up = () => { if (held) { held = false; start.classList.remove("held"); input("button", 0); } };
    start.addEventListener("pointerdown", down);
    start.addEventListener("pointerup", up);
    start.addEventListener("pointerleave", up);
  }
  if (PROP === "fusebox") {
    const box = $("windows");
    for (let i = 1; i <= 8; i++) {
      const b = document.createElement("button");
      b.id = "window" + i;
      b.textContent = String(i);
      b.addEventListener("click", () => input("window", i));
      box.appendChild(b);
    }
  }
  document.querySelectorAll("#" + PROP + " button[data-input]").forEach((b) => {
    b.addEventListener("click", () => input(b.dataset.input, 1));
  });
}

async function main() {
  $("nav-" + PROP).classList.add("current");
  $(PROP).hidden = false;
  const sel = $("speed");
  if (![...sel.options].some((o) => o.value === String(speed))) sel.add(new Option(String(speed)));
  sel.value = String(speed);
  sel.addEventListener("change", () => { speed = parseInt(sel.value, 10); });

  const files = await (await fetch("/files.json")).json();
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
  // no os.urandom in the WebAssembly port: the rounds' seeds come from the browser's
  const seed = params.has("seed") ? parseInt(params.get("seed"), 10) : crypto.getRandomValues(new Uint32Array(1))[0] >>> 2;
  prop = bridge.Prop(PROP, files.pack, seed);
  buildControls();
  $("status").textContent = "running the " + PROP + " firmware (MicroPython " +
    bridge.version() + ", WebAssembly)";
  window.propReady = true;

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

main().catch((err) => {
  $("status").textContent = "could not start: " + err;
  window.propError = String(err);
});
